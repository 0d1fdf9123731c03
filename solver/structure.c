/* solver/structure.c -- the structure of a subdomain: coefficient tables, kappa-folded spacings and CFS-CPML profiles.
 *
 * CPML after Roden & Gedney (2000): in a slab of thickness d the depth rho in (0, 1] grades
 *   sigma = sigma_max rho^m,  kappa = 1 + (kappa_max - 1) rho^m,  alpha = alpha_max (1 - rho),
 * with sigma_max = factor * 0.8 (m + 1) / (dx sqrt(eps_r)) (Taflove & Hagness eq. 7.67 in units
 * eps0 = c = 1), and the recursive-convolution coefficients
 *   b = exp(-(sigma / kappa + alpha) dt),  a = sigma (b - 1) / (sigma kappa + kappa^2 alpha)
 * (R&G eqs. 19-20), divided here by dx so the kernels multiply by a raw field difference.
 * E nodes sit at integer positions, H nodes at half-integer positions along each axis.
 * Materials: geometry/ rasterizes the shapes into per-component indices and a table of media;
 * here each entry becomes (ca, cb) (PEC: 0, 0 keeps E at zero) and each node of a dispersive
 * material an ADE list entry with its pole coefficients (kernels/yee_ade.h).
 */
#include "solver/structure.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/nodes.h"
#include "solver/stability.h"

#define YEE_TWO_PI 6.28318530717958647692

yee_pole_coef yee_pole_coefficients(const yee_pole_cfg *p, double dt)
{
    yee_pole_coef k;
    k.debye = p->kind == YEE_POLE_DEBYE;
    if (k.debye) {
        /* tau (P+ - P) / dt + (P+ + P) / 2 = s (E+ + E) / 2: P+ = a P + b (E+ + E) */
        const double d = p->tau / dt + 0.5;
        const double a = (p->tau / dt - 0.5) / d;
        k.c1 = (yee_real)a;
        k.c2 = (yee_real)(0.5 * p->sigma / d);
        k.c3 = (yee_real)(1.0 - a);
        return k;
    }
    const double w0 = YEE_TWO_PI * p->f0, g = YEE_TWO_PI * p->gamma;
    const double restore = p->kind == YEE_POLE_LORENTZ ? w0 * w0 : 0.0;
    const double d = 1.0 / (dt * dt) + g / (2.0 * dt);
    k.c1 = (yee_real)((2.0 / (dt * dt) - restore) / d);
    k.c2 = (yee_real)((g / (2.0 * dt) - 1.0 / (dt * dt)) / d);
    k.c3 = (yee_real)(p->sigma * w0 * w0 / d);
    /* A Drude pole has the root 1 (a static polarization stays): c1 + c2 = 1 exactly. Rounded
     * apart, the root moves off 1 by the rounding over g dt, 7e-5 per step for Rakic gold at 100
     * cells/um (found by solver/stability.c), and a residual static P grows with it. 1 - c1 is
     * exact in floating point (Sterbenz: c1 is within a factor 2 of 1). */
    if (p->kind == YEE_POLE_DRUDE)
        k.c2 = YEE_R(1.0) - k.c1;
    return k;
}

double yee_debye_weight(const yee_pole_cfg *poles, int npoles, double dt)
{
    double b = 0.0;
    for (int q = 0; q < npoles; q++)
        if (poles[q].kind == YEE_POLE_DEBYE)
            b += 0.5 * poles[q].sigma / (poles[q].tau / dt + 0.5);
    return b;
}

