/* app/bands.c -- `yee bands` (app/bands.h): the k path, one in-process run per k point, harminv
 * on the probes, bands.csv and bands.h5. The options are described in app/commands.c.
 */
#include "app/bands.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/commands.h"
#include "common/yee_file.h"
#include "common/yee_num.h"
#include "io/deck.h"
#include "io/h5out.h"
#include "io/h5read.h"
#include "model/config.h"
#include "postproc/harminv_modes.h"
#include "solver/sim.h"
#include "solver/waveform.h"

/* Modes of different probes whose frequencies agree within this fraction are one mode: harminv's
 * frequencies of one mode seen by two probes agree to 1e-5 (inputs/bands_rods.cfg), while two
 * bands of a cell come this close only where they cross. */
#define MERGE_REL_TOL 1e-3

typedef struct bands_cli {
    const char *deck, *out_dir, *backend, *k_path;
    double (*corners)[3]; /* the parsed --k-path; owned */
    int ncorners;
    const char **sets;
    int nsets, interp, nbasis, quiet;
    double fmin_thz, fmax_thz, start_fs, max_error, min_q; /* < 0: not given */
} bands_cli;

typedef struct k_point {
    double k[3];     /* 1/um */
    double distance; /* along the path from its start, 1/um */
    yee_harminv_mode *modes; /* merged, by frequency; owned */
    int nmodes;
} k_point;

static int is_rank0(void)
{
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r == 0;
}

/* The corners of --k-path: "0,0 0.5,0 0.5,0.5" or "0,0,0; 0.5,0,0": corners separated by blanks
 * or ';', their 1 to 3 components by ','; the missing ones are 0. At least one corner. */
static int parse_k_path(const char *text, double (**corners)[3], int *n)
{
    const size_t len = strlen(text);
    double(*c)[3] = (double(*)[3])calloc(len / 2 + 2, sizeof *c);
    if (!c)
        return -1;
    int nc = 0;
    const char *p = text;
    for (;;) {
        p += strspn(p, " \t;");
        if (!*p)
            break;
        int ncomp = 0;
        if (yee_parse_number_list(p, 3, c[nc], &ncomp, &p) < 0 || (*p && !strchr(" \t;", *p))) {
            free(c);
            return -1;
        }
        nc++;
    }
    if (nc == 0) {
        free(c);
        return -1;
    }
    *corners = c;
    *n = nc;
    return 0;
}

static int parse_cli(int argc, char **argv, bands_cli *c)
{
    memset(c, 0, sizeof *c);
    c->fmin_thz = c->fmax_thz = c->start_fs = c->min_q = -1.0;
    c->max_error = 1e-2;
    c->nbasis = 100;
    c->sets = (const char **)calloc((size_t)argc + 1, sizeof *c->sets);
    if (!c->sets)
        return YEE_EXIT_ERROR;
    yee_err err;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        long v = 0;
        int bad = 0; /* a value that is not one: its message is in err */
        if (strcmp(a, "--set") == 0 && more) {
            c->sets[c->nsets++] = argv[++i];
        } else if (strncmp(a, "--set=", 6) == 0) {
            c->sets[c->nsets++] = a + 6;
        } else if (strcmp(a, "--k-path") == 0 && more) {
            c->k_path = argv[++i];
            free(c->corners);
            c->corners = NULL;
            if (parse_k_path(c->k_path, &c->corners, &c->ncorners) < 0)
                bad = yee_fail(&err, YEE_ERR_USAGE, "--k-path wants corners like \"0,0 0.5,0 "
                               "0.5,0.5\" (kx,ky[,kz] in 1/um, separated by blanks or ';') "
                               "(got '%s')", c->k_path);
        } else if (strcmp(a, "--out") == 0 && more) {
            c->out_dir = argv[++i];
        } else if (strcmp(a, "--backend") == 0 && more) {
            c->backend = argv[++i];
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            c->quiet = 1;
        } else if (strcmp(a, "--k-interp") == 0 && more) {
            bad = yee_parse_long(a, argv[++i], 0, 10000, &v, &err);
            c->interp = (int)v;
        } else if (strcmp(a, "--fmin") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_AT_LEAST, &c->fmin_thz, &err);
        } else if (strcmp(a, "--fmax") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_ABOVE, &c->fmax_thz, &err);
        } else if (strcmp(a, "--start") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_AT_LEAST, &c->start_fs, &err);
        } else if (strcmp(a, "--min-q") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_AT_LEAST, &c->min_q, &err);
        } else if (strcmp(a, "--max-error") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_ABOVE, &c->max_error, &err);
        } else if (strcmp(a, "--modes") == 0 && more) {
            bad = yee_parse_long(a, argv[++i], 1, 10000, &v, &err);
            c->nbasis = (int)v;
        } else if (a[0] == '-' && a[1] != '\0') {
            if (is_rank0())
                fprintf(stderr, "yee bands: unknown or incomplete option '%s' (see yee bands "
                                "--help)\n", a);
            return YEE_EXIT_USAGE;
        } else if (!c->deck) {
            c->deck = a;
        } else {
            if (is_rank0())
                fprintf(stderr, "yee bands: more than one deck given ('%s' and '%s')\n", c->deck,
                        a);
            return YEE_EXIT_USAGE;
        }
        if (bad) {
            if (is_rank0())
                fprintf(stderr, "yee bands: %s\n", err.msg);
            return YEE_EXIT_USAGE;
        }
    }
    if (!c->deck || !c->k_path) {
        if (is_rank0())
            fprintf(stderr, "yee bands: %s (see yee bands --help)\n",
                    !c->deck ? "no deck given" : "no --k-path given");
        return YEE_EXIT_USAGE;
    }
    if (c->fmin_thz >= 0 && c->fmax_thz >= 0 && c->fmax_thz <= c->fmin_thz) {
        if (is_rank0())
            fprintf(stderr, "yee bands: --fmax must be above --fmin (got %g and %g THz)\n",
                    c->fmax_thz, c->fmin_thz);
        return YEE_EXIT_USAGE;
    }
    return 0;
}

