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

/* Node x_i (um) of the cell edges of axis a, i = -1..n+1: the ghost lines lie one edge cell
 * (a periodic axis: the opposite edge cell) beyond the ends. Uniform axis: origin + i dx. */
double yee_mesh_line(const yee_config *cfg, int a, int i);

/* Width (um) of cell i along axis a, x_{i+1} - x_i, for i = -1..n (ghosts as above). */
double yee_cell_width(const yee_config *cfg, int a, int i);

/* Width (um) of the dual cell around integer node i along axis a, (w_{i-1} + w_i) / 2: the
 * spacing of the H nodes an E update differences there (i = 0..n). */
double yee_dual_width(const yee_config *cfg, int a, int i);

/* Width (um) along axis a of the cell that component c's node i stands for: the cell width where
 * c is staggered along a, the dual width where it sits on a line. Sources spread over it, DFT
 * and flux sums weigh by it. */
double yee_node_width(const yee_config *cfg, int c, int a, int i);

/* The cell [*lo, *hi] (um) along axis a that component c's node i stands for (its width is
 * yee_node_width): [x_i, x_i+1] where c is staggered along a, else from the middle of cell i-1
 * to the middle of cell i. */
void yee_node_cell(const yee_config *cfg, int c, int a, int i, double *lo, double *hi);

/* Narrowest cell of axis a (um): it sets the time step (model/config.h). */
double yee_min_width(const yee_config *cfg, int a);

/* Upper end of axis a (um): x_n. */
double yee_domain_end(const yee_config *cfg, int a);

/* 1 when any axis of cfg is graded (cfg->mesh). */
int yee_graded(const yee_config *cfg);

/* Position (um) of component c's node i (global) along axis a: a line, or the middle of a cell
 * where c is staggered along a. */
double yee_node_position(const yee_config *cfg, int c, int a, int i);

/* Global node of component c nearest to x (um) along axis a, clamped to 0..n-1. */
int yee_nearest_node(const yee_config *cfg, int c, int a, double x);

/* Global nodes of component c inside [min, max] (um) along axis a: *lo and *count >= 1; a plane
 * (min == max) or a box thinner than one cell takes the nearest node. */
void yee_node_range(const yee_config *cfg, int c, int a, double min, double max, int *lo,
                    int *count);

#endif
