/* python/capi.c -- libyee's C API for the Python module (contract in python/capi.h). The same
 * calls as `yee run` (app/main.c cmd_run): yee_deck_load with the overrides, then the solver's
 * create / advance / finish, cut into stretches so that a caller can watch and stop the run.
 */
#include "python/capi.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/yee_mpi_env.h"
#include "io/deck.h"
#include "io/h5out.h"
#include "postproc/harminv_modes.h"
#include "solver/sim.h"

#ifndef YEE_VERSION
#define YEE_VERSION "0.0.0"
#endif

/* 1 once this library called MPI_Init (and so owns MPI_Finalize) */
static int capi_started_mpi;

const char *yee_capi_version(void) { return YEE_VERSION; }

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* A library must not initialise MPI twice (mpi4py or the host program may have done it) and
 * cannot after MPI_Finalize. */
static int ensure_mpi(char *err, size_t errlen)
{
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (finalized)
        return fail(err, errlen, YEE_CAPI_RUN,
                    "MPI was finalized in this process (yee_capi_finalize or the host program); "
                    "it cannot be started again");
    if (!initialized) {
        const int singleton = yee_mpi_env_singleton_set(); /* common/yee_mpi_env.h */
        const int rc = MPI_Init(NULL, NULL);
        yee_mpi_env_singleton_restore(singleton);
        if (rc != MPI_SUCCESS)
            return fail(err, errlen, YEE_CAPI_RUN, "MPI_Init failed");
        capi_started_mpi = 1;
    }
    return YEE_CAPI_OK;
}

static int check_args(const char *deck_path, int noverrides, const char *const *overrides,
                      char *err, size_t errlen)
{
    if (!deck_path || noverrides < 0 || (noverrides > 0 && !overrides))
        return fail(err, errlen, YEE_CAPI_USAGE,
                    "yee_capi: a deck path is required and overrides must hold noverrides strings");
    return YEE_CAPI_OK;
}

/* yee_deck_load plus --out, as app/main.c load_deck; *cfg is freed on failure */
static int load(const char *deck_path, const char *const *overrides, int noverrides,
                const char *out_dir, yee_config *cfg, char *err, size_t errlen)
{
    int rc = check_args(deck_path, noverrides, overrides, err, errlen);
    if (rc == YEE_CAPI_OK)
        rc = ensure_mpi(err, errlen);
    if (rc != YEE_CAPI_OK)
        return rc;
    memset(cfg, 0, sizeof *cfg);
    yee_err e;
    e.msg[0] = '\0';
    if (yee_deck_load(deck_path, overrides, noverrides, cfg, &e) < 0)
        return fail(err, errlen, YEE_CAPI_DECK, "%s", e.msg);
    if (out_dir && *out_dir) {
        if (strlen(out_dir) >= sizeof cfg->out_dir) {
            yee_config_free(cfg);
            return fail(err, errlen, YEE_CAPI_USAGE, "output directory '%s' is too long",
                        out_dir);
        }
        snprintf(cfg->out_dir, sizeof cfg->out_dir, "%s", out_dir);
    }
    return YEE_CAPI_OK;
}

int yee_capi_check(const char *deck_path, const char *const *overrides, int noverrides,
                   const char *out_dir, char *name, size_t namelen, char *dir, size_t dirlen,
                   long *steps, double *dt, char *err, size_t errlen)
{
    yee_config cfg;
    const int rc = load(deck_path, overrides, noverrides, out_dir, &cfg, err, errlen);
    if (rc != YEE_CAPI_OK)
        return rc;
    if (name && namelen)
        snprintf(name, namelen, "%s", cfg.name);
    if (dir && dirlen)
        snprintf(dir, dirlen, "%s", cfg.out_dir);
    if (steps)
        *steps = cfg.steps;
    if (dt)
        *dt = cfg.dt;
    yee_config_free(&cfg);
    return YEE_CAPI_OK;
}

/* Steps between two calls of the progress callback: about 1% of the run, a multiple of the
 * backend's longest fused stretch (16, solver/sim.h tuning.fused_steps). */
static long progress_stretch(long steps)
{
    long n = (steps / 100 + 15) / 16 * 16;
    return n < 16 ? 16 : n;
}

