/* geometry/geometry.c -- point-in-shape tests, lattice copies and the rasterization of a deck's
 * objects onto a subdomain, with optional subpixel averaging (contract and formulas in
 * geometry.h). Host only. Does not build update coefficients and never sees a backend.
 */
#include "geometry/geometry.h"
#include "model/components.h"
#include "model/nodes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The centre *p and half width *h (um) along axis a of the cell that E component c's node i
 * stands for (model/nodes.h yee_node_cell): the volume averaged around the node. On a uniform
 * axis the node is its centre; on a graded one a line node sits off the centre of its dual cell
 * by a quarter of the difference of its two cells, and averaging a box centred on the node
 * instead put 0.06 nm too much metal on each face of a 20 nm film between 2.5 and 2.75 nm cells
 * (T off by 1.7e-3: validation/graded). */
static void dual_cell(const yee_config *cfg, int c, int a, int i, double *p, double *h)
{
    double lo, hi;
    yee_node_cell(cfg, c, a, i, &lo, &hi);
    *p = 0.5 * (lo + hi);
    *h = 0.5 * (hi - lo);
}

/* Even-odd rule (ray along +u) for a point (u, v) against the closed polygon v[2n]. */
static int in_polygon(const double *vert, int n, double u, double v)
{
    int in = 0;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        const double ui = vert[2 * i], vi = vert[2 * i + 1];
        const double uj = vert[2 * j], vj = vert[2 * j + 1];
        if ((vi > v) != (vj > v) && u < (uj - ui) * (v - vi) / (vj - vi) + ui)
            in = !in;
    }
    return in;
}

int yee_shape_contains(const yee_shape_cfg *s, const double p[3])
{
    const double q[3] = {p[0] - s->center[0], p[1] - s->center[1], p[2] - s->center[2]};
    switch (s->kind) {
    case YEE_SHAPE_BOX:
    case YEE_SHAPE_VOXELS:
        return fabs(q[0]) <= 0.5 * s->size[0] && fabs(q[1]) <= 0.5 * s->size[1] &&
               fabs(q[2]) <= 0.5 * s->size[2];
    case YEE_SHAPE_SPHERE:
        return q[0] * q[0] + q[1] * q[1] + q[2] * q[2] <= s->radius * s->radius;
    case YEE_SHAPE_ELLIPSOID: {
        double r = 0;
        for (int a = 0; a < 3; a++) {
            const double t = q[a] / (0.5 * s->size[a]);
            r += t * t;
        }
        return r <= 1.0;
    }
    case YEE_SHAPE_CYLINDER:
    case YEE_SHAPE_CONE: {
        const double t = q[0] * s->axis[0] + q[1] * s->axis[1] + q[2] * s->axis[2];
        if (fabs(t) > 0.5 * s->height)
            return 0;
        double r2 = 0;
        for (int a = 0; a < 3; a++) {
            const double w = q[a] - t * s->axis[a];
            r2 += w * w;
        }
        double r = s->radius;
        if (s->kind == YEE_SHAPE_CONE) /* linear taper from radius (low end) to radius2 */
            r = s->radius + (s->radius2 - s->radius) * (t / s->height + 0.5);
        return r2 <= r * r;
    }
    case YEE_SHAPE_PRISM: {
        const int ax = s->axis[0] != 0 ? 0 : s->axis[1] != 0 ? 1 : 2;
        if (fabs(q[ax]) > 0.5 * s->height)
            return 0;
        return in_polygon(s->vert, s->nvert, q[(ax + 1) % 3], q[(ax + 2) % 3]);
    }
    }
    return 0;
}

/* The voxel of block s (its box holds p) that contains p: index floor((p - lo) / width) per
 * axis, so a point on a face between two voxels belongs to the higher one; the clamp gives the
 * points on the block's upper faces to the last voxel. Piecewise constant, never interpolated. */
static int voxel_material(const yee_shape_cfg *s, const double p[3])
{
    int64_t idx[3];
    for (int a = 0; a < 3; a++) {
        const double lo = s->center[a] - 0.5 * s->size[a];
        const double u = floor((p[a] - lo) / s->size[a] * s->vox_n[a]);
        idx[a] = u < 0 ? 0 : u >= s->vox_n[a] ? s->vox_n[a] - 1 : (int64_t)u;
    }
    return s->vox[idx[0] + s->vox_n[0] * (idx[1] + (int64_t)s->vox_n[1] * idx[2])];
}

