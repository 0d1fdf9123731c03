/* kernels/yee_tensor.h -- the off-diagonal terms of a subpixel-averaged permittivity tensor
 * (deck grid.subpixel_tensor): the per-node arithmetic, shared by both backends (STYLE 3.2).
 *
 * At a node on an interface between dielectrics the averaged permittivity is a tensor
 * (Kottke, Farjadpour & Johnson, PRE 77, 036611 (2008), eq. 5):
 *   eps^-1 = P <1/eps> + (1 - P) <eps>^-1,   P = n n^T, n the interface normal,
 * and E = eps^-1 D. The bulk update (kernels/yee_cell.h) already applies the diagonal: its cb
 * of the node's entry is dt (eps^-1)_aa, so E_a += dt (eps^-1)_aa curl_a H. The nodes are
 * lossless dielectrics (ca = 1), so E_a^{n+1} - E_a^n = (eps^-1 (D^{n+1} - D^n))_a with
 * D^{n+1} - D^n = dt curl H^{n+1/2}; the off-diagonal part couples each a node p to the four b
 * nodes q around it (at +0/+1 along a and -1/+0 along b: Ex(i+1/2, j, k) and Ey(i, j-1/2),
 * Ey(i, j+1/2), Ey(i+1, j-1/2), Ey(i+1, j+1/2)). Meep's gather, E_p += dt (eps^-1)_ab(p) <curl_b
 * H>_q (step_generic.cpp), is not symmetric in p and q, and here it grew without bound in a
 * closed cavity; the coupling is made symmetric instead (Werner & Cary, J. Comput. Phys. 226,
 * 1085 (2007)), with V the nodes' dual-cell volumes:
 *   S_pq = (V_p (eps^-1)_ab(p) + V_q (eps^-1)_ba(q)) / 8,
 *   E_p += dt S_pq / V_p curl_b H(q),   E_q += dt S_pq / V_q curl_a H(p),
 * which is Meep's 1/4-mean where both nodes carry the same tensor, and keeps the discrete energy
 * (solver/structure.c builds the rows). Each curl is the bulk update's own expression (without
 * CPML: the geometry keeps the averaged nodes two cells clear of every CPML layer and global face,
 * geometry/geometry.c tensor_node, so every curl read lies a cell inside), so a row reads H one
 * cell on either side of it along each axis: no ghost layer the halo does not fill on one rank.
 *
 * Order (kernels/stages.h e_tensor): after the curl stage of the same box, before the sources;
 * it reads only H^{n+1/2}, which no E stage changes, so the order among nodes is free. Two passes:
 * the curl of every neighbour node in the curl list (all of them, whatever the box: a node's
 * neighbours may lie outside it), then each tensor node of the box sums its neighbours'.
 */
#ifndef YEE_KERNELS_TENSOR_H
#define YEE_KERNELS_TENSOR_H

#include "kernels/yee_cell.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A node whose curl H some tensor node reads: component comp at padded index c, cell at[]. */
typedef struct yee_curl_node {
    int64_t c;
    int at[3];
    int comp;
} yee_curl_node;

/* One row of the off-diagonal operator: component comp at padded index c, cell at[] (yee_idx(at)
 * = c), adding w[s][u] curl H of its u-th neighbour of component comp+1+s (axes mod 3; u = 0..3:
 * +(u & 1) along comp, -(u >> 1) along comp+1+s: model/components.h yee_e_neighbour), whose curl is entry curl[s][u] of the curl
 * list (-1: no coupling, w = 0). A neighbour's curl serves up to eight rows, so each is computed
 * once per step (yee_curl_h_of) and read from the list. */
typedef struct yee_tensor_node {
    int64_t c;
    int at[3];
    int comp;
    yee_real w[2][4];
    int curl[2][4];
} yee_tensor_node;

/* 1 if node n lies in box b. */
YEE_HD int yee_tensor_in_box(yee_tensor_node n, yee_box b)
{
    return n.at[0] >= b.lo[0] && n.at[0] < b.hi[0] && n.at[1] >= b.lo[1] && n.at[1] < b.hi[1] &&
           n.at[2] >= b.lo[2] && n.at[2] < b.hi[2];
}

/* curl_b H at the b node of padded index c, cell (i, j, k): the bracket of yee_update_e_coef.
 * An absent array (a 2-D run of one polarization) contributes the exact zero its 2-D
 * difference would. */
YEE_HD yee_real yee_curl_h_node(yee_fields f, yee_dims d, yee_lines L, int b, int64_t c, int i,
                                int j, int k)
{
    const int64_t sy = d.stride[1], sz = d.stride[2];
    const yee_real *hx = f.h[0], *hy = f.h[1], *hz = f.h[2];
    const yee_real ix = L.ie[0][i], iy = L.ie[1][j], iz = L.ie[2][k];
    switch (b) {
    case 0:
        return (hz ? iy * (hz[c] - hz[c - sy]) : YEE_R(0.0)) -
               (hy ? iz * (hy[c] - hy[c - sz]) : YEE_R(0.0));
    case 1:
        return (hx ? iz * (hx[c] - hx[c - sz]) : YEE_R(0.0)) -
               (hz ? ix * (hz[c] - hz[c - 1]) : YEE_R(0.0));
    default:
        return (hy ? ix * (hy[c] - hy[c - 1]) : YEE_R(0.0)) -
               (hx ? iy * (hx[c] - hx[c - sy]) : YEE_R(0.0));
    }
}

/* The curl of list node n (first pass of a step's tensor terms). */
YEE_HD yee_real yee_curl_h_of(yee_fields f, yee_dims d, yee_lines L, yee_curl_node n)
{
    return yee_curl_h_node(f, d, L, n.comp, n.c, n.at[0], n.at[1], n.at[2]);
}

/* The off-diagonal terms of row n, added to its E (after its bulk update), from the curls of
 * this step's curl list (second pass). */
YEE_HD void yee_tensor_e(yee_fields f, yee_tensor_node n, const yee_real *curl)
{
    yee_real add = YEE_R(0.0);
    for (int s = 0; s < 2; s++)
        for (int u = 0; u < 4; u++)
            if (n.curl[s][u] >= 0)
                add += n.w[s][u] * curl[n.curl[s][u]];
    f.e[n.comp][n.c] += add;
}

#ifdef __cplusplus
}
#endif

#endif
