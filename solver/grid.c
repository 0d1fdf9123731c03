/* solver/grid.c -- coefficient tables, kappa-folded spacings and CFS-CPML profiles.
 *
 * CPML after Roden & Gedney (2000): in a slab of thickness d the depth rho in (0, 1] grades
 *   sigma = sigma_max rho^m,  kappa = 1 + (kappa_max - 1) rho^m,  alpha = alpha_max (1 - rho),
 * with sigma_max = factor * 0.8 (m + 1) / (dx sqrt(eps_r)) (Taflove & Hagness eq. 7.67 in units
 * eps0 = c = 1), and the recursive-convolution coefficients
 *   b = exp(-(sigma / kappa + alpha) dt),  a = sigma (b - 1) / (sigma kappa + kappa^2 alpha)
 * (R&G eqs. 19-20), divided here by dx so the kernels multiply by a raw field difference.
 * E nodes sit at integer positions, H nodes at half-integer positions along each axis.
 */
#include "solver/grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void yee_medium_coefficients(double eps_r, double sigma_si, double dt, yee_real *ca, yee_real *cb)
{
    /* sigma in 1/um with eps0 = c = 1: sigma_si * eta0 * 1e-6 */
    const double sigma = sigma_si * YEE_ETA0_OHM * 1e-6;
    const double loss = sigma * dt / (2.0 * eps_r);
    *ca = (yee_real)((1.0 - loss) / (1.0 + loss));
    *cb = (yee_real)((dt / eps_r) / (1.0 + loss));
}

/* Depth in (0, 1] of global position x (in cells) inside the CPML of axis a, or 0 outside. */
static double pml_depth(const yee_config *cfg, int a, double x)
{
    const int lo = cfg->pml_cells[a][0], hi = cfg->pml_cells[a][1], n = cfg->n[a];
    if (lo > 0 && x < lo)
        return (lo - x) / lo;
    if (hi > 0 && x > n - hi)
        return (x - (n - hi)) / hi;
    return 0.0;
}

/* Fill inverse spacing and b, a at one node of depth rho. */
static void pml_node(const yee_config *cfg, int a, double rho, yee_real *inv, yee_real *b,
                     yee_real *acoef)
{
    const double dx = cfg->dx[a];
    if (rho <= 0.0) {
        *inv = (yee_real)(1.0 / dx);
        *b = YEE_R(0.0);
        *acoef = YEE_R(0.0);
        return;
    }
    const double m = cfg->pml_order;
    const double smax = cfg->pml_sigma_factor * 0.8 * (m + 1.0) / (dx * sqrt(cfg->eps_r));
    const double g = pow(rho, m);
    const double sigma = smax * g;
    const double kappa = 1.0 + (cfg->pml_kappa_max - 1.0) * g;
    const double alpha = cfg->pml_alpha_max * (1.0 - rho);
    const double bb = exp(-(sigma / kappa + alpha) * cfg->dt);
    const double den = sigma * kappa + kappa * kappa * alpha;
    *inv = (yee_real)(1.0 / (kappa * dx));
    *b = (yee_real)bb;
    *acoef = (yee_real)(den > 0.0 ? sigma * (bb - 1.0) / (den * dx) : 0.0);
}

int yee_grid_build(const yee_config *cfg, const int n[3], const int offset[3], yee_grid *g,
                   yee_err *err)
{
    memset(g, 0, sizeof *g);
    size_t total = 0;
    for (int a = 0; a < 3; a++) {
        g->n[a] = n[a];
        g->offset[a] = offset[a];
        total += 3 * (size_t)(n[a] + 1) + 3 * (size_t)n[a];
    }
    g->lines = (yee_real *)calloc(total, sizeof(yee_real));
    if (!g->lines)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate grid lines");
    yee_setup *s = &g->setup;
    s->dims.n[0] = n[0];
    s->dims.n[1] = n[1];
    s->dims.n[2] = n[2];
    s->dims.stride[0] = 1;
    s->dims.stride[1] = n[0] + 2 * YEE_HALO;
    s->dims.stride[2] = (int64_t)(n[0] + 2 * YEE_HALO) * (n[1] + 2 * YEE_HALO);

    /* One uniform background material for now; geometry/ will add more (issue 4). */
    yee_medium_coefficients(cfg->eps_r, cfg->sigma, cfg->dt, &g->ca[0], &g->cb[0]);
    s->nmat = 1;
    s->ca = g->ca;
    s->cb = g->cb;
    s->ch = (yee_real)cfg->dt;

    yee_real *p = g->lines;
    for (int a = 0; a < 3; a++) {
        yee_real *ie = p, *be = p + (n[a] + 1), *ae = p + 2 * (n[a] + 1);
        p += 3 * (n[a] + 1);
        yee_real *ih = p, *bh = p + n[a], *ah = p + 2 * n[a];
        p += 3 * n[a];
        for (int i = 0; i <= n[a]; i++)
            pml_node(cfg, a, pml_depth(cfg, a, offset[a] + i), &ie[i], &be[i], &ae[i]);
        for (int i = 0; i < n[a]; i++)
            pml_node(cfg, a, pml_depth(cfg, a, offset[a] + i + 0.5), &ih[i], &bh[i], &ah[i]);
        s->ie[a] = ie;
        s->be[a] = be;
        s->ae[a] = ae;
        s->ih[a] = ih;
        s->bh[a] = bh;
        s->ah[a] = ah;
        for (int side = 0; side < 2; side++)
            g->sigma_max[a][side] = cfg->pml_cells[a][side] > 0
                ? cfg->pml_sigma_factor * 0.8 * (cfg->pml_order + 1.0) /
                      (cfg->dx[a] * sqrt(cfg->eps_r))
                : 0.0;
    }

    /* Slabs: the part of each global CPML layer that lies in this subdomain. */
    for (int a = 0; a < 3; a++) {
        for (int side = 0; side < 2; side++) {
            const int t = cfg->pml_cells[a][side];
            if (t <= 0)
                continue;
            const int glo = side == 0 ? 0 : cfg->n[a] - t, ghi = side == 0 ? t : cfg->n[a];
            const int lo = glo - offset[a] > 0 ? glo - offset[a] : 0;
            const int hi = ghi - offset[a] < n[a] ? ghi - offset[a] : n[a];
            if (lo >= hi)
                continue;
            yee_slab *sl = &s->slabs[s->nslabs++];
            sl->axis = a;
            sl->side = side;
            for (int b = 0; b < 3; b++) {
                sl->lo[b] = 0;
                sl->hi[b] = n[b];
            }
            sl->lo[a] = lo;
            sl->hi[a] = hi;
        }
        /* A wall (PEC or CPML backing) on the global low face lies in the rank that owns cell 0. */
        s->pec_low[a] = offset[a] == 0 && cfg->boundary[a][0] != YEE_BC_PERIODIC;
    }
    return YEE_OK;
}

void yee_grid_free(yee_grid *g)
{
    free(g->lines);
    g->lines = NULL;
}