int yee_shape_material_at(const yee_shape_cfg *s, const double p[3])
{
    if (!yee_shape_contains(s, p))
        return -1;
    return s->kind == YEE_SHAPE_VOXELS ? voxel_material(s, p) : s->material;
}

/* Bounding box of the first copy of s, a hair wider than yee_shape_bbox so the box test never
 * rejects a point the exact test accepts. */
static void shape_box(const yee_shape_cfg *s, double lo[3], double hi[3])
{
    yee_shape_bbox(s, lo, hi);
    for (int a = 0; a < 3; a++) {
        const double pad = 0.5 * (hi[a] - lo[a]) * 1e-12 + 1e-12;
        lo[a] -= pad;
        hi[a] += pad;
    }
}

/* One placed copy of a shape: its lattice offset and bounding box. */
typedef struct copy {
    int shape;
    double off[3];
    double lo[3], hi[3];
} copy;

typedef struct raster {
    const yee_config *cfg;
    int ncopies;
    copy *copies;        /* in deck order (later overrides earlier) */
    int *bulk;           /* [(material + 1) * 3 + component] -> entry; material -1 = background */
    int *simple;         /* [material + 1]: 1 when eps may be averaged (no pec, sigma, poles) */
    int *iso;            /* [material + 1]: 1 when its eps is the same for the three components */
    double eps_lo, log_step; /* quantization of averaged eps */
    int nlevels;
    short level_entry[YEE_GEO_MAX_ENTRIES];
    int *plane;          /* candidate copies of the current z plane of nodes */
    int *row;            /* candidate copies of the current row (a subset of plane) */
    int *node;           /* candidate copies of the current node's dual cell (subset of row) */
    int bgm;             /* material of the background, -1: cfg->eps_r / sigma */
} raster;

/* Material (deck index, or -1 for the background) at global point p among the candidates. */
static int material_at(const raster *r, const int *cand, int ncand, const double p[3])
{
    for (int q = ncand - 1; q >= 0; q--) {
        const copy *cp = &r->copies[cand[q]];
        if (p[0] < cp->lo[0] || p[0] > cp->hi[0] || p[1] < cp->lo[1] || p[1] > cp->hi[1] ||
            p[2] < cp->lo[2] || p[2] > cp->hi[2])
            continue;
        const double local[3] = {p[0] - cp->off[0], p[1] - cp->off[1], p[2] - cp->off[2]};
        const int m = yee_shape_material_at(&r->cfg->shapes[cp->shape], local);
        if (m >= 0)
            return m;
    }
    return -1;
}

/* eps of component c in material m (-1: the background). */
static double material_eps(const raster *r, int m, int c)
{
    if (m < 0)
        m = r->bgm;
    return m < 0 ? r->cfg->eps_r : r->cfg->materials[m].eps[c];
}

/* Entry index of (eps, sigma, pec, material, npoles, fill), appended if new. -1 when the table
 * is full. Non-dispersive media are shared by value; dispersive ones stay per material and fill. */
static int entry_of(yee_geo *g, double eps, double sigma, int pec, int material, int npoles,
                    int averaged, double fill)
{
    for (int e = 0; e < g->nentry; e++) {
        const yee_geo_entry *x = &g->entry[e];
        if (x->eps == eps && x->sigma == sigma && x->pec == pec && x->npoles == npoles &&
            x->averaged == averaged && (npoles == 0 || (x->material == material &&
                                                         x->fill == fill)))
            return e;
    }
    if (g->nentry == YEE_GEO_MAX_ENTRIES)
        return -1;
    yee_geo_entry *x = &g->entry[g->nentry];
    x->eps = eps;
    x->sigma = sigma;
    x->pec = pec;
    x->material = material;
    x->npoles = npoles;
    x->averaged = averaged;
    x->fill = fill;
    return g->nentry++;
}

/* Volume fraction of the unit cube [0,1]^3 where w . u < s (the box spline: Sigma over the
 * corners v of (-1)^|v| max(0, s - w.v)^3 / (6 w0 w1 w2), after flipping axes so that w > 0;
 * components below 1e-4 of the largest are raised to it, a 1e-4 error at most). */
