/* solver/sim.h -- a simulation: one subdomain's backend, its sources and monitors, the time loop.
 *
 * The leapfrog is written once here against kernels/backend.h (STYLE 3.3):
 *   H^{n+1/2} (step_h) -> H halo -> E^{n+1} (step_e) -> sources J^{n+1/2} -> E halo -> monitors
 * Output goes through io/h5out.h (one HDF5 file per run + XDMF) and io/vtk.h.
 * With MPI the global grid is split into one block per rank (a Cartesian grid of ranks); each
 * rank advances its block and exchanges one ghost layer of faces with its neighbours.
 */
#ifndef YEE_SOLVER_SIM_H
#define YEE_SOLVER_SIM_H

#include <stddef.h>

#include "common/yee_err.h"
#include "io/config.h"
#include "kernels/backend.h"

typedef struct yee_sim yee_sim;

typedef struct yee_run_options {
    const char *backend; /* "cpu", "cuda" or "auto" (NULL = auto) */
    int quiet;           /* no summary on stdout */
    int progress;        /* progress line on stderr (main sets it when stderr is a terminal) */
    int no_output;       /* skip HDF5/VTK output (benchmarks) */
    int verbose;         /* print the field energy at every health check (stdout) */
    int ranks[3];        /* MPI ranks per axis (--ranks 2x2x1); all 0: MPI_Dims_create chooses */
} yee_run_options;

typedef struct yee_run_stats {
    long steps;            /* steps taken */
    double seconds;        /* wall time of the stepping loop (output included) */
    double mcells_per_s;   /* n0*n1*n2*steps / seconds / 1e6 */
    size_t backend_bytes;  /* memory the backend holds */
    char h5_path[YEE_PATH_LEN + YEE_NAME_LEN + 8];
} yee_run_stats;

/* Set up the backend, sources and monitors for cfg (which must outlive the sim) and create the
 * output file. Errors: YEE_ERR_NOMEM, _IO (output), _UNSUPPORTED (backend not built / MPI). */
int yee_sim_create(const yee_config *cfg, const yee_run_options *opt, yee_sim **out,
                   yee_err *err);

/* Advance nsteps full steps (or up to cfg->steps in total when nsteps < 0), sampling monitors.
 * Errors: YEE_ERR_NUMERIC (NaN/Inf or unbounded growth, naming the step and cell), backend errors. */
int yee_sim_advance(yee_sim *sim, long nsteps, yee_err *err);

/* Copy component comp (YEE_EX..YEE_HZ) on the subdomain cells [lo, lo+count) to out (host,
 * x fastest). For tests and checkpoints. */
int yee_sim_download(yee_sim *sim, int comp, const int lo[3], const int count[3], yee_real *out,
                     yee_err *err);

/* Write probe series, close the HDF5 file and the XDMF sidecar; fill stats. */
int yee_sim_finish(yee_sim *sim, yee_run_stats *stats, yee_err *err);

/* Free everything (also after a failure). NULL is a no-op. */
void yee_sim_destroy(yee_sim *sim);

/* Create, advance to the end, finish, destroy. */
int yee_sim_run(const yee_config *cfg, const yee_run_options *opt, yee_run_stats *stats,
                yee_err *err);

/* Host+device bytes a run of cfg needs on one rank (fields, materials, psi, monitor buffers). */
size_t yee_sim_bytes_estimate(const yee_config *cfg);

/* The backend for `name`: "cpu", "cuda", or "auto" (cuda when a device is present, else cpu).
 * YEE_ERR_UNSUPPORTED when the named backend is not built in or has no device. */
int yee_backend_pick(const char *name, const yee_backend_ops **out, yee_err *err);

#endif
