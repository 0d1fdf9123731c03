/* model/resolution.c -- cells per wavelength and per skin depth (model/resolution.h). */
#include "model/resolution.h"
#include "model/nodes.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>

void yee_material_eps(const yee_material_cfg *m, int a, double f, double *re, double *im)
{
    double complex eps = m->eps[a];
    for (int q = 0; q < m->npoles; q++) {
        const yee_pole_cfg *p = &m->poles[q];
        const double f0sq = p->kind == YEE_POLE_DRUDE ? 0.0 : p->f0 * p->f0;
        if (p->kind == YEE_POLE_DEBYE) /* delta_eps / (1 - i 2 pi f tau) */
            eps += p->sigma / (1.0 - I * 2.0 * M_PI * f * p->tau);
        else /* sigma f0^2 / (f0^2 - f^2 - i f gamma), Drude without the f0^2 below */
            eps += p->sigma * p->f0 * p->f0 / (f0sq - f * f - I * f * p->gamma);
    }
    if (m->sigma > 0.0 && f > 0.0) /* i sigma / (2 pi f), sigma in 1/um (eps0 = c = 1) */
        eps += I * m->sigma * YEE_ETA0_OHM * 1e-6 / (2.0 * M_PI * f);
    *re = creal(eps);
    *im = cimag(eps);
}

/* Marks the materials the background and geometry use (voxel blocks: each index they hold). */
static void mark_used(const yee_config *cfg, unsigned char *used)
{
    if (cfg->background_material >= 0 && cfg->background_material < cfg->nmaterials)
        used[cfg->background_material] = 1;
    for (int s = 0; s < cfg->nshapes; s++) {
        const yee_shape_cfg *sh = &cfg->shapes[s];
        if (sh->kind != YEE_SHAPE_VOXELS) {
            if (sh->material >= 0 && sh->material < cfg->nmaterials)
                used[sh->material] = 1;
            continue;
        }
        const int64_t n = (int64_t)sh->vox_n[0] * sh->vox_n[1] * sh->vox_n[2];
        for (int64_t v = 0; sh->vox && v < n; v++)
            if (sh->vox[v] < cfg->nmaterials)
                used[sh->vox[v]] = 1;
    }
}

/* Largest cell (um) over the axes of the run (x and y in 2-D) inside [lo, hi] per axis. */
static double largest_cell(const yee_config *cfg, const double lo[3], const double hi[3])
{
    double dx = 0.0;
    for (int a = 0; a < (cfg->two_d ? 2 : 3); a++) {
        if (!cfg->mesh[a]) {
            dx = fmax(dx, cfg->dx[a]);
            continue;
        }
        for (int i = 0; i < cfg->n[a]; i++)
            if (cfg->mesh[a][i + 1] > lo[a] && cfg->mesh[a][i] < hi[a])
                dx = fmax(dx, cfg->mesh[a][i + 1] - cfg->mesh[a][i]);
    }
    return dx;
}

/* The cell size that resolves material i: on a graded mesh the largest cell that the objects
 * made of it reach (the background: the whole domain), else the largest spacing. */
static double material_cell(const yee_config *cfg, int i)
{
    const double all_lo[3] = {-INFINITY, -INFINITY, -INFINITY};
    const double all_hi[3] = {INFINITY, INFINITY, INFINITY};
    if (i < 0 || i == cfg->background_material || !yee_graded(cfg))
        return largest_cell(cfg, all_lo, all_hi);
    double dx = 0.0;
    for (int s = 0; s < cfg->nshapes; s++) {
        const yee_shape_cfg *sh = &cfg->shapes[s];
        int uses = sh->material == i;
        const int64_t n = (int64_t)sh->vox_n[0] * sh->vox_n[1] * sh->vox_n[2];
        for (int64_t v = 0; sh->kind == YEE_SHAPE_VOXELS && sh->vox && !uses && v < n; v++)
            uses = sh->vox[v] == i;
        if (!uses)
            continue;
        double lo[3], hi[3];
        yee_shape_bbox(sh, lo, hi);
        for (int a = 0; a < 3; a++) { /* every lattice copy */
            for (int l = 0; l < 3; l++) {
                const double span = (sh->counts[l] > 1 ? sh->counts[l] - 1 : 0) * sh->lattice[l][a];
                lo[a] += fmin(span, 0.0);
                hi[a] += fmax(span, 0.0);
            }
        }
        dx = fmax(dx, largest_cell(cfg, lo, hi));
    }
    return dx > 0.0 ? dx : largest_cell(cfg, all_lo, all_hi);
}

void yee_resolution_of(const yee_config *cfg, yee_resolution *r)
{
    double fmax = 0.0;
    for (int q = 0; q < cfg->nmonitors; q++)
        if (cfg->monitors[q].kind == YEE_MON_FLUX || cfg->monitors[q].kind == YEE_MON_DFT)
            fmax = fmax > cfg->monitors[q].fmax ? fmax : cfg->monitors[q].fmax;
    for (int s = 0; fmax == 0.0 && s < cfg->nsources; s++) {
        const double f = yee_profile_fmax(&cfg->sources[s].profile);
        fmax = f > fmax ? f : fmax;
    }
    r->fmax = fmax;
    r->index = sqrt(cfg->eps_r > 1.0 ? cfg->eps_r : 1.0); /* the background's */
    r->medium = cfg->background_material >= 0 ? cfg->background_material : -1;
    /* the worst resolved transparent medium: the densest on a uniform mesh */
    const double bg_cell = material_cell(cfg, r->medium);
    r->cells = fmax > 0.0 ? 1.0 / (fmax * r->index) / bg_cell : INFINITY;
    r->skin_cells = INFINITY;
    r->metal = -1;
    unsigned char *used = (unsigned char *)calloc((size_t)cfg->nmaterials + 1, 1);
    if (used)
        mark_used(cfg, used);
    for (int i = 0; used && fmax > 0.0 && i < cfg->nmaterials; i++) {
        const yee_material_cfg *m = &cfg->materials[i];
        if (!used[i] || m->pec)
            continue;
        const double dx = material_cell(cfg, i);
        for (int a = 0; a < 3; a++) {
            double re, im;
            yee_material_eps(m, a, fmax, &re, &im);
            const double complex n = csqrt(re + I * im); /* Re n >= 0, Im n >= 0 */
            if (re < 0.0) { /* a metal: the field decays as exp(-2 pi f Im(n) d) */
                const double skin = 1.0 / (2.0 * M_PI * fmax * cimag(n)) / dx;
                if (skin < r->skin_cells)
                    r->skin_cells = skin, r->metal = i;
            } else if (1.0 / (fmax * creal(n)) / dx < r->cells) {
                r->index = creal(n), r->medium = i;
                r->cells = 1.0 / (fmax * creal(n)) / dx;
            }
        }
    }
    free(used);
}
