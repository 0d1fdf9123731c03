/* tests/support/setup.h -- random backend setups for the tests that drive backends directly
 * (tests/unit/cpu_schedules.c, tests/gpu/ops.c): a generator, grid strides, and random 1-D lines
 * (inverse spacings and CPML profiles) with the CPML slabs and PEC walls of a test case.
 * Values are bounded, not physical: the tests compare bytes, not physics.
 */
#ifndef YEE_TESTS_SETUP_H
#define YEE_TESTS_SETUP_H

#include <stdint.h>

#include "kernels/backend.h"

typedef struct test_rng {
    uint64_t s; /* nonzero */
} test_rng;

/* xorshift64: [0, 1). */
double test_rnd(test_rng *r);
/* [lo, hi) as yee_real. */
yee_real test_rval(test_rng *r, double lo, double hi);
/* [0, n). */
int test_below(test_rng *r, int n);

/* s->dims for n interior cells per axis; returns the length of one padded field array. */
int64_t test_dims(yee_setup *s, const int n[3]);

/* Random ie, be, ae (n+1 per axis) and ih, bh, ah (n) over whole axes (the backends read the
 * profiles inside slabs only), in one malloc'd block the caller frees; then one CPML slab of
 * pml[a][side] cells on each face that asks for one (overlapping at edges and corners) and the
 * low PEC walls pec[a]. Inverse spacings in (0.7, 1), b in (0.5, 1), a in (-0.2, 0). */
yee_real *test_lines_slabs_walls(yee_setup *s, test_rng *r, const int pml[3][2],
                                 const int pec[3]);

/* A setup of n cells of one material (ca 1, cb 0.4; ch 0.45), random lines, no CPML, no walls:
 * fills s, its ca and cb pointing at coef[0] and coef[1] (which must outlive it). Returns the
 * lines block (test_lines_slabs_walls) and sets *mat, the material index array of all three
 * components; the caller frees both. */
yee_real *test_one_material(yee_setup *s, test_rng *r, const int n[3], yee_real coef[2],
                            uint8_t **mat);

#endif
