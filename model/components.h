/* model/components.h -- the six field components of the Yee cell, in the order used everywhere:
 * field arrays, bit masks of monitors, sample lists of the backends, HDF5 names. The one
 * definition below io, geometry, solver and kernels (C and C++ alike: nvcc includes it).
 */
#ifndef YEE_MODEL_COMPONENTS_H
#define YEE_MODEL_COMPONENTS_H

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
