/* io/deck.c -- read a libconfig deck, apply --set overrides, validate it against the one key
 * table and fill a yee_config (io/deck.h).
 *
 * Three passes over the parsed libconfig tree, all before anything is allocated for the run:
 *   1. overrides: each "key=value" edits the tree (io/deck_set.h), tagged so that errors in it
 *      read "--set arg: error: ..." instead of "file:line: error: ...";
 *   2. validation: every group is checked for unknown keys against the table (with a "did you
 *      mean" hint), and every value is read through the deck reader's getters, which check its
 *      type and the range stated in the table (io/deck_reader.h). Every problem is recorded;
 *      none stops the rest;
 *   3. derived values (n, dx, origin, dt, steps, source timing in c-units).
 * This file holds the entry point and the small sections; materials and geometry, voxel data,
 * sources and monitors have their own files (io/deck_sections.h). The key table is
 * io/deck_schema.c, which `yee deck-keys` prints and docs/deck.md must match.
 */
#include "io/deck.h"

#include "io/deck_sections.h"
#include "model/mesh.h"
#include "model/nodes.h"
#include "io/deck_set.h"
#include "io/deck_text.h"
#include "io/params.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void default_name(const char *path, char *out, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".cfg") == 0)
        len -= 4;
    if (len >= n)
        len = n - 1;
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = base[i];
        out[k++] = (isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '-') ? ch : '_';
    }
    out[k] = '\0';
    if (k == 0)
        snprintf(out, n, "yee");
}

static void load_grid(yee_rd *c, const yee_rd_scope *root, yee_config *cfg, yee_deck_grid *g)
{
    yee_rd_scope sc;
    g->ok = 0;
    cfg->subpixel = 1;
    cfg->subpixel_metals = 1;
    cfg->subpixel_samples = 8;
    if (yee_rd_group(c, root, "grid", &sc) <= 0)
        return;
    double size[3] = {0, 0, 0}, center[3] = {0, 0, 0}, res = 0, dx[3] = {0, 0, 0};
    int ok = yee_rd_vec3(c, &sc, "size", size) > 0;
    yee_rd_vec3(c, &sc, "center", center);
    yee_rd_bool(c, &sc, "subpixel", &cfg->subpixel);
    yee_rd_bool(c, &sc, "subpixel_metals", &cfg->subpixel_metals);
    yee_rd_bool(c, &sc, "subpixel_tensor", &cfg->subpixel_tensor);
    if (cfg->subpixel_tensor && !cfg->subpixel)
        yee_rd_warn(c, config_setting_get_member(sc.s, "subpixel_tensor"),
                    "grid.subpixel_tensor", "has no effect with grid.subpixel = false (the "
                    "off-diagonal terms belong to the averaged interfaces)");
    long samples = 8;
    yee_rd_long(c, &sc, "subpixel_samples", &samples);
    cfg->subpixel_samples = (int)samples;
    g->size_s = config_setting_get_member(sc.s, "size");
    cfg->grading = 1.3;
    yee_rd_num(c, &sc, "grading", &cfg->grading);
    if (yee_rd_list(c, &sc, "refine", &g->refine) <= 0 || config_setting_length(g->refine) == 0)
        g->refine = NULL;
    int rres = yee_rd_num(c, &sc, "resolution", &res);
    int rsp = yee_rd_vec3_ex(c, &sc, "spacing", dx, 1);
    if (rres != 0 && rsp != 0) {
        yee_rd_error(c, config_setting_get_member(sc.s, "spacing"), "grid.spacing",
                     "give exactly one of grid.resolution / grid.spacing (got both)");
        ok = 0;
    } else if (rres == 0 && rsp == 0) {
        yee_rd_error(c, sc.s, "grid", "one of grid.resolution / grid.spacing is required");
        ok = 0;
    } else if (rres < 0 || rsp < 0) {
        ok = 0;
    } else if (rres > 0) {
        dx[0] = dx[1] = dx[2] = 1.0 / res;
    }
    if (!ok)
        return;
    for (int a = 0; a < 2; a++)
        if (!(size[a] > 0)) {
            yee_rd_error(c, g->size_s, "grid.size",
                         "%c must be > 0; only z may be 0, for a 2-D run (got %g)", "xy"[a],
                         size[a]);
            return;
        }
    /* 2-D: one plane of cells, 1 um thick (point sources and fluxes per um of z) */
    cfg->two_d = size[2] == 0.0;
    if (cfg->two_d)
        size[2] = dx[2] = 1.0;

    double total = 1;
    for (int a = 0; a < 3; a++) {
        double cells = size[a] / dx[a];
        if (!(cells <= (double)(1L << 30))) {
            yee_rd_error(c, g->size_s, "grid.size",
                         "%.6g cells on %c is more than 2^30 (size %g um / spacing %g um)", cells,
                         "xyz"[a], size[a], dx[a]);
            return;
        }
        long n = lround(cells);
        cfg->n[a] = n < 1 ? 1 : (int)n;
        cfg->dx[a] = dx[a];
        cfg->origin[a] = center[a] - cfg->n[a] * dx[a] / 2;
        total *= cfg->n[a];
        double actual = cfg->n[a] * dx[a];
        if (fabs(actual - size[a]) > 1e-9 * size[a])
            yee_rd_warn(c, g->size_s, "grid.size", "%c size %g um rounded to %d cells = %.9g um",
                        "xyz"[a], size[a], cfg->n[a], actual);
        g->lo[a] = cfg->origin[a];
        g->hi[a] = cfg->origin[a] + actual;
    }
    if (total > (double)(1LL << 40)) {
        yee_rd_error(c, g->size_s, "grid.size", "%d x %d x %d = %.4g cells is more than 2^40",
                     cfg->n[0], cfg->n[1], cfg->n[2], total);
        return;
    }
    g->ok = 1;
}