static double cube_fraction_below(const double w_in[3], double s)
{
    double w[3], wmax = 0;
    for (int a = 0; a < 3; a++) {
        w[a] = w_in[a];
        if (w[a] < 0) { /* u -> 1 - u */
            s -= w[a];
            w[a] = -w[a];
        }
        wmax = fmax(wmax, w[a]);
    }
    if (wmax <= 0)
        return s > 0 ? 1.0 : 0.0;
    for (int a = 0; a < 3; a++)
        w[a] = fmax(w[a], 1e-4 * wmax);
    double v = 0;
    for (int q = 0; q < 8; q++) {
        const double dot = (q & 1 ? w[0] : 0) + (q & 2 ? w[1] : 0) + (q & 4 ? w[2] : 0);
        const double t = s - dot;
        if (t > 0)
            v += ((q == 0 || q == 3 || q == 5 || q == 6) ? 1.0 : -1.0) * t * t * t;
    }
    v /= 6.0 * w[0] * w[1] * w[2];
    return v < 0 ? 0.0 : v > 1 ? 1.0 : v;
}

/* Deck material of m (-1: the background, which may name a material) and what averaging needs
 * of it. */
static int deck_material(const raster *r, int m)
{
    return m < 0 ? r->bgm : m;
}

static double material_sigma(const raster *r, int m)
{
    const int mm = deck_material(r, m);
    return mm < 0 ? r->cfg->sigma : r->cfg->materials[mm].sigma;
}

static int material_npoles(const raster *r, int m)
{
    const int mm = deck_material(r, m);
    return mm < 0 ? 0 : r->cfg->materials[mm].npoles;
}

static int material_pec(const raster *r, int m)
{
    const int mm = deck_material(r, m);
    return mm < 0 ? 0 : r->cfg->materials[mm].pec;
}

/* The tangent plane of a two-medium dual cell (centre p, half-widths h) with unit normal nv:
 * the materials *ma at p - hmax nv and *mb at p + hmax nv and, when they differ, the exact
 * fraction *fa of the cell on ma's side of the interface, located by bisection along nv (second
 * order in the cell size, as Meep does). Returns 0 when the two ends hold the same material. */
static int plane_fraction(const raster *r, const int *cand, int ncand, const double p[3],
                          const double h[3], const double nv[3], int *ma, int *mb, double *fa)
{
    const double hmax = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    double x[3];
    for (int a = 0; a < 3; a++)
        x[a] = p[a] - hmax * nv[a];
    *ma = material_at(r, cand, ncand, x);
    for (int a = 0; a < 3; a++)
        x[a] = p[a] + hmax * nv[a];
    *mb = material_at(r, cand, ncand, x);
    if (*ma == *mb)
        return 0;
    double ta = -hmax, tb = hmax;
    for (int it = 0; it < 40; it++) {
        const double tm = 0.5 * (ta + tb);
        for (int a = 0; a < 3; a++)
            x[a] = p[a] + tm * nv[a];
        if (material_at(r, cand, ncand, x) == *ma)
            ta = tm;
        else
            tb = tm;
    }
    /* cell coordinates u in [0,1]^3: x - p = (2u - 1) h; ma where n.(x - p) < t0 */
    double w[3], sh = 0.5 * (ta + tb);
    for (int a = 0; a < 3; a++) {
        w[a] = 2.0 * nv[a] * h[a];
        sh += nv[a] * h[a];
    }
    *fa = cube_fraction_below(w, sh);
    return 1;
}

/* An interface of one lossy medium md (conducting or dispersive, not PEC) with dielectrics, for
 * component c: when c lies within 30 degrees of the interface plane (n_c^2 <= 1/4, n the
 * direction of md's first moment in the cell), the volume average of eps(omega) over the dual
 * cell, the tangential rule (exact for a field along a planar interface): eps_inf, sigma and
 * every pole's strength of md weighted by its fill fraction f, the dielectrics' mean eps by
 * 1 - f. That keeps the ADE form of kernels/yee_ade.h: the node has md's poles scaled by f.
 * A component nearer the normal keeps the medium at its node: the normal rule 1/<1/eps> has no
 * pole form, and the volume average there overstates the metal (the Rakic-gold sphere of
 * inputs/nanosphere.cfg: plasmon 13 nm red of Mie with every component averaged, 6 nm with
 * none, 3 nm with this rule; within 45 degrees instead of 30 the cells red of the plasmon
 * absorb too much: tests/examples/check_nanosphere.py). f is the planar fraction when
 * the cell holds md and one dielectric, else the sampled one, rounded to 1/YEE_GEO_FILLS; the
 * dielectrics' mean eps to the dielectric levels. Returns the entry, -1 for "the node's
 * medium" (a near-normal component, or f rounding to 0 or 1), -2 when the table is full. */
