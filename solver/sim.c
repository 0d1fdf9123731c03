/* solver/sim.c -- a simulation's life: set up (decomposition, structure, backend, sources,
 * monitors, halo, output), the run loop around the step script (solver/step.c) with what belongs
 * to the run between steps (health checks, checkpoints, signals, progress), and the finish.
 * This file never tests which backend runs and never touches field memory itself.
 */
#include "solver/sim_private.h"

#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/yee_file.h"
#include "model/nodes.h"
#include "solver/geometry_out.h"

yee_run_options yee_run_options_default(void)
{
    yee_run_options o;
    memset(&o, 0, sizeof o);
    o.test.signal_num = SIGTERM;
    o.test.signal_rank = -1;
    return o;
}

/* ---- backend choice ---- */

int yee_backend_pick(const char *name, const yee_backend_ops **out, yee_err *err)
{
    *out = NULL;
    if (!name || strcmp(name, "auto") == 0) {
        const yee_backend_ops *cuda = yee_backend_find("cuda");
        const int real_gpu = cuda && !yee_backend_cuda_emulated() && yee_backend_cuda_devices() > 0;
        *out = real_gpu ? cuda : &yee_backend_cpu;
        return YEE_OK;
    }
    if (strcmp(name, "cpu-reference") == 0) {
        *out = &yee_backend_cpu_reference;
        return YEE_OK;
    }
    if (strcmp(name, "cuda") == 0) {
        const yee_backend_ops *cuda = yee_backend_find("cuda");
        if (!cuda)
            return yee_fail(err, YEE_ERR_UNSUPPORTED,
                            "backend 'cuda' is not built in (configure with nvcc; see `yee info`)");
        if (yee_backend_cuda_devices() <= 0)
            return yee_fail(err, YEE_ERR_UNSUPPORTED, "backend 'cuda': no CUDA device found");
        *out = cuda;
        return YEE_OK;
    }
    if (strcmp(name, "cpu") == 0) {
        *out = &yee_backend_cpu;
        return YEE_OK;
    }
    return yee_fail(err, YEE_ERR_USAGE, "unknown backend '%s' (expected auto, cpu, cpu-reference or cuda)", name);
}

int yee_sim_sync_status(yee_sim *s, int rc, yee_err *err)
{
    if (s->nranks == 1)
        return rc;
    int worst = rc, first = rc < 0 ? s->rank : s->nranks;
    MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (worst == YEE_OK)
        return YEE_OK;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    char msg[YEE_ERR_MSG_LEN];
    if (s->rank == first)
        snprintf(msg, sizeof msg, "%s", err->msg);
    MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, MPI_COMM_WORLD);
    int code = rc;
    MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD);
    return yee_fail(err, code, "rank %d: %s", first, msg);
}

/* ---- output ---- */

/* A restarted run continues the output file the interrupted run wrote (flushed at its
 * checkpoint, so it holds every frame up to there): the snapshot datasets are reopened, the
 * earlier frames keep their data and get their labels back, and later frames, probes and
 * spectra are written as an uninterrupted run writes them. Frames the interrupted run wrote
 * after its checkpoint are simply written again, with the same values. */
static int reopen_output(yee_sim *s, yee_err *err)
{
    const int rc = yee_h5_reopen(s->h5_path, MPI_COMM_WORLD, &s->h5, err);
    if (rc < 0) {
        char why[YEE_ERR_MSG_LEN];
        snprintf(why, sizeof why, "%s", err->msg);
        return yee_fail(err, rc, "%s; a restarted run continues the output file of the run "
                        "that wrote the checkpoint: keep that file and give the same --out",
                        why);
    }
    return YEE_OK;
}

