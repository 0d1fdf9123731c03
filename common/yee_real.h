/* common/yee_real.h -- the floating-point type of fields and coefficients.
 *
 * float by default; configure with -DYEE_PRECISION=double for a double solver. YEE_R(x) writes a
 * literal in that type so a float build never promotes to double on the GPU by accident.
 * Host-side bookkeeping (positions, times, spectra) is always double.
 */
#ifndef YEE_COMMON_REAL_H
#define YEE_COMMON_REAL_H

#ifdef YEE_DOUBLE
typedef double yee_real;
#define YEE_R(x) (x)
#define YEE_REAL_NAME "double"
#else
typedef float yee_real;
#define YEE_R(x) (x##f)
#define YEE_REAL_NAME "float"
#endif

#endif