int yee_capi_run(const char *deck_path, const char *const *overrides, int noverrides,
                 const char *out_dir, const char *backend, yee_capi_progress cb, void *user,
                 char *err, size_t errlen)
{
    return yee_capi_run_ex(deck_path, overrides, noverrides, out_dir, backend, cb, user, NULL, 0,
                           err, errlen);
}

int yee_capi_run_ex(const char *deck_path, const char *const *overrides, int noverrides,
                    const char *out_dir, const char *backend, yee_capi_progress cb, void *user,
                    char *h5_path, size_t h5len, char *err, size_t errlen)
{
    yee_config cfg;
    int rc = load(deck_path, overrides, noverrides, out_dir, &cfg, err, errlen);
    if (rc != YEE_CAPI_OK)
        return rc;
    if (h5_path && h5len) /* the name solver/sim.c gives the file */
        snprintf(h5_path, h5len, "%s/%s.h5", cfg.out_dir, cfg.name);
    /* cmd_run's options without what belongs to a program: no summary or progress line on
     * the host's terminal, no signal handlers (signals stays NULL), no tuning from the
     * environment (the library reads none) */
    yee_run_options opt = yee_run_options_default();
    opt.backend = backend && *backend ? backend : cfg.backend;
    opt.quiet = 1;
    opt.sets = overrides;
    opt.nsets = noverrides;

    yee_sim *sim = NULL;
    yee_err e;
    e.msg[0] = '\0';
    int stopped = 0;
    long done = 0;
    int st = yee_sim_create(&cfg, &opt, &sim, &e);
    const long stretch = progress_stretch(cfg.steps);
    while (st == YEE_OK && done < cfg.steps && !stopped) {
        const long n = cfg.steps - done < stretch ? cfg.steps - done : stretch;
        st = yee_sim_advance(sim, n, &e);
        done += n;
        if (st == YEE_OK && cb)
            stopped = cb(done, cfg.steps, user) != 0;
    }
    yee_run_stats stats;
    if (st == YEE_OK)
        st = yee_sim_finish(sim, &stats, &e);
    yee_sim_destroy(sim);
    if (st < 0)
        rc = fail(err, errlen, YEE_CAPI_RUN, "%s", e.msg);
    else if (stopped && done < cfg.steps)
        rc = fail(err, errlen, YEE_CAPI_STOPPED,
                  "stopped by the progress callback at step %ld of %ld; %s holds the steps so far",
                  done, cfg.steps, stats.h5_path);
    yee_config_free(&cfg);
    return rc;
}

int yee_capi_harminv(const double *x, long stride, long n, double dt, double fmin, double fmax,
                     int nbasis, double max_error, double min_q, double *out, int maxmodes,
                     int *nmodes, char *err, size_t errlen)
{
    if (!x || stride < 1 || n < 0 || !(dt > 0) || nbasis < 1 || maxmodes < 0 ||
        (maxmodes > 0 && !out) || !nmodes)
        return fail(err, errlen, YEE_CAPI_USAGE,
                    "yee_capi_harminv: wants a series, stride >= 1, dt > 0, nbasis >= 1 and "
                    "room for the modes");
    yee_harminv_mode *modes = NULL;
    int found = 0;
    yee_err e;
    e.msg[0] = '\0';
    if (yee_harminv_modes(x, stride, n, dt, fmin, fmax, nbasis, max_error, min_q, &modes,
                          &found, &e) < 0)
        return fail(err, errlen, YEE_CAPI_RUN, "%s", e.msg);
    for (int k = 0; k < found && k < maxmodes; k++) {
        double *row = out + 5 * k;
        row[0] = modes[k].freq;
        row[1] = modes[k].decay;
        row[2] = modes[k].q;
        row[3] = modes[k].amp;
        row[4] = modes[k].error;
    }
    *nmodes = found;
    free(modes);
    return YEE_CAPI_OK;
}

void yee_capi_finalize(void)
{
    int finalized = 0;
    MPI_Finalized(&finalized);
    /* after a failed write HDF5 1.10 would crash in its shutdown inside MPI_Finalize
     * (app/main.c does the same) */
    if (capi_started_mpi && !finalized && !yee_h5_shutdown_unsafe())
        MPI_Finalize();
}
