/* kernels/yee_cell.h -- the per-cell arithmetic of one Yee time step, written once for both
 * backends (STYLE 3.2). Every function here updates or reads the cell (i,j,k) of a subdomain
 * and nothing else; loops (kernels/cpu) and thread maps (kernels/cuda) only choose which cells.
 *
 * Staggering (Yee 1966), integer indices count cells from the subdomain's lower corner:
 *   Ex(i+1/2, j, k)   Ey(i, j+1/2, k)   Ez(i, j, k+1/2)          at time n
 *   Hx(i, j+1/2, k+1/2) Hy(i+1/2, j, k+1/2) Hz(i+1/2, j+1/2, k)  at time n+1/2
 * all six stored at array index (i,j,k). Units are normalized: eps0 = mu0 = c = 1, lengths in um,
 * H stored as eta0*H, so the update factors are dt/eps and dt/mu in c-units.
 * Storage: one array per component, x fastest, YEE_HALO ghost cells on every side. The H update
 * reads E at +1 (high ghosts) and the E update reads H at -1 (low ghosts): that is the whole halo.
 */
#ifndef YEE_KERNELS_CELL_H
#define YEE_KERNELS_CELL_H

#include "kernels/yee_hd.h"
#include "model/components.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Width of the ghost layer the stencil needs (WarpX GetMaxGuardCell). */
#define YEE_HALO 1

/* Interior size of a subdomain and the element strides of its padded arrays. A 2-D subdomain
 * (n[2] = 1) has stride[2] = 0: its one plane is its own z neighbour, so z differences are
 * zero, and the arrays hold that one plane (yee_dims_cells). */
typedef struct yee_dims {
    int n[3];          /* interior cells per axis */
    int64_t stride[3]; /* 1, nx + 2H, (nx + 2H)(ny + 2H) */
} yee_dims;

/* The field arrays (device or host pointers, depending on who holds the struct). A 2-D run of
 * one polarization (yee_setup.pol2d) has only its three: the other three are NULL, and no
 * update touches them (the *_tm2d/_te2d and *_half functions below). */
typedef struct yee_fields {
    yee_real *e[3];
    yee_real *h[3];
} yee_fields;

/* 1-D inverse spacings along each axis with the CPML stretching kappa folded in:
 * ie[a][i] = 1 / (kappa_e(i) * dx_a) at integer nodes i = 0..n_a (used by E updates),
 * ih[a][i] = 1 / (kappa_h(i+1/2) * dx_a) at half nodes (used by H updates). Outside PML slabs
 * kappa = 1, so one loop serves the whole domain without a branch. */
typedef struct yee_lines {
    const yee_real *ie[3];
    const yee_real *ih[3];
} yee_lines;

/* Material data of the E update: per-component material index per cell (field layout) into
 * small tables of update coefficients (Taflove & Hagness eq. 3.31, normalized units):
 *   ca = (1 - sigma dt / 2 eps) / (1 + sigma dt / 2 eps),  cb = (dt / eps) / (1 + sigma dt / 2 eps).
 * H has mu_r = 1 everywhere, so its factor is the scalar ch = dt. */
typedef struct yee_media {
    const uint8_t *mat[3];
    const yee_real *ca;
    const yee_real *cb;
    yee_real ch;
} yee_media;

/* Graded CPML coefficients along one axis (Roden & Gedney 2000, eqs. 19-20), full axis length
 * (zero outside the slabs): b = exp(-(sigma/kappa + alpha) dt), a = sigma (b - 1) /
 * (dx (sigma kappa + kappa^2 alpha)); *_e at integer nodes, *_h at half nodes. */
typedef struct yee_cpml_axis {
    const yee_real *be, *ae;
    const yee_real *bh, *ah;
} yee_cpml_axis;

/* The array of component comp (YEE_EX..YEE_HZ). */
YEE_HD yee_real *yee_component_array(yee_fields f, int comp)
{
    return YEE_IS_ELECTRIC(comp) ? f.e[comp] : f.h[comp - YEE_HX];
}