/* The path's points: every corner, and `interp` evenly spaced points between two corners. */
static k_point *expand_path(const double (*corners)[3], int ncorners, int interp, int *nk)
{
    const int n = (ncorners - 1) * (interp + 1) + 1;
    k_point *pts = (k_point *)calloc((size_t)n, sizeof *pts);
    if (!pts)
        return NULL;
    for (int i = 0; i < n; i++) {
        const int seg = i / (interp + 1), j = i % (interp + 1);
        const double t = (double)j / (interp + 1);
        double d2 = 0;
        for (int a = 0; a < 3; a++) {
            const double next = seg + 1 < ncorners ? corners[seg + 1][a] : corners[seg][a];
            pts[i].k[a] = corners[seg][a] + t * (next - corners[seg][a]);
            if (i > 0)
                d2 += (pts[i].k[a] - pts[i - 1].k[a]) * (pts[i].k[a] - pts[i - 1].k[a]);
        }
        pts[i].distance = i > 0 ? pts[i - 1].distance + sqrt(d2) : 0.0;
    }
    *nk = n;
    return pts;
}

/* The band harminv searches (c/um; <= 0: harminv's default) and the time after which the probes
 * are analysed (c-units): by default, where the deck's Gaussian sources have a spectrum above
 * e^-2 of their peak (f0 +- 2 fwidth; Meep's run_k_points searches fcen +- df/2) and from the
 * end of the last source on. */
typedef struct analysis {
    double fmin, fmax, start, max_error, min_q;
    int nbasis;
} analysis;