/* grid.refine: the graded axes (model/mesh.h), once boundary has set the PML thickness (the
 * CPML keeps the base spacing). An axis no region refines stays uniform (cfg->mesh NULL). */
static int load_refine(yee_rd *c, yee_config *cfg, yee_deck_grid *g)
{
    if (!g->refine || !g->ok)
        return 0;
    const int nreg = config_setting_length(g->refine);
    yee_mesh_span *span = calloc((size_t)nreg, sizeof *span);
    const config_setting_t **where = calloc((size_t)nreg, sizeof *where);
    double (*res)[3] = calloc((size_t)nreg, sizeof *res);
    double (*lo)[3] = calloc((size_t)nreg, sizeof *lo), (*hi)[3] = calloc((size_t)nreg, sizeof *hi);
    if (!span || !where || !res || !lo || !hi) {
        free(span), free(where), free(res), free(lo), free(hi);
        return YEE_ERR_NOMEM;
    }
    int ok = 1;
    for (int r = 0; r < nreg; r++) {
        yee_rd_scope sc;
        if (!yee_rd_list_elem(c, g->refine, "grid.refine[]", "grid.refine", r, &sc)) {
            ok = 0;
            continue;
        }
        where[r] = sc.s;
        ok &= yee_rd_vec3(c, &sc, "min", lo[r]) > 0;
        ok &= yee_rd_vec3(c, &sc, "max", hi[r]) > 0;
        ok &= yee_rd_vec3_ex(c, &sc, "resolution", res[r], 1) > 0;
    }
    for (int a = 0; ok && a < (cfg->two_d ? 2 : 3); a++) {
        int ns = 0;
        for (int r = 0; r < nreg; r++) {
            if (res[r][a] <= 0)
                continue;
            if (!(hi[r][a] > lo[r][a])) {
                char key[64];
                snprintf(key, sizeof key, "grid.refine[%d]", r);
                yee_rd_error(c, where[r], key, "max must exceed min on %c (got %g, %g)", "xyz"[a],
                             lo[r][a], hi[r][a]);
                ok = 0;
                continue;
            }
            span[ns].lo = lo[r][a];
            span[ns].hi = hi[r][a];
            span[ns].h = 1.0 / res[r][a];
            ns++;
        }
        if (ns == 0 || !ok)
            continue;
        char why[256];
        int n;
        if (yee_mesh_axis(g->lo[a], g->hi[a], cfg->dx[a], cfg->pml_cells[a][0],
                          cfg->pml_cells[a][1], span, ns, cfg->grading, &cfg->mesh[a], &n, why,
                          sizeof why) < 0) {
            yee_rd_error(c, g->refine, "grid.refine", "%c: %s", "xyz"[a], why);
            ok = 0;
            continue;
        }
        cfg->n[a] = n;
        const double worst = yee_mesh_max_ratio(cfg->mesh[a], n);
        if (worst > cfg->grading * (1 + 1e-6))
            yee_rd_warn(c, g->refine, "grid.refine",
                        "on %c neighbouring cells reach a ratio of %.3g (grid.grading %g): a "
                        "region lies too close to the PML or to another region for its cells to "
                        "grade; move it, or add a region between", "xyz"[a], worst, cfg->grading);
    }
    free(span), free(where), free(res), free(lo), free(hi);
    return 0;
}