/* Linear index of cell (i,j,k); 64-bit because a 1300^3 grid exceeds 2^31 entries. */
YEE_HD int64_t yee_idx(yee_dims d, int i, int j, int k)
{
    return (int64_t)(i + YEE_HALO) + (int64_t)(j + YEE_HALO) * d.stride[1] +
           (int64_t)(k + YEE_HALO) * d.stride[2];
}

/* A box of cells [lo, hi) of the subdomain (0 <= lo <= hi <= n per axis). */
typedef struct yee_box {
    int lo[3];
    int hi[3];
} yee_box;

/* 1 if box b holds no cell. */
YEE_HD int yee_box_empty(yee_box b)
{
    return b.hi[0] <= b.lo[0] || b.hi[1] <= b.lo[1] || b.hi[2] <= b.lo[2];
}

/* The dims of a subdomain of n cells; two_d: one plane (n[2] = 1) with z stride 0. */
YEE_HD yee_dims yee_dims_of(const int n[3], int two_d)
{
    yee_dims d;
    for (int a = 0; a < 3; a++)
        d.n[a] = n[a];
    d.stride[0] = 1;
    d.stride[1] = n[0] + 2 * YEE_HALO;
    d.stride[2] = two_d ? 0 : d.stride[1] * (n[1] + 2 * YEE_HALO);
    return d;
}

/* Entries of one padded field array of a subdomain. */
YEE_HD int64_t yee_dims_cells(yee_dims d)
{
    const int64_t plane = d.stride[1] * (d.n[1] + 2 * YEE_HALO);
    return d.stride[2] == 0 ? plane : plane * (d.n[2] + 2 * YEE_HALO);
}

/* The cell (i, j, k) of padded linear index c: the inverse of yee_idx. */
YEE_HD void yee_idx_cell(yee_dims d, int64_t c, int *i, int *j, int *k)
{
    *k = d.stride[2] == 0 ? 0 : (int)(c / d.stride[2]) - YEE_HALO;
    const int64_t r = d.stride[2] == 0 ? c : c % d.stride[2];
    *j = (int)(r / d.stride[1]) - YEE_HALO;
    *i = (int)(r % d.stride[1]) - YEE_HALO;
}

/* 1 if the padded linear index c (yee_idx) is a cell of box b. */
YEE_HD int yee_box_has_index(yee_dims d, yee_box b, int64_t c)
{
    int i, j, k;
    yee_idx_cell(d, c, &i, &j, &k);
    return i >= b.lo[0] && i < b.hi[0] && j >= b.lo[1] && j < b.hi[1] && k >= b.lo[2] &&
           k < b.hi[2];
}

/* Hz of yee_update_h (it has no z difference: the same in 2-D). */
YEE_HD void yee_update_hz(yee_fields f, yee_dims d, yee_lines L, yee_real ch, int i, int j, int k)
{
    const int64_t c = yee_idx(d, i, j, k);
    const int64_t sy = d.stride[1];
    const yee_real *YEE_RESTRICT ex = f.e[0];
    const yee_real *YEE_RESTRICT ey = f.e[1];
    const yee_real ix = L.ih[0][i], iy = L.ih[1][j];
    f.h[2][c] -= ch * (ix * (ey[c + 1] - ey[c]) - iy * (ex[c + sy] - ex[c]));
}

/* H^{n+1/2} = H^{n-1/2} - dt curl E^n (Faraday), e.g.
 *   Hx(i,j+1/2,k+1/2) -= dt [ (Ez(j+1) - Ez(j)) / (kappa dy) - (Ey(k+1) - Ey(k)) / (kappa dz) ]. */
YEE_HD void yee_update_h(yee_fields f, yee_dims d, yee_lines L, yee_real ch, int i, int j, int k)
{
    const int64_t c = yee_idx(d, i, j, k);
    const int64_t sy = d.stride[1], sz = d.stride[2];
    const yee_real *YEE_RESTRICT ex = f.e[0];
    const yee_real *YEE_RESTRICT ey = f.e[1];
    const yee_real *YEE_RESTRICT ez = f.e[2];
    const yee_real ix = L.ih[0][i], iy = L.ih[1][j], iz = L.ih[2][k];
    f.h[0][c] -= ch * (iy * (ez[c + sy] - ez[c]) - iz * (ey[c + sz] - ey[c]));
    f.h[1][c] -= ch * (iz * (ex[c + sz] - ex[c]) - ix * (ez[c + 1] - ez[c]));
    yee_update_hz(f, d, L, ch, i, j, k);
}

