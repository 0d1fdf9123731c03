/* solver/sim.h -- a simulation: one subdomain's backend, its sources and monitors, the time loop.
 *
 * The order of one time step is written once, in solver/step.c:
 *   H update -> magnetic currents -> H halo -> E update -> electric currents -> E halo -> monitors
 * against kernels/backend.h (STYLE 3.3). Output goes through io/h5out.h (one HDF5 file per run +
 * XDMF) and io/vtk.h. With MPI the global grid is split into one block per rank (a Cartesian grid
 * of ranks, solver/decompose.h); each rank advances its block and exchanges one ghost layer of
 * faces with its neighbours (solver/halo.h).
 *
 * The library reads no environment variable: what a user or a test may tune or inject arrives in
 * yee_run_options, which the application (app/main.c) fills once.
 */
#ifndef YEE_SOLVER_SIM_H
#define YEE_SOLVER_SIM_H

#include <signal.h>
#include <stddef.h>

#include "common/yee_err.h"
#include "model/config.h"
#include "kernels/backend.h"
#include "solver/halo.h"

typedef struct yee_sim yee_sim;

/* What main's SIGTERM / SIGUSR1 handlers record (they only write these). The time loop reads
 * them between steps (docs/checkpoint.md): SIGTERM writes a checkpoint and stops the run,
 * SIGUSR1 writes one and goes on. With MPI the ranks agree on the step first. */
typedef struct yee_signal_flags {
    volatile sig_atomic_t term;   /* 1 once SIGTERM arrived */
    volatile sig_atomic_t usr1;   /* SIGUSR1s received so far */
    volatile sig_atomic_t stepping; /* set by the solver when its time loop starts; before,
                                     * there is nothing to checkpoint and SIGTERM ends the
                                     * process at once (a long rasterization, an allocation) */
} yee_signal_flags;

/* How to run, beyond what the deck says. yee_run_options_default() gives every default; the
 * tuning and test members change speed or inject faults, never a correct run's results. */
typedef struct yee_run_options {
    const char *backend; /* "cpu", "cpu-reference", "cuda" or "auto" (NULL = auto) */
    int quiet;           /* no summary on stdout */
    int progress;        /* progress line on stderr (main sets it when stderr is a terminal) */
    int no_output;       /* skip HDF5/VTK output (benchmarks) */
    int verbose;         /* print the field energy at every health check (stdout) */
    int ranks[3];        /* MPI ranks per axis (--ranks 2x2x1); all 0: MPI_Dims_create chooses */
    /* Checkpoints (solver/checkpoint.h). */
    const char *restart;                /* continue from this checkpoint (manifest or its dir) */
    yee_signal_flags *signals;          /* NULL: signals are not watched (bench, sweeps) */
    const char *const *sets;            /* the --set options: part of the run's identity */
    int nsets;
    struct {
        int fused_steps;      /* most steps per backend advance call (0: the default, 16, or
                               * fewer where the current lists are long: solver/step.c; 1:
                               * one step per call; YEE_FUSED_STEPS) */
        int no_overlap;       /* 1: exchange halos, then update (YEE_HALO_OVERLAP=0) */
        int cuda_aware_mpi;   /* 0: ask the MPI library; 1: it reads device memory; -1: it does
                               * not (YEE_CUDA_AWARE_MPI=1|0) */
        int dft_every;        /* DFT sampling interval (0: from the sources' bandwidth;
                               * YEE_DFT_EVERY) */
        int no_dft_hold;      /* 1: every advance call ends at a step that samples the DFTs,
                               * the backend holding none (YEE_DFT_HOLD=0; solver/step.c) */
        int cpu_band_rows;    /* CPU wavefront band height (0: sized for L2; YEE_CPU_PAIR_ROWS) */
        int cpu_sweep_steps;  /* CPU wavefront steps per sweep (0: default; YEE_STEPS_PER_SWEEP) */
        int cpu_unmeasured;   /* 1: CPU thread blocks of equal estimated work, the threads'
                               * measured speeds ignored (YEE_CPU_BALANCE=0) */
        int sync_each_launch; /* CUDA: synchronize after each kernel (YEE_DEBUG_SYNC=1) */
    } tuning;
    struct {
        long signal_at_step;  /* raise signal_num after this step (0: never; YEE_SIGNAL_AT_STEP) */
        int signal_num;       /* SIGTERM, SIGUSR1 or SIGKILL */
        int signal_rank;      /* only on this rank (-1: every rank; YEE_SIGNAL_RANK) */
        int fault;            /* 1: rank fault_rank fails at setup as if out of memory
                               * (YEE_FAULT_RANK), to test that every rank stops with its message */
        int fault_rank;
        int no_reserve;       /* 1: no disk blocks reserved for the output file, so that a full
                               * disk meets the run part way (YEE_H5_NO_RESERVE=1) */
        long nan_at_step;     /* after this step a NaN current enters rank 0's block (0: never;
                               * YEE_NAN_AT_STEP), for the blow-up path */
    } test;
} yee_run_options;