/* What a graded mesh does not carry yet: a plane wave or beam at an angle to a graded axis
 * (its 1-D incident grid follows one axis's lines, solver/tfsf.c), eigenmode sources and mode
 * monitors (the mode solver assumes one spacing). */
static void check_graded(yee_rd *c, const yee_config *cfg, const yee_deck_grid *g)
{
    if (!yee_graded(cfg))
        return;
    for (int q = 0; q < cfg->nsources; q++) {
        const yee_source_cfg *sc = &cfg->sources[q];
        if (sc->kind == YEE_SRC_EIGENMODE) {
            yee_rd_error(c, g->refine, "grid.refine",
                         "source '%s' (line %d) is an eigenmode source, which needs a uniform "
                         "grid (its mode solver assumes one spacing); on a graded mesh use a "
                         "volume source or a plane wave", sc->name, sc->line);
            continue;
        }
        if (sc->kind != YEE_SRC_PLANEWAVE && sc->kind != YEE_SRC_GAUSSIAN_BEAM)
            continue;
        int along = 0, graded_crossed = -1;
        for (int a = 0; a < 3; a++) {
            along += fabs(fabs(sc->direction[a]) - 1.0) < 1e-12;
            if (cfg->mesh[a] && fabs(sc->direction[a]) > 1e-12)
                graded_crossed = a;
        }
        if (!along && graded_crossed >= 0)
            yee_rd_error(c, g->refine, "grid.refine",
                         "source '%s' (line %d) travels at an angle to the graded %c axis: on a "
                         "graded mesh a plane wave or beam must run along an axis, or cross "
                         "uniform axes only; at an angle, launch it with a volume source (a "
                         "current sheet) across a Bloch-periodic cell", sc->name, sc->line,
                         "xyz"[graded_crossed]);
    }
    for (int q = 0; q < cfg->nmonitors; q++)
        if (cfg->monitors[q].nmodes > 0)
            yee_rd_error(c, g->refine, "grid.refine",
                         "mode monitor '%s' (line %d) needs a uniform grid (its mode solver "
                         "assumes one spacing); use a flux monitor on a graded mesh",
                         cfg->monitors[q].name, cfg->monitors[q].line);
}

static void load_simulation(yee_rd *c, const yee_rd_scope *root, yee_config *cfg,
                            const yee_deck_grid *g)
{
    yee_rd_scope sc;
    default_name(c->path, cfg->name, sizeof cfg->name);
    cfg->courant = 0.99;
    cfg->check_interval = 100;
    snprintf(cfg->backend, sizeof cfg->backend, "auto");
    if (yee_rd_group(c, root, "simulation", &sc) <= 0)
        return;
    const config_setting_t *where;
    yee_rd_name(c, &sc, "name", cfg->name, sizeof cfg->name, &where);
    int rc_courant = yee_rd_num(c, &sc, "courant", &cfg->courant);
    yee_rd_long(c, &sc, "check_interval", &cfg->check_interval);
    static const char *const backends[] = {"auto", "cpu", "cuda"};
    int backend = 0;
    const config_setting_t *bwhere;
    yee_rd_choice(c, &sc, "backend", &backend, &bwhere);
    snprintf(cfg->backend, sizeof cfg->backend, "%s", backends[backend]);
    long steps = 0;
    double time_fs = 0;
    int rs = yee_rd_long(c, &sc, "steps", &steps);
    int rt = yee_rd_num(c, &sc, "time", &time_fs);
    if (rs != 0 && rt != 0) {
        yee_rd_error(c, config_setting_get_member(sc.s, "time"), "simulation.time",
                     "give exactly one of simulation.steps / simulation.time (got both)");
        return;
    }
    if (rs == 0 && rt == 0) {
        yee_rd_error(c, sc.s, "simulation",
                     "one of simulation.steps / simulation.time is required");
        return;
    }
    if (g->ok && rc_courant >= 0)
        cfg->dt = yee_config_courant_dt(cfg, cfg->courant);
    if (rs > 0)
        cfg->steps = steps;
    if (rt > 0 && cfg->dt > 0) {
        double x = time_fs / YEE_TIME_UNIT_FS / cfg->dt;
        if (x > 1e15) {
            yee_rd_error(c, config_setting_get_member(sc.s, "time"), "simulation.time",
                         "%.3g steps of %.3g fs are too many (got %g)", x,
                         cfg->dt * YEE_TIME_UNIT_FS, time_fs);
            return;
        }
        /* the 1e-9 guard keeps a time that is an exact multiple of dt from gaining a step */
        cfg->steps = (long)ceil(x - 1e-9 * x);
        if (cfg->steps < 1)
            cfg->steps = 1;
    }
}