static int average_lossy(raster *r, yee_geo *g, const int *cand, int ncand, const double p[3],
                         const double h[3], int c, int md, double f, double eps_simple,
                         const double mom_d[3])
{
    const double len2 = mom_d[0] * mom_d[0] + mom_d[1] * mom_d[1] + mom_d[2] * mom_d[2];
    if (len2 > 0 && 4.0 * mom_d[c] * mom_d[c] > len2)
        return -1; /* more than 30 degrees off the interface: the medium at the node */
    if (len2 > 0) {
        const double inv = 1.0 / sqrt(len2);
        const double nv[3] = {mom_d[0] * inv, mom_d[1] * inv, mom_d[2] * inv};
        int ma, mb;
        double fa;
        if (plane_fraction(r, cand, ncand, p, h, nv, &ma, &mb, &fa) &&
            (ma == md || mb == md) && r->simple[(ma == md ? mb : ma) + 1]) {
            f = ma == md ? fa : 1.0 - fa;
            eps_simple = material_eps(r, ma == md ? mb : ma, c);
        }
    }
    const long q = lround(f * YEE_GEO_FILLS);
    if (q <= 0 || q >= YEE_GEO_FILLS)
        return -1;
    if (r->nlevels >= 2) {
        long lv = lround(log(eps_simple / r->eps_lo) / r->log_step);
        lv = lv < 0 ? 0 : lv > r->nlevels - 1 ? r->nlevels - 1 : lv;
        eps_simple = r->eps_lo * exp((double)lv * r->log_step);
    }
    const double fill = (double)q / YEE_GEO_FILLS;
    const double eps = fill * material_eps(r, md, c) + (1.0 - fill) * eps_simple;
    const int e = entry_of(g, eps, fill * material_sigma(r, md), 0, deck_material(r, md),
                           material_npoles(r, md), 1, fill);
    return e < 0 ? -2 : e;
}

/* Averaged entry for component c of the node at p (um) with dual cell half-widths h. Returns
 * the entry, -1 for "no interface here" (the caller uses the node's bulk medium), -2 when the
 * table has no room for a lossy interface entry. */