/* The E update coefficients (ca, cb) of one cell, per component x, y, z. */
typedef struct yee_ecoef {
    yee_real ca[3];
    yee_real cb[3];
} yee_ecoef;

/* The coefficients of cell index c, looked up through its three material indices. */
YEE_HD yee_ecoef yee_media_ecoef(yee_media m, int64_t c)
{
    yee_ecoef q;
    for (int a = 0; a < 3; a++) {
        q.ca[a] = m.ca[m.mat[a][c]];
        q.cb[a] = m.cb[m.mat[a][c]];
    }
    return q;
}

/* Ez of yee_update_e_coef (it has no z difference: the same in 2-D). */
YEE_HD void yee_update_ez_coef(yee_fields f, yee_dims d, yee_lines L, yee_ecoef q, int i, int j,
                               int k)
{
    const int64_t c = yee_idx(d, i, j, k);
    const int64_t sy = d.stride[1];
    const yee_real *YEE_RESTRICT hx = f.h[0];
    const yee_real *YEE_RESTRICT hy = f.h[1];
    const yee_real ix = L.ie[0][i], iy = L.ie[1][j];
    f.e[2][c] = q.ca[2] * f.e[2][c] + q.cb[2] * (ix * (hy[c] - hy[c - 1]) - iy * (hx[c] - hx[c - sy]));
}

/* E^{n+1} = ca E^n + cb curl H^{n+1/2} (Ampere with conduction current), e.g.
 *   Ex(i+1/2,j,k) = ca Ex + cb [ (Hz(j) - Hz(j-1)) / (kappa dy) - (Hy(k) - Hy(k-1)) / (kappa dz) ].
 * This is the E physics; the caller supplies the coefficients: yee_update_e looks them up per
 * cell, and a backend may pass one material's (ca, cb) for cells it knows to be of that material
 * (the CPU backend does on rows of material 0): the same arithmetic, without the index bytes. */
YEE_HD void yee_update_e_coef(yee_fields f, yee_dims d, yee_lines L, yee_ecoef q, int i, int j,
                              int k)
{
    const int64_t c = yee_idx(d, i, j, k);
    const int64_t sy = d.stride[1], sz = d.stride[2];
    const yee_real *YEE_RESTRICT hx = f.h[0];
    const yee_real *YEE_RESTRICT hy = f.h[1];
    const yee_real *YEE_RESTRICT hz = f.h[2];
    const yee_real ix = L.ie[0][i], iy = L.ie[1][j], iz = L.ie[2][k];
    f.e[0][c] = q.ca[0] * f.e[0][c] + q.cb[0] * (iy * (hz[c] - hz[c - sy]) - iz * (hy[c] - hy[c - sz]));
    f.e[1][c] = q.ca[1] * f.e[1][c] + q.cb[1] * (iz * (hx[c] - hx[c - sz]) - ix * (hz[c] - hz[c - 1]));
    yee_update_ez_coef(f, d, L, q, i, j, k);
}

/* The E update with per-cell materials: yee_update_e_coef with the coefficients of cell (i,j,k). */
YEE_HD void yee_update_e(yee_fields f, yee_dims d, yee_lines L, yee_media m, int i, int j, int k)
{
    yee_update_e_coef(f, d, L, yee_media_ecoef(m, yee_idx(d, i, j, k)), i, j, k);
}

/* 2-D runs of one polarization (model/components.h YEE_POL_*): TM advances Hx, Hy
 * (yee_update_h_tm2d) and Ez (yee_update_ez_coef), TE Hz (yee_update_hz) and Ex, Ey
 * (yee_update_e_te2d_coef). The two below are the 3-D updates with their z differences (exactly
 * zero in 2-D: the z stride is 0) replaced by the literal 0 they equal, so the bits are the
 * same (0 - x is not folded to -x under IEEE rules; x - 0 is x) without reading the other
 * polarization's arrays. */