static int by_key(const void *x, const void *y)
{
    const int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* The dual-cell volume (um^3; um^2 in 2-D) of the node of component c at padded index cell. */
static double node_volume(const yee_config *cfg, const yee_structure *g, int c, int64_t cell)
{
    int at[3];
    yee_idx_cell(g->setup.dims, cell, &at[0], &at[1], &at[2]);
    double v = 1.0;
    for (int a = 0; a < 2 + !cfg->two_d; a++)
        v *= yee_node_width(cfg, c, a, g->offset[a] + at[a]);
    return v;
}

/* The component, padded index and cell of key comp * cells + index. */
static void unkey(yee_dims d, int64_t key, int *comp, int64_t *c, int at[3])
{
    const int64_t cells = yee_dims_cells(d);
    *comp = (int)(key / cells);
    *c = key % cells;
    yee_idx_cell(d, *c, &at[0], &at[1], &at[2]);
}

/* One coupling of the symmetric operator: row node rowkey (comp * cells + index) adds
 * w curl_b H of node nbkey in slot [s][u] (kernels/yee_tensor.h). */
typedef struct tensor_entry {
    int64_t rowkey, nbkey;
    int slot;
    double w;
} tensor_entry;

static int by_row(const void *x, const void *y)
{
    const tensor_entry *a = (const tensor_entry *)x, *b = (const tensor_entry *)y;
    return (a->rowkey > b->rowkey) - (a->rowkey < b->rowkey);
}

/* The geometry's tensor rows (geo->tensor, sorted by comp * cells + index) as the kernels take
 * them (kernels/yee_tensor.h). Each pair of neighbours p (component a) and q (component b) is
 * coupled once, symmetrically: S = (V_p (eps^-1)_ab(p) + V_q (eps^-1)_ba(q)) / 8, E_p adding
 * dt S / V_p curl_b H(q) and E_q adding dt S / V_q curl_a H(p), with V the nodes' dual-cell
 * volumes ((eps^-1)_ba(q) = 0 for a node without off-diagonal terms). Meep's gather, dt
 * (eps^-1)_ab(p) / 4 from p's side only, is not symmetric: its operator has complex eigenvalues
 * and grew without bound here (an eps-12 sphere in a PEC box: 1.4e4-fold by step 38100; eps 6:
 * by step 103700). The symmetric one conserves the discrete energy (Werner & Cary, J. Comput.
 * Phys. 226, 1085 (2007)). A pair with a component the run does not have is not coupled, nor one
 * with a PEC node: the geometry dropped the terms that read one, and a PEC node has none of its
 * own. Then each node whose curl some row reads, once, in the curl list. */
static int build_tensor(const yee_config *cfg, yee_structure *g, yee_err *err)
{
    const yee_geo *geo = &g->geo;
    if (geo->ntensor == 0)
        return YEE_OK;
    const yee_dims d = g->setup.dims;
    const int64_t cells = yee_dims_cells(d);
    int64_t *gkey = (int64_t *)malloc((size_t)geo->ntensor * sizeof *gkey);
    tensor_entry *ent = (tensor_entry *)malloc((size_t)geo->ntensor * 16 * sizeof *ent);
    if (!gkey || !ent) {
        free(gkey);
        free(ent);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %lld tensor nodes",
                        (long long)geo->ntensor);
    }
    for (int64_t q = 0; q < geo->ntensor; q++)
        gkey[q] = geo->tensor[q].comp * cells + geo->tensor[q].cell;
    int64_t ne = 0;
    for (int64_t q = 0; q < geo->ntensor; q++) {
        const yee_geo_tensor *p = &geo->tensor[q];
        const int a = p->comp;
        if (!yee_pol_has(cfg->pol2d, a))
            continue;
        const double vp = node_volume(cfg, g, a, p->cell);
        for (int s = 0; s < 2; s++) {
            const int b = (a + 1 + s) % 3, sq = a == (b + 1) % 3 ? 0 : 1;
            if (!yee_pol_has(cfg->pol2d, b))
                continue;
            for (int u = 0; u < 4; u++) {
                const int64_t nb = yee_e_neighbour(d.stride, p->cell, a, b, u);
                const int64_t nbkey = b * cells + nb;
                const int64_t *found = (const int64_t *)bsearch(&nbkey, gkey,
                                                                (size_t)geo->ntensor,
                                                                sizeof *gkey, by_key);
                if (found && nbkey < gkey[q])
                    continue; /* coupled from q's side */
                const double vq = node_volume(cfg, g, b, nb);
                const double inv_q = found ? geo->tensor[found - gkey].inv[sq] : 0.0;
                const double S = (vp * p->inv[s] + vq * inv_q) / 8.0;
                if (S == 0.0)
                    continue;
                ent[ne++] = (tensor_entry){gkey[q], nbkey, s * 4 + u, cfg->dt * S / vp};
                ent[ne++] = (tensor_entry){nbkey, gkey[q], sq * 4 + ((u >> 1) | (u & 1) << 1),
                                           cfg->dt * S / vq};
            }
        }
    }
    free(gkey);
    qsort(ent, (size_t)ne, sizeof *ent, by_row);
    int64_t nt = 0;
    for (int64_t q = 0; q < ne; q++)
        nt += q == 0 || ent[q].rowkey != ent[q - 1].rowkey;
    int64_t *key = (int64_t *)malloc(((size_t)ne + 1) * sizeof *key);
    g->tensor = (yee_tensor_node *)calloc((size_t)nt + 1, sizeof *g->tensor);
    if (!key || !g->tensor) {
        free(key);
        free(ent);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %lld tensor nodes", (long long)nt);
    }
    /* the curl list: every neighbour a row reads, once */
    for (int64_t q = 0; q < ne; q++)
        key[q] = ent[q].nbkey;
    qsort(key, (size_t)ne, sizeof *key, by_key);
    int64_t nc = 0;
    for (int64_t q = 0; q < ne; q++)
        if (nc == 0 || key[q] != key[nc - 1])
            key[nc++] = key[q];
    g->curl = (yee_curl_node *)calloc((size_t)nc + 1, sizeof *g->curl);
    if (!g->curl || nc > INT32_MAX) {
        free(key);
        free(ent);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %lld tensor neighbours",
                        (long long)nc);
    }
    for (int64_t q = 0; q < nc; q++)
        unkey(d, key[q], &g->curl[q].comp, &g->curl[q].c, g->curl[q].at);
    int64_t r = -1;
    for (int64_t q = 0; q < ne; q++) {
        if (q == 0 || ent[q].rowkey != ent[q - 1].rowkey) {
            yee_tensor_node *x = &g->tensor[++r];
            unkey(d, ent[q].rowkey, &x->comp, &x->c, x->at);
            for (int k = 0; k < 8; k++)
                x->curl[k / 4][k % 4] = -1;
        }
        yee_tensor_node *x = &g->tensor[r];
        const int64_t *at = (const int64_t *)bsearch(&ent[q].nbkey, key, (size_t)nc,
                                                     sizeof *key, by_key);
        x->w[ent[q].slot / 4][ent[q].slot % 4] = (yee_real)ent[q].w;
        x->curl[ent[q].slot / 4][ent[q].slot % 4] = (int)(at - key); /* in the list */
    }
    free(key);
    free(ent);
    g->setup.ntensor = nt;
    g->setup.tensor = g->tensor;
    g->setup.ncurl = nc;
    g->setup.curl = g->curl;
    return YEE_OK;
}