/* Every option at its default: auto backend, output on, no restart, no test hook. (A zeroed
 * struct differs only in test.signal_num and signal_rank, which matter only with a hook.) */
yee_run_options yee_run_options_default(void);

typedef struct yee_run_stats {
    long steps;            /* steps taken */
    double seconds;        /* wall time of the stepping loop (output included) */
    double mcells_per_s;   /* n0*n1*n2*steps / seconds / 1e6 */
    size_t backend_bytes;  /* memory the backend holds */
    char h5_path[YEE_PATH_LEN + YEE_NAME_LEN + 8];
    int stopped;           /* 1: stopped by SIGTERM after writing a checkpoint (steps < total) */
    long checkpoint_step;  /* step of the last checkpoint written, -1 if none */
    char checkpoint[YEE_PATH_LEN + YEE_NAME_LEN + 8]; /* its manifest */
    yee_halo_stats halo;   /* this rank's exchange: mode, time waited, bytes per step */
    long fused_steps;      /* steps taken by the backend's advance (several per pass) */
    int fused_max;         /* most steps per advance call (solver/step.c; 0: no advance) */
    long fused_calls;      /* advance calls that took the fused_steps */
    const char *backend;   /* the backend that ran ("cpu", "cuda"; static storage) */
} yee_run_stats;

/* Set up the backend, sources and monitors for cfg (which must outlive the sim) and create the
 * output file. With opt->restart, load that checkpoint instead of starting from zero fields and
 * reopen the run's output file to continue it. Errors: YEE_ERR_NOMEM, _IO (output, checkpoint
 * files), _UNSUPPORTED (backend not built / MPI), _USAGE (a checkpoint of another run). */
int yee_sim_create(const yee_config *cfg, const yee_run_options *opt, yee_sim **out,
                   yee_err *err);

/* Advance nsteps full steps (or up to cfg->steps in total when nsteps < 0), sampling monitors
 * and writing checkpoints when due (checkpoint.interval, signals). Returns early, with YEE_OK,
 * when SIGTERM stopped the run after its checkpoint (yee_sim_finish then reports stopped).
 * Errors: YEE_ERR_NUMERIC (NaN/Inf or unbounded growth, naming the step and cell), backend
 * errors, YEE_ERR_IO (a checkpoint could not be written). */
int yee_sim_advance(yee_sim *sim, long nsteps, yee_err *err);

/* Copy component comp (YEE_EX..YEE_HZ) on the subdomain cells [lo, lo+count) to out (host,
 * x fastest). For tests and checkpoints. */
int yee_sim_download(yee_sim *sim, int comp, const int lo[3], const int count[3], yee_real *out,
                     yee_err *err);

/* Write probe series and spectra, close the HDF5 file and the XDMF sidecar; fill stats. After a
 * stop by SIGTERM only close the file: the restarted run writes the rest. */
int yee_sim_finish(yee_sim *sim, yee_run_stats *stats, yee_err *err);

/* Free everything (also after a failure). NULL is a no-op. */
void yee_sim_destroy(yee_sim *sim);

/* Create, advance to the end, finish, destroy. */
int yee_sim_run(const yee_config *cfg, const yee_run_options *opt, yee_run_stats *stats,
                yee_err *err);

/* Host+device bytes a run of cfg needs on one rank (fields, materials, psi, monitor buffers). */
size_t yee_sim_bytes_estimate(const yee_config *cfg);

/* The part of it that grows with the deck rather than the grid: probe series, spectra, lattice
 * copies. yee_sim_create refuses a run whose grid block plus this exceeds MemAvailable, before
 * allocating or creating output. */
size_t yee_sim_deck_bytes_estimate(const yee_config *cfg);

/* The backend for `name`: "cpu", "cpu-reference", "cuda", or "auto" (cuda when a real device is
 * present, else cpu). YEE_ERR_UNSUPPORTED when the named backend is not built in or has no
 * device. */
int yee_backend_pick(const char *name, const yee_backend_ops **out, yee_err *err);

#endif
