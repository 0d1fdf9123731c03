/* io/deck_voxels.c -- a geometry object of type "voxels": its data read from HDF5
 * (io/h5read.h) and turned into material indices (io/deck_sections.h). Nothing else of the
 * object (keys, box, lattice) is read here: io/deck_geometry.c does that and calls this.
 */
#include "io/deck_sections.h"

#include "io/h5read.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Distinct permittivities one voxel block may hold: the coefficient table has 256 entries and
 * keeps 16 for interfaces (geometry/geometry.h), so 240 bulk media at most. */
#define VOXEL_MAX_VALUES 240

/* Read the voxel data of shape s (geometry[i], scope sc) into s->vox. With material names
 * (mats, nmats > 0) the dataset holds integer indices into them; without, it holds permittivities
 * and each distinct value becomes a material appended to cfg->materials (sigma 0, isotropic),
 * so the rasterizer sees a voxel block as any other set of dielectrics. Nearest (piecewise
 * constant) resampling, never interpolation: the coefficient table holds at most 256 media, and
 * subpixel averaging already smooths each voxel face as the interface it is. Errors are
 * reported at the file, dataset or materials key. Returns YEE_ERR_NOMEM or 0. */
int yee_deck_load_voxels(yee_rd *c, yee_config *cfg, int i, const yee_rd_scope *sc,
                         const char *file, const config_setting_t *wfile, const char *dset,
                         const config_setting_t *wdset, const int *mats, int nmats)
{
    yee_shape_cfg *s = &cfg->shapes[i];
    char path[YEE_PATH_LEN], kfile[160], kdset[160], kmats[160];
    snprintf(kfile, sizeof kfile, "%s.file", sc->key);
    snprintf(kdset, sizeof kdset, "%s.dataset", sc->key);
    snprintf(kmats, sizeof kmats, "%s.materials", sc->key);
    /* relative to the deck's folder, as @include paths are */
    const char *slash = strrchr(c->path, '/');
    if (file[0] != '/' && slash)
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - c->path), c->path, file);
    else
        snprintf(path, sizeof path, "%s", file);
    yee_h5_array3 a;
    yee_err e;
    int rc = yee_h5_read_array3(path, dset, &a, &e);
    if (rc == YEE_ERR_NOMEM)
        return YEE_ERR_NOMEM;
    if (rc < 0) {
        if (a.file_opened)
            yee_rd_error(c, wdset ? wdset : sc->s, kdset, "%s", e.msg);
        else
            yee_rd_error(c, wfile, kfile, "%s", e.msg);
        return 0;
    }
    const int64_t nx = a.n[0], ny = a.n[1], nz = a.n[2];
    const size_t total = (size_t)nx * (size_t)ny * (size_t)nz;
    if (nx > INT_MAX || ny > INT_MAX || nz > INT_MAX) {
        yee_rd_error(c, wdset ? wdset : sc->s, kdset,
                     "'%s:%s' is too large (got %lld x %lld x %lld)", file, dset, (long long)nz,
                     (long long)ny, (long long)nx);
        yee_h5_array3_free(&a);
        return 0;
    }
    /* [k, j, i] of value q, as NumPy would index the dataset */
#define VOX_AT(q) (long long)((q) / ((size_t)nx * ny)), (long long)((q) / (size_t)nx % ny), \
                  (long long)((q) % (size_t)nx)
    double vals[VOXEL_MAX_VALUES + 1];
    int nvals = 0, bad = 0;
    if (nmats > 0 && !a.is_integer) {
        yee_rd_error(c, wdset ? wdset : sc->s, kdset, "'%s:%s' must hold integers (indices into "
                     "materials) (got floating-point values)", file, dset);
        bad = 1;
    }
    for (size_t q = 0; q < total && !bad; q++) {
        const double v = a.data[q];
        if (nmats > 0) {
            if (!(v >= 0 && v < nmats)) {
                yee_rd_error(c, config_setting_get_member(sc->s, "materials"), kmats,
                             "'%s:%s' holds index %g at [k, j, i] = [%lld, %lld, %lld], out of "
                             "range of the %d materials listed (0 to %d)", file, dset, v, VOX_AT(q),
                             nmats, nmats - 1);
                bad = 1;
            }
            continue;
        }
        if (!(v >= 1) || !isfinite(v)) {
            yee_rd_error(c, wdset ? wdset : sc->s, kdset, "permittivity must be >= 1 (got %g at "
                         "[k, j, i] = [%lld, %lld, %lld] of '%s:%s')", v, VOX_AT(q), file, dset);
            bad = 1;
            continue;
        }
        /* sorted table of the distinct values so far: binary search, insert when new */
        int lo = 0, hi = nvals;
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (vals[mid] < v)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < nvals && vals[lo] == v)
            continue;
        if (nvals == VOXEL_MAX_VALUES) {
            yee_rd_error(c, wdset ? wdset : sc->s, kdset, "'%s:%s' holds more than %d distinct "
                         "permittivities (the coefficient table's limit): round the values, or "
                         "give materials = [...] and store indices", file, dset, VOXEL_MAX_VALUES);
            bad = 1;
            continue;
        }
        memmove(vals + lo + 1, vals + lo, (size_t)(nvals - lo) * sizeof *vals);
        vals[lo] = v;
        nvals++;
    }
#undef VOX_AT
    if (!bad && cfg->nmaterials + nvals > UINT16_MAX) {
        yee_rd_error(c, sc->s, sc->key, "more than %d materials with the voxel values", UINT16_MAX);
        bad = 1;
    }
    if (bad) {
        yee_h5_array3_free(&a);
        return 0;
    }
    s->vox = (uint16_t *)malloc(total * sizeof *s->vox);
    yee_material_cfg *grown = nvals ? (yee_material_cfg *)realloc(
        cfg->materials, (size_t)(cfg->nmaterials + nvals) * sizeof *cfg->materials)
                                    : cfg->materials;
    if (!s->vox || !grown) {
        yee_h5_array3_free(&a);
        return YEE_ERR_NOMEM;
    }
    cfg->materials = grown;
    const int base = cfg->nmaterials;
    for (int v = 0; v < nvals; v++) {
        yee_material_cfg *m = &cfg->materials[base + v];
        memset(m, 0, sizeof *m);
        m->line = s->line;
        /* not a valid deck name, so no deck material can collide with it */
        snprintf(m->name, sizeof m->name, "geometry[%d]:eps=%.9g", i, vals[v]);
        m->eps[0] = m->eps[1] = m->eps[2] = vals[v];
    }
    cfg->nmaterials += nvals;
    for (size_t q = 0; q < total; q++) {
        if (nmats > 0) {
            s->vox[q] = (uint16_t)mats[(int)a.data[q]];
            continue;
        }
        int lo = 0, hi = nvals - 1;
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (vals[mid] < a.data[q])
                lo = mid + 1;
            else
                hi = mid;
        }
        s->vox[q] = (uint16_t)(base + lo);
    }
    s->vox_n[0] = (int)nx;
    s->vox_n[1] = (int)ny;
    s->vox_n[2] = (int)nz;
    yee_h5_array3_free(&a);
    return 0;
}
