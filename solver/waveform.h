/* solver/waveform.h -- time profiles of sources (Gaussian pulse, CW with ramp, Ricker wavelet,
 * tabulated samples). Pure functions of time; the solver samples them at the times where the
 * currents (or, for plane waves, the incident fields) live.
 */
#ifndef YEE_SOLVER_WAVEFORM_H
#define YEE_SOLVER_WAVEFORM_H

#include "model/config.h"

/* Value of the current moment I*l(t) at time t (c-units):
 *   gaussian: A sin(2 pi f (t - t0)) exp(-(t - t0)^2 / (2 s^2)),  s = 1 / (2 pi fwidth)
 *             (zero mean, so a dipole leaves no static charge behind)
 *   cw:       A sin(2 pi f (t - t0)) w(t), w a raised-cosine ramp from 0 to 1 over `ramp`
 *   ricker:   A (1 - 2 (pi f tau)^2) exp(-(pi f tau)^2),  tau = t - t0                      */
double yee_profile_value(const yee_profile *p, double t);

/* The profile and its quadrature partner: *in = yee_profile_value(p, t) and *quad the same with
 * the carrier sin replaced by cos (gaussian, cw), 0 for profiles without a carrier (ricker, table).
 * A source point with carrier phase phi then carries in cos(phi) + quad sin(phi)
 * = A env(t) sin(2 pi f (t - t0) + phi): a phase shift of the carrier, not of the envelope. */
void yee_profile_iq(const yee_profile *p, double t, double *in, double *quad);

/* Time after which the profile is negligible (|value| < 1e-9 A, or never for cw: +inf; table:
 * its last sample). */
double yee_profile_end(const yee_profile *p);


#endif