static void load_background(yee_rd *c, const yee_rd_scope *root, yee_config *cfg)
{
    yee_rd_scope sc;
    cfg->eps_r = 1;
    cfg->sigma = 0;
    cfg->background_material = -1;
    if (yee_rd_group(c, root, "background", &sc) <= 0)
        return;
    int re = yee_rd_num(c, &sc, "epsilon", &cfg->eps_r);
    int rs = yee_rd_num(c, &sc, "sigma", &cfg->sigma);
    const char *name;
    const config_setting_t *w;
    if (yee_rd_string(c, &sc, "material", &name, &w) <= 0)
        return;
    if (re != 0 || rs != 0) {
        yee_rd_error(c, w, "background.material",
                     "give either a material or epsilon/sigma, not both (got \"%.60s\")", name);
        return;
    }
    int m = yee_deck_find_material(c, cfg, w, "background.material", name);
    if (m < 0)
        return;
    const yee_material_cfg *mat = &cfg->materials[m];
    if (mat->pec) {
        yee_rd_error(c, w, "background.material", "the background cannot be pec (got \"%s\")",
                     name);
        return;
    }
    cfg->background_material = m;
    cfg->eps_r = mat->eps[0]; /* for the CPML's sigma_max and resolution reports */
    cfg->sigma = mat->sigma;
}

static const yee_boundary bc_of_choice[] = {YEE_BC_CPML, YEE_BC_PEC, YEE_BC_PERIODIC,
                                            YEE_BC_PMC};
static const char *const bc_names[] = {"pec", "cpml", "periodic", "pmc"}; /* by yee_boundary */

/* 2-D: which polarizations source s drives (bit YEE_POL_TM, YEE_POL_TE). */
static int source_polarizations(const yee_source_cfg *s)
{
    if (s->kind == YEE_SRC_DIPOLE || s->kind == YEE_SRC_VOLUME)
        return s->component == YEE_EZ || s->component == YEE_HX || s->component == YEE_HY
                   ? YEE_POL_TM : YEE_POL_TE;
    int p = 0; /* plane waves and beams: by their E vector */
    if (s->polarization[2] != 0.0)
        p |= YEE_POL_TM;
    if (s->polarization[0] != 0.0 || s->polarization[1] != 0.0)
        p |= YEE_POL_TE;
    return p;
}