YEE_HD void yee_update_h_tm2d(yee_fields f, yee_dims d, yee_lines L, yee_real ch, int i, int j,
                              int k)
{
    const int64_t c = yee_idx(d, i, j, k);
    const int64_t sy = d.stride[1];
    const yee_real *YEE_RESTRICT ez = f.e[2];
    const yee_real ix = L.ih[0][i], iy = L.ih[1][j];
    f.h[0][c] -= ch * (iy * (ez[c + sy] - ez[c]) - YEE_R(0.0));
    f.h[1][c] -= ch * (YEE_R(0.0) - ix * (ez[c + 1] - ez[c]));
}

YEE_HD void yee_update_e_te2d_coef(yee_fields f, yee_dims d, yee_lines L, yee_ecoef q, int i,
                                   int j, int k)
{
    const int64_t c = yee_idx(d, i, j, k);
    const int64_t sy = d.stride[1];
    const yee_real *YEE_RESTRICT hz = f.h[2];
    const yee_real ix = L.ie[0][i], iy = L.ie[1][j];
    f.e[0][c] = q.ca[0] * f.e[0][c] + q.cb[0] * (iy * (hz[c] - hz[c - sy]) - YEE_R(0.0));
    f.e[1][c] = q.ca[1] * f.e[1][c] + q.cb[1] * (YEE_R(0.0) - ix * (hz[c] - hz[c - 1]));
}

/* Position of cell (i,j,k) along `axis`. */
YEE_HD int yee_axis_pos(int axis, int i, int j, int k)
{
    return axis == 0 ? i : (axis == 1 ? j : k);
}

/* CPML correction of E in a slab normal to `axis` (Roden & Gedney 2000, eqs. 13-14 and 19).
 * With p = axis, q = p+1, r = p+2 (mod 3), Ampere has E_q ~ -dH_r/dp and E_r ~ +dH_q/dp, so
 *   half 0:  psi_q = b psi_q + a (H_r(p) - H_r(p-1)),  E_q -= cb_q psi_q
 *   half 1:  psi_r = b psi_r + a (H_q(p) - H_q(p-1)),  E_r += cb_r psi_r
 * psi_q/psi_r are the slab's arrays and l this cell's index in them. Runs after yee_update_e
 * on the same step (both read H^{n+1/2} only, so their order does not matter). cb_q, cb_r: the
 * cb of E_q and E_r at this cell (yee_cpml_e looks them up; a row of one material may pass its
 * cb, as for yee_update_e_coef). The halves are independent; in 2-D they belong to different
 * polarizations (a slab normal to x: E_y from H_z is TE, E_z from H_y is TM), so a run of one
 * polarization calls only the half whose arrays it has (psi that half's array, cb its
 * component's). */
YEE_HD void yee_cpml_e_half(yee_fields f, yee_dims d, yee_real cb, yee_cpml_axis pa, int axis,
                            int half, yee_real *YEE_RESTRICT psi, int64_t l, int i, int j, int k)
{
    const int q = (axis + 1) % 3, r = (axis + 2) % 3;
    const int64_t c = yee_idx(d, i, j, k);
    const int64_t s = d.stride[axis];
    const int p = yee_axis_pos(axis, i, j, k);
    const yee_real b = pa.be[p], a = pa.ae[p];
    const int from = half ? q : r;
    const yee_real v = b * psi[l] + a * (f.h[from][c] - f.h[from][c - s]);
    psi[l] = v;
    if (half)
        f.e[r][c] += cb * v;
    else
        f.e[q][c] -= cb * v;
}