static int average_node(raster *r, yee_geo *g, const int *cand, int ncand, const double p[3],
                        const double h[3], int c, double off[2])
{
    off[0] = off[1] = 0.0;
    const yee_config *cfg = r->cfg;
    /* coarse test: corners, edge and face midpoints and centre of the dual cell */
    const int m0 = material_at(r, cand, ncand, p);
    int uniform = 1;
    for (int q = 0; q < 27 && uniform; q++) {
        const double x[3] = {p[0] + (q % 3 - 1) * h[0], p[1] + (q / 3 % 3 - 1) * h[1],
                             p[2] + (q / 9 - 1) * h[2]};
        uniform = material_at(r, cand, ncand, x) == m0;
    }
    if (uniform)
        return -1;
    const int S = cfg->subpixel_samples;
    double sum_eps = 0, sum_inv = 0, mom[3] = {0, 0, 0};
    int mixed = 0, all_simple = 1, all_iso = 1;
    /* the lossy medium among the samples (at most one may be averaged), its count and first
     * moment, and the dielectrics' eps sum */
    int md = 0, nlossy = 0, several = 0, nsimple = 0;
    double mom_d[3] = {0, 0, 0}, sum_simple = 0;
    for (int sk = 0; sk < S; sk++)
        for (int sj = 0; sj < S; sj++)
            for (int si = 0; si < S; si++) {
                const double o[3] = {(2.0 * (si + 0.5) / S - 1.0) * h[0],
                                     (2.0 * (sj + 0.5) / S - 1.0) * h[1],
                                     (2.0 * (sk + 0.5) / S - 1.0) * h[2]};
                const double x[3] = {p[0] + o[0], p[1] + o[1], p[2] + o[2]};
                const int m = material_at(r, cand, ncand, x);
                mixed |= m != m0;
                all_simple &= r->simple[m + 1];
                all_iso &= r->iso[m + 1];
                const double e = material_eps(r, m, c);
                sum_eps += e;
                sum_inv += 1.0 / e;
                for (int a = 0; a < 3; a++)
                    mom[a] += o[a] * e;
                if (r->simple[m + 1]) {
                    sum_simple += e;
                    nsimple++;
                } else {
                    several |= nlossy > 0 && m != md;
                    md = m;
                    nlossy++;
                    for (int a = 0; a < 3; a++)
                        mom_d[a] += o[a];
                }
            }
    if (!mixed)
        return -1; /* one medium after all */
    const double ns = (double)S * S * S;
    if (!all_simple) {
        /* a lossy medium: averaged with dielectrics, one at a time; PEC stays a staircase */
        if (!cfg->subpixel_metals || several || nsimple == 0 || material_pec(r, md))
            return -1;
        return average_lossy(r, g, cand, ncand, p, h, c, md, nlossy / ns, sum_simple / nsimple,
                             mom_d);
    }
    if (r->nlevels < 2)
        return -1;
    double mean = sum_eps / ns, mean_inv = sum_inv / ns;
    const double len2 = mom[0] * mom[0] + mom[1] * mom[1] + mom[2] * mom[2];
    /* no preferred direction (symmetric mix): the plain mean */
    const double n2 = len2 > 0 ? mom[c] * mom[c] / len2 : 0.0;
    /* Two media on either side along the normal: replace the sampled fill fraction (error up to
     * 1/(2 S) of a cell, i.e. first order) by the exact fraction of the dual cell below the
     * tangent plane (plane_fraction). */
    if (len2 > 0) {
        const double inv = 1.0 / sqrt(len2);
        const double nv[3] = {mom[0] * inv, mom[1] * inv, mom[2] * inv};
        int ma, mb;
        double fa;
        if (plane_fraction(r, cand, ncand, p, h, nv, &ma, &mb, &fa)) {
            const double fb = 1.0 - fa;
            const double ea = material_eps(r, ma, c), eb = material_eps(r, mb, c);
            mean = fa * ea + fb * eb;
            mean_inv = fa / ea + fb / eb;
        }
    }
    const double eps = 1.0 / (n2 * mean_inv + (1.0 - n2) / mean);
    /* the off-diagonal row of the inverse tensor, n_c n_b (<1/eps> - 1/<eps>) (Kottke et al.
     * 2008, eq. 5 with P = n n^T), for isotropic media; a 2-D run's normal lies in the plane */
    if (cfg->subpixel_tensor && len2 > 0 && all_iso) {
        const double z = cfg->two_d ? 0.0 : mom[2];
        const double nn = mom[0] * mom[0] + mom[1] * mom[1] + z * z;
        const double m3[3] = {mom[0], mom[1], z};
        for (int q = 0; q < 2 && nn > 0; q++) {
            const int b = (c + 1 + q) % 3;
            off[q] = m3[c] * m3[b] / nn * (mean_inv - 1.0 / mean);
        }
    }
    long lv = lround(log(eps / r->eps_lo) / r->log_step);
    if (lv < 0)
        lv = 0;
    if (lv > r->nlevels - 1)
        lv = r->nlevels - 1;
    if (r->level_entry[lv] < 0) {
        const double qeps = r->eps_lo * exp((double)lv * r->log_step);
        r->level_entry[lv] = (short)entry_of(g, qeps, 0.0, 0, -2, 0, 1, 1.0);
    }
    return r->level_entry[lv];
}

/* 1 when the off-diagonal terms of the node at global cell (i, j, k) may be kept: its stencil
 * (kernels/yee_tensor.h: H one cell either side along its component, one below along the
 * others) stays two cells clear of every global face and CPML layer, so it reads no ghost and no
 * stretched coordinate, whatever the decomposition. */
static int tensor_node(const yee_config *cfg, int i, int j, int k)
{
    const int at[3] = {i, j, k};
    for (int a = 0; a < 2 + !cfg->two_d; a++)
        if (at[a] < cfg->pml_cells[a][0] + 2 || at[a] > cfg->n[a] - cfg->pml_cells[a][1] - 3)
            return 0;
    return 1;
}

/* Appends a tensor node (component c, padded index cell, off-diagonal row off). */
static int add_tensor(yee_geo *g, int64_t *cap, int c, int64_t cell, const double off[2])
{
    if (g->ntensor == *cap) {
        const int64_t grown = *cap ? 2 * *cap : 1024;
        yee_geo_tensor *t = (yee_geo_tensor *)realloc(g->tensor, (size_t)grown * sizeof *t);
        if (!t)
            return -1;
        g->tensor = t;
        *cap = grown;
    }
    yee_geo_tensor *t = &g->tensor[g->ntensor++];
    t->cell = cell;
    t->comp = c;
    t->inv[0] = off[0];
    t->inv[1] = off[1];
    return 0;
}

