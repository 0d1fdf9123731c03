/* postproc/resonances.c -- `yee resonances RUN.h5 --probe NAME`: resonant frequencies, decay
 * rates and quality factors of a probe's time series by filter diagonalization (libharminv,
 * Mandelshtam & Taylor 1997), as Meep's Harminv does. Reads the file; never runs a simulation.
 * A subcommand of `yee` (app/main.c dispatches to yee_resonances_main), not a program.
 *
 * Output: one line per mode, sorted by frequency, columns
 *   freq_THz  freq_c_um  wavelength_um  decay_per_fs  Q  amplitude  error
 * (freq_c_um is the frequency in units of c / 1 um; error is harminv's relative error estimate).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "postproc/resonances.h"

#include "common/yee_num.h"
#include "model/config.h"
#include "io/h5read.h"
#include "postproc/harminv_modes.h"

/* The options and their meaning are in app/commands.c, which prints `yee resonances --help`
 * (app/main.c answers -h and --help before calling here). */
/* --modes: harminv's basis grows with the modes asked for; more than this is a typo */
#define YEE_RESONANCES_MAX_MODES 100000

static void usage(FILE *out)
{
    fputs("usage: yee resonances RUN.h5 --probe NAME [options] (see yee resonances --help)\n", out);
}

int yee_resonances_main(int argc, char **argv)
{
    const char *path = NULL, *probe = NULL, *component = NULL;
    double fmin_thz = -1.0, fmax_thz = -1.0, start_fs = 0.0, max_error = 1e-2;
    double min_q = YEE_HARMINV_MIN_Q;
    int nmodes = 100;
    yee_err err;
    int bad = 0; /* a numeric option that is not one: its message is in err */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        if (strcmp(a, "--probe") == 0 && more) {
            probe = argv[++i];
        } else if (strcmp(a, "--component") == 0 && more) {
            component = argv[++i];
        } else if (strcmp(a, "--fmin") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_AT_LEAST, &fmin_thz, &err);
        } else if (strcmp(a, "--fmax") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_ABOVE, &fmax_thz, &err);
        } else if (strcmp(a, "--start") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_AT_LEAST, &start_fs, &err);
        } else if (strcmp(a, "--modes") == 0 && more) {
            long v = 0;
            bad = yee_parse_long(a, argv[++i], 1, YEE_RESONANCES_MAX_MODES, &v, &err);
            nmodes = (int)v;
        } else if (strcmp(a, "--max-error") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_ABOVE, &max_error, &err);
        } else if (strcmp(a, "--min-q") == 0 && more) {
            /* 0 keeps every mode (app/commands.c); a negative bound would mean the same */
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_AT_LEAST, &min_q, &err);
        } else if (a[0] != '-' && !path) {
            path = a;
        } else {
            fprintf(stderr, "yee resonances: unexpected argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (bad) {
            fprintf(stderr, "yee resonances: %s\n", err.msg);
            return 2;
        }
    }
    if (fmin_thz > 0 && fmax_thz > 0 && fmin_thz >= fmax_thz) {
        fprintf(stderr, "yee resonances: --fmin (%g THz) must be below --fmax (%g THz)\n",
                fmin_thz, fmax_thz);
        return 2;
    }
    if (!path || !probe) {
        usage(stderr);
        return 2;
    }
    yee_probe_series s;
    if (yee_h5_read_probe(path, probe, &s, &err) < 0) {
        fprintf(stderr, "yee resonances: %s\n", err.msg);
        return 1;
    }
    const int col = yee_probe_column(&s, component);
    if (col < 0) {
        fprintf(stderr, "yee resonances: probe '%s' has no component '%s'\n", probe, component);
        yee_probe_series_free(&s);
        return 1;
    }
    const double dt_fs = s.dt * YEE_TIME_UNIT_FS;
    const long first = yee_probe_first_row(&s, col, start_fs / YEE_TIME_UNIT_FS);
    const long n = s.nsteps - first;
    if (n < 16) {
        fprintf(stderr, "yee resonances: only %ld samples after --start %g fs\n", n, start_fs);
        yee_probe_series_free(&s);
        return 1;
    }
    const double lo = fmin_thz > 0 ? fmin_thz / YEE_C_UM_THZ : -1.0; /* c/um, <= 0: default */
    const double hi = fmax_thz > 0 ? fmax_thz / YEE_C_UM_THZ : -1.0;
    yee_harminv_mode *modes = NULL;
    int kept = 0;
    if (yee_harminv_modes(s.data + first * s.ncomp + col, s.ncomp, n, s.dt, lo, hi, nmodes,
                          max_error, min_q, &modes, &kept, &err) < 0) {
        fprintf(stderr, "yee resonances: %s\n", err.msg);
        yee_probe_series_free(&s);
        return 1;
    }
    printf("# %s probe %s component %s, %ld samples from %.4g fs, dt %.6g fs\n", path, probe,
           s.components[col], n, (first * s.dt + s.t0[col]) * YEE_TIME_UNIT_FS, dt_fs);
    printf("# freq_THz freq_c_um wavelength_um decay_per_fs Q amplitude error\n");
    for (int k = 0; k < kept; k++)
        printf("%.10g %.10g %.10g %.6g %.6g %.6g %.3g\n", modes[k].freq * YEE_C_UM_THZ,
               modes[k].freq, 1.0 / modes[k].freq, modes[k].decay / YEE_TIME_UNIT_FS, modes[k].q,
               modes[k].amp, modes[k].error);
    free(modes);
    yee_probe_series_free(&s);
    return 0;
}
