/* model/components.h -- the six field components of the Yee cell, in the order used everywhere:
 * field arrays, bit masks of monitors, sample lists of the backends, HDF5 names. The one
 * definition below io, geometry, solver and kernels (C and C++ alike: nvcc includes it).
 */
#ifndef YEE_MODEL_COMPONENTS_H
#define YEE_MODEL_COMPONENTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum yee_component {
    YEE_EX = 0, YEE_EY, YEE_EZ, YEE_HX, YEE_HY, YEE_HZ, YEE_NCOMP
} yee_component;

/* The components a 2-D run advances (simulation.polarization): TM is Ez, Hx, Hy; TE is Hz,
 * Ex, Ey; in 2-D the two never couple. Bits, so that TM | TE is both. */
enum { YEE_POL_BOTH = 0, YEE_POL_TM = 1, YEE_POL_TE = 2 };

/* 1 when a run of polarization pol (YEE_POL_*) has component c: TM Ez, Hx, Hy; TE Hz, Ex, Ey;
 * YEE_POL_BOTH (every 3-D run) all six. */
static inline int yee_pol_has(int pol, int c)
{
    const int tm = c == YEE_EZ || c == YEE_HX || c == YEE_HY;
    return pol == YEE_POL_BOTH || (pol == YEE_POL_TM ? tm : !tm);
}

/* Padded index of the u-th (u = 0..3) of the four nodes of E component b around the node of E
 * component a at padded index c, in arrays of strides stride[]: +(u & 1) along a, -(u >> 1)
 * along b (Ex(i+1/2, j, k) has Ey(i, j-1/2), Ey(i, j+1/2), Ey(i+1, j-1/2), Ey(i+1, j+1/2)). The
 * relation is symmetric: the a node is the neighbour (u & 1) << 1 | u >> 1 of the b node. The
 * off-diagonal subpixel terms couple these pairs (kernels/yee_tensor.h). */
static inline int64_t yee_e_neighbour(const int64_t stride[3], int64_t c, int a, int b, int u)
{
    return c + (u & 1) * stride[a] - (u >> 1) * stride[b];
}

/* 1 for Ex, Ey, Ez (time n), 0 for Hx, Hy, Hz (time n + 1/2). */
#define YEE_IS_ELECTRIC(c) ((c) < YEE_HX)

/* Name of a component ("Ex", ...); NULL for an invalid value. */
const char *yee_component_name(int c);

/* Parse "Ex".."Hz" (case-insensitive); returns the component or -1. */
int yee_component_parse(const char *s);

#ifdef __cplusplus
}
#endif

#endif
