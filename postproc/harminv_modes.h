/* postproc/harminv_modes.h -- resonant modes of one real time series by filter diagonalization
 * (libharminv; Mandelshtam & Taylor 1997), as Meep's Harminv: frequency, decay rate, Q, amplitude.
 *
 * Pure computation on an array the caller owns: no file, no MPI, no printing. `yee sweep` uses it
 * for resonance results (app/sweep.c) and `yee resonances` (postproc/resonances.c); units
 * are whatever the caller's time unit is.
 */
#ifndef YEE_POSTPROC_HARMINV_MODES_H
#define YEE_POSTPROC_HARMINV_MODES_H

#include "common/yee_err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yee_harminv_mode {
    double freq;   /* > 0, cycles per time unit of dt */
    double decay;  /* amplitude decay rate, 1 / time unit (x ~ exp(-decay t)) */
    double q;      /* quality factor pi f / decay */
    double amp;    /* |complex amplitude| */
    double error;  /* harminv's relative error estimate of the frequency */
} yee_harminv_mode;

/* Default of min_q: a mode with |Q| below it decays to 1/e within Q/pi periods (3 at Q = 10),
 * too few for harminv to tell it from the source's transient and the noise; the spurious modes
 * of a probe's series have |Q| of 2-20. Meep drops |Q| < 50; yee keeps the lossy resonances of
 * plasmonic and absorbing structures (Q 10-50) and lets the caller choose. */
#define YEE_HARMINV_MIN_Q 10.0

/* Modes of the real series x[k * stride], k = 0..n-1, sampled every dt, searched in the band
 * [fmin, fmax] (same time unit; fmin <= 0 means 1e-3 of Nyquist, fmax <= 0 or above Nyquist means
 * Nyquist 0.5/dt) with nbasis basis functions (100 is harminv's usual). A real series is a sum of
 * pairs exp(+i 2 pi f t) and exp(-i 2 pi f t): harminv may return both members, and only the
 * positive frequency is kept (each mode once). Also dropped: modes outside the band, with an error
 * estimate above max_error, or with |Q| below min_q (<= 0: none dropped by Q). A negative Q (a
 * mode that grows) with |Q| >= min_q is kept: a lossless mode's decay is zero to rounding and
 * comes out with either sign. *modes (malloc'd, caller frees; NULL when none) is sorted by
 * frequency, *nmodes_out its length (0 is not an error).
 * Errors: YEE_ERR_NUMERIC when n < 16 ("only N samples"), YEE_ERR_NOMEM. */
int yee_harminv_modes(const double *x, long stride, long n, double dt, double fmin, double fmax,
                      int nbasis, double max_error, double min_q, yee_harminv_mode **modes,
                      int *nmodes_out, yee_err *err);

/* One list from the modes several series of the same run found (probes, components): modes
 * whose frequencies lie within rel_tol * f of the lowest of their group are one mode, which
 * takes the frequency, decay, Q and error of the member with the smallest error estimate and
 * the largest amplitude of the group (each series sees a mode with its own weight). A degenerate
 * pair is one mode then, as harminv on one series gives it. `in` (n modes, any order) is sorted
 * in place; *out (malloc'd, caller frees; NULL when n == 0) is sorted by frequency.
 * Errors: YEE_ERR_NOMEM. */
int yee_harminv_merge(yee_harminv_mode *in, int n, double rel_tol, yee_harminv_mode **out,
                      int *nout, yee_err *err);

/* Index of the mode with the largest amplitude, -1 when n == 0. */
int yee_harminv_strongest(const yee_harminv_mode *modes, int n);

#ifdef __cplusplus
}
#endif

#endif