static int analysis_from(const bands_cli *c, const yee_config *cfg, analysis *an, yee_err *err)
{
    double lo = INFINITY, hi = 0.0, end = 0.0;
    int all_gaussian = cfg->nsources > 0;
    for (int s = 0; s < cfg->nsources; s++) {
        const yee_profile *p = &cfg->sources[s].profile;
        end = fmax(end, yee_profile_end(p));
        if (p->kind != YEE_PROFILE_GAUSSIAN) {
            all_gaussian = 0;
            continue;
        }
        lo = fmin(lo, p->frequency - 2 * p->fwidth);
        hi = fmax(hi, p->frequency + 2 * p->fwidth);
    }
    an->fmin = c->fmin_thz >= 0 ? c->fmin_thz / YEE_C_UM_THZ : all_gaussian && lo > 0 ? lo : -1;
    an->fmax = c->fmax_thz >= 0 ? c->fmax_thz / YEE_C_UM_THZ : all_gaussian ? hi : -1;
    if (c->start_fs >= 0) {
        an->start = c->start_fs / YEE_TIME_UNIT_FS;
    } else if (!isfinite(end)) {
        return yee_fail(err, YEE_ERR_USAGE, "a source of %s never ends (cw): give --start, the "
                        "time from which the probes ring freely", c->deck);
    } else {
        an->start = end;
    }
    if (an->start >= cfg->steps * cfg->dt)
        return yee_fail(err, YEE_ERR_DECK, "%s: the run ends at %.4g fs, before the probes are "
                        "analysed from %.4g fs (the end of the sources or --start): make "
                        "simulation.time longer", c->deck, cfg->steps * cfg->dt * YEE_TIME_UNIT_FS,
                        an->start * YEE_TIME_UNIT_FS);
    an->max_error = c->max_error;
    an->min_q = c->min_q >= 0 ? c->min_q : YEE_HARMINV_MIN_Q;
    an->nbasis = c->nbasis;
    return YEE_OK;
}

/* Every component of every probe of the run file h5, harminv'd and merged into pt's modes. */
static int find_modes(const yee_config *cfg, const analysis *an, const char *h5, k_point *pt,
                      yee_err *err)
{
    yee_harminv_mode *all = NULL;
    int nall = 0, rc = YEE_OK, nprobes = 0;
    for (int m = 0; m < cfg->nmonitors && rc == YEE_OK; m++) {
        if (cfg->monitors[m].kind != YEE_MON_PROBE)
            continue;
        nprobes++;
        yee_probe_series s;
        if ((rc = yee_h5_read_probe(h5, cfg->monitors[m].name, &s, err)) < 0)
            break;
        for (int col = 0; col < s.ncomp && rc == YEE_OK; col++) {
            const long first = yee_probe_first_row(&s, col, an->start);
            yee_harminv_mode *found = NULL;
            int nfound = 0;
            rc = yee_harminv_modes(s.data + first * s.ncomp + col, s.ncomp, s.nsteps - first,
                                   s.dt, an->fmin, an->fmax, an->nbasis, an->max_error,
                                   an->min_q, &found, &nfound, err);
            yee_harminv_mode *grown =
                rc == YEE_OK && nfound > 0
                    ? (yee_harminv_mode *)realloc(all, (size_t)(nall + nfound) * sizeof *all)
                    : all;
            if (!grown) {
                rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %d modes", nall + nfound);
            } else if (nfound > 0) {
                all = grown;
                memcpy(all + nall, found, (size_t)nfound * sizeof *found);
                nall += nfound;
            }
            free(found);
        }
        yee_probe_series_free(&s);
    }
    if (rc == YEE_OK && nprobes == 0)
        rc = yee_fail(err, YEE_ERR_DECK, "%s has no probe monitor: yee bands finds the modes in "
                      "the probes' time series (add one or more, off the cell's mirror lines)",
                      cfg->deck_path);
    if (rc == YEE_OK)
        rc = yee_harminv_merge(all, nall, MERGE_REL_TOL, &pt->modes, &pt->nmodes, err);
    free(all);
    return rc;
}

/* One k point: load the deck with boundary.bloch = k, run it into OUT/k-NNN, find its modes
 * (rank 0). Collective; the status is the same on every rank. */
