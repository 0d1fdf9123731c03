/* solver/sim.c -- the time loop and the monitors it feeds.
 *
 * Order of one step n (fields E^n, H^{n-1/2} on entry; DESIGN.md "Data flow"):
 *   step_h -> H^{n+1/2};  M currents;  H halo;  step_e -> E^{n+1};  J currents J^{n+1/2};
 *   E halo;  probes sample E^{n+1}, H^{n+1/2};  snapshots when due;  health check when due.
 * Halos (rank faces and periodic axes) overlap the next update's interior (solver/halo.h).
 * A "completed step" count s = n + 1 labels output: E at time s dt, H at (s - 1/2) dt.
 * This file never tests which backend runs and never touches field memory itself.
 */
#include "solver/sim.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/h5out.h"
#include "io/vtk.h"
#include "solver/checkpoint.h"
#include "solver/geometry_out.h"
#include "solver/dft.h"
#include "solver/grid.h"
#include "solver/halo.h"
#include "solver/source.h"
#include "solver/sources.h"


typedef struct probe {
    const yee_monitor_cfg *cfg;
    int ncomp;
    int comps[YEE_NCOMP];
    yee_sample pts[YEE_NCOMP];
    double pos[YEE_NCOMP][3];
    double t0[YEE_NCOMP];
    int owned;
    yee_real *series; /* steps x ncomp */
} probe;

typedef struct snapshot_comp {
    int comp;
    int glo[3], gcount[3]; /* node box of this component in the global grid */
    int lo[3], count[3];   /* this rank's part of it, local indices (count 0: none) */
    int start[3];          /* offset of this rank's part inside the global box */
    int h5_id;
    double origin[3];
    int slot;              /* backend copy slot (copy_start), -1: copied synchronously */
    int pending;           /* a frame is on its way: write it at the next step */
    long pending_frame, pending_step;
} snapshot_comp;

typedef struct snapshot {
    const yee_monitor_cfg *cfg;
    int ncomp;
    snapshot_comp comps[YEE_NCOMP];
    long nframes;
    long frame;           /* frames written so far */
} snapshot;

struct yee_sim {
    const yee_config *cfg;
    yee_run_options opt;
    const yee_backend_ops *be;
    void *ctx;
    yee_grid grid;
    int rank, nranks;
    MPI_Comm cart;        /* Cartesian communicator of the decomposition */
    int dims[3];          /* ranks per axis */
    int nbr[3][2];        /* neighbour rank below / above on each axis (MPI_PROC_NULL at walls) */
    yee_halo *halo;       /* ghost exchange with the neighbours (solver/halo.h) */
    long step;            /* completed steps */
    double t_sources_end; /* c-units; +inf with a cw source */
    double energy_ref;    /* energy at the first check after the sources ended (0: not yet) */
    long energy_ref_step;

    yee_sources *sources;
    yee_dft_set *dft;     /* flux and DFT monitors */

    int nprobes;
    probe *probes;
    int nsnaps;
    snapshot *snaps;
    yee_real *frame_buf;  /* largest snapshot component box */
    int pairs;            /* two steps per backend call where nothing is due in between */
    long paired_steps;
    yee_point_current *pair_cur[2]; /* each step's currents of a pair, magnetic then electric */
    int pair_cap[2];
    int npair_pts;        /* the owned probes' samples, read between the steps of a pair */
    yee_sample *pair_pts;
    yee_real *pair_vals;


    yee_h5 *h5;
    char h5_path[YEE_PATH_LEN + YEE_NAME_LEN + 8];
    double t_start;       /* MPI_Wtime at the first advance */
    double t_last_progress;
    double seconds;
    long step0;           /* step this process started from (> 0 after a restart) */

    /* checkpoints (solver/checkpoint.h) */
    uint64_t deck_hash;   /* the deck text and its --set options */
    char ckpt_path[YEE_PATH_LEN + YEE_NAME_LEN + 8]; /* manifest this run writes */
    long ckpt_step;       /* step of the checkpoint written last (or restarted from), -1: none */
    int restarted;        /* the state came from a checkpoint */
    int stopped;          /* SIGTERM: checkpoint written, loop left early */
    MPI_Request sig_req;  /* the signal agreement in flight (poll_signals) */
    int sig_send, sig_recv;
    sig_atomic_t usr1_seen;
    long sig_at_step;     /* YEE_SIGNAL_AT_STEP test hook: raise sig_at_num after that step */
    int sig_at_num, sig_at_rank;
};

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
    return yee_fail(err, YEE_ERR_USAGE, "unknown backend '%s' (expected auto, cpu or cuda)", name);
}

/* ---- setup ---- */


/* ---- decomposition ---- */

/* Split n cells of axis a into p contiguous blocks of near-equal cost, where a cell inside the
 * axis' own CPML costs 1.5 (it also updates four psi values). Block q gets [start[q], start[q+1]). */
static void split_axis(const yee_config *cfg, int a, int p, int *start)
{
    const int n = cfg->n[a];
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += (i < cfg->pml_cells[a][0] || i >= n - cfg->pml_cells[a][1]) ? 1.5 : 1.0;
    double acc = 0.0;
    int q = 1;
    start[0] = 0;
    for (int i = 0; i < n && q < p; i++) {
        acc += (i < cfg->pml_cells[a][0] || i >= n - cfg->pml_cells[a][1]) ? 1.5 : 1.0;
        /* close block q-1 once it holds its share, leaving >= 1 cell for each block after it */
        if (acc >= total * q / p && n - (i + 1) >= p - q)
            start[q++] = i + 1;
    }
    while (q < p) { /* tiny axes: one cell per remaining block */
        start[q] = start[q - 1] + 1;
        q++;
    }
    start[p] = n;
}

/* Choose the rank grid (explicit or MPI_Dims_create), build the Cartesian communicator with the
 * periodic axes wrapped, and find this rank's block and neighbours. */
