/* io/deck_sections.h -- the section loaders of yee_deck_load (io/deck.h), one file per part of
 * the deck: io/deck.c (grid, simulation, background, boundary, output, checkpoint, the sweep
 * group's keys, and the entry point), io/deck_geometry.c (materials and geometry),
 * io/deck_voxels.c (voxel data of a geometry object), io/deck_sources.c, io/deck_monitors.c.
 *
 * Contract of every loader: it reads its section from the root scope through the deck reader
 * (io/deck_reader.h), reports every problem there (none stops it), fills its part of cfg and the
 * derived values (units converted: THz -> c/um, fs -> c-units), and returns 0, or YEE_ERR_NOMEM
 * when an allocation failed (cfg then owns what was allocated; yee_config_free releases it).
 * Loaders run in dependency order: grid, simulation, materials, background, boundary, geometry,
 * sources, monitors, output, checkpoint. Only io/ includes this header.
 */
#ifndef YEE_IO_DECK_SECTIONS_H
#define YEE_IO_DECK_SECTIONS_H

#include "io/deck_reader.h"
#include "model/config.h"

/* The grid as the later sections see it. */
typedef struct yee_deck_grid {
    int ok;                         /* n, dx, origin, dt valid */
    const config_setting_t *size_s; /* grid.size, where errors about the whole grid point */
    double lo[3], hi[3];            /* the domain, um */
    const config_setting_t *refine; /* grid.refine, or NULL: read once the PML is known */
} yee_deck_grid;

/* 1 when p lies in the domain [lo, hi] per axis (with a relative tolerance of 1e-9 for rounding
 * in the deck). */
int yee_deck_inside(const yee_deck_grid *g, const double p[3]);

/* The domain as "[x0, x1] x [y0, y1] x [z0, z1]" for messages. */
void yee_deck_domain_text(const yee_deck_grid *g, char *buf, size_t n);

/* The box keys min/max of a source or monitor (default: the domain) into lo, hi: ordered and
 * overlapping the domain. Returns 1 when both are usable. */
int yee_deck_box(yee_rd *c, const yee_rd_scope *sc, const yee_deck_grid *g, double lo[3],
                 double hi[3]);

/* Index of the material `name` in cfg->materials, or -1 (reported at w under key, with the
 * closest name as a hint). */
int yee_deck_find_material(yee_rd *c, const yee_config *cfg, const config_setting_t *w,
                           const char *key, const char *name);

/* materials = ( ... ): fills cfg->materials and cfg->nmaterials. */
int yee_deck_load_materials(yee_rd *c, const yee_rd_scope *root, yee_config *cfg);

/* geometry = ( ... ): fills cfg->shapes (after the materials, which it names). */
int yee_deck_load_geometry(yee_rd *c, const yee_rd_scope *root, yee_config *cfg,
                           const yee_deck_grid *g);

/* The voxel data of geometry[i] (scope sc, keys file/dataset/materials already read; wfile and
 * wdset their settings, wdset NULL when defaulted) into cfg->shapes[i].vox. With material names
 * (mats, nmats > 0, indices into cfg->materials) the dataset holds indices into them; without,
 * it holds permittivities and each distinct value becomes a material appended to
 * cfg->materials. A relative file is relative to the deck's folder. */
int yee_deck_load_voxels(yee_rd *c, yee_config *cfg, int i, const yee_rd_scope *sc,
                         const char *file, const config_setting_t *wfile, const char *dset,
                         const config_setting_t *wdset, const int *mats, int nmats);

/* sources = ( ... ): fills cfg->sources (after simulation: a delay past the run's end warns). */
int yee_deck_load_sources(yee_rd *c, const yee_rd_scope *root, yee_config *cfg,
                          const yee_deck_grid *g);

/* monitors = ( ... ): fills cfg->monitors. */
int yee_deck_load_monitors(yee_rd *c, const yee_rd_scope *root, yee_config *cfg,
                           const yee_deck_grid *g);

#endif
