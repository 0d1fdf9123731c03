/* tests/unit/harminv_modes.c -- postproc/harminv_modes.c against what libharminv returns.
 *
 * A real series of two resonances (Q 200 and 5000) and one fast-dying component (Q 3). harminv,
 * fed a real series, returns each resonance's exp(+i w t) member and may return its
 * exp(-i w t) mirror too: the test first checks that the raw libharminv output of this series
 * has such a negative frequency (or the rest proves nothing), then that yee_harminv_modes lists
 * each resonance once, with its frequency, Q and amplitude (half the real amplitude: the positive
 * member's), drops the Q-3 component at the default threshold and keeps it with min_q = 0. Before the fix every mode came twice (|f| folded the
 * mirror onto +f). */
#include <complex.h>
#include <harminv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "postproc/harminv_modes.h"

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL %s\n", what);
        failures++;
    }
}

int main(void)
{
    enum { N = 3000 };
    const double dt = 0.1;
    const double f[3] = {0.5, 1.2, 0.8}, q[3] = {200.0, 5000.0, 3.0}, a[3] = {1.0, 0.5, 0.8};
    static double x[N];
    static harminv_complex c[N];
    for (int k = 0; k < N; k++) {
        const double t = k * dt;
        x[k] = 0.0;
        for (int m = 0; m < 3; m++)
            x[k] += a[m] * cos(2 * M_PI * f[m] * t + 0.3 * m) * exp(-M_PI * f[m] * t / q[m]);
        c[k] = x[k];
    }

    /* the raw library on the same band: a negative frequency must be among its answers */
    harminv_data hd = harminv_data_create(N, c, 0.3 * dt, 1.5 * dt, 100);
    harminv_solve(hd);
    int negative = 0;
    for (int k = 0; k < harminv_get_num_freqs(hd); k++)
        negative += harminv_get_freq(hd, k) < 0;
    harminv_data_destroy(hd);
    printf("libharminv: %d negative frequencies among its modes\n", negative);
    expect(negative > 0, "libharminv returns a mirror (negative) frequency for a real series");

    yee_harminv_mode *m = NULL;
    int n = 0;
    yee_err err;
    /* every error estimate accepted: only the Q threshold may drop the Q-3 component */
    if (yee_harminv_modes(x, 1, N, dt, 0.3, 1.5, 100, 1e300, YEE_HARMINV_MIN_Q, &m, &n, &err) <
        0) {
        printf("FAIL harminv: %s\n", err.msg);
        return 1;
    }
    for (int k = 0; k < n; k++)
        printf("mode %d: f %.9f Q %.3f amp %.4f error %.2g\n", k, m[k].freq, m[k].q, m[k].amp,
               m[k].error);
    expect(n == 2, "two modes at the default Q threshold (each once, the Q-3 one dropped)");
    for (int k = 0; k < n && k < 2; k++) {
        const int want = k == 0 ? 0 : 1; /* sorted by frequency: 0.5, 1.2 */
        char what[128];
        snprintf(what, sizeof what, "mode %d: f %.9f vs %.9f, Q %.2f vs %.2f", k, m[k].freq,
                 f[want], m[k].q, q[want]);
        /* the Q-3 component beside them costs a few 1e-6 in f and a few 1e-3 in Q */
        expect(fabs(m[k].freq / f[want] - 1) < 2e-5 && fabs(m[k].q / q[want] - 1) < 2e-2 &&
                   fabs(m[k].amp / (a[want] / 2) - 1) < 1e-2,
               what);
    }
    free(m);

    if (yee_harminv_modes(x, 1, N, dt, 0.3, 1.5, 100, 1e300, 0.0, &m, &n, &err) < 0) {
        printf("FAIL harminv: %s\n", err.msg);
        return 1;
    }
    int low_q = 0;
    for (int k = 0; k < n; k++) {
        printf("min_q 0, mode %d: f %.6f Q %.3f\n", k, m[k].freq, m[k].q);
        expect(m[k].freq > 0, "only positive frequencies");
        low_q += fabs(m[k].q) < YEE_HARMINV_MIN_Q; /* found near f 0.82, Q 4: harminv's best */
    }
    expect(n == 3 && low_q == 1, "min_q = 0 keeps the Q-3 component, once");
    free(m);

    /* a growing mode (negative Q, as an unstable run gives): the threshold is on |Q|, so it
     * stays at the default threshold, with its sign */
    for (int k = 0; k < N; k++) {
        const double t = k * dt;
        x[k] = cos(2 * M_PI * 0.7 * t) * exp(M_PI * 0.7 * t / 500.0);
    }
    if (yee_harminv_modes(x, 1, N, dt, 0.3, 1.5, 100, 1e300, YEE_HARMINV_MIN_Q, &m, &n, &err) <
        0) {
        printf("FAIL harminv: %s\n", err.msg);
        return 1;
    }
    for (int k = 0; k < n; k++)
        printf("growing, mode %d: f %.6f Q %.3f\n", k, m[k].freq, m[k].q);
    expect(n == 1 && fabs(m[0].freq / 0.7 - 1) < 1e-5 && fabs(m[0].q / -500.0 - 1) < 1e-2,
           "a growing mode (Q -500) is kept, with its negative Q");
    free(m);

    if (failures == 0)
        printf("PASS unit_harminv_modes\n");
    return failures ? 1 : 0;
}