/* simulation.polarization, read after the sources and monitors it constrains. */
static void load_polarization(yee_rd *c, const yee_rd_scope *root, yee_config *cfg)
{
    static const char *const names[] = {"auto", "tm", "te", "both"};
    static const unsigned tm_comps = (1u << YEE_EZ) | (1u << YEE_HX) | (1u << YEE_HY);
    yee_rd_scope sc;
    int choice = 0;
    const config_setting_t *w = NULL;
    cfg->pol2d = YEE_POL_BOTH;
    if (yee_rd_group(c, root, "simulation", &sc) > 0)
        yee_rd_choice(c, &sc, "polarization", &choice, &w);
    if (!cfg->two_d) {
        if (w && choice != 0)
            yee_rd_error(c, w, "simulation.polarization",
                         "is for 2-D runs (grid.size z = 0); a 3-D run has every component "
                         "(got \"%s\")", names[choice]);
        return;
    }
    int driven = 0;
    for (int i = 0; i < cfg->nsources; i++)
        driven |= source_polarizations(&cfg->sources[i]);
    cfg->pol2d = choice == 1 ? YEE_POL_TM : choice == 2 ? YEE_POL_TE
                 : choice == 3 || driven == (YEE_POL_TM | YEE_POL_TE) || driven == 0
                     ? YEE_POL_BOTH : driven;
    if (cfg->pol2d == YEE_POL_BOTH)
        return;
    const char *run = cfg->pol2d == YEE_POL_TM ? "tm" : "te";
    const unsigned have = cfg->pol2d == YEE_POL_TM ? tm_comps : 0x3fu & ~tm_comps;
    const config_setting_t *list = config_setting_get_member(root->s, "sources");
    for (int i = 0; i < cfg->nsources; i++)
        if (source_polarizations(&cfg->sources[i]) & ~cfg->pol2d) {
            char key[32];
            snprintf(key, sizeof key, "sources[%d]", i);
            yee_rd_error(c, list ? config_setting_get_elem(list, (unsigned)i) : w, key,
                         "drives fields a %s run does not have (simulation.polarization)", run);
        }
    list = config_setting_get_member(root->s, "monitors");
    for (int i = 0; i < cfg->nmonitors; i++) {
        yee_monitor_cfg *mon = &cfg->monitors[i];
        const config_setting_t *elem = list ? config_setting_get_elem(list, (unsigned)i) : NULL;
        if (elem && !config_setting_get_member(elem, "components")) {
            /* the default components: those of the run's polarization */
            mon->components = (mon->components & have) ? mon->components & have : have;
            continue;
        }
        const unsigned extra = mon->components & ~have;
        if (mon->kind == YEE_MON_FLUX || !extra)
            continue;
        int comp = 0;
        while (!(extra & (1u << comp)))
            comp++;
        char key[40];
        snprintf(key, sizeof key, "monitors[%d].components", i);
        yee_rd_error(c, elem ? elem : w, key,
                     "%s is not in a %s run (simulation.polarization; tm has Ez, Hx, Hy, te "
                     "Hz, Ex, Ey)", yee_component_name(comp), run);
    }
}

