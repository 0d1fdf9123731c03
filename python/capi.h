/* python/capi.h -- the C API of libyee, the shared library that the Python module `yee`
 * (python/yee/) loads with ctypes: load and validate a deck as `yee run` does, run it in this
 * process with a progress callback, and find the modes of a series with harminv.
 *
 * Why here and not in app/: app/ holds programs (its every file is linked into the `yee`
 * executable, the only code that reads the environment or exits); this is a library face for
 * another language, built only into libyee, and it lives beside the module that uses it so the
 * two change together. It sits on top of the layers like app/ (tests/layers.sh).
 *
 * Contract: nothing here exits, installs signal handlers or reads the environment; it prints
 * only what the layers below print as `yee run` does (deck warnings on stderr).
 * Every function returns a YEE_CAPI_* code and, on failure, the message (deck errors as
 * `file:line: error: key: what`, one per line) in the caller's err buffer (always
 * NUL-terminated, cut to errlen). MPI is initialised on first use when nobody has yet (a
 * one-rank "singleton"); yee_capi_finalize ends it if this library started it.
 */
#ifndef YEE_PYTHON_CAPI_H
#define YEE_PYTHON_CAPI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    YEE_CAPI_OK = 0,
    YEE_CAPI_DECK = 1,    /* the deck or an override is invalid, or the deck file unreadable */
    YEE_CAPI_RUN = 2,     /* the run failed (backend, numerics, output) */
    YEE_CAPI_STOPPED = 3, /* the progress callback asked to stop: the output file is closed and
                           * holds the steps done (probes up to that step, partial spectra) */
    YEE_CAPI_USAGE = 4    /* a bad argument (NULL deck, negative count, too small a buffer) */
};

/* Called after each stretch of steps with the steps done so far and the total; a nonzero
 * return stops the run cleanly (YEE_CAPI_STOPPED). */
typedef int (*yee_capi_progress)(long step, long steps, void *user);

/* "0.1.0": the version this library was built from (the same as `yee --version`). */
const char *yee_capi_version(void);

/* Load deck_path with the --set style overrides ("key=value") through io/deck.c, as `yee check`
 * does, and report what a run would write: the run's name, output directory (out_dir when not
 * NULL, else the deck's output.directory), number of steps and dt (c-units). Any out-pointer may
 * be NULL. */
int yee_capi_check(const char *deck_path, const char *const *overrides, int noverrides,
                   const char *out_dir, char *name, size_t namelen, char *dir, size_t dirlen,
                   long *steps, double *dt, char *err, size_t errlen);

/* Run the deck as `yee run DECK --out out_dir --backend backend --set ...` would, on this
 * process's MPI ranks, writing the same files. out_dir NULL: the deck's output.directory;
 * backend NULL or "": the deck's simulation.backend ("auto", "cpu", "cpu-reference", "cuda").
 * cb (may be NULL) is called every max(16, steps/100) steps, rounded to a multiple of 16 (the
 * backend's longest fused stretch, so the stretches are those of an uncut run). */
int yee_capi_run(const char *deck_path, const char *const *overrides, int noverrides,
                 const char *out_dir, const char *backend, yee_capi_progress cb, void *user,
                 char *err, size_t errlen);

/* yee_capi_run that also writes the path of the run's HDF5 file (<out_dir>/<name>.h5) to
 * h5_path (may be NULL) once the deck is loaded, so a caller learns it without loading the deck
 * a second time. */
int yee_capi_run_ex(const char *deck_path, const char *const *overrides, int noverrides,
                    const char *out_dir, const char *backend, yee_capi_progress cb, void *user,
                    char *h5_path, size_t h5len, char *err, size_t errlen);

/* The resonant modes of the real series x[k * stride], k < n, sampled every dt, in the band
 * [fmin, fmax] (units of 1/dt; <= 0: the defaults), as `yee resonances` finds them
 * (postproc/harminv_modes.h: nbasis basis functions, modes with an error above max_error or |Q|
 * below min_q dropped). Writes at most maxmodes rows of 5 doubles to out: frequency, decay, Q,
 * amplitude, error (sorted by frequency); *nmodes is the number of modes found (it may exceed
 * maxmodes: call again with more room). */
int yee_capi_harminv(const double *x, long stride, long n, double dt, double fmin, double fmax,
                     int nbasis, double max_error, double min_q, double *out, int maxmodes,
                     int *nmodes, char *err, size_t errlen);

/* End MPI if yee_capi_* started it and the output layer left it safe to (io/h5out.h
 * yee_h5_shutdown_unsafe). Later calls start nothing again: MPI cannot be restarted. */
void yee_capi_finalize(void);

#ifdef __cplusplus
}
#endif

#endif