/* Material table, coefficients and the dispersive node list of the subdomain. */
static int build_media(const yee_config *cfg, yee_structure *g, yee_err *err)
{
    const int n[3] = {g->n[0], g->n[1], g->n[2]};
    YEE_TRY(yee_geometry_rasterize(cfg, n, g->offset, YEE_HALO, &g->geo, err));
    yee_setup *s = &g->setup;
    const yee_geo *geo = &g->geo;
    for (int e = 0; e < geo->nentry; e++) {
        const yee_geo_entry *x = &geo->entry[e];
        if (x->pec) {
            g->ca[e] = g->cb[e] = YEE_R(0.0);
            continue;
        }
        /* a dispersive entry's Debye poles are semi-implicit in E (kernels/yee_ade.h); an
         * interface entry has its material's poles at `fill` of their strength */
        const double b = x->material >= 0 && x->npoles > 0
                             ? x->fill * yee_debye_weight(cfg->materials[x->material].poles,
                                                          cfg->materials[x->material].npoles,
                                                          cfg->dt)
                             : 0.0;
        yee_medium_coefficients(x->eps, x->sigma, b, cfg->dt, &g->ca[e], &g->cb[e]);
    }
    s->nmat = geo->nentry;
    for (int c = 0; c < 3; c++)
        s->mat[c] = geo->mat[c];

    /* Pole coefficients: the poles of every dispersive material, in deck order, at a time step
     * they are stable at (solver/stability.h); then those of each subpixel interface entry
     * (geometry.h: its material's poles at `fill` of their strength, which weakens the pole
     * against eps_inf, so the bulk material's limit covers it). pole0[m] of material m,
     * pole0[nm + e] of entry e. */
    YEE_TRY(yee_check_dispersive_stability(cfg, err));
    const int nm = cfg->nmaterials;
    int npc = 0;
    int *pole0 = (int *)calloc((size_t)nm + (size_t)geo->nentry + 1, sizeof(int));
    if (!pole0)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "pole table");
    for (int m = 0; m < nm; m++) {
        pole0[m] = npc;
        npc += cfg->materials[m].npoles;
    }
    for (int e = 0; e < geo->nentry; e++) {
        const yee_geo_entry *x = &geo->entry[e];
        if (x->npoles == 0 || x->material < 0)
            continue;
        if (x->fill == 1.0) {
            pole0[nm + e] = pole0[x->material];
        } else {
            pole0[nm + e] = npc;
            npc += x->npoles;
        }
    }
    if (npc == 0) {
        free(pole0);
        return YEE_OK;
    }
    g->pcoef = (yee_pole_coef *)calloc((size_t)npc, sizeof *g->pcoef);
    if (!g->pcoef) {
        free(pole0);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "pole table");
    }
    for (int m = 0; m < nm; m++)
        for (int q = 0; q < cfg->materials[m].npoles; q++)
            g->pcoef[pole0[m] + q] = yee_pole_coefficients(&cfg->materials[m].poles[q], cfg->dt);
    for (int e = 0; e < geo->nentry; e++) {
        const yee_geo_entry *x = &geo->entry[e];
        if (x->npoles == 0 || x->material < 0 || x->fill == 1.0)
            continue;
        for (int q = 0; q < x->npoles; q++) {
            yee_pole_cfg weak = cfg->materials[x->material].poles[q];
            weak.sigma *= x->fill;
            g->pcoef[pole0[nm + e] + q] = yee_pole_coefficients(&weak, cfg->dt);
        }
    }

    /* Dispersive nodes: interior nodes whose entry is a bulk dispersive material, of the
     * components the run has (a 2-D run of one polarization keeps three). Two passes (count,
     * fill); polarization slots 2 per pole. */
    for (int pass = 0; pass < 2; pass++) {
        int64_t nd = 0, np = 0;
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < n[2] && yee_pol_has(cfg->pol2d, c); k++)
                for (int j = 0; j < n[1]; j++)
                    for (int i = 0; i < n[0]; i++) {
                        const int64_t idx = yee_idx(s->dims, i, j, k);
                        const yee_geo_entry *x = &geo->entry[geo->mat[c][idx]];
                        if (x->npoles == 0 || x->material < 0)
                            continue;
                        if (pass == 1) {
                            yee_disp_node *d = &g->disp[nd];
                            d->c = idx;
                            d->p_off = np;
                            d->comp = c;
                            d->pole0 = pole0[nm + geo->mat[c][idx]];
                            d->npole = x->npoles;
                        }
                        nd++;
                        np += 2 * x->npoles;
                    }
        if (pass == 0) {
            if (nd == 0)
                break;
            g->disp = (yee_disp_node *)calloc((size_t)nd, sizeof *g->disp);
            if (!g->disp) {
                free(pole0);
                return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %lld dispersive nodes",
                                (long long)nd);
            }
        } else {
            s->ndisp = nd;
            s->npol = np;
        }
    }
    free(pole0);
    s->disp = g->disp;
    s->npcoef = npc;
    s->pcoef = g->pcoef;
    s->inv_dt = (yee_real)(1.0 / cfg->dt);
    return YEE_OK;
}

