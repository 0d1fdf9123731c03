/* solver/source.h -- time profiles of sources (Gaussian pulse, CW with ramp, Ricker wavelet).
 * Pure functions of time; the solver samples them at the half steps where J lives.
 */
#ifndef YEE_SOLVER_SOURCE_H
#define YEE_SOLVER_SOURCE_H

#include "io/config.h"

/* Value of the current moment I*l(t) at time t (c-units):
 *   gaussian: A sin(2 pi f (t - t0)) exp(-(t - t0)^2 / (2 s^2)),  s = 1 / (2 pi fwidth)
 *             (zero mean, so a dipole leaves no static charge behind)
 *   cw:       A sin(2 pi f (t - t0)) w(t), w a raised-cosine ramp from 0 to 1 over `ramp`
 *   ricker:   A (1 - 2 (pi f tau)^2) exp(-(pi f tau)^2),  tau = t - t0                      */
double yee_profile_value(const yee_profile *p, double t);

/* Time after which the profile is negligible (|value| < 1e-9 A, or never for cw: +inf). */
double yee_profile_end(const yee_profile *p);

/* Highest frequency with significant content (c/um), for resolution checks:
 * gaussian f + 3 fwidth, cw f, ricker 3 f. */
double yee_profile_fmax(const yee_profile *p);

#endif