static int open_output(yee_sim *s, yee_err *err)
{
    const yee_config *cfg = s->cfg;
    YEE_TRY(yee_make_dirs(cfg->out_dir, "output directory", err));
    snprintf(s->h5_path, sizeof s->h5_path, "%s/%s.h5", cfg->out_dir, cfg->name);
    if (s->restarted) {
        YEE_TRY(reopen_output(s, err));
    } else {
        char *deck = yee_read_file(cfg->deck_path, NULL);
        int rc = yee_h5_create(s->h5_path, MPI_COMM_WORLD, cfg, deck, &s->h5, err);
        free(deck);
        YEE_TRY(rc);
    }
    yee_h5_set_flush_seconds(s->h5, cfg->flush_seconds);
    YEE_TRY(yee_monitors_define_output(s->mon, s->h5, s->restarted, err));
    /* the rasterized permittivity (issue 4); a restart writes it again (the same values), or
     * its reopened file would lose it from the XDMF sidecar, which lists this run's snapshots */
    if (cfg->geometry_out)
        YEE_TRY(yee_geometry_write(s->h5, cfg, &s->structure, s->nranks, err));
    /* the blocks of every frame now, so that a full disk stops the run before its first step
     * and not part way (HDF5 1.10 cannot close a file whose metadata it failed to write) */
    if (!s->opt.test.no_reserve)
        YEE_TRY(yee_h5_reserve(s->h5, (double)yee_monitors_bytes_estimate(cfg) / 2.0 +
                                          (double)yee_dft_bytes_estimate(cfg), err));
    /* a file never flushed has no superblock: a run killed before its first frame would leave
     * one that does not open */
    return yee_h5_flush(s->h5, err);
}

/* ---- setup ---- */

size_t yee_sim_bytes_estimate(const yee_config *cfg)
{
    /* the backend's arrays for the whole grid on one rank, with one slab per CPML face */
    const yee_dims d = yee_dims_of(cfg->n, cfg->two_d);
    yee_slab slabs[6];
    int nslabs = 0;
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++) {
            if (cfg->pml_cells[a][side] <= 0)
                continue;
            yee_slab *sl = &slabs[nslabs++];
            for (int b = 0; b < 3; b++) {
                sl->lo[b] = 0;
                sl->hi[b] = cfg->n[b];
            }
            sl->hi[a] = cfg->pml_cells[a][side];
        }
    /* complex fields (Bloch) hold the backend's arrays twice */
    return (cfg->complex_fields ? 2 : 1) * yee_backend_bytes_needed(d, cfg->pol2d, nslabs, slabs) +
           yee_sim_deck_bytes_estimate(cfg);
}

size_t yee_sim_deck_bytes_estimate(const yee_config *cfg)
{
    /* probe series (steps x components), spectra (nodes x nfreq), lattice copies (geometry/) */
    const double copies = yee_config_shape_copies(cfg) * 100.0;
    return yee_monitors_bytes_estimate(cfg) + yee_dft_bytes_estimate(cfg) + (size_t)copies;
}

/* Refuse a block that cannot fit in this machine's memory before allocating any of it: the grid
 * setup (material indices, 3 bytes per cell) plus what the backend keeps on the host. */
static int check_host_memory(yee_sim *s, const int n_local[3], yee_err *err)
{
    const yee_dims d = yee_dims_of(n_local, s->cfg->two_d);
    const double cells = (double)yee_dims_cells(d);
    const size_t grid = (size_t)(3.0 * cells) +
                        (s->cfg->complex_fields ? 2 : 1) * s->be->host_bytes(d, s->cfg->pol2d, 0, NULL);
    /* what grows with the deck rather than the block, counted whole on every rank (an upper
     * bound): a run that `yee check` refuses must not start, allocate lazily and be killed */
    const size_t deck = yee_sim_deck_bytes_estimate(s->cfg);
    const size_t avail = yee_host_memory_available();
    if (avail > 0 && grid + deck > avail)
        return yee_fail(err, YEE_ERR_NOMEM,
                        "the run needs at least %.2f GiB of host memory on this rank (grid "
                        "%.2f GiB, probes, spectra and lattices %.2f GiB) but only %.2f GiB are "
                        "available (MemAvailable); use more ranks, a coarser grid, fewer steps "
                        "or fewer frequencies", (grid + deck) / 1073741824.0,
                        grid / 1073741824.0, deck / 1073741824.0, avail / 1073741824.0);
    return YEE_OK;
}

/* This process's rank among the ranks on its node (MPI-3 shared-memory split), whatever the
 * launcher: Open MPI, MPICH and Slurm name it differently in the environment. */