void yee_structure_eps(const yee_structure *g, int comp, const int lo[3], const int count[3], yee_real *out)
{
    for (int k = 0; k < count[2]; k++)
        for (int j = 0; j < count[1]; j++)
            for (int i = 0; i < count[0]; i++) {
                const int64_t idx = yee_idx(g->setup.dims, lo[0] + i, lo[1] + j, lo[2] + k);
                const yee_geo_entry *x = &g->geo.entry[g->geo.mat[comp][idx]];
                out[((int64_t)k * count[1] + j) * count[0] + i] =
                    (yee_real)(x->pec ? 0.0 : x->eps);
            }
}

void yee_medium_coefficients(double eps_r, double sigma_si, double debye_b, double dt,
                             yee_real *ca, yee_real *cb)
{
    /* sigma in 1/um with eps0 = c = 1: sigma_si * eta0 * 1e-6; (eps + sigma dt/2 + B) E+ =
     * (eps - sigma dt/2 - B) E + dt curl H (kernels/yee_ade.h for B) */
    const double sigma = sigma_si * YEE_ETA0_OHM * 1e-6;
    const double loss = sigma * dt / (2.0 * eps_r), implicit = debye_b / eps_r;
    *ca = (yee_real)((1.0 - loss - implicit) / (1.0 + loss + implicit));
    *cb = (yee_real)((dt / eps_r) / (1.0 + loss + implicit));
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

/* Fill inverse spacing and b, a at one node of depth rho whose difference spans width dx (um):
 * a cell for H nodes, a dual cell for E nodes (model/nodes.h; dx[a] on a uniform axis). The
 * CPML's sigma_max takes the base spacing: a graded mesh keeps it in the layers. */
static void pml_node(const yee_config *cfg, int a, double rho, double dx, yee_real *inv,
                     yee_real *b, yee_real *acoef)
{
    if (rho <= 0.0) {
        *inv = (yee_real)(1.0 / dx);
        *b = YEE_R(0.0);
        *acoef = YEE_R(0.0);
        return;
    }
    const double m = cfg->pml_order;
    const double smax = cfg->pml_sigma_factor * 0.8 * (m + 1.0) / (cfg->dx[a] * sqrt(cfg->eps_r));
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

int yee_structure_build(const yee_config *cfg, const int n[3], const int offset[3], yee_structure *g,
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
    /* 2-D: one plane and a z stride of 0, so that every z neighbour is the cell itself and
     * every z difference is exactly zero (kernels/yee_cell.h needs no 2-D variant) */
    s->dims = yee_dims_of(n, cfg->two_d);

    s->ca = g->ca;
    s->cb = g->cb;
    s->ch = (yee_real)cfg->dt;
    int rc = build_media(cfg, g, err);
    if (rc == YEE_OK)
        rc = build_tensor(cfg, g, err);
    if (rc < 0) {
        yee_structure_free(g);
        return rc;
    }

    yee_real *p = g->lines;
    for (int a = 0; a < 3; a++) {
        yee_real *ie = p, *be = p + (n[a] + 1), *ae = p + 2 * (n[a] + 1);
        p += 3 * (n[a] + 1);
        yee_real *ih = p, *bh = p + n[a], *ah = p + 2 * n[a];
        p += 3 * n[a];
        for (int i = 0; i <= n[a]; i++)
            pml_node(cfg, a, pml_depth(cfg, a, offset[a] + i),
                     yee_dual_width(cfg, a, offset[a] + i), &ie[i], &be[i], &ae[i]);
        for (int i = 0; i < n[a]; i++)
            pml_node(cfg, a, pml_depth(cfg, a, offset[a] + i + 0.5),
                     yee_cell_width(cfg, a, offset[a] + i), &ih[i], &bh[i], &ah[i]);
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
        /* A wall (PEC, CPML backing or PMC) on the global low face lies in the rank that owns
         * cell 0. */
        s->pec_low[a] = offset[a] == 0 && cfg->boundary[a][0] != YEE_BC_PERIODIC &&
                        cfg->boundary[a][0] != YEE_BC_PMC && !(a == 2 && cfg->two_d);
        s->pmc_low[a] = offset[a] == 0 && cfg->boundary[a][0] == YEE_BC_PMC;
        s->pol2d = cfg->pol2d;
    }
    return YEE_OK;
}

void yee_structure_free(yee_structure *g)
{
    free(g->lines);
    g->lines = NULL;
    yee_geometry_free(&g->geo);
    free(g->disp);
    g->disp = NULL;
    free(g->tensor);
    g->tensor = NULL;
    free(g->curl);
    g->curl = NULL;
    free(g->pcoef);
    g->pcoef = NULL;
}