static int decompose(yee_sim *s, int n_local[3], int offset[3], yee_err *err)
{
    const yee_config *cfg = s->cfg;
    int dims[3] = {s->opt.ranks[0], s->opt.ranks[1], s->opt.ranks[2]};
    if (dims[0] > 0 || dims[1] > 0 || dims[2] > 0) {
        if (dims[0] * dims[1] * dims[2] != s->nranks)
            return yee_fail(err, YEE_ERR_USAGE, "--ranks %dx%dx%d is %d ranks, but %d are running",
                            dims[0], dims[1], dims[2], dims[0] * dims[1] * dims[2], s->nranks);
    } else {
        if (MPI_Dims_create(s->nranks, 3, dims) != MPI_SUCCESS)
            return yee_fail(err, YEE_ERR_MPI, "MPI_Dims_create failed for %d ranks", s->nranks);
        /* MPI_Dims_create orders dims large to small; give the most ranks to the longest axis,
         * and among equal axes to z, then y: a cut across z leaves every rank whole rows and
         * contiguous faces to pack (2x1x1 ran at 0.62x the speed of 1x1x2 on two CPU ranks, 96^3) */
        int order[3] = {2, 1, 0};
        for (int x = 0; x < 3; x++)
            for (int y = x + 1; y < 3; y++)
                if (cfg->n[order[y]] > cfg->n[order[x]]) {
                    int t = order[x];
                    order[x] = order[y];
                    order[y] = t;
                }
        int sorted[3] = {dims[0], dims[1], dims[2]};
        for (int x = 0; x < 3; x++)
            dims[order[x]] = sorted[x];
    }
    for (int a = 0; a < 3; a++)
        if (dims[a] > cfg->n[a])
            return yee_fail(err, YEE_ERR_USAGE, "%d ranks along %c but only %d cells", dims[a],
                            "xyz"[a], cfg->n[a]);
    int periods[3];
    for (int a = 0; a < 3; a++) {
        periods[a] = cfg->boundary[a][0] == YEE_BC_PERIODIC;
        s->dims[a] = dims[a];
    }
    /* no reordering: rank r of the world is rank r of the grid, so rank 0 stays the reporter */
    if (MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &s->cart) != MPI_SUCCESS)
        return yee_fail(err, YEE_ERR_MPI, "MPI_Cart_create failed");
    int coords[3];
    MPI_Cart_coords(s->cart, s->rank, 3, coords);
    for (int a = 0; a < 3; a++) {
        int *start = (int *)malloc((size_t)(dims[a] + 1) * sizeof(int));
        if (!start)
            return YEE_FAIL(err, YEE_ERR_NOMEM, "decomposition");
        split_axis(cfg, a, dims[a], start);
        offset[a] = start[coords[a]];
        n_local[a] = start[coords[a] + 1] - start[coords[a]];
        free(start);
        MPI_Cart_shift(s->cart, a, 1, &s->nbr[a][0], &s->nbr[a][1]);
    }
    return YEE_OK;
}

/* All ranks learn whether any failed; the first failing rank's message reaches everyone, so
 * rank 0 prints it and no rank waits forever in a collective the failed one never enters. */
static int sync_status(yee_sim *s, int rc, yee_err *err)
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

static int setup_probes(yee_sim *s, yee_err *err)
{
    const yee_config *cfg = s->cfg;
    for (int m = 0; m < cfg->nmonitors; m++)
        s->nprobes += cfg->monitors[m].kind == YEE_MON_PROBE;
    s->probes = (probe *)calloc((size_t)s->nprobes + 1, sizeof *s->probes);
    if (!s->probes)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate probes");
    int p = 0;
    for (int m = 0; m < cfg->nmonitors; m++) {
        const yee_monitor_cfg *mc = &cfg->monitors[m];
        if (mc->kind != YEE_MON_PROBE)
            continue;
        probe *pr = &s->probes[p++];
        pr->cfg = mc;
        pr->owned = 1;
        for (int c = 0; c < YEE_NCOMP; c++) {
            if (!(mc->components & (1u << c)))
                continue;
            const int q = pr->ncomp++;
            pr->comps[q] = c;
            int ijk[3];
            for (int a = 0; a < 3; a++) {
                ijk[a] = yee_nearest_node(cfg, c, a, mc->position[a]);
                pr->pos[q][a] = yee_node_position(cfg, c, a, ijk[a]);
                ijk[a] -= s->grid.offset[a];
                pr->owned &= ijk[a] >= 0 && ijk[a] < s->grid.n[a];
            }
            pr->pts[q].comp = c;
            pr->pts[q].i = ijk[0];
            pr->pts[q].j = ijk[1];
            pr->pts[q].k = ijk[2];
            /* row r holds E^{r+1} (time (r+1) dt) and H^{r+1/2} (time (r+1/2) dt) */
            pr->t0[q] = c < 3 ? cfg->dt : 0.5 * cfg->dt;
        }
        if (pr->owned) {
            pr->series = (yee_real *)calloc((size_t)cfg->steps * (size_t)pr->ncomp, sizeof(yee_real));
            if (!pr->series)
                return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %ld samples for probe '%s'",
                                cfg->steps * pr->ncomp, mc->name);
        }
    }
    return YEE_OK;
}


/* The owned probes' samples as one list, for step_pair (two_steps scatters the values back). */
static int collect_pair_samples(yee_sim *s, yee_err *err)
{
    for (int p = 0; p < s->nprobes && s->pairs; p++)
        if (s->probes[p].owned)
            s->npair_pts += s->probes[p].ncomp;
    if (s->npair_pts == 0)
        return YEE_OK;
    s->pair_pts = (yee_sample *)malloc((size_t)s->npair_pts * sizeof *s->pair_pts);
    s->pair_vals = (yee_real *)malloc((size_t)s->npair_pts * sizeof *s->pair_vals);
    if (!s->pair_pts || !s->pair_vals)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "probe samples");
    int q = 0;
    for (int p = 0; p < s->nprobes; p++)
        for (int c = 0; s->probes[p].owned && c < s->probes[p].ncomp; c++)
            s->pair_pts[q++] = s->probes[p].pts[c];
    return YEE_OK;
}

static long snapshot_frames(const yee_config *cfg, const yee_monitor_cfg *mc)
{
    long first = mc->start > 0 ? mc->start : mc->interval;
    if (first > cfg->steps)
        return 0;
    return (cfg->steps - first) / mc->interval + 1;
}