static int node_rank(void)
{
    MPI_Comm node;
    int r = 0;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Comm_rank(node, &r);
        MPI_Comm_free(&node);
    }
    return r;
}

/* The ghost layers that come across a Bloch-periodic face (this block touches the domain's
 * face there: with one rank on the axis, it is its own neighbour) take the Bloch factor: an E
 * ghost above the top face is E at node 0 one period on, exp(+2 pi i k L) times it; an H ghost
 * below the bottom face is H one period back, exp(-2 pi i k L). */
static void set_bloch_phases(yee_sim *s)
{
    const yee_config *cfg = s->cfg;
    for (int a = 0; a < 3; a++) {
        if (cfg->bloch[a] == 0.0 || cfg->boundary[a][0] != YEE_BC_PERIODIC)
            continue;
        const double phi = 2.0 * M_PI * cfg->bloch[a] * (yee_domain_end(cfg, a) - cfg->origin[a]);
        if (s->dec.offset[a] + s->dec.n[a] == cfg->n[a])
            yee_backend_complex_set_phase(s->ctx, YEE_FIELD_E, a, cos(phi), sin(phi));
        if (s->dec.offset[a] == 0)
            yee_backend_complex_set_phase(s->ctx, YEE_FIELD_H, a, cos(phi), -sin(phi));
    }
}

/* The faces the backend's advance keeps itself instead of the halo between steps:
 * - wrap[a]: a periodic axis of one rank, wrapped onto itself (setup.wrap): any axis of a 3-D
 *   grid, x or y of a 2-D one, for a backend with advance_wraps (with complex fields, one that
 *   also advances a Bloch pair: advance_complex);
 * - linked: the link axis (z; y in 2-D: yee_link_axis) cut into slabs over several ranks
 *   (setup.link), at least 2 layers on every rank, for a backend with advance_links (and
 *   advance_complex with complex fields).
 * Only when that leaves the halo nothing to exchange: a halo on any other face steps one at a
 * time through the split ops, which leave the wraps and links to it. The same answer on every
 * rank (from the deck and the fewest planes of any rank), since linked neighbours must both
 * link. */
static int takes_complex(const yee_sim *s)
{
    return !s->cfg->complex_fields || s->be->advance_complex;
}

/* The axis of the faces a backend may link (kernels/backend.h). */
static int link_axis(const yee_sim *s)
{
    return yee_link_axis(yee_dims_of(s->cfg->n, s->cfg->two_d));
}

/* The backend can keep slabs' faces itself: the condition of `linked` below but the ranks',
 * which the decomposition also asks (it prefers slabs where this holds). */
static int can_link(const yee_sim *s)
{
    return s->be->advance_links && takes_complex(s);
}

static void choose_faces(const yee_sim *s, int wrap[3], int *linked)
{
    const yee_config *cfg = s->cfg;
    const int la = link_axis(s);
    int other = 0;
    *linked = 0;
    for (int a = 0; a < 3; a++) {
        wrap[a] = 0;
        if (s->dec.nbr[a][0] == MPI_PROC_NULL && s->dec.nbr[a][1] == MPI_PROC_NULL)
            continue;
        if ((a < 2 || !cfg->two_d) && s->dec.dims[a] == 1 &&
            cfg->boundary[a][0] == YEE_BC_PERIODIC && s->be->advance_wraps && takes_complex(s))
            wrap[a] = 1;
        else if (a == la && s->dec.dims[a] > 1 && s->dec.fewest[a] >= 2 && can_link(s))
            *linked = 1;
        else
            other = 1;
    }
    if (other) {
        for (int a = 0; a < 3; a++)
            wrap[a] = 0;
        *linked = 0;
    }
}