/* Both halves: the correction of a 3-D cell. */
YEE_HD void yee_cpml_e_coef(yee_fields f, yee_dims d, yee_real cb_q, yee_real cb_r,
                            yee_cpml_axis pa, int axis, yee_real *YEE_RESTRICT psi_q,
                            yee_real *YEE_RESTRICT psi_r, int64_t l, int i, int j, int k)
{
    yee_cpml_e_half(f, d, cb_q, pa, axis, 0, psi_q, l, i, j, k);
    yee_cpml_e_half(f, d, cb_r, pa, axis, 1, psi_r, l, i, j, k);
}

/* The CPML correction of E with per-cell materials (yee_cpml_e_coef with looked-up cb). */
YEE_HD void yee_cpml_e(yee_fields f, yee_dims d, yee_media m, yee_cpml_axis pa, int axis,
                       yee_real *YEE_RESTRICT psi_q, yee_real *YEE_RESTRICT psi_r, int64_t l,
                       int i, int j, int k)
{
    const int64_t c = yee_idx(d, i, j, k);
    yee_cpml_e_coef(f, d, m.cb[m.mat[(axis + 1) % 3][c]], m.cb[m.mat[(axis + 2) % 3][c]], pa,
                    axis, psi_q, psi_r, l, i, j, k);
}

/* CPML correction of H in a slab normal to `axis`. Faraday has H_q ~ +dE_r/dp and
 * H_r ~ -dE_q/dp, so
 *   half 0:  psi_q = b psi_q + a (E_r(p+1) - E_r(p)),  H_q += dt psi_q
 *   half 1:  psi_r = b psi_r + a (E_q(p+1) - E_q(p)),  H_r -= dt psi_r
 * independent halves, as for E (yee_cpml_e_half). */
YEE_HD void yee_cpml_h_half(yee_fields f, yee_dims d, yee_real ch, yee_cpml_axis pa, int axis,
                            int half, yee_real *YEE_RESTRICT psi, int64_t l, int i, int j, int k)
{
    const int q = (axis + 1) % 3, r = (axis + 2) % 3;
    const int64_t c = yee_idx(d, i, j, k);
    const int64_t s = d.stride[axis];
    const int p = yee_axis_pos(axis, i, j, k);
    const yee_real b = pa.bh[p], a = pa.ah[p];
    const int from = half ? q : r;
    const yee_real v = b * psi[l] + a * (f.e[from][c + s] - f.e[from][c]);
    psi[l] = v;
    if (half)
        f.h[r][c] -= ch * v;
    else
        f.h[q][c] += ch * v;
}

/* Both halves: the correction of a 3-D cell. */
YEE_HD void yee_cpml_h(yee_fields f, yee_dims d, yee_real ch, yee_cpml_axis pa, int axis,
                       yee_real *YEE_RESTRICT psi_q, yee_real *YEE_RESTRICT psi_r, int64_t l,
                       int i, int j, int k)
{
    yee_cpml_h_half(f, d, ch, pa, axis, 0, psi_q, l, i, j, k);
    yee_cpml_h_half(f, d, ch, pa, axis, 1, psi_r, l, i, j, k);
}

/* A PEC wall on the low face of `axis` lies on the node plane p = 0: the two E components
 * tangential to it vanish there. (On the high face the wall is the plane p = n, which is the
 * ghost layer: never updated, so it stays zero.) */
YEE_HD void yee_pec_low(yee_fields f, yee_dims d, int axis, int i, int j, int k)
{
    const int64_t c = yee_idx(d, i, j, k);
    yee_real *q = f.e[(axis + 1) % 3], *r = f.e[(axis + 2) % 3];
    if (q) /* NULL: a component a 2-D run of one polarization does not have (yee_fields) */
        q[c] = YEE_R(0.0);
    if (r)
        r[c] = YEE_R(0.0);
}

/* A PMC wall (a magnetic mirror) on the low face of `axis` lies on the node plane p = 0, like a
 * PEC wall, but about it the tangential E is even and the tangential H odd: the ghost H plane
 * p = -1 takes the mirror image -H(p = 0) of the two tangential components, so the E update of
 * the wall nodes takes the difference across the wall as the whole, mirrored domain would (and
 * the same floats: H(-1/2) = -H(+1/2) holds exactly there). Call at p = 0 after H^{n+1/2} is
 * final and before the E update of node (i, j, k), which is the only reader of this ghost. */