static int snapshot_due(const yee_monitor_cfg *mc, long s)
{
    long first = mc->start > 0 ? mc->start : mc->interval;
    return s >= first && (s - first) % mc->interval == 0;
}

static int setup_snapshots(yee_sim *s, yee_err *err)
{
    const yee_config *cfg = s->cfg;
    for (int m = 0; m < cfg->nmonitors; m++)
        s->nsnaps += cfg->monitors[m].kind == YEE_MON_SNAPSHOT;
    s->snaps = (snapshot *)calloc((size_t)s->nsnaps + 1, sizeof *s->snaps);
    if (!s->snaps)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate snapshots");
    size_t biggest = 0;
    int q = 0, nslots = 0;
    for (int m = 0; m < cfg->nmonitors; m++) {
        const yee_monitor_cfg *mc = &cfg->monitors[m];
        if (mc->kind != YEE_MON_SNAPSHOT)
            continue;
        snapshot *sn = &s->snaps[q++];
        sn->cfg = mc;
        sn->nframes = snapshot_frames(cfg, mc);
        for (int c = 0; c < YEE_NCOMP; c++) {
            if (!(mc->components & (1u << c)))
                continue;
            snapshot_comp *sc = &sn->comps[sn->ncomp++];
            sc->comp = c;
            sc->slot = nslots++;
            if (sc->slot >= 64) /* backend.h: 64 copy slots */
                return yee_fail(err, YEE_ERR_UNSUPPORTED,
                                "%s:%d: more than 64 snapshot components in one run (monitor "
                                "'%s'); merge snapshots or split the run",
                                cfg->deck_path, mc->line, mc->name);
            size_t nodes = 1;
            for (int a = 0; a < 3; a++) {
                yee_node_range(cfg, c, a, mc->box_min[a], mc->box_max[a], &sc->glo[a], &sc->gcount[a]);
                sc->origin[a] = yee_node_position(cfg, c, a, sc->glo[a]);
                /* this rank's nodes: global [offset, offset + n) */
                const int o = s->grid.offset[a], nl = s->grid.n[a];
                const int l = sc->glo[a] > o ? sc->glo[a] : o;
                const int h = sc->glo[a] + sc->gcount[a] < o + nl ? sc->glo[a] + sc->gcount[a]
                                                                  : o + nl;
                sc->lo[a] = l - o;
                sc->count[a] = h > l ? h - l : 0;
                sc->start[a] = l - sc->glo[a];
                nodes *= (size_t)sc->count[a];
            }
            if (nodes > biggest)
                biggest = nodes;
        }
    }
    if (biggest) {
        s->frame_buf = (yee_real *)malloc(biggest * sizeof(yee_real));
        if (!s->frame_buf)
            return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate a %.1f MiB snapshot buffer",
                            biggest * sizeof(yee_real) / 1048576.0);
    }
    return YEE_OK;
}

/* mkdir -p for the output directory. */
static int make_dirs(const char *dir, yee_err *err)
{
    char path[YEE_PATH_LEN];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; ; p++) {
        const int end = *p == '\0';
        if (*p == '/' || end) {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return yee_fail(err, YEE_ERR_IO, "cannot create output directory '%s': %s", path,
                                strerror(errno));
            if (end)
                break;
            *p = '/';
        }
    }
    return YEE_OK;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long len = ftell(f);
        if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = (char *)malloc((size_t)len + 1))) {
            size_t got = fread(buf, 1, (size_t)len, f);
            buf[got] = '\0';
        }
    }
    fclose(f);
    return buf;
}

/* Step of frame f of a snapshot monitor (the schedule of snapshot_due). */
static long snapshot_step(const yee_monitor_cfg *mc, long f)
{
    return (mc->start > 0 ? mc->start : mc->interval) + f * mc->interval;
}

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
    YEE_TRY(make_dirs(cfg->out_dir, err));
    snprintf(s->h5_path, sizeof s->h5_path, "%s/%s.h5", cfg->out_dir, cfg->name);
    if (s->restarted) {
        YEE_TRY(reopen_output(s, err));
    } else {
        char *deck = read_text(cfg->deck_path);
        int rc = yee_h5_create(s->h5_path, MPI_COMM_WORLD, cfg, deck, &s->h5, err);
        free(deck);
        YEE_TRY(rc);
    }
    for (int q = 0; q < s->nsnaps; q++) {
        snapshot *sn = &s->snaps[q];
        for (int c = 0; c < sn->ncomp; c++) {
            snapshot_comp *sc = &sn->comps[c];
            const int64_t shape[3] = {sc->gcount[0], sc->gcount[1], sc->gcount[2]};
            YEE_TRY(yee_h5_snapshot_define(s->h5, sn->cfg->name, sc->comp, shape, sc->origin,
                                           cfg->dx, sn->nframes, &sc->h5_id, err));
            for (long f = 0; s->restarted && f < sn->frame; f++) {
                const long step = snapshot_step(sn->cfg, f);
                const double t = (step - (sc->comp < 3 ? 0.0 : 0.5)) * cfg->dt;
                YEE_TRY(yee_h5_snapshot_label(s->h5, sc->h5_id, f, step, t, err));
            }
        }
    }
    if (cfg->geometry_out && !s->restarted) /* the rasterized permittivity (issue 4) */
        YEE_TRY(yee_geometry_write(s->h5, cfg, &s->grid, s->nranks, err));
    return YEE_OK;
}

/* ---- checkpoints (solver/checkpoint.h, docs/checkpoint.md) ---- */

/* The deck text and the --set options: a restart must run the very same simulation. */
static uint64_t deck_hash(const yee_config *cfg, const yee_run_options *opt)
{
    char *text = read_text(cfg->deck_path);
    uint64_t h = yee_ckpt_hash(0, text ? text : "", text ? strlen(text) : 0);
    free(text);
    for (int i = 0; i < opt->nsets; i++)
        h = yee_ckpt_hash(h, opt->sets[i], strlen(opt->sets[i]) + 1);
    return h;
}