/* A neighbour on a perfect conductor holds no displacement the average could use: the term
 * that reads it goes (and a node left with none leaves the list). The four neighbours of
 * component b around a node of component c: yee_e_neighbour. A PEC node has no averaged
 * entry, so no pair that reaches one keeps a coupling (solver/structure.c). */
static void drop_pec_neighbours(yee_geo *g)
{
    int64_t kept = 0;
    for (int64_t q = 0; q < g->ntensor; q++) {
        yee_geo_tensor t = g->tensor[q];
        for (int s = 0; s < 2; s++) {
            const int b = (t.comp + 1 + s) % 3;
            for (int u = 0; u < 4; u++) {
                const int64_t nb = yee_e_neighbour(g->stride, t.cell, t.comp, b, u);
                if (g->entry[g->mat[b][nb]].pec)
                    t.inv[s] = 0.0;
            }
        }
        if (t.inv[0] != 0.0 || t.inv[1] != 0.0)
            g->tensor[kept++] = t;
    }
    g->ntensor = kept;
}

void yee_geometry_free(yee_geo *g)
{
    free(g->tensor);
    g->tensor = NULL;
    g->ntensor = 0;
    for (int c = 0; c < 3; c++) {
        free(g->mat[c]);
        g->mat[c] = NULL;
    }
}

