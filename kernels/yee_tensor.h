/* kernels/yee_tensor.h -- the off-diagonal terms of a subpixel-averaged permittivity tensor
 * (deck grid.subpixel_tensor): the per-node arithmetic, shared by both backends (STYLE 3.2).
 *
 * At a node on an interface between dielectrics the averaged permittivity is a tensor
 * (Kottke, Farjadpour & Johnson, PRE 77, 036611 (2008), eq. 5):
 *   eps^-1 = P <1/eps> + (1 - P) <eps>^-1,   P = n n^T, n the interface normal,
 * and E = eps^-1 D. The bulk update (kernels/yee_cell.h) already applies the diagonal: its cb
 * of the node's entry is dt (eps^-1)_aa, so E_a += dt (eps^-1)_aa curl_a H. The nodes are
 * lossless dielectrics (ca = 1), so E_a^{n+1} - E_a^n = (eps^-1 (D^{n+1} - D^n))_a with
 * D^{n+1} - D^n = dt curl H^{n+1/2}; the off-diagonal part adds
 *   E_a += dt (eps^-1)_ab <curl_b H> + dt (eps^-1)_ac <curl_c H>,
 * where <curl_b H> is the mean over the four b nodes around the a node (at +0/+1 along a and
 * -1/+0 along b: Ex(i+1/2, j, k) sees Ey(i, j-1/2), Ey(i, j+1/2), Ey(i+1, j-1/2),
 * Ey(i+1, j+1/2)), as Meep interpolates D (step_generic.cpp). Each curl is the bulk update's
 * own expression (without CPML: the geometry keeps these nodes two cells clear of every CPML
 * layer and global face, geometry/geometry.c tensor_node), so a node reads H one cell on either
 * side along a and one below along the others: no ghost layer the halo does not fill.
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

/* One node with off-diagonal terms: component comp at padded index c, cell at[] (yee_idx(at) =
 * c), w[s] = dt (eps^-1)_{comp, comp+1+s} / 4 (axes mod 3; 0: that term is absent), and
 * curl[s][u] the index in the curl list of its u-th neighbour of component comp+1+s (u = 0..3:
 * +u&1 along comp, -(u>>1) along comp+1+s; -1 where w[s] = 0). A neighbour's curl serves up to
 * eight terms, so each is computed once per step (yee_curl_h_of) and summed from the list. */
typedef struct yee_tensor_node {
    int64_t c;
    int at[3];
    int comp;
    yee_real w[2];
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

/* The off-diagonal terms of node n, added to its E (after its bulk update), from the curls of
 * this step's curl list (second pass). */
YEE_HD void yee_tensor_e(yee_fields f, yee_tensor_node n, const yee_real *curl)
{
    yee_real add = YEE_R(0.0);
    for (int s = 0; s < 2; s++) {
        if (n.w[s] == YEE_R(0.0))
            continue;
        yee_real sum = YEE_R(0.0);
        for (int u = 0; u < 4; u++)
            sum += curl[n.curl[s][u]];
        add += n.w[s] * sum;
    }
    f.e[n.comp][n.c] += add;
}

#ifdef __cplusplus
}
#endif

#endif
