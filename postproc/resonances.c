/* postproc/resonances.c -- `yee resonances RUN.h5 --probe NAME`: resonant frequencies, decay
 * rates and quality factors of a probe's time series by filter diagonalization (libharminv,
 * Mandelshtam & Taylor 1997), as Meep's Harminv does. Reads the file; never runs a simulation.
 * A subcommand of `yee` (solver/main.c dispatches to yee_resonances_main), not a program.
 *
 * Output: one line per mode, sorted by frequency, columns
 *   freq_THz  freq_c_um  wavelength_um  decay_per_fs  Q  amplitude  error
 * (freq_c_um is the frequency in units of c / 1 um; error is harminv's relative error estimate).
 */
#include <complex.h>
#include <harminv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "postproc/resonances.h"

#include "io/config.h"
#include "io/h5read.h"

static void usage(FILE *out)
{
    fputs("usage: yee resonances RUN.h5 --probe NAME [--component Ez] [--fmin THz] [--fmax THz]\n"
          "                      [--start FS] [--modes N] [--max-error E]\n"
          "Extracts resonances (frequency, decay, Q) from a probe's time series with harminv.\n"
          "--start skips the part of the series before the given time (the source), fs.\n",
          out);
}

typedef struct mode {
    double f, decay, q, amp, error;
} mode;

static int by_freq(const void *a, const void *b)
{
    const double fa = ((const mode *)a)->f, fb = ((const mode *)b)->f;
    return (fa > fb) - (fa < fb);
}

int yee_resonances_main(int argc, char **argv)
{
    const char *path = NULL, *probe = NULL, *component = NULL;
    double fmin_thz = -1.0, fmax_thz = -1.0, start_fs = 0.0, max_error = 1e-2;
    int nmodes = 100;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--probe") == 0 && more) {
            probe = argv[++i];
        } else if (strcmp(a, "--component") == 0 && more) {
            component = argv[++i];
        } else if (strcmp(a, "--fmin") == 0 && more) {
            fmin_thz = atof(argv[++i]);
        } else if (strcmp(a, "--fmax") == 0 && more) {
            fmax_thz = atof(argv[++i]);
        } else if (strcmp(a, "--start") == 0 && more) {
            start_fs = atof(argv[++i]);
        } else if (strcmp(a, "--modes") == 0 && more) {
            nmodes = atoi(argv[++i]);
        } else if (strcmp(a, "--max-error") == 0 && more) {
            max_error = atof(argv[++i]);
        } else if (a[0] != '-' && !path) {
            path = a;
        } else {
            fprintf(stderr, "yee resonances: unexpected argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!path || !probe) {
        usage(stderr);
        return 2;
    }
    yee_probe_series s;
    yee_err err;
    if (yee_h5_read_probe(path, probe, &s, &err) < 0) {
        fprintf(stderr, "yee resonances: %s\n", err.msg);
        return 1;
    }
    int col = 0;
    if (component) {
        col = -1;
        for (int c = 0; c < s.ncomp; c++)
            if (strcasecmp(s.components[c], component) == 0)
                col = c;
        if (col < 0) {
            fprintf(stderr, "yee resonances: probe '%s' has no component '%s'\n", probe, component);
            yee_probe_series_free(&s);
            return 1;
        }
    }
    const double dt_fs = s.dt * YEE_TIME_UNIT_FS;
    long first = (long)ceil((start_fs - s.t0[col] * YEE_TIME_UNIT_FS) / dt_fs);
    if (first < 0)
        first = 0;
    const long n = s.nsteps - first;
    if (n < 16) {
        fprintf(stderr, "yee resonances: only %ld samples after --start %g fs\n", n, start_fs);
        yee_probe_series_free(&s);
        return 1;
    }
    harminv_complex *sig = (harminv_complex *)malloc((size_t)n * sizeof *sig);
    for (long i = 0; i < n; i++)
        sig[i] = s.data[(first + i) * s.ncomp + col];
    /* harminv works in cycles per sample: f_sample = f * dt. */
    const double f_nyq = 0.5 / s.dt; /* c/um */
    double lo = fmin_thz > 0 ? fmin_thz / YEE_C_UM_THZ : 1e-3 * f_nyq;
    double hi = fmax_thz > 0 ? fmax_thz / YEE_C_UM_THZ : f_nyq;
    harminv_data hd = harminv_data_create((int)n, sig, lo * s.dt, hi * s.dt, nmodes);
    harminv_solve(hd);
    const int nf = harminv_get_num_freqs(hd);
    mode *modes = (mode *)calloc((size_t)nf + 1, sizeof *modes);
    int kept = 0;
    for (int k = 0; k < nf; k++) {
        harminv_complex amp;
        harminv_get_amplitude(&amp, hd, k);
        mode m;
        m.f = fabs(harminv_get_freq(hd, k)) / s.dt;
        m.decay = harminv_get_decay(hd, k) / s.dt;
        m.q = harminv_get_Q(hd, k);
        m.amp = cabs(amp);
        m.error = harminv_get_freq_error(hd, k);
        if (m.f >= lo && m.f <= hi && m.error <= max_error)
            modes[kept++] = m;
    }
    qsort(modes, (size_t)kept, sizeof *modes, by_freq);
    printf("# %s probe %s component %s, %ld samples from %.4g fs, dt %.6g fs\n", path, probe,
           s.components[col], n, (first * s.dt + s.t0[col]) * YEE_TIME_UNIT_FS, dt_fs);
    printf("# freq_THz freq_c_um wavelength_um decay_per_fs Q amplitude error\n");
    for (int k = 0; k < kept; k++)
        printf("%.10g %.10g %.10g %.6g %.6g %.6g %.3g\n", modes[k].f * YEE_C_UM_THZ, modes[k].f,
               1.0 / modes[k].f, modes[k].decay / YEE_TIME_UNIT_FS, modes[k].q, modes[k].amp,
               modes[k].error);
    harminv_data_destroy(hd);
    free(modes);
    free(sig);
    yee_probe_series_free(&s);
    return 0;
}
