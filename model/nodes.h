/* model/nodes.h -- where the nodes of each field component sit on the global grid, in um. The
 * staggering is Yee's (1966, kernels/yee_cell.h): every component of cell i lives at array index
 * i, half a cell off along the axes the staggering names. Monitors, sources and geometry place
 * themselves on nodes through these functions only.
 */
#ifndef YEE_MODEL_NODES_H
#define YEE_MODEL_NODES_H

#include "model/config.h"

/* Where the nodes of each component sit (Yee 1966; kernels/yee_cell.h): half-cell offset of
 * component c (YEE_EX..YEE_HZ) along axis a: Ex is at i+1/2 on x, Hx at j+1/2 and k+1/2. */
double yee_stagger(int c, int a);

/* Position (um) of component c's node i (global) along axis a. */
double yee_node_position(const yee_config *cfg, int c, int a, int i);

/* Global node of component c nearest to x (um) along axis a, clamped to 0..n-1. */
int yee_nearest_node(const yee_config *cfg, int c, int a, double x);

/* Global nodes of component c inside [min, max] (um) along axis a: *lo and *count >= 1; a plane
 * (min == max) or a box thinner than one cell takes the nearest node. */
void yee_node_range(const yee_config *cfg, int c, int a, double min, double max, int *lo,
                    int *count);

#endif