YEE_HD void yee_pmc_low(yee_fields f, yee_dims d, int axis, int i, int j, int k)
{
    const int64_t c = yee_idx(d, i, j, k), s = d.stride[axis];
    yee_real *q = f.h[(axis + 1) % 3], *r = f.h[(axis + 2) % 3];
    if (q) /* NULL: not in this 2-D run's polarization (yee_fields) */
        q[c - s] = -q[c];
    if (r)
        r[c - s] = -r[c];
}

/* A point current J (already divided by the cell volume, normalized units) in E component
 * `comp` at cell index c: Ampere's -J term, E -= cb J (J at time n+1/2). The change alone is
 * yee_current_delta, for a backend that adds it atomically (two sources may share a cell). */
YEE_HD yee_real yee_current_delta(yee_media m, int comp, int64_t c, yee_real j)
{
    return -m.cb[m.mat[comp][c]] * j;
}

YEE_HD void yee_add_current(yee_fields f, yee_media m, int comp, int64_t c, yee_real j)
{
    f.e[comp][c] += yee_current_delta(m, comp, c, j);
}

/* A magnetic current M in H component `comp` (0..2 = Hx..Hz) at cell index c: Faraday's -M term,
 * H -= dt M (M at time n, like E^n; mu_r = 1). Plane-wave (TFSF) and one-sided sheet sources
 * use it together with yee_add_current: the field-matching corrections of Taflove & Hagness
 * (2005) sec. 5.6 are exactly such surface currents. */
YEE_HD void yee_add_mcurrent(yee_fields f, yee_real ch, int comp, int64_t c, yee_real m)
{
    f.h[comp][c] += -ch * m;
}

/* The value a running DFT samples at a node of a component (0..5 = Ex..Hz): the field there
 * (self), or with avg_axis >= 0 the mean of it (weight hi) and its neighbour one node below along
 * avg_axis (below, weight 1 - hi). Flux planes sit on the E nodes of a plane; the H components
 * there are half a cell off the plane on both sides, and their mean is the second-order value on
 * it (as Meep does); on a graded axis the cells either side differ and hi interpolates linearly.
 * hi = 0.5 gives the bytes of the plain mean (halving a float's value in double is exact). */
YEE_HD double yee_dft_value(int avg_axis, double hi, yee_real self, yee_real below)
{
    if (avg_axis < 0)
        return (double)self;
    return hi * (double)self + (1.0 - hi) * (double)below;
}

/* yee_dft_value at node (i,j,k) of the fields (the one place the sample's arithmetic is written:
 * the CPU also samples nodes it held during a sweep, kernels/cpu/backend_cpu.c). */
YEE_HD double yee_dft_sample(yee_fields f, yee_dims d, int comp, int avg_axis, double hi, int i,
                             int j, int k)
{
    const yee_real *a = yee_component_array(f, comp);
    const int64_t c = yee_idx(d, i, j, k);
    return yee_dft_value(avg_axis, hi, a[c], avg_axis < 0 ? a[c] : a[c - d.stride[avg_axis]]);
}

/* Adds one time sample v of node `node` (of nnodes) to the DFT sums of nfreq frequencies:
 * F(f) += v exp(i 2 pi f t) dt, with ph[2q] = cos(2 pi f_q t) dt and ph[2q+1] = sin(2 pi f_q t) dt
 * precomputed for this step. Sums are double (freq-major, node fastest): a float sum over
 * 10^4 steps would lose the 1e-4 accuracy spectra need. */
YEE_HD void yee_dft_add(double *YEE_RESTRICT re, double *YEE_RESTRICT im, int64_t node,
                        int64_t nnodes, int nfreq, const double *YEE_RESTRICT ph, double v)
{
    for (int q = 0; q < nfreq; q++) {
        re[(int64_t)q * nnodes + node] += v * ph[2 * q];
        im[(int64_t)q * nnodes + node] += v * ph[2 * q + 1];
    }
}

#ifdef __cplusplus
}
#endif

#endif
