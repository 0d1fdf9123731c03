/* solver/sim_private.h -- the inside of a simulation, shared by the files that make it up and
 * by no one else: sim.c (create, advance, finish), step.c (the order of a time step) and
 * restart.c (checkpoints and signals).
 */
#ifndef YEE_SOLVER_SIM_PRIVATE_H
#define YEE_SOLVER_SIM_PRIVATE_H

#include <mpi.h>
#include <signal.h>

#include "io/h5out.h"
#include "solver/decompose.h"
#include "solver/dft.h"
#include "solver/structure.h"
#include "solver/halo.h"
#include "solver/health.h"
#include "solver/monitors.h"
#include "solver/sim.h"
#include "solver/sources.h"

/* Most steps one backend advance call takes (the fused path, solver/step.c). */
enum { YEE_FUSED_MAX = 16 };

struct yee_sim {
    const yee_config *cfg;
    yee_run_options opt;
    const yee_backend_ops *be; /* with complex fields the two-part wrapper (kernels/backend.h) */
    void *ctx;
    const char *backend_name;  /* the backend that runs the arithmetic, for the run's stats */
    yee_structure structure; /* this block's coefficients, lines and slabs (the backend's setup) */
    int rank, nranks;
    int node_rank;        /* among the ranks on this node (which GPU a rank takes) */
    yee_decomposition dec; /* ranks, this rank's block and its neighbours */
    yee_halo *halo;       /* ghost exchange with the neighbours (solver/halo.h) */
    int linked;           /* 1: the faces along the link axis (z; y in 2-D) go through the
                           * backend's advance (setup.link) */
    yee_face_link link;   /* filled by the halo once it exists (yee_halo_link) */
    long step;            /* completed steps */
    yee_health health;

    yee_sources *sources;
    yee_dft_set *dft;     /* flux and DFT monitors */
    yee_monitors *mon;    /* probes and snapshots */
    yee_real *probe_vals; /* a step's probe samples (one_step) */

    /* per step of a backend advance (step.c), its currents (M, J: yee_sources_max each) and
     * probe values; one_step uses the first two lists */
    int fused_max;        /* most steps per advance call (0: no advance) */
    int dft_hold_max;     /* steps sampling the DFTs that a call may hold before its last
                           * (yee_step_plan.dft; 0: every call ends at such a step) */
    int advance_dft;      /* the backend's advance_dft, with complex fields its advance_complex */
    long fused_steps;
    long fused_calls;
    yee_step_plan *plans;
    yee_point_current *fused_cur[2 * YEE_FUSED_MAX];
    yee_real *fused_vals; /* fused_max rows of probe values */

    yee_h5 *h5;
    char h5_path[YEE_PATH_LEN + YEE_NAME_LEN + 8];
    double t_start;       /* MPI_Wtime at the first advance */
    double t_last_progress;
    double seconds;
    long step0;           /* step this process started from (> 0 after a restart) */

    /* checkpoints and signals (restart.c) */
    uint64_t deck_hash;   /* the deck text and its --set options */
    char ckpt_path[YEE_PATH_LEN + YEE_NAME_LEN + 8]; /* manifest this run writes */
    long ckpt_step;       /* step of the checkpoint written last (or restarted from), -1: none */
    int restarted;        /* the state came from a checkpoint */
    int stopped;          /* SIGTERM: checkpoint written, loop left early */
    MPI_Request sig_req;  /* the signal agreement in flight (yee_poll_signals) */
    int sig_send, sig_recv;
    sig_atomic_t usr1_seen;
};

/* All ranks learn whether any failed; the first failing rank's message reaches everyone, so
 * rank 0 prints it and no rank waits forever in a collective the failed one never enters. */
int yee_sim_sync_status(yee_sim *s, int rc, yee_err *err);

/* ---- step.c ---- */

/* What needs the fields after completed step s, beyond the probes (which every step's plan
 * reads): a DFT sample, a snapshot frame, a health check, a checkpoint, a test signal or NaN. */
enum {
    YEE_DUE_DFT = 1,
    YEE_DUE_FRAMES = 2,
    YEE_DUE_HEALTH = 4,
    YEE_DUE_CHECKPOINT = 8,
    YEE_DUE_TEST_SIGNAL = 16,
    YEE_DUE_TEST_NAN = 32,
};
unsigned yee_monitors_due(const yee_sim *s, long step);

/* Advances from s->step by one backend call: one step through the single-step ops, or several
 * by the backend's advance where nothing but probes and DFT samples (which the backend holds:
 * advance_dft) is due between them; returns the steps taken (> 0) or an error. end: do not go
 * past this step. */
int yee_step(yee_sim *s, long end, yee_err *err);

/* Sets up the fused path (buffers for fused_max steps) and this rank's most steps a call. */
int yee_step_setup(yee_sim *s, yee_err *err);
/* Collective, once every rank's setup succeeded: the fewest of every rank's most steps a call
 * and DFT steps held, so that all ranks make the same calls (linked faces are exchanged within
 * each call and at its start). */
void yee_step_agree(yee_sim *s);
void yee_step_free(yee_sim *s);

/* ---- restart.c ---- */

/* Collective: writes a checkpoint of the state after completed step s->step. */
int yee_write_checkpoint(yee_sim *s, yee_err *err);
/* Collective: loads the checkpoint s->opt.restart names. */
int yee_restore(yee_sim *s, yee_err *err);
/* What the signals ask for now, the same on every rank: 0 nothing, 1 a checkpoint, 2 a
 * checkpoint and stop. */
int yee_poll_signals(yee_sim *s);
/* The hash of the deck text and the --set options that identifies a run's checkpoints. */
uint64_t yee_run_hash(const yee_config *cfg, const yee_run_options *opt);

#endif