static void load_boundary(yee_rd *c, const yee_rd_scope *root, yee_config *cfg,
                          const yee_deck_grid *g)
{
    static const char *const axis_names[3] = {"x", "y", "z"};
    static const char *const face_names[3][2] = {
        {"x_low", "x_high"}, {"y_low", "y_high"}, {"z_low", "z_high"}};
    yee_rd_scope sc, pml;
    int have = yee_rd_group(c, root, "boundary", &sc) > 0;
    int have_pml = 0, cells[6];
    const config_setting_t *set_by[3][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    const char *key_by[3][2];
    for (int i = 0; i < 6; i++)
        cells[i] = 10;
    cfg->pml_order = 3;
    cfg->pml_sigma_factor = 1;
    cfg->pml_kappa_max = 1;
    cfg->pml_alpha_max = 0;
    for (int a = 0; a < 3; a++)
        for (int f = 0; f < 2; f++)
            cfg->boundary[a][f] = YEE_BC_CPML, key_by[a][f] = "boundary";
    if (have) {
        for (int a = 0; a < 3; a++) {
            int idx;
            const config_setting_t *w;
            if (yee_rd_choice(c, &sc, axis_names[a], &idx, &w) > 0)
                for (int f = 0; f < 2; f++) {
                    cfg->boundary[a][f] = bc_of_choice[idx];
                    set_by[a][f] = w;
                    key_by[a][f] = a == 0 ? "boundary.x" : a == 1 ? "boundary.y" : "boundary.z";
                }
        }
        static const char *const face_keys[3][2] = {
            {"boundary.x_low", "boundary.x_high"},
            {"boundary.y_low", "boundary.y_high"},
            {"boundary.z_low", "boundary.z_high"}};
        for (int a = 0; a < 3; a++)
            for (int f = 0; f < 2; f++) {
                int idx;
                const config_setting_t *w;
                if (yee_rd_choice(c, &sc, face_names[a][f], &idx, &w) > 0) {
                    cfg->boundary[a][f] = bc_of_choice[idx];
                    set_by[a][f] = w;
                    key_by[a][f] = face_keys[a][f];
                }
            }
        have_pml = yee_rd_group(c, &sc, "pml", &pml) > 0;
        if (yee_rd_vec3(c, &sc, "bloch", cfg->bloch) > 0) {
            const config_setting_t *w = config_setting_get_member(sc.s, "bloch");
            for (int a = 0; a < 3; a++) {
                if (cfg->bloch[a] == 0.0)
                    continue;
                if (cfg->boundary[a][0] != YEE_BC_PERIODIC)
                    yee_rd_error(c, w, "boundary.bloch",
                                 "a Bloch wave vector along %s needs periodic %s faces (got k%s "
                                 "= %g with %s boundaries)", axis_names[a], axis_names[a],
                                 axis_names[a], cfg->bloch[a], bc_names[cfg->boundary[a][0]]);
                cfg->complex_fields = 1;
            }
        }
    }
    if (cfg->two_d) {
        /* no z faces: the z differences vanish (the structure's z stride is 0), and node
         * plane 0 carries no wall */
        for (int f = 0; f < 2; f++)
            if (set_by[2][f] && (f == 0 || set_by[2][1] != set_by[2][0])) /* boundary.z: once */
                yee_rd_error(c, set_by[2][f], key_by[2][f],
                             "a 2-D run (grid.size z = 0) has no z faces");
        cfg->boundary[2][0] = cfg->boundary[2][1] = YEE_BC_PEC;
    }
    const config_setting_t *cells_s = NULL;
    if (have_pml) {
        yee_rd_int6(c, &pml, "cells", cells);
        cells_s = config_setting_get_member(pml.s, "cells");
        yee_rd_num(c, &pml, "order", &cfg->pml_order);
        yee_rd_num(c, &pml, "sigma_factor", &cfg->pml_sigma_factor);
        yee_rd_num(c, &pml, "kappa_max", &cfg->pml_kappa_max);
        yee_rd_num(c, &pml, "alpha_max", &cfg->pml_alpha_max);
    }

    for (int a = 0; a < 3; a++) {
        int p0 = cfg->boundary[a][0] == YEE_BC_PERIODIC;
        int p1 = cfg->boundary[a][1] == YEE_BC_PERIODIC;
        if (p0 != p1) {
            int f = p0 ? 0 : 1; /* the periodic face */
            yee_rd_error(c, set_by[a][f], key_by[a][f],
                         "periodic must be on both faces of %s (%s is %s)", axis_names[a],
                         face_names[a][1 - f], bc_names[cfg->boundary[a][1 - f]]);
        }
        /* The E update of the wall nodes reads the ghost H plane below node plane 0, which the
         * PMC wall fills with the mirror image; above the last node plane there is no such
         * plane to fill, and a mirror plane can always be made the low face. */
        if (cfg->boundary[a][1] == YEE_BC_PMC)
            yee_rd_error(c, set_by[a][1], key_by[a][1],
                         "pmc is supported on low faces only (%s): make the mirror plane the "
                         "low face of the part you keep", face_names[a][0]);
        for (int f = 0; f < 2; f++)
            cfg->pml_cells[a][f] = cfg->boundary[a][f] == YEE_BC_CPML ? cells[2 * a + f] : 0;
    }
    if (!g->ok)
        return;
    for (int a = 0; a < 3; a++) {
        int sum = cfg->pml_cells[a][0] + cfg->pml_cells[a][1];
        if (sum >= cfg->n[a])
            yee_rd_error(c, cells_s ? cells_s : g->size_s, "boundary.pml.cells",
                         "the PML on %s takes %d + %d = %d cells, but the grid has only %d "
                         "cells on %s (the PML must leave at least one interior cell)",
                         axis_names[a], cfg->pml_cells[a][0], cfg->pml_cells[a][1], sum, cfg->n[a],
                         axis_names[a]);
    }
}

/* Inside [lo, hi] per axis, with a relative tolerance for rounding in the deck. */
int yee_deck_inside(const yee_deck_grid *g, const double p[3])
{
    for (int a = 0; a < 3; a++) {
        double tol = 1e-9 * (g->hi[a] - g->lo[a]);
        if (p[a] < g->lo[a] - tol || p[a] > g->hi[a] + tol)
            return 0;
    }
    return 1;
}

void yee_deck_domain_text(const yee_deck_grid *g, char *buf, size_t n)
{
    snprintf(buf, n, "[%g, %g] x [%g, %g] x [%g, %g]", g->lo[0], g->hi[0], g->lo[1], g->hi[1],
             g->lo[2], g->hi[2]);
}

/* A box key pair (min/max, defaulting to the domain) of a source or monitor: ordered and
 * overlapping the domain. Returns 1 when both are usable. */
int yee_deck_box(yee_rd *c, const yee_rd_scope *sc, const yee_deck_grid *g, double lo[3],
                 double hi[3])
{
    char key[160], dom[160];
    for (int a = 0; a < 3; a++) {
        lo[a] = g->lo[a];
        hi[a] = g->hi[a];
    }
    int rmin = yee_rd_vec3(c, sc, "min", lo);
    int rmax = yee_rd_vec3(c, sc, "max", hi);
    if (rmin < 0 || rmax < 0 || !g->ok)
        return 0;
    const config_setting_t *ws = config_setting_get_member(sc->s, rmax > 0 ? "max" : "min");
    if (!ws)
        ws = sc->s;
    snprintf(key, sizeof key, "%s.%s", sc->key, rmax > 0 ? "max" : "min");
    for (int a = 0; a < 3; a++)
        if (lo[a] > hi[a]) {
            yee_rd_error(c, ws, key, "min > max on %c (%g > %g)", "xyz"[a], lo[a], hi[a]);
            return 0;
        }
    yee_deck_domain_text(g, dom, sizeof dom);
    for (int a = 0; a < 3; a++)
        if (hi[a] < g->lo[a] || lo[a] > g->hi[a]) {
            yee_rd_error(c, ws, key, "the box [%g, %g] x [%g, %g] x [%g, %g] misses the domain %s",
                         lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], dom);
            return 0;
        }
    return 1;
}