int yee_geometry_rasterize(const yee_config *cfg, const int n[3], const int offset[3], int halo,
                           yee_geo *g, yee_err *err)
{
    memset(g, 0, sizeof *g);
    raster r;
    memset(&r, 0, sizeof r);
    r.cfg = cfg;
    const int nm = cfg->nmaterials;
    const int bgm = (cfg->background_material >= 0 && cfg->background_material < nm)
                        ? cfg->background_material : -1;
    r.bgm = bgm;
    for (int a = 0; a < 3; a++) {
        g->n[a] = n[a];
        g->offset[a] = offset[a];
    }
    g->halo = halo;
    g->stride[0] = 1;
    g->stride[1] = n[0] + 2 * halo;
    /* 2-D: one plane, z stride 0 (as the kernels' yee_dims) */
    const int64_t plane = (int64_t)(n[0] + 2 * halo) * (n[1] + 2 * halo);
    g->stride[2] = cfg->two_d ? 0 : plane;
    const int64_t total = cfg->two_d ? plane : plane * (n[2] + 2 * halo);
    int rc = YEE_OK;
    r.bulk = (int *)calloc(3 * (size_t)(nm + 1), sizeof(int));
    r.simple = (int *)calloc((size_t)nm + 1, sizeof(int));
    r.iso = (int *)calloc((size_t)nm + 1, sizeof(int));
    for (int c = 0; c < 3; c++)
        g->mat[c] = (uint8_t *)calloc((size_t)total, 1);
    if (!r.bulk || !r.simple || !r.iso || !g->mat[0] || !g->mat[1] || !g->mat[2]) {
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the material index arrays");
        goto done;
    }

    /* Bulk entries, the same on every rank: the background first (entry 0 for Ex), then every
     * material per component. "Material" -1 is the background; a named background is that
     * material. */
    for (int m = -1; m < nm; m++) {
        const int mm = m < 0 ? bgm : m;
        for (int c = 0; c < 3; c++) {
            const double eps = mm < 0 ? cfg->eps_r : cfg->materials[mm].eps[c];
            const double sig = mm < 0 ? cfg->sigma : cfg->materials[mm].sigma;
            const int pec = mm < 0 ? 0 : cfg->materials[mm].pec;
            const int np = mm < 0 ? 0 : cfg->materials[mm].npoles;
            const int e = entry_of(g, eps, sig, pec, mm, np, 0, 1.0);
            if (e < 0 || g->nentry > YEE_GEO_MAX_ENTRIES - 16) {
                rc = yee_fail(err, YEE_ERR_DECK,
                              "%s: error: materials: more than %d distinct media (per component); "
                              "the coefficient table holds %d entries and keeps 16 for "
                              "interfaces", cfg->deck_path, YEE_GEO_MAX_ENTRIES - 16,
                              YEE_GEO_MAX_ENTRIES);
                goto done;
            }
            r.bulk[(m + 1) * 3 + c] = e;
        }
        r.iso[m + 1] = mm < 0 || (cfg->materials[mm].eps[0] == cfg->materials[mm].eps[1] &&
                                  cfg->materials[mm].eps[1] == cfg->materials[mm].eps[2]);
        r.simple[m + 1] = mm < 0 ? cfg->sigma == 0
                                 : (!cfg->materials[mm].pec && cfg->materials[mm].sigma == 0 &&
                                    cfg->materials[mm].npoles == 0);
    }
    g->nbulk = g->nentry;

    /* Quantization levels of averaged permittivities: log-spaced over the averageable range. */
    double lo = INFINITY, hi = 0;
    for (int m = -1; m < nm; m++)
        if (r.simple[m + 1])
            for (int c = 0; c < 3; c++) {
                lo = fmin(lo, material_eps(&r, m, c));
                hi = fmax(hi, material_eps(&r, m, c));
            }
    for (int q = 0; q < YEE_GEO_MAX_ENTRIES; q++)
        r.level_entry[q] = -1;
    /* room for the interface entries of lossy media (average_lossy), when any may be averaged */
    int lossy = 0;
    for (int m = -1; m < nm; m++)
        lossy |= !r.simple[m + 1] && !material_pec(&r, m);
    const int reserve = cfg->subpixel && cfg->subpixel_metals && lossy
                            ? (YEE_GEO_MAX_ENTRIES - g->nbulk) / 2 : 0;
    if (cfg->subpixel && hi > lo) {
        r.nlevels = YEE_GEO_MAX_ENTRIES - g->nbulk - reserve;
        r.eps_lo = lo;
        r.log_step = log(hi / lo) / (r.nlevels - 1);
        g->quant_error = 0.5 * r.log_step;
    }

    /* Lattice copies whose box meets this subdomain (plus one cell: dual cells and ghosts). */
    double dlo[3], dhi[3];
    for (int a = 0; a < 3; a++) {
        dlo[a] = yee_mesh_line(cfg, a, offset[a] - 1 - halo);
        dhi[a] = yee_mesh_line(cfg, a, offset[a] + n[a] + 1 + halo);
    }
    for (int pass = 0; pass < 2; pass++) {
        int k = 0;
        for (int s = 0; s < cfg->nshapes; s++) {
            const yee_shape_cfg *sh = &cfg->shapes[s];
            /* a voxel block's materials are per voxel (deck-checked); others have one */
            if (sh->kind == YEE_SHAPE_VOXELS ? !sh->vox : (sh->material < 0 || sh->material >= nm))
                continue;
            double blo[3], bhi[3];
            shape_box(sh, blo, bhi);
            const int c0 = sh->counts[0] > 0 ? sh->counts[0] : 1;
            const int c1 = sh->counts[1] > 0 ? sh->counts[1] : 1;
            const int c2 = sh->counts[2] > 0 ? sh->counts[2] : 1;
            for (int i2 = 0; i2 < c2; i2++)
                for (int i1 = 0; i1 < c1; i1++)
                    for (int i0 = 0; i0 < c0; i0++) {
                        copy cp;
                        cp.shape = s;
                        int meets = 1;
                        for (int a = 0; a < 3; a++) {
                            cp.off[a] = i0 * sh->lattice[0][a] + i1 * sh->lattice[1][a] +
                                        i2 * sh->lattice[2][a];
                            cp.lo[a] = blo[a] + cp.off[a];
                            cp.hi[a] = bhi[a] + cp.off[a];
                            meets &= cp.hi[a] >= dlo[a] && cp.lo[a] <= dhi[a];
                        }
                        if (!meets)
                            continue;
                        if (pass == 1)
                            r.copies[k] = cp;
                        k++;
                    }
        }
        if (pass == 0) {
            r.ncopies = k;
            r.copies = (copy *)calloc((size_t)k + 1, sizeof(copy));
            r.row = (int *)calloc((size_t)k + 1, sizeof(int));
            r.plane = (int *)calloc((size_t)k + 1, sizeof(int));
            r.node = (int *)calloc((size_t)k + 1, sizeof(int));
            if (!r.copies || !r.row || !r.plane || !r.node) {
                rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %d shape copies", k);
                goto done;
            }
        }
    }

    /* Every interior node of every E component; ghosts stay entry 0 (never updated). */
    int64_t ninterface = 0, tensor_cap = 0;
    for (int c = 0; c < 3; c++) {
        /* p, h: the centre and half widths of the node's dual cell (dual_cell); hmax bounds the
         * half diagonal over this subdomain for the sieves */
        double h[3], wmax[3] = {0, 0, 0};
        for (int a = 0; a < 2 + !cfg->two_d; a++)
            for (int i = 0; i < n[a]; i++)
                wmax[a] = fmax(wmax[a], yee_node_width(cfg, c, a, offset[a] + i));
        /* 2-D: every component sits in the plane z = centre, its dual cell as deep as wide */
        if (cfg->two_d)
            wmax[2] = fmin(wmax[0], wmax[1]);
        const double hmax = 0.5 * sqrt(wmax[0] * wmax[0] + wmax[1] * wmax[1] + wmax[2] * wmax[2]);
        h[2] = 0.5 * wmax[2];
        for (int k = 0; k < n[2]; k++) {
            /* Candidates in two sieves, the plane's then the row's, each keeping deck order: a
             * lattice of N copies costs N per plane and the plane's few per row, not N per row
             * (10^6 copies on 200^3 cells: minutes otherwise). */
            double p[3];
            if (cfg->two_d)
                p[2] = yee_node_position(cfg, c, 2, 0);
            else
                dual_cell(cfg, c, 2, offset[2] + k, &p[2], &h[2]);
            int nplane = 0;
            for (int q = 0; q < r.ncopies; q++)
                if (r.copies[q].hi[2] >= p[2] - h[2] && r.copies[q].lo[2] <= p[2] + h[2])
                    r.plane[nplane++] = q;
            for (int j = 0; j < n[1]; j++) {
                /* candidates of this row: copies whose box meets the row's dual cells */
                int *cand = r.row;
                dual_cell(cfg, c, 1, offset[1] + j, &p[1], &h[1]);
                int ncand = 0;
                for (int q = 0; q < nplane; q++) {
                    const copy *cp = &r.copies[r.plane[q]];
                    if (cp->hi[1] >= p[1] - h[1] && cp->lo[1] <= p[1] + h[1])
                        cand[ncand++] = r.plane[q];
                }
                uint8_t *out = g->mat[c] + (int64_t)(k + halo) * g->stride[2] +
                               (int64_t)(j + halo) * g->stride[1] + halo;
                for (int i = 0; i < n[0]; i++) {
                    dual_cell(cfg, c, 0, offset[0] + i, &p[0], &h[0]);
                    if (cfg->two_d)
                        h[2] = fmin(h[0], h[1]);
                    /* the third sieve, on x, as wide as average_node looks: its bisection
                     * along the normal reaches hmax (the half diagonal) from the node */
                    int nnode = 0;
                    for (int q = 0; q < ncand; q++) {
                        const copy *cp = &r.copies[cand[q]];
                        if (cp->hi[0] >= p[0] - hmax && cp->lo[0] <= p[0] + hmax)
                            r.node[nnode++] = cand[q];
                    }
                    int e = -1;
                    double off[2] = {0.0, 0.0};
                    if (nnode > 0 && cfg->subpixel)
                        e = average_node(&r, g, r.node, nnode, p, h, c, off);
                    if (e >= 0 && (off[0] != 0.0 || off[1] != 0.0) &&
                        tensor_node(cfg, offset[0] + i, offset[1] + j, offset[2] + k) &&
                        add_tensor(g, &tensor_cap, c, out + i - g->mat[c], off) < 0) {
                        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the tensor nodes");
                        goto done;
                    }
                    if (e == -2) {
                        rc = yee_fail(err, YEE_ERR_DECK,
                                      "%s: error: grid.subpixel_metals: the interfaces of "
                                      "conducting and dispersive media need more than the %d "
                                      "coefficient entries left; set grid.subpixel_metals = "
                                      "false (staircase them) or use fewer materials",
                                      cfg->deck_path, reserve);
                        goto done;
                    }
                    if (e >= 0)
                        ninterface++;
                    else
                        e = r.bulk[(material_at(&r, r.node, nnode, p) + 1) * 3 + c];
                    out[i] = (uint8_t)e;
                }
            }
        }
    }
    g->ninterface = ninterface;
    drop_pec_neighbours(g);
done:
    free(r.bulk);
    free(r.simple);
    free(r.iso);
    free(r.copies);
    free(r.plane);
    free(r.node);
    free(r.row);
    if (rc < 0)
        yee_geometry_free(g);
    return rc;
}