/* The backend's setup: the structure of this rank's block, and the tuning the options carry. */
static int create_backend(yee_sim *s, yee_err *err)
{
    choose_faces(s, s->structure.setup.wrap, &s->linked);
    s->structure.setup.link = s->linked ? &s->link : NULL;
    s->structure.setup.node_rank = s->node_rank;
    s->structure.setup.tuning.cpu_band_rows = s->opt.tuning.cpu_band_rows;
    s->structure.setup.tuning.cpu_sweep_steps = s->opt.tuning.cpu_sweep_steps;
    s->structure.setup.tuning.cpu_unmeasured = s->opt.tuning.cpu_unmeasured;
    s->structure.setup.tuning.sync_each_launch = s->opt.tuning.sync_each_launch;
    s->backend_name = s->be->name;
    s->advance_dft = s->be->advance_dft && takes_complex(s);
    if (s->cfg->complex_fields) {
        YEE_TRY(yee_backend_complex_create(s->be, &s->structure.setup, &s->ctx, err));
        s->be = &yee_backend_complex;
        set_bloch_phases(s);
    } else {
        YEE_TRY(s->be->create(&s->structure.setup, &s->ctx, err));
    }
    if (s->opt.test.fault && s->opt.test.fault_rank == s->rank)
        return yee_fail(err, YEE_ERR_NOMEM,
                        "cannot allocate the fields (simulated by YEE_FAULT_RANK)");
    return YEE_OK;
}

int yee_sim_create(const yee_config *cfg, const yee_run_options *opt, yee_sim **out,
                   yee_err *err)
{
    *out = NULL;
    yee_sim *s = (yee_sim *)calloc(1, sizeof *s);
    if (!s)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the simulation");
    s->cfg = cfg;
    s->opt = opt ? *opt : yee_run_options_default();
    MPI_Comm_rank(MPI_COMM_WORLD, &s->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s->nranks);
    s->dec.cart = MPI_COMM_NULL;
    s->sig_req = MPI_REQUEST_NULL;
    s->ckpt_step = -1;
    s->deck_hash = yee_run_hash(cfg, &s->opt);
    snprintf(s->ckpt_path, sizeof s->ckpt_path, "%s/%s.ckpt",
             cfg->checkpoint_dir[0] ? cfg->checkpoint_dir : cfg->out_dir, cfg->name);
    s->node_rank = node_rank(); /* collective: before any rank can fail alone */
    int rc = yee_backend_pick(s->opt.backend, &s->be, err);
    /* slabs along the link axis where the backend links their faces (choose_faces) */
    const int slab_axis = rc == YEE_OK && can_link(s) ? link_axis(s) : -1;
    if (rc == YEE_OK)
        rc = yee_decompose(cfg, s->nranks, s->rank, s->opt.ranks, slab_axis, &s->dec, err);
    /* a tensor node reads H one cell above along its axis (kernels/yee_tensor.h), a ghost the
     * halo does not fill */
    if (rc == YEE_OK && cfg->subpixel && cfg->subpixel_tensor && s->nranks > 1)
        rc = yee_fail(err, YEE_ERR_USAGE,
                      "%s: error: grid.subpixel_tensor runs on one rank only (got %d ranks): its "
                      "nodes read H across the subdomain faces, which the halo exchange does not "
                      "carry yet; run one rank or set grid.subpixel_tensor = false",
                      cfg->deck_path, s->nranks);
    /* the error paths so far are the same on every rank; from here on a rank can fail alone */
    if (rc < 0)
        goto fail;
    rc = check_host_memory(s, s->dec.n, err);
    if (rc == YEE_OK)
        rc = yee_structure_build(cfg, s->dec.n, s->dec.offset, &s->structure, err);
    if (rc == YEE_OK)
        rc = create_backend(s, err);
    if (rc == YEE_OK)
        rc = yee_sources_create(cfg, s->structure.n, s->structure.offset, &s->sources, err);
    if (rc == YEE_OK)
        s->health.t_sources_end = yee_sources_end_time(s->sources);
    if (rc == YEE_OK)
        rc = yee_dft_set_create(cfg, s->be, s->ctx, s->structure.n, s->structure.offset,
                                s->opt.tuning.dft_every, &s->dft, err);
    if (rc == YEE_OK)
        rc = yee_monitors_create(cfg, s->structure.n, s->structure.offset, s->be, s->ctx, &s->mon, err);
    int nbr[3][2]; /* the faces the halo exchanges: not those the backend wraps (nor links) */
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++)
            nbr[a][side] = s->structure.setup.wrap[a] ? MPI_PROC_NULL : s->dec.nbr[a][side];
    if (rc == YEE_OK)
        rc = yee_halo_create(s->be, s->ctx, s->dec.cart, s->structure.n,
                             (const int(*)[2])nbr, s->linked ? link_axis(s) : -1,
                             !s->opt.tuning.no_overlap,
                             s->opt.tuning.cuda_aware_mpi, cfg->complex_fields ? 2 : 1,
                             &s->halo, err);
    if (rc == YEE_OK)
        yee_halo_link(s->halo, &s->link);
    if (rc == YEE_OK)
        rc = yee_step_setup(s, err);
    if ((rc = yee_sim_sync_status(s, rc, err)) < 0)
        goto fail;
    yee_step_agree(s);
    if (s->opt.restart && (rc = yee_restore(s, err)) < 0)
        goto fail;
    if (!s->opt.no_output && (rc = yee_sim_sync_status(s, open_output(s, err), err)) < 0)
        goto fail;
    *out = s;
    return YEE_OK;
