/* model/mesh.h -- the node lines of one axis of a graded (nonuniform) rectilinear mesh.
 *
 * A deck's grid.refine regions ask for cells of at most h inside [lo, hi] of an axis; the rest
 * of the axis has the base spacing. yee_mesh_axis places the nodes: every region edge is a node,
 * a region's interval is uniform at its finest requested spacing, and the rest grades from the
 * finer neighbours' cells up to the base spacing with neighbouring cells within the deck's
 * ratio: a target spacing s(x) grows by the factor `ratio` per cell up to an eighth of the base,
 * then by a fixed step (mesh.c ramp() says why), and the nodes sit at equal steps of the
 * integral of 1/s, found by quadrature so that no case needs its own algebra.
 * The kernels need nothing else: they already take one inverse spacing per node and axis
 * (kernels/yee_cell.h yee_lines), and model/nodes.h places every node on these lines.
 */
#ifndef YEE_MODEL_MESH_H
#define YEE_MODEL_MESH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Cells of at most h (um) over [lo, hi] of one axis. */
typedef struct yee_mesh_span {
    double lo, hi, h;
} yee_mesh_span;

/* Node coordinates x_0 = lo < x_1 < ... < x_n = hi of one axis: cells no wider than `base`,
 * no wider than spans[s].h inside span s, every span edge inside (lo, hi) a node, and the
 * widths of neighbouring cells within `ratio` (> 1) wherever there is room for the ramps (else
 * the ratio reached is larger: yee_mesh_max_ratio tells). The first `pad_lo` and last `pad_hi` cells have the
 * base width exactly (the CPML: its grading assumes uniform cells); spans must lie between them.
 * On success *lines (malloc'd, n + 1 values) and *n are set and 0 is returned; on a bad request
 * -1 with a sentence in why (a span outside the axis or in the padding, h <= 0). */
int yee_mesh_axis(double lo, double hi, double base, int pad_lo, int pad_hi,
                  const yee_mesh_span *spans, int nspans, double ratio, double **lines, int *n,
                  char *why, size_t nwhy);

/* Largest ratio of neighbouring cell widths of lines x_0..x_n (1 for a uniform axis). */
double yee_mesh_max_ratio(const double *lines, int n);

#ifdef __cplusplus
}
#endif

#endif