static int run_k_point(const bands_cli *c, const char *out, int index, k_point *pt,
                       analysis *an, int *have_analysis, yee_err *err)
{
    char bloch[160];
    snprintf(bloch, sizeof bloch, "boundary.bloch=[%.15g, %.15g, %.15g]", pt->k[0], pt->k[1],
             pt->k[2]);
    c->sets[c->nsets] = bloch; /* parse_cli left room for it */
    yee_config cfg;
    memset(&cfg, 0, sizeof cfg);
    int rc = yee_deck_load(c->deck, c->sets, c->nsets + 1, &cfg, err);
    if (rc < 0)
        return rc;
    if (snprintf(cfg.out_dir, sizeof cfg.out_dir, "%s/k-%03d", out, index) >=
        (int)sizeof cfg.out_dir) {
        yee_config_free(&cfg);
        return yee_fail(err, YEE_ERR_IO, "the output folder '%s' is too long", out);
    }
    if (!*have_analysis) {
        if ((rc = analysis_from(c, &cfg, an, err)) < 0) {
            yee_config_free(&cfg);
            return rc;
        }
        *have_analysis = 1;
    }
    yee_run_options opt = yee_run_options_default();
    opt.backend = c->backend ? c->backend : cfg.backend;
    opt.quiet = 1;
    opt.sets = c->sets;
    opt.nsets = c->nsets + 1;
    yee_run_stats stats;
    rc = yee_sim_run(&cfg, &opt, &stats, err);
    if (rc == YEE_OK) {
        char h5[YEE_PATH_LEN + YEE_NAME_LEN + 8];
        snprintf(h5, sizeof h5, "%s/%s.h5", cfg.out_dir, cfg.name);
        if (is_rank0())
            rc = find_modes(&cfg, an, h5, pt, err);
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    yee_config_free(&cfg);
    return rc;
}

static int write_csv(const char *path, const k_point *pts, int nk, yee_err *err)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return yee_fail(err, YEE_ERR_IO, "cannot create '%s': %s", path, strerror(errno));
    fprintf(fp, "k_index,kx,ky,kz,k_distance,band,freq_c_um,freq_THz,Q,decay_per_fs,amplitude,"
                "error\n");
    for (int i = 0; i < nk; i++)
        for (int b = 0; b < pts[i].nmodes; b++) {
            const yee_harminv_mode *m = &pts[i].modes[b];
            fprintf(fp, "%d,%.10g,%.10g,%.10g,%.10g,%d,%.10g,%.10g,%.6g,%.6g,%.6g,%.3g\n", i,
                    pts[i].k[0], pts[i].k[1], pts[i].k[2], pts[i].distance, b + 1, m->freq,
                    m->freq * YEE_C_UM_THZ, m->q, m->decay / YEE_TIME_UNIT_FS, m->amp, m->error);
        }
    if (fclose(fp) != 0)
        return yee_fail(err, YEE_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    return YEE_OK;
}

enum { K_X, K_Y, K_Z, K_DIST, K_N, M_K, M_BAND, M_F, M_THZ, M_Q, M_AMP, M_ERR, NCOLS };

static int write_h5(const char *path, const bands_cli *c, const analysis *an, const k_point *pts,
                    int nk, const double (*corners)[3], int ncorners, yee_err *err)
{
    long total = 0;
    for (int i = 0; i < nk; i++)
        total += pts[i].nmodes;
    double *v[NCOLS];
    const long len[NCOLS] = {nk, nk, nk, nk, nk, total, total, total, total, total, total, total};
    int ok = 1;
    for (int j = 0; j < NCOLS; j++)
        ok &= (v[j] = (double *)malloc(((size_t)len[j] + 1) * sizeof(double))) != NULL;
    double *corner_index = (double *)malloc((size_t)ncorners * sizeof(double));
    int rc = YEE_OK;
    if (!ok || !corner_index) {
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %ld modes", total);
    } else {
        long r = 0;
        for (int i = 0; i < nk; i++) {
            v[K_X][i] = pts[i].k[0];
            v[K_Y][i] = pts[i].k[1];
            v[K_Z][i] = pts[i].k[2];
            v[K_DIST][i] = pts[i].distance;
            v[K_N][i] = pts[i].nmodes;
            for (int b = 0; b < pts[i].nmodes; b++, r++) {
                const yee_harminv_mode *m = &pts[i].modes[b];
                v[M_K][r] = i;
                v[M_BAND][r] = b + 1;
                v[M_F][r] = m->freq;
                v[M_THZ][r] = m->freq * YEE_C_UM_THZ;
                v[M_Q][r] = m->q;
                v[M_AMP][r] = m->amp;
                v[M_ERR][r] = m->error;
            }
        }
        for (int j = 0; j < ncorners; j++)
            corner_index[j] = (double)j * (c->interp + 1);
        const yee_h5_column cols[] = {
            {"/k/kx", nk, v[K_X], "1/um"},
            {"/k/ky", nk, v[K_Y], "1/um"},
            {"/k/kz", nk, v[K_Z], "1/um"},
            {"/k/distance", nk, v[K_DIST], "1/um, along the path"},
            {"/k/nmodes", nk, v[K_N], NULL},
            {"/k/corner_index", ncorners, corner_index, "index of each --k-path corner"},
            {"/modes/k_index", total, v[M_K], NULL},
            {"/modes/band", total, v[M_BAND], "1 = lowest mode found at this k"},
            {"/modes/freq", total, v[M_F], "c/um"},
            {"/modes/freq_thz", total, v[M_THZ], "THz"},
            {"/modes/q", total, v[M_Q], NULL},
            {"/modes/amplitude", total, v[M_AMP], NULL},
            {"/modes/error", total, v[M_ERR], "relative (harminv)"},
        };
        char band[96], start[48];
        snprintf(band, sizeof band, "%g %g", an->fmin, an->fmax);
        snprintf(start, sizeof start, "%g", an->start * YEE_TIME_UNIT_FS);
        const char *names[] = {"yee_file", "deck", "k_path", "band_c_um", "start_fs"};
        const char *values[] = {"bands", c->deck, c->k_path, band, start};
        rc = yee_h5_write_table(path, cols, (int)(sizeof cols / sizeof cols[0]), names, values, 5,
                                err);
    }
    for (int j = 0; j < NCOLS; j++)
        free(v[j]);
    free(corner_index);
    return rc;
}

static void print_k_point(int i, int nk, const k_point *pt, double seconds)
{
    printf("k %d/%d (%.4g, %.4g, %.4g) 1/um: %d mode%s", i + 1, nk, pt->k[0], pt->k[1], pt->k[2],
           pt->nmodes, pt->nmodes == 1 ? "" : "s");
    for (int b = 0; b < pt->nmodes; b++)
        printf("%s%.5f", b ? " " : ": ", pt->modes[b].freq);
    printf("%s [%.1f s]\n", pt->nmodes ? " c/um" : "", seconds);
}

int yee_bands_main(int argc, char **argv)
{
    bands_cli c;
    int rc = parse_cli(argc, argv, &c);
    if (rc) {
        free(c.corners);
        free(c.sets);
        return rc;
    }
    double(*corners)[3] = c.corners;
    const int ncorners = c.ncorners;
    int nk = 0;
    k_point *pts = expand_path((const double(*)[3])corners, ncorners, c.interp, &nk);
    char out[YEE_PATH_LEN];
    yee_err err;
    err.msg[0] = '\0';
    int status = pts ? YEE_OK : YEE_FAIL(&err, YEE_ERR_NOMEM, "cannot hold the k path");
    if (c.out_dir) {
        snprintf(out, sizeof out, "%s", c.out_dir);
    } else {
        const char *base = strrchr(c.deck, '/');
        base = base ? base + 1 : c.deck;
        snprintf(out, sizeof out, "%.*s_bands", (int)strcspn(base, "."), base);
    }
    analysis an;
    memset(&an, 0, sizeof an);
    int have_analysis = 0;
    for (int i = 0; i < nk && status == YEE_OK; i++) {
        const double t0 = MPI_Wtime();
        status = run_k_point(&c, out, i, &pts[i], &an, &have_analysis, &err);
        if (status == YEE_OK && !c.quiet && is_rank0())
            print_k_point(i, nk, &pts[i], MPI_Wtime() - t0);
    }
    char csv[YEE_PATH_LEN + 16], h5[YEE_PATH_LEN + 16];
    snprintf(csv, sizeof csv, "%s/bands.csv", out);
    snprintf(h5, sizeof h5, "%s/bands.h5", out);
    if (status == YEE_OK && is_rank0()) {
        status = write_csv(csv, pts, nk, &err);
        if (status == YEE_OK)
            status = write_h5(h5, &c, &an, pts, nk, (const double(*)[3])corners, ncorners, &err);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (is_rank0()) {
        if (status < 0)
            fprintf(stderr, "yee bands: %s\n", err.msg);
        else if (!c.quiet)
            printf("wrote %s and %s (plot: yee-plot-bands %s)\n", csv, h5, h5);
    }
    for (int i = 0; i < nk && pts; i++)
        free(pts[i].modes);
    free(pts);
    free(corners);
    free(c.sets);
    return status == YEE_OK ? YEE_EXIT_OK
           : status == YEE_ERR_USAGE ? YEE_EXIT_USAGE
                                     : YEE_EXIT_ERROR;
}