fail:
    yee_sim_destroy(s);
    return rc;
}

/* ---- the run loop ---- */

static void show_progress(yee_sim *s, int final)
{
    const double now = MPI_Wtime();
    if (!final && now - s->t_last_progress < 0.5)
        return;
    s->t_last_progress = now;
    const double elapsed = now - s->t_start;
    const double cells = (double)s->cfg->n[0] * s->cfg->n[1] * s->cfg->n[2];
    /* rank 0's pace stands for all: the exchange keeps the ranks in step */
    const long done = s->step - s->step0; /* by this process (a restart starts at step0) */
    const double rate = elapsed > 0 ? cells * (double)done / elapsed / 1e6 : 0.0;
    const double eta = done > 0 ? elapsed * (double)(s->cfg->steps - s->step) / done : 0.0;
    fprintf(stderr, "\rstep %ld/%ld (%3.0f%%)  %.1f Mcells/s  ETA %d:%02d%s", s->step,
            s->cfg->steps, 100.0 * s->step / s->cfg->steps, rate, (int)(eta / 60),
            (int)fmod(eta, 60.0), final ? "\n" : "   ");
    fflush(stderr);
}

int yee_sim_advance(yee_sim *s, long nsteps, yee_err *err)
{
    if (s->opt.signals)
        s->opt.signals->stepping = 1; /* from here SIGTERM checkpoints (solver/restart.c) */
    const yee_config *cfg = s->cfg;
    long end = nsteps < 0 ? cfg->steps : s->step + nsteps;
    if (end > cfg->steps && nsteps < 0)
        end = cfg->steps;
    if (s->t_start == 0.0)
        s->t_start = MPI_Wtime();
    const double t0 = MPI_Wtime();
    const yee_run_options *o = &s->opt;
    while (s->step < end) {
        const int rc = yee_step(s, end, err);
        if (rc < 0 && s->nranks > 1) {
            /* a fault in the middle of a step: the other ranks are inside an exchange this rank
             * will never join, so end the job rather than let it hang (as Meep does) */
            fprintf(stderr, "yee: rank %d: error: at step %ld: %s\n", s->rank, s->step, err->msg);
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        YEE_TRY(rc);
        const unsigned due = yee_monitors_due(s, s->step);
        if (due & YEE_DUE_HEALTH)
            YEE_TRY(yee_sim_sync_status(
                s,
                yee_health_check(&s->health, cfg, s->be, s->ctx, s->dec.cart, s->nranks, s->rank,
                                 s->structure.offset, s->step, o->verbose, err),
                err));
        /* the test hook stands for a scheduler's or the OOM killer's signal */
        if ((due & YEE_DUE_TEST_SIGNAL) && (o->signals || o->test.signal_num == SIGKILL) &&
            (o->test.signal_rank < 0 || o->test.signal_rank == s->rank))
            raise(o->test.signal_num);
        if ((due & YEE_DUE_TEST_NAN) && s->rank == 0) {
            /* the test hook stands for a blow-up the deck checks cannot foresee (a NaN in a
             * voxel file or a table): a NaN current in the middle of rank 0's block */
            const yee_point_current nan_current = {YEE_EZ, s->structure.n[0] / 2,
                                                   s->structure.n[1] / 2,
                                                   s->structure.n[2] / 2, (yee_real)NAN, 0};
            YEE_TRY(s->be->apply_sources(s->ctx, 1, &nan_current, err));
        }
        const int asked = yee_poll_signals(s);
        if (s->step < cfg->steps && (asked || (due & YEE_DUE_CHECKPOINT)))
            YEE_TRY(yee_write_checkpoint(s, err));
        if (s->step < cfg->steps && asked == 2) {
            s->stopped = 1; /* SIGTERM: the scheduler kills the job soon; resume later */
            break;
        }
        if (o->progress)
            show_progress(s, s->step == cfg->steps);
    }
    /* complete the last E exchange, so that the fields between advances are whole */
    YEE_TRY(yee_halo_settle(s->halo, s->step, err));
    s->seconds += MPI_Wtime() - t0;
    return YEE_OK;
}

int yee_sim_download(yee_sim *s, int comp, const int lo[3], const int count[3], yee_real *out,
                     yee_err *err)
{
    return s->be->download(s->ctx, comp, lo, count, out, err);
}

int yee_sim_finish(yee_sim *s, yee_run_stats *stats, yee_err *err)
{
    const yee_config *cfg = s->cfg;
    /* a stopped run's probes and spectra are incomplete: the restarted run writes them */
    if (s->h5 && !s->stopped) {
        YEE_TRY(yee_monitors_write_probes(s->mon, s->h5, s->step, MPI_COMM_WORLD, err));
        YEE_TRY(yee_monitors_write_frames(s->mon, s->h5, s->nranks, err));
        YEE_TRY(yee_sim_sync_status(s, yee_dft_set_write(s->dft, s->h5, MPI_COMM_WORLD, err), err));
    }
    if (s->h5) {
        yee_h5 *h = s->h5;
        s->h5 = NULL;
        YEE_TRY(yee_h5_close(h, err));
    }
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->steps = s->step - s->step0;
        stats->seconds = s->seconds;
        const double cells = (double)cfg->n[0] * cfg->n[1] * cfg->n[2];
        stats->mcells_per_s =
            s->seconds > 0 ? cells * (double)stats->steps / s->seconds / 1e6 : 0.0;
        stats->stopped = s->stopped;
        stats->checkpoint_step = s->ckpt_step;
        snprintf(stats->checkpoint, sizeof stats->checkpoint, "%s", s->ckpt_path);
        stats->backend_bytes = s->be->bytes(s->ctx);
        yee_halo_get_stats(s->halo, &stats->halo);
        stats->fused_steps = s->fused_steps;
        stats->fused_max = s->fused_max;
        stats->fused_calls = s->fused_calls;
        stats->backend = s->backend_name;
        snprintf(stats->h5_path, sizeof stats->h5_path, "%s", s->opt.no_output ? "" : s->h5_path);
    }
    return YEE_OK;
}