static void checkpoint_id(const yee_sim *s, long step, yee_ckpt_id *id)
{
    memset(id, 0, sizeof *id);
    snprintf(id->name, sizeof id->name, "%s", s->cfg->name);
    snprintf(id->deck, sizeof id->deck, "%s", s->cfg->deck_path);
    id->deck_hash = s->deck_hash;
    id->step = step;
    id->steps = s->cfg->steps;
    id->nranks = s->nranks;
    for (int a = 0; a < 3; a++) {
        id->n[a] = s->cfg->n[a];
        id->dims[a] = s->dims[a];
    }
    id->real_bytes = (int)sizeof(yee_real);
}

static int record(yee_ckpt_file *f, int save, const char *tag, void *data, size_t bytes,
                  yee_err *err)
{
    return save ? yee_ckpt_put(f, tag, data, bytes, err) : yee_ckpt_get(f, tag, data, bytes, err);
}

/* Everything that evolves between steps on this rank, written (save) or read back in one
 * order: the loop's counters, the backend's parts (fields with ghosts, psi, polarizations),
 * the plane waves' 1-D grids, the DFT sums, the probe rows so far and the snapshot frame
 * counters. The rest (materials, coefficients, source and monitor geometry) is rebuilt from
 * the deck, which is why a restart needs the same deck. */
static int checkpoint_records(yee_sim *s, yee_ckpt_file *f, int save, yee_err *err)
{
    char tag[16];
    int64_t loop[3] = {s->step, s->energy_ref_step, 0};
    memcpy(&loop[2], &s->energy_ref, sizeof s->energy_ref);
    YEE_TRY(record(f, save, "loop", loop, sizeof loop, err));
    if (!save) {
        s->step = (long)loop[0];
        s->energy_ref_step = (long)loop[1];
        memcpy(&s->energy_ref, &loop[2], sizeof s->energy_ref);
    }
    /* one host buffer, as large as the largest single array */
    const int nparts = s->be->state_parts(s->ctx), nreg = yee_dft_set_regions(s->dft);
    size_t cap = yee_sources_state_size(s->sources);
    for (int p = 0; p < nparts; p++)
        if (s->be->state_part_bytes(s->ctx, p) > cap)
            cap = s->be->state_part_bytes(s->ctx, p);
    for (int r = 0; r < nreg; r++)
        if (2 * (size_t)yee_dft_set_region_size(s->dft, r) * sizeof(double) > cap)
            cap = 2 * (size_t)yee_dft_set_region_size(s->dft, r) * sizeof(double);
    char *buf = (char *)malloc(cap ? cap : 1);
    if (!buf)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate a %.1f MiB checkpoint buffer",
                        cap / 1048576.0);
    int rc = YEE_OK;
    for (int p = 0; p < nparts && rc == YEE_OK; p++) {
        const size_t bytes = s->be->state_part_bytes(s->ctx, p);
        snprintf(tag, sizeof tag, "be%d", p);
        if (save)
            rc = s->be->state_transfer(s->ctx, p, buf, 0, err);
        if (rc == YEE_OK)
            rc = record(f, save, tag, buf, bytes, err);
        if (rc == YEE_OK && !save)
            rc = s->be->state_transfer(s->ctx, p, buf, 1, err);
    }
    if (rc == YEE_OK) {
        const size_t bytes = yee_sources_state_size(s->sources);
        if (save)
            yee_sources_state_save(s->sources, buf);
        rc = record(f, save, "sources", buf, bytes, err);
        if (rc == YEE_OK && !save)
            yee_sources_state_load(s->sources, buf);
    }
    for (int r = 0; r < nreg && rc == YEE_OK; r++) {
        const size_t n = (size_t)yee_dft_set_region_size(s->dft, r);
        double *re = (double *)(void *)buf, *im = re + n;
        snprintf(tag, sizeof tag, "dft%d", r);
        if (save)
            rc = yee_dft_set_transfer(s->dft, r, re, im, 0, err);
        if (rc == YEE_OK)
            rc = record(f, save, tag, buf, 2 * n * sizeof(double), err);
        if (rc == YEE_OK && !save)
            rc = yee_dft_set_transfer(s->dft, r, re, im, 1, err);
    }
    free(buf);
    YEE_TRY(rc);
    const long rows = s->step < s->cfg->steps ? s->step : s->cfg->steps;
    for (int p = 0; p < s->nprobes; p++) {
        probe *pr = &s->probes[p];
        snprintf(tag, sizeof tag, "probe%d", p);
        if (pr->owned)
            YEE_TRY(record(f, save, tag, pr->series,
                           (size_t)rows * (size_t)pr->ncomp * sizeof(yee_real), err));
    }
    int64_t *frames = (int64_t *)calloc((size_t)s->nsnaps + 1, sizeof *frames);
    if (!frames)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "checkpoint");
    for (int q = 0; q < s->nsnaps; q++)
        frames[q] = s->snaps[q].frame;
    rc = record(f, save, "frames", frames, (size_t)s->nsnaps * sizeof *frames, err);
    for (int q = 0; q < s->nsnaps && !save && rc == YEE_OK; q++)
        s->snaps[q].frame = (long)frames[q];
    free(frames);
    return rc;
}

/* Collective. Output flushed first (the file then holds every frame up to this step), then
 * each rank's file, then rank 0's manifest: the checkpoint counts only once all are complete,
 * and only then are the previous checkpoint's files removed. */
static int write_checkpoint(yee_sim *s, yee_err *err)
{
    const yee_config *cfg = s->cfg;
    const double t0 = MPI_Wtime();
    YEE_TRY(yee_halo_settle(s->halo, s->step, err)); /* the ghost layers are part of the state */
    YEE_TRY(sync_status(s, s->rank == 0 ? make_dirs(cfg->checkpoint_dir[0] ? cfg->checkpoint_dir
                                                                          : cfg->out_dir, err)
                                        : YEE_OK, err));
    if (s->h5)
        YEE_TRY(sync_status(s, yee_h5_flush(s->h5, err), err));
    yee_ckpt_id id;
    checkpoint_id(s, s->step, &id);
    yee_ckpt_file *f = NULL;
    int rc = yee_ckpt_create(s->ckpt_path, &id, s->rank, s->grid.offset, s->grid.n, &f, err);
    if (rc == YEE_OK)
        rc = checkpoint_records(s, f, 1, err);
    if (rc == YEE_OK) {
        rc = yee_ckpt_finish(f, err);
        f = NULL;
    }
    yee_ckpt_abandon(f);
    YEE_TRY(sync_status(s, rc, err));
    YEE_TRY(sync_status(s, s->rank == 0 ? yee_ckpt_commit(s->ckpt_path, &id, err) : YEE_OK, err));
    if (s->ckpt_step >= 0 && s->ckpt_step != s->step) {
        char old[sizeof s->ckpt_path + 32];
        yee_ckpt_data_path(s->ckpt_path, s->ckpt_step, s->rank, old, sizeof old);
        remove(old); /* absent when the restart came from another directory: fine */
    }
    s->ckpt_step = s->step;
    if (!s->opt.quiet && s->rank == 0) {
        printf("%scheckpoint at step %ld: %s (%.2f s)\n", s->opt.progress ? "\n" : "", s->step,
               s->ckpt_path, MPI_Wtime() - t0);
        fflush(stdout);
    }
    return YEE_OK;
}