static void load_output(yee_rd *c, const yee_rd_scope *root, yee_config *cfg)
{
    yee_rd_scope sc;
    snprintf(cfg->out_dir, sizeof cfg->out_dir, ".");
    cfg->flush_seconds = 5.0; /* the table's default, also when the group is absent */
    if (yee_rd_group(c, root, "output", &sc) <= 0)
        return;
    yee_rd_bool(c, &sc, "geometry", &cfg->geometry_out);
    yee_rd_num(c, &sc, "flush_seconds", &cfg->flush_seconds);
    const char *dir;
    const config_setting_t *w;
    if (yee_rd_string(c, &sc, "directory", &dir, &w) <= 0)
        return;
    if (!dir[0] || strlen(dir) >= sizeof cfg->out_dir)
        yee_rd_error(c, w, "output.directory",
                     "must be a non-empty path shorter than %d characters", YEE_PATH_LEN);
    else
        snprintf(cfg->out_dir, sizeof cfg->out_dir, "%s", dir);
}

/* checkpoint = { interval; path; }: when and where the run writes checkpoints (solver/sim.c). */
static void load_checkpoint(yee_rd *c, const yee_rd_scope *root, yee_config *cfg)
{
    yee_rd_scope sc;
    if (yee_rd_group(c, root, "checkpoint", &sc) <= 0)
        return;
    yee_rd_long(c, &sc, "interval", &cfg->checkpoint_interval);
    const char *dir;
    const config_setting_t *w;
    if (yee_rd_string(c, &sc, "path", &dir, &w) <= 0)
        return;
    if (!dir[0] || strlen(dir) >= sizeof cfg->checkpoint_dir - 2 * YEE_NAME_LEN)
        yee_rd_error(c, w, "checkpoint.path", "must be a non-empty path shorter than %d characters",
                     YEE_PATH_LEN - 2 * YEE_NAME_LEN);
    else
        snprintf(cfg->checkpoint_dir, sizeof cfg->checkpoint_dir, "%s", dir);
}

/* ---------------------------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------------------------- */

/* A `sweep` group is read by io/params.c for `yee sweep`; a single run ignores it but still
 * rejects unknown keys in it (entering each group checks them), so that a typo there is an error
 * wherever the deck is read. */
static void check_sweep(yee_rd *c, const yee_rd_scope *root)
{
    static const char *const lists[] = {"parameters", "results"};
    yee_rd_scope sw, sub;
    if (yee_rd_group(c, root, "sweep", &sw) <= 0)
        return;
    yee_rd_group(c, &sw, "slurm", &sub);
    for (int k = 0; k < 2; k++) {
        const config_setting_t *list;
        if (yee_rd_list(c, &sw, lists[k], &list) <= 0)
            continue;
        char pat[48], key[48];
        snprintf(pat, sizeof pat, "sweep.%s[]", lists[k]);
        snprintf(key, sizeof key, "sweep.%s", lists[k]);
        for (int i = 0; i < config_setting_length(list); i++)
            yee_rd_list_elem(c, list, pat, key, i, &sub);
    }
}

/* A deck with ${...} outside comments is a sweep deck: only `yee sweep` resolves it. Caught
 * before libconfig, whose message for `${` would be a bare syntax error. */
