/* postproc/harminv_modes.c -- harminv on one real series (postproc/harminv_modes.h).
 * libharminv works in cycles per sample; this file converts to and from the caller's time unit
 * and filters and sorts the modes. It reads no file and prints nothing.
 */
#include "postproc/harminv_modes.h"

#include <complex.h>
#include <harminv.h>
#include <math.h>
#include <stdlib.h>

static int by_freq(const void *a, const void *b)
{
    const double fa = ((const yee_harminv_mode *)a)->freq;
    const double fb = ((const yee_harminv_mode *)b)->freq;
    return (fa > fb) - (fa < fb);
}

int yee_harminv_modes(const double *x, long stride, long n, double dt, double fmin, double fmax,
                      int nbasis, double max_error, double min_q, yee_harminv_mode **modes,
                      int *nmodes_out, yee_err *err)
{
    *modes = NULL;
    *nmodes_out = 0;
    if (n < 16)
        return yee_fail(err, YEE_ERR_NUMERIC, "only %ld samples to analyse (harminv needs 16 "
                        "or more)", n);
    const double f_nyq = 0.5 / dt;
    const double lo = fmin > 0 ? fmin : 1e-3 * f_nyq;
    const double hi = fmax > 0 && fmax < f_nyq ? fmax : f_nyq;
    harminv_complex *sig = (harminv_complex *)malloc((size_t)n * sizeof *sig);
    if (!sig)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %ld samples", n);
    for (long k = 0; k < n; k++)
        sig[k] = x[k * stride];
    /* harminv's band is in cycles per sample: f * dt */
    harminv_data hd = harminv_data_create((int)n, sig, lo * dt, hi * dt, nbasis > 0 ? nbasis : 100);
    harminv_solve(hd);
    const int nf = harminv_get_num_freqs(hd);
    yee_harminv_mode *m = (yee_harminv_mode *)calloc((size_t)nf + 1, sizeof *m);
    if (!m) {
        harminv_data_destroy(hd);
        free(sig);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %d modes", nf);
    }
    int kept = 0;
    for (int k = 0; k < nf; k++) {
        harminv_complex amp;
        harminv_get_amplitude(&amp, hd, k);
        yee_harminv_mode md;
        /* signed: the negative member of a pair is the mirror of the positive one, not a mode */
        md.freq = harminv_get_freq(hd, k) / dt;
        md.decay = harminv_get_decay(hd, k) / dt;
        md.q = harminv_get_Q(hd, k);
        md.amp = cabs(amp);
        md.error = harminv_get_freq_error(hd, k);
        if (md.freq >= lo && md.freq <= hi && md.error <= max_error && isfinite(md.q) &&
            (min_q <= 0 || fabs(md.q) >= min_q))
            m[kept++] = md;
    }
    harminv_data_destroy(hd);
    free(sig);
    if (kept == 0) {
        free(m);
        return YEE_OK;
    }
    qsort(m, (size_t)kept, sizeof *m, by_freq);
    *modes = m;
    *nmodes_out = kept;
    return YEE_OK;
}

int yee_harminv_strongest(const yee_harminv_mode *modes, int n)
{
    int best = -1;
    for (int k = 0; k < n; k++)
        if (best < 0 || modes[k].amp > modes[best].amp)
            best = k;
    return best;
}

int yee_harminv_merge(yee_harminv_mode *in, int n, double rel_tol, yee_harminv_mode **out,
                      int *nout, yee_err *err)
{
    *out = NULL;
    *nout = 0;
    if (n <= 0)
        return YEE_OK;
    qsort(in, (size_t)n, sizeof *in, by_freq);
    yee_harminv_mode *m = (yee_harminv_mode *)malloc((size_t)n * sizeof *m);
    if (!m)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %d modes", n);
    int kept = 0;
    for (int first = 0; first < n;) {
        int best = first, last = first + 1;
        double amp = in[first].amp;
        while (last < n && in[last].freq - in[first].freq <= rel_tol * fabs(in[first].freq)) {
            if (in[last].error < in[best].error)
                best = last;
            if (in[last].amp > amp)
                amp = in[last].amp;
            last++;
        }
        m[kept] = in[best];
        m[kept].amp = amp;
        kept++;
        first = last;
    }
    *out = m;
    *nout = kept;
    return YEE_OK;
}