/* Collective: load the checkpoint opt.restart names (its manifest, or the directory holding
 * <name>.ckpt). Rank 0 compares the manifest with this run and every rank gets its verdict;
 * then each rank reads its own file. */
static int restore(yee_sim *s, yee_err *err)
{
    char manifest[YEE_PATH_LEN + YEE_NAME_LEN + 8];
    struct stat st;
    if (stat(s->opt.restart, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(manifest, sizeof manifest, "%s/%s.ckpt", s->opt.restart, s->cfg->name);
    else
        snprintf(manifest, sizeof manifest, "%s", s->opt.restart);
    yee_ckpt_id want, have;
    checkpoint_id(s, 0, &want);
    memset(&have, 0, sizeof have);
    int rc = YEE_OK;
    if (s->rank == 0) {
        rc = yee_ckpt_read_manifest(manifest, &have, err);
        if (rc == YEE_OK)
            rc = yee_ckpt_compare(&have, &want, manifest, err);
    }
    if (s->nranks > 1) {
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Bcast(rc < 0 ? (void *)err->msg : (void *)&have,
                  rc < 0 ? (int)sizeof err->msg : (int)sizeof have, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    YEE_TRY(rc);
    yee_ckpt_file *f = NULL;
    rc = yee_ckpt_open(manifest, &have, s->rank, s->grid.offset, s->grid.n, &f, err);
    if (rc == YEE_OK)
        rc = checkpoint_records(s, f, 0, err);
    if (rc == YEE_OK) {
        rc = yee_ckpt_close(f, err);
        f = NULL;
    }
    yee_ckpt_abandon(f);
    YEE_TRY(sync_status(s, rc, err));
    s->restarted = 1;
    s->ckpt_step = have.step;
    s->step0 = s->step;
    if (!s->opt.quiet && s->rank == 0)
        printf("restart from %s: step %ld of %ld\n", manifest, s->step, s->cfg->steps);
    return YEE_OK;
}

/* What the signals ask for now, the same on every rank: 0 nothing, 1 a checkpoint (SIGUSR1),
 * 2 a checkpoint and stop (SIGTERM). One rank reads the flags directly. With several, a signal
 * reaches the ranks at different steps, so each rank's request goes into a nonblocking MAX
 * reduction started after one step and completed after the next: every rank then acts at the
 * same step, without a blocking collective in every step. A checkpoint answers every SIGUSR1
 * received before it. */
static int poll_signals(yee_sim *s)
{
    const yee_signal_flags *sig = s->opt.signals;
    if (!sig)
        return 0;
    int agreed;
    if (s->nranks == 1) {
        agreed = sig->term ? 2 : sig->usr1 != s->usr1_seen;
    } else {
        agreed = 0;
        if (s->sig_req != MPI_REQUEST_NULL) {
            MPI_Wait(&s->sig_req, MPI_STATUS_IGNORE);
            agreed = s->sig_recv;
        }
        if (agreed)
            s->usr1_seen = sig->usr1;
        s->sig_send = sig->term ? 2 : sig->usr1 != s->usr1_seen;
        MPI_Iallreduce(&s->sig_send, &s->sig_recv, 1, MPI_INT, MPI_MAX, s->cart, &s->sig_req);
    }
    if (agreed)
        s->usr1_seen = sig->usr1;
    return agreed;
}

size_t yee_sim_bytes_estimate(const yee_config *cfg)
{
    /* the backend's arrays for the whole grid on one rank, with one slab per CPML face */
    yee_dims d;
    yee_slab slabs[6];
    int nslabs = 0;
    for (int a = 0; a < 3; a++)
        d.n[a] = cfg->n[a];
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
    size_t bytes = yee_backend_bytes_needed(d, nslabs, slabs);
    for (int m = 0; m < cfg->nmonitors; m++)
        if (cfg->monitors[m].kind == YEE_MON_PROBE)
            bytes += (size_t)cfg->steps * YEE_NCOMP * sizeof(yee_real);
    return bytes + yee_dft_bytes_estimate(cfg);
}

/* Refuse a block that cannot fit in this machine's memory before allocating any of it: the grid
 * setup (material indices, 3 bytes per cell) plus what the backend keeps on the host. */
static int check_host_memory(yee_sim *s, const int n_local[3], yee_err *err)
{
    yee_dims d;
    for (int a = 0; a < 3; a++)
        d.n[a] = n_local[a];
    const double cells = (double)(n_local[0] + 2) * (n_local[1] + 2) * (n_local[2] + 2);
    const size_t need = (size_t)(3.0 * cells) + s->be->host_bytes(d, 0, NULL);
    const size_t avail = yee_host_memory_available();
    if (avail > 0 && need > avail)
        return yee_fail(err, YEE_ERR_NOMEM,
                        "the grid needs at least %.2f GiB of host memory on this rank but only "
                        "%.2f GiB are available (MemAvailable); use more ranks or a coarser grid",
                        need / 1073741824.0, avail / 1073741824.0);
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
    if (opt)
        s->opt = *opt;
    MPI_Comm_rank(MPI_COMM_WORLD, &s->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s->nranks);
    s->cart = MPI_COMM_NULL;
    s->sig_req = MPI_REQUEST_NULL;
    s->ckpt_step = -1;
    s->deck_hash = deck_hash(cfg, &s->opt);
    snprintf(s->ckpt_path, sizeof s->ckpt_path, "%s/%s.ckpt",
             cfg->checkpoint_dir[0] ? cfg->checkpoint_dir : cfg->out_dir, cfg->name);
    /* YEE_SIGNAL_AT_STEP=N[:USR1|:KILL] raises SIGTERM (SIGUSR1, SIGKILL) after step N, on
     * rank YEE_SIGNAL_RANK only when set: tests stop a run as a scheduler or a crash would */
    const char *sig_at = getenv("YEE_SIGNAL_AT_STEP"), *sig_rank = getenv("YEE_SIGNAL_RANK");
    s->sig_at_step = -1;
    s->sig_at_num = !sig_at                ? SIGTERM
                    : strstr(sig_at, "USR1") ? SIGUSR1
                    : strstr(sig_at, "KILL") ? SIGKILL
                                             : SIGTERM;
    s->sig_at_rank = sig_rank ? atoi(sig_rank) : -1;
    if (sig_at)
        s->sig_at_step = atol(sig_at);
    int n_local[3], offset[3];
    int rc = decompose(s, n_local, offset, err);
    if (rc == YEE_OK)
        rc = yee_backend_pick(s->opt.backend, &s->be, err);
    /* the error paths so far are the same on every rank; from here on a rank can fail alone */
    if (rc < 0)
        goto fail;
    rc = check_host_memory(s, n_local, err);
    if (rc == YEE_OK)
        rc = yee_grid_build(cfg, n_local, offset, &s->grid, err);
    if (rc == YEE_OK)
        rc = s->be->create(&s->grid.setup, &s->ctx, err);
    /* YEE_FAULT_RANK=r makes rank r fail here as if out of memory: tests use it to check that
     * every rank stops with that rank's message instead of hanging (docs/cluster.md) */
    const char *fault = getenv("YEE_FAULT_RANK");
    if (rc == YEE_OK && fault && atoi(fault) == s->rank)
        rc = yee_fail(err, YEE_ERR_NOMEM, "cannot allocate the fields (simulated by YEE_FAULT_RANK)");
    if (rc == YEE_OK)
        rc = yee_sources_create(cfg, s->grid.n, s->grid.offset, &s->sources, err);
    if (rc == YEE_OK)
        s->t_sources_end = yee_sources_end_time(s->sources);
    if (rc == YEE_OK)
        rc = yee_dft_set_create(cfg, s->be, s->ctx, s->grid.n, s->grid.offset, &s->dft, err);
    if (rc == YEE_OK)
        rc = setup_probes(s, err);
    if (rc == YEE_OK)
        rc = setup_snapshots(s, err);
    if (rc == YEE_OK)
        rc = yee_halo_create(s->be, s->ctx, s->cart, s->grid.n, (const int(*)[2])s->nbr, &s->halo,
                             err);
    if (rc == YEE_OK) {
        /* YEE_STEP_PAIRS=0 keeps one step per call (A/B measurements; same bytes either way) */
        const char *pairs = getenv("YEE_STEP_PAIRS");
        yee_halo_stats hs;
        yee_halo_get_stats(s->halo, &hs);
        s->pairs = s->be->step_pair && !hs.active && !(pairs && *pairs && atoi(pairs) == 0);
        rc = collect_pair_samples(s, err);
    }
    if ((rc = sync_status(s, rc, err)) < 0)
        goto fail;
    if (s->opt.restart && (rc = restore(s, err)) < 0)
        goto fail;
    if (!s->opt.no_output && (rc = sync_status(s, open_output(s, err), err)) < 0)
        goto fail;
    *out = s;
    return YEE_OK;
fail:
    yee_sim_destroy(s);
    return rc;
}

/* ---- the loop ---- */

static int sample_probes(yee_sim *s, long row, yee_err *err)
{
    for (int p = 0; p < s->nprobes; p++) {
        probe *pr = &s->probes[p];
        if (!pr->owned)
            continue;
        YEE_TRY(s->be->gather(s->ctx, pr->ncomp, pr->pts, pr->series + row * pr->ncomp, err));
    }
    return YEE_OK;
}

static int write_vtk(yee_sim *s, const snapshot *sn, const snapshot_comp *sc, long step,
                     yee_err *err)
{
    char path[YEE_PATH_LEN + 3 * YEE_NAME_LEN];
    snprintf(path, sizeof path, "%s/%s_%s_%s_%06ld.vtk", s->cfg->out_dir, s->cfg->name,
             sn->cfg->name, yee_component_name(sc->comp), step);
    char title[256];
    snprintf(title, sizeof title, "yee %s %s %s step %ld time %.6g fs", s->cfg->name,
             sn->cfg->name, yee_component_name(sc->comp), step,
             (step - (sc->comp < 3 ? 0.0 : 0.5)) * s->cfg->dt * YEE_TIME_UNIT_FS);
    const int64_t n[3] = {sc->gcount[0], sc->gcount[1], sc->gcount[2]};
    return yee_vtk_write_points(path, title, yee_component_name(sc->comp), n, sc->origin,
                                s->cfg->dx, s->frame_buf, err);
}

/* Snapshots leave the backend in two halves so that a GPU copies frame n while it computes
 * step n+1 (backend.h copy_start/copy_finish): start_snapshots queues the copies at the end of
 * a step, finish_snapshots writes them once the next step's H update is under way (or at the
 * end of the run). Every rank takes part in each HDF5 write, with or without nodes. */
static int finish_snapshots(yee_sim *s, yee_err *err)
{
    for (int q = 0; q < s->nsnaps; q++) {
        snapshot *sn = &s->snaps[q];
        for (int c = 0; c < sn->ncomp; c++) {
            snapshot_comp *sc = &sn->comps[c];
            if (!sc->pending)
                continue;
            sc->pending = 0;
            const int mine = sc->count[0] > 0 && sc->count[1] > 0 && sc->count[2] > 0;
            if (mine)
                YEE_TRY(s->be->copy_finish(s->ctx, sc->slot, s->frame_buf, err));
            const long step = sc->pending_step;
            const double t = (step - (sc->comp < 3 ? 0.0 : 0.5)) * s->cfg->dt;
            const int64_t start[3] = {sc->start[0], sc->start[1], sc->start[2]};
            const int64_t count[3] = {mine ? sc->count[0] : 0, mine ? sc->count[1] : 0,
                                      mine ? sc->count[2] : 0};
            YEE_TRY(yee_h5_snapshot_write(s->h5, sc->h5_id, sc->pending_frame, step, t, start,
                                          count, s->frame_buf, err));
            /* legacy VTK is a serial format: written on one rank only */
            if (sn->cfg->vtk && s->nranks == 1)
                YEE_TRY(write_vtk(s, sn, sc, step, err));
        }
    }
    return YEE_OK;
}

static int start_snapshots(yee_sim *s, yee_err *err)
{
    for (int q = 0; q < s->nsnaps; q++) {
        snapshot *sn = &s->snaps[q];
        if (!snapshot_due(sn->cfg, s->step) || sn->frame >= sn->nframes)
            continue;
        for (int c = 0; c < sn->ncomp; c++) {
            snapshot_comp *sc = &sn->comps[c];
            const int mine = sc->count[0] > 0 && sc->count[1] > 0 && sc->count[2] > 0;
            if (mine)
                YEE_TRY(s->be->copy_start(s->ctx, sc->comp, sc->lo, sc->count, sc->slot, err));
            sc->pending = 1;
            sc->pending_frame = sn->frame;
            sc->pending_step = s->step;
        }
        sn->frame++;
    }
    return YEE_OK;
}

static const char *const comp_names[YEE_NCOMP] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};

/* NaN/Inf anywhere, or energy growing after every source has ended, is a blow-up: a passive
 * system with absorbing or reflecting walls cannot gain energy once it is left alone. */
static int check_health(yee_sim *s, yee_err *err)
{
    yee_norms nrm;
    YEE_TRY(s->be->norms(s->ctx, &nrm, err));
    const yee_config *cfg = s->cfg;
    if (s->nranks > 1) {
        double sums[2] = {nrm.e2, nrm.h2};
        MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, s->cart);
        nrm.e2 = sums[0];
        nrm.h2 = sums[1];
    }
    if (nrm.nonfinite) {
        const int c = nrm.bad_comp;
        double pos[3];
        const int ijk[3] = {nrm.bad_i + s->grid.offset[0], nrm.bad_j + s->grid.offset[1],
                            nrm.bad_k + s->grid.offset[2]};
        for (int a = 0; a < 3; a++)
            pos[a] = yee_node_position(cfg, c, a, ijk[a]);
        return yee_fail(err, YEE_ERR_NUMERIC,
                        "the fields blew up: %s is not finite at cell (%d, %d, %d) = (%.4g, %.4g, "
                        "%.4g) um, detected at step %ld of %ld (checks every %ld steps; lower "
                        "simulation.courant or check materials and the PML)",
                        comp_names[c], ijk[0], ijk[1], ijk[2], pos[0], pos[1], pos[2], s->step,
                        cfg->steps, cfg->check_interval);
    }
    if (!isfinite(nrm.e2 + nrm.h2)) /* another rank found it and reports the cell */
        return yee_fail(err, YEE_ERR_NUMERIC, "the fields blew up on another rank at step %ld",
                        s->step);
    const double energy = nrm.e2 + nrm.h2;
    const double t = s->step * cfg->dt;
    if (s->opt.verbose && s->rank == 0)
        printf("step %ld  t %.6g fs  sum E^2 %.6e  sum H^2 %.6e\n", s->step, t * YEE_TIME_UNIT_FS,
               nrm.e2, nrm.h2);
    if (t > s->t_sources_end) {
        if (s->energy_ref <= 0.0) {
            s->energy_ref = energy > 1e-300 ? energy : 1e-300;
            s->energy_ref_step = s->step;
        } else if (energy > 1e4 * s->energy_ref) {
            return yee_fail(err, YEE_ERR_NUMERIC,
                            "the fields are growing without bound: energy rose %.3g-fold between "
                            "step %ld and step %ld, after all sources had ended (unstable "
                            "setup: check simulation.courant and the PML parameters)",
                            energy / s->energy_ref, s->energy_ref_step, s->step);
        }
    }
    return YEE_OK;
}

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

/* One full step n -> n+1 with its monitors. Not collective-safe on failure: a rank that fails
 * here leaves its neighbours waiting in the next exchange, so yee_sim_advance aborts the job. */
static int one_step(yee_sim *s, yee_err *err)
{
    const yee_config *cfg = s->cfg;
    const long n = s->step; /* fields E^n, H^{n-1/2} */
    const yee_point_current *cur;
    /* the E faces sent at the end of the last step arrive while the H interior is updated */
    YEE_TRY(yee_halo_update(s->halo, YEE_FIELD_H, n, err));
    if (s->h5) /* last step's frames, while the device runs this H update */
        YEE_TRY(finish_snapshots(s, err));
    int ncur = yee_sources_h(s->sources, n, &cur); /* magnetic currents (plane waves) */
    if (ncur)
        YEE_TRY(s->be->apply_sources(s->ctx, ncur, cur, err));
    YEE_TRY(yee_halo_start(s->halo, YEE_FIELD_H, n, err));
    YEE_TRY(yee_halo_update(s->halo, YEE_FIELD_E, n, err));
    ncur = yee_sources_e(s->sources, n, &cur);
    if (ncur)
        YEE_TRY(s->be->apply_sources(s->ctx, ncur, cur, err));
    /* in flight until the next step's H update needs them (nothing else reads E ghosts) */
    YEE_TRY(yee_halo_start(s->halo, YEE_FIELD_E, n, err));
    s->step = n + 1;
    if (n < cfg->steps)
        YEE_TRY(sample_probes(s, n, err));
    YEE_TRY(yee_dft_set_accumulate(s->dft, s->step, err));
    if (s->h5)
        YEE_TRY(start_snapshots(s, err));
    return YEE_OK;
}

/* Can steps n+1 and n+2 go to the backend as one call (step_pair, temporal blocking)? Only if
 * nothing but the probes needs the fields after the first of them (the backend reads those
 * samples in between): no halo to exchange, and no DFT sample, snapshot, health check,
 * checkpoint or test signal due after step n+1. */
static int pair_possible(const yee_sim *s, long end)
{
    const yee_config *cfg = s->cfg;
    const long mid = s->step + 1;
    if (!s->pairs || mid + 1 > end || yee_dft_set_due(s->dft, mid))
        return 0;
    if (mid % cfg->check_interval == 0 || mid == cfg->steps || mid == s->sig_at_step ||
        (cfg->checkpoint_interval > 0 && mid % cfg->checkpoint_interval == 0))
        return 0;
    for (int q = 0; q < s->nsnaps; q++)
        if (snapshot_due(s->snaps[q].cfg, mid) && s->snaps[q].frame < s->snaps[q].nframes)
            return 0;
    return 1;
}

/* Steps n -> n+2 in one backend call; the end-of-step work of one_step for step n+2 only
 * (pair_possible: nothing is due after n+1). */
static int two_steps(yee_sim *s, yee_err *err)
{
    const long n = s->step;
    if (s->h5)
        YEE_TRY(finish_snapshots(s, err));
    /* each step's magnetic then electric currents, in the order one_step asks for them (the
     * plane waves' 1-D grids advance with each call); the sources reuse one buffer */
    int count[2] = {0, 0};
    for (int st = 0; st < 2; st++)
        for (int kind = 0; kind < 2; kind++) {
            const yee_point_current *cur;
            const int m = kind == 0 ? yee_sources_h(s->sources, n + st, &cur)
                                    : yee_sources_e(s->sources, n + st, &cur);
            if (count[st] + m > s->pair_cap[st]) {
                yee_point_current *grown = (yee_point_current *)realloc(
                    s->pair_cur[st], (size_t)(count[st] + m) * sizeof *grown);
                if (!grown)
                    return YEE_FAIL(err, YEE_ERR_NOMEM, "source list");
                s->pair_cur[st] = grown;
                s->pair_cap[st] = count[st] + m;
            }
            if (m)
                memcpy(s->pair_cur[st] + count[st], cur, (size_t)m * sizeof *cur);
            count[st] += m;
        }
    YEE_TRY(s->be->step_pair(s->ctx, count[0], s->pair_cur[0], count[1], s->pair_cur[1],
                             s->npair_pts, s->pair_pts, s->pair_vals, err));
    s->step = n + 2;
    s->paired_steps += 2;
    /* probe row n, in the order pair_pts was built; the series holds cfg->steps rows, and an
     * advance past the deck's length (tests do) samples nothing, as in one_step */
    const yee_real *v = s->pair_vals;
    for (int p = 0; p < s->nprobes && n < s->cfg->steps; p++) {
        probe *pr = &s->probes[p];
        if (!pr->owned)
            continue;
        memcpy(pr->series + n * pr->ncomp, v, (size_t)pr->ncomp * sizeof *v);
        v += pr->ncomp;
    }
    if (n + 1 < s->cfg->steps)
        YEE_TRY(sample_probes(s, n + 1, err));
    YEE_TRY(yee_dft_set_accumulate(s->dft, s->step, err));
    if (s->h5)
        YEE_TRY(start_snapshots(s, err));
    return YEE_OK;
}

int yee_sim_advance(yee_sim *s, long nsteps, yee_err *err)
{
    const yee_config *cfg = s->cfg;
    long end = nsteps < 0 ? cfg->steps : s->step + nsteps;
    if (end > cfg->steps && nsteps < 0)
        end = cfg->steps;
    if (s->t_start == 0.0)
        s->t_start = MPI_Wtime();
    const double t0 = MPI_Wtime();
    while (s->step < end) {
        const int rc = pair_possible(s, end) ? two_steps(s, err) : one_step(s, err);
        if (rc < 0 && s->nranks > 1) {
            /* a fault in the middle of a step: the other ranks are inside an exchange this rank
             * will never join, so end the job rather than let it hang (as Meep does) */
            fprintf(stderr, "yee: rank %d: error at step %ld: %s\n", s->rank, s->step, err->msg);
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        YEE_TRY(rc);
        if (s->step % cfg->check_interval == 0 || s->step == cfg->steps)
            YEE_TRY(sync_status(s, check_health(s, err), err));
        if (s->step == s->sig_at_step && (s->opt.signals || s->sig_at_num == SIGKILL) &&
            (s->sig_at_rank < 0 || s->sig_at_rank == s->rank))
            raise(s->sig_at_num);
        const int asked = poll_signals(s);
        if (s->step < cfg->steps && (asked || (cfg->checkpoint_interval > 0 &&
                                               s->step % cfg->checkpoint_interval == 0)))
            YEE_TRY(write_checkpoint(s, err));
        if (s->step < cfg->steps && asked == 2) {
            s->stopped = 1; /* SIGTERM: the scheduler kills the job soon; resume later */
            break;
        }
        if (s->opt.progress)
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
        for (int p = 0; p < s->nprobes; p++) {
            const probe *pr = &s->probes[p];
            double pos[3 * YEE_NCOMP];
            for (int q = 0; q < pr->ncomp; q++)
                for (int a = 0; a < 3; a++)
                    pos[3 * q + a] = pr->pos[q][a];
            YEE_TRY(yee_h5_probe_write(s->h5, pr->cfg->name, pr->ncomp, pr->comps, pos, pr->t0,
                                       cfg->dt, s->step, pr->owned ? pr->series : NULL, err));
        }
        YEE_TRY(finish_snapshots(s, err));
        YEE_TRY(sync_status(s, yee_dft_set_write(s->dft, s->h5, MPI_COMM_WORLD, err), err));
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
        stats->paired_steps = s->paired_steps;
        stats->backend = s->be->name;
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
    for (int p = 0; p < s->nprobes; p++) {
        free(s->probes[p].series);
        s->probes[p].series = NULL;
    }
    free(s->probes);
    free(s->snaps);
    yee_sources_destroy(s->sources);
    yee_dft_set_destroy(s->dft);
    free(s->frame_buf);
    free(s->pair_cur[0]);
    free(s->pair_cur[1]);
    free(s->pair_pts);
    free(s->pair_vals);
    if (s->cart != MPI_COMM_NULL)
        MPI_Comm_free(&s->cart);
    yee_grid_free(&s->grid);
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