static int check_placeholders(const yee_deck_text *t, yee_err *err)
{
    int line = 0;
    if (!yee_params_has_placeholder(t->text, &line))
        return YEE_OK;
    const char *p = t->text;
    for (int l = 1; l < line && p; l++)
        p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    p = p ? strstr(p, "${") : NULL; /* the first on its line, to show it */
    if (!p)
        p = "${...}";
    int shown = (int)strcspn(p, "}\n") + 1, fline;
    const char *file;
    yee_deck_text_place(t, line, &file, &fline);
    return yee_fail(err, YEE_ERR_DECK, "%s:%d: error: %.*s%s is a sweep parameter: run this deck "
                    "with `yee sweep %s --out DIR`, which writes and runs one resolved deck per "
                    "job (docs/sweeps.md)", file ? file : t->files[0], fline,
                    shown > 60 ? 60 : shown, p, shown > 60 ? "..." : "", t->files[0]);
}

/* Warnings are printed once per run, by rank 0, not by every MPI rank. */
static int quiet_rank(void)
{
    int init = 0, fini = 0, rank = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fini);
    if (init && !fini)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank != 0;
}

int yee_deck_load(const char *path, const char *const *overrides, int noverrides,
                  yee_config *cfg, yee_err *err)
{
    yee_rd c;
    yee_rd_init(&c, path, err, quiet_rank());
    memset(cfg, 0, sizeof *cfg);
    if (err)
        err->msg[0] = '\0';

    /* the text with @include expanded and what libconfig 1.5 misreads refused (io/deck_text.h) */
    yee_deck_text text;
    int trc = yee_deck_text_read(path, &text, err);
    if (trc == YEE_OK)
        trc = check_placeholders(&text, err);
    if (trc < 0) {
        yee_deck_text_free(&text);
        return trc;
    }
    c.text = &text;

    config_t lc;
    config_init(&lc);
    if (!config_read_string(&lc, text.text)) {
        const char *f, *msg = config_error_text(&lc);
        int line;
        yee_deck_text_place(&text, config_error_line(&lc), &f, &line);
        /* libconfig arrays are typed by their first element: [4, 4.5] is a syntax error */
        int mixed = msg && strstr(msg, "mismatched element type");
        int rc = yee_fail(err, YEE_ERR_DECK, "%s:%d: error: syntax: %s%s", f ? f : path, line,
                          msg ? msg : "?",
                          mixed ? " (write every number of an array the same way, e.g. "
                                  "[4.0, 4.5, 4.0], or use a list (4, 4.5, 4))" : "");
        config_destroy(&lc);
        yee_deck_text_free(&text);
        return rc;
    }

    for (int i = 0; i < noverrides; i++)
        yee_deck_set_apply(&c, &lc, overrides[i]);

    snprintf(cfg->deck_path, sizeof cfg->deck_path, "%s", path);
    yee_rd_scope root;
    yee_rd_scope_init(&root, config_root_setting(&lc), "", "");
    yee_rd_check_unknown(&c, &root);
    check_sweep(&c, &root);
    yee_deck_grid g;
    memset(&g, 0, sizeof g);
    load_grid(&c, &root, cfg, &g);
    load_boundary(&c, &root, cfg, &g);
    int rc = load_refine(&c, cfg, &g);
    load_simulation(&c, &root, cfg, &g);
    if (rc == 0)
        rc = yee_deck_load_materials(&c, &root, cfg);
    load_background(&c, &root, cfg);
    if (rc == 0)
        rc = yee_deck_load_geometry(&c, &root, cfg, &g);
    if (rc == 0)
        rc = yee_deck_load_sources(&c, &root, cfg, &g);
    if (rc == 0)
        rc = yee_deck_load_monitors(&c, &root, cfg, &g);
    if (rc == 0)
        check_graded(&c, cfg, &g);
    if (rc == 0)
        load_polarization(&c, &root, cfg);
    if (rc == 0)
        load_output(&c, &root, cfg);
    if (rc == 0)
        load_checkpoint(&c, &root, cfg);
    config_destroy(&lc);

    if (rc == YEE_ERR_NOMEM) {
        yee_deck_text_free(&text);
        yee_config_free(cfg);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "out of memory reading deck '%s'", path);
    }
    rc = yee_rd_flush(&c);
    yee_deck_text_free(&text);
    if (rc < 0)
        yee_config_free(cfg);
    return rc;
}