void yee_sim_destroy(yee_sim *s)
{
    if (!s)
        return;
    if (s->sig_req != MPI_REQUEST_NULL) /* every rank started it: every rank completes it */
        MPI_Wait(&s->sig_req, MPI_STATUS_IGNORE);
    if (s->h5) {
        yee_err ignored;
        yee_h5_close(s->h5, &ignored);
        s->h5 = NULL;
    }
    yee_halo_destroy(s->halo); /* its buffers belong to the backend */
    s->halo = NULL;
    if (s->be && s->ctx)
        s->be->destroy(s->ctx);
    s->ctx = NULL;
    yee_monitors_destroy(s->mon);
    yee_sources_destroy(s->sources);
    yee_dft_set_destroy(s->dft);
    yee_step_free(s);
    yee_decomposition_free(&s->dec);
    yee_structure_free(&s->structure);
    free(s);
}

int yee_sim_run(const yee_config *cfg, const yee_run_options *opt, yee_run_stats *stats,
                yee_err *err)
{
    yee_sim *s = NULL;
    int rc = yee_sim_create(cfg, opt, &s, err);
    if (rc == YEE_OK)
        rc = yee_sim_advance(s, -1, err);
    if (rc == YEE_OK)
        rc = yee_sim_finish(s, stats, err);
    if (rc < 0 && s && s->opt.progress)
        fputc('\n', stderr);
    yee_sim_destroy(s);
    return rc;
}
