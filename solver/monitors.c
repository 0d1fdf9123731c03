/* solver/monitors.c -- probes and snapshots (contract in solver/monitors.h). */
#include "solver/monitors.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/vtk.h"
#include "model/nodes.h"

/* A probe's components have their own nodes (the staggering), which can lie on different ranks:
 * each rank samples the components it owns into their columns, and the columns meet on rank 0
 * for the write. */
typedef struct probe {
    const yee_monitor_cfg *cfg;
    int ncomp;
    int comps[YEE_NCOMP];
    yee_sample pts[YEE_NCOMP];
    double pos[YEE_NCOMP][3];
    double t0[YEE_NCOMP];
    int mine[YEE_NCOMP]; /* 1: this rank holds component k's node */
    int owned;           /* any component here */
    yee_real *series;    /* steps x ncomp (the columns of others stay zero), when owned */
} probe;

typedef struct snapshot_comp {
    int comp;
    int glo[3], gcount[3]; /* node box of this component in the global grid */
    int lo[3], count[3];   /* this rank's part of it, local indices (count 0: none) */
    int start[3];          /* offset of this rank's part inside the global box */
    int h5_id;
    double origin[3];
    int slot;              /* backend copy slot (copy_start) */
    int pending;           /* a frame is on its way: write it at the next write_frames */
    long pending_frame, pending_step;
} snapshot_comp;

typedef struct snapshot {
    const yee_monitor_cfg *cfg;
    int ncomp;
    snapshot_comp comps[YEE_NCOMP];
    long nframes;
    long frame;           /* frames written so far */
} snapshot;

struct yee_monitors {
    const yee_config *cfg;
    const yee_backend_ops *be;
    void *ctx;
    int nprobes;
    probe *probes;
    int nsamples;         /* the owned components' samples as one list */
    yee_sample *samples;
    int *sample_probe, *sample_col; /* where each sample of the list goes */
    int nsnaps;
    snapshot *snaps;
    yee_real *frame_buf;  /* largest snapshot component box */
};

/* ---- probes ---- */

static int setup_probes(yee_monitors *m, const int n[3], const int offset[3], yee_err *err)
{
    const yee_config *cfg = m->cfg;
    for (int q = 0; q < cfg->nmonitors; q++)
        m->nprobes += cfg->monitors[q].kind == YEE_MON_PROBE;
    m->probes = (probe *)calloc((size_t)m->nprobes + 1, sizeof *m->probes);
    if (!m->probes)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate probes");
    int p = 0;
    for (int q = 0; q < cfg->nmonitors; q++) {
        const yee_monitor_cfg *mc = &cfg->monitors[q];
        if (mc->kind != YEE_MON_PROBE)
            continue;
        probe *pr = &m->probes[p++];
        pr->cfg = mc;
        for (int c = 0; c < YEE_NCOMP; c++) {
            if (!(mc->components & (1u << c)))
                continue;
            const int k = pr->ncomp++;
            pr->comps[k] = c;
            int ijk[3];
            pr->mine[k] = 1;
            for (int a = 0; a < 3; a++) {
                ijk[a] = yee_nearest_node(cfg, c, a, mc->position[a]);
                pr->pos[k][a] = yee_node_position(cfg, c, a, ijk[a]);
                ijk[a] -= offset[a];
                pr->mine[k] &= ijk[a] >= 0 && ijk[a] < n[a];
            }
            pr->owned |= pr->mine[k];
            m->nsamples += pr->mine[k];
            pr->pts[k].comp = c;
            pr->pts[k].i = ijk[0];
            pr->pts[k].j = ijk[1];
            pr->pts[k].k = ijk[2];
            /* row r holds E^{r+1} (time (r+1) dt) and H^{r+1/2} (time (r+1/2) dt) */
            pr->t0[k] = YEE_IS_ELECTRIC(c) ? cfg->dt : 0.5 * cfg->dt;
        }
        if (pr->owned) {
            pr->series = (yee_real *)calloc((size_t)cfg->steps * (size_t)pr->ncomp, sizeof(yee_real));
            if (!pr->series)
                return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %ld samples for probe '%s'",
                                cfg->steps * pr->ncomp, mc->name);
        }
    }
    m->samples = (yee_sample *)malloc(((size_t)m->nsamples + 1) * sizeof *m->samples);
    m->sample_probe = (int *)malloc(((size_t)m->nsamples + 1) * sizeof(int));
    m->sample_col = (int *)malloc(((size_t)m->nsamples + 1) * sizeof(int));
    if (!m->samples || !m->sample_probe || !m->sample_col)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "probe samples");
    int k = 0;
    for (int q = 0; q < m->nprobes; q++)
        for (int c = 0; c < m->probes[q].ncomp; c++)
            if (m->probes[q].mine[c]) {
                m->samples[k] = m->probes[q].pts[c];
                m->sample_probe[k] = q;
                m->sample_col[k++] = c;
            }
    return YEE_OK;
}

int yee_monitors_probe_samples(const yee_monitors *m, const yee_sample **pts)
{
    *pts = m->samples;
    return m->nsamples;
}

void yee_monitors_store_probes(yee_monitors *m, long s, const yee_real *values)
{
    /* the series hold steps rows; a test may advance past the deck's length */
    if (s < 1 || s > m->cfg->steps)
        return;
    for (int k = 0; k < m->nsamples; k++) {
        probe *pr = &m->probes[m->sample_probe[k]];
        pr->series[(s - 1) * pr->ncomp + m->sample_col[k]] = values[k];
    }
}

/* Rank 0 gets every column of probe pr (rows [0, rows)) into full (steps x ncomp); the other
 * ranks send the columns they hold. Moves values, no arithmetic: a -0.0 stays -0.0. */
static int gather_probe(const probe *pr, long rows, MPI_Comm comm, yee_real *full, yee_err *err)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const MPI_Datatype type = sizeof(yee_real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT;
    yee_real *col = (yee_real *)malloc(((size_t)rows + 1) * sizeof(yee_real));
    if (!col)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "probe '%s'", pr->cfg->name);
    int rc = YEE_OK;
    for (int c = 0; c < pr->ncomp; c++) {
        int owner = pr->mine[c] ? rank : -1;
        MPI_Allreduce(MPI_IN_PLACE, &owner, 1, MPI_INT, MPI_MAX, comm);
        if (owner < 0) {
            rc = yee_fail(err, YEE_ERR_IO, "probe '%s': no rank holds its %s node",
                          pr->cfg->name, yee_component_name(pr->comps[c]));
            break;
        }
        if (owner == 0 && rank == 0) {
            for (long r = 0; r < rows; r++)
                full[r * pr->ncomp + c] = pr->series[r * pr->ncomp + c];
        } else if (rank == owner) {
            for (long r = 0; r < rows; r++)
                col[r] = pr->series[r * pr->ncomp + c];
            MPI_Send(col, (int)rows, type, 0, c, comm);
        } else if (rank == 0) {
            MPI_Recv(col, (int)rows, type, owner, c, comm, MPI_STATUS_IGNORE);
            for (long r = 0; r < rows; r++)
                full[r * pr->ncomp + c] = col[r];
        }
    }
    free(col);
    return rc;
}

int yee_monitors_write_probes(const yee_monitors *m, yee_h5 *h5, long s, MPI_Comm comm,
                              yee_err *err)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const long rows = s < m->cfg->steps ? s : m->cfg->steps;
    for (int q = 0; q < m->nprobes; q++) {
        const probe *pr = &m->probes[q];
        double pos[3 * YEE_NCOMP];
        for (int c = 0; c < pr->ncomp; c++)
            for (int a = 0; a < 3; a++)
                pos[3 * c + a] = pr->pos[c][a];
        yee_real *full = rank == 0 ? (yee_real *)calloc((size_t)rows * (size_t)pr->ncomp + 1,
                                                        sizeof(yee_real))
                                   : NULL;
        int rc = rank == 0 && !full ? YEE_FAIL(err, YEE_ERR_NOMEM, "probe '%s'", pr->cfg->name)
                                    : YEE_OK;
        if (rc == YEE_OK)
            rc = gather_probe(pr, rows, comm, full, err);
        if (rc == YEE_OK)
            rc = yee_h5_probe_write(h5, pr->cfg->name, pr->ncomp, pr->comps, pos, pr->t0,
                                    m->cfg->dt, rows, full, err);
        free(full);
        YEE_TRY(rc);
    }
    return YEE_OK;
}

/* ---- snapshots ---- */

static long first_frame_step(const yee_monitor_cfg *mc)
{
    return mc->start > 0 ? mc->start : mc->interval;
}

static long snapshot_frames(const yee_config *cfg, const yee_monitor_cfg *mc)
{
    const long first = first_frame_step(mc);
    if (first > cfg->steps)
        return 0;
    return (cfg->steps - first) / mc->interval + 1;
}

static int snapshot_due(const snapshot *sn, long s)
{
    const long first = first_frame_step(sn->cfg);
    return s >= first && (s - first) % sn->cfg->interval == 0 && sn->frame < sn->nframes;
}

/* Step of frame f of a snapshot monitor (the schedule of snapshot_due). */
static long snapshot_step(const yee_monitor_cfg *mc, long f)
{
    return first_frame_step(mc) + f * mc->interval;
}

static double frame_time(const yee_config *cfg, int comp, long step)
{
    return (step - (YEE_IS_ELECTRIC(comp) ? 0.0 : 0.5)) * cfg->dt;
}

static int setup_snapshots(yee_monitors *m, const int n[3], const int offset[3], yee_err *err)
{
    const yee_config *cfg = m->cfg;
    for (int q = 0; q < cfg->nmonitors; q++)
        m->nsnaps += cfg->monitors[q].kind == YEE_MON_SNAPSHOT;
    m->snaps = (snapshot *)calloc((size_t)m->nsnaps + 1, sizeof *m->snaps);
    if (!m->snaps)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate snapshots");
    size_t biggest = 0;
    int q = 0, nslots = 0;
    for (int mi = 0; mi < cfg->nmonitors; mi++) {
        const yee_monitor_cfg *mc = &cfg->monitors[mi];
        if (mc->kind != YEE_MON_SNAPSHOT)
            continue;
        snapshot *sn = &m->snaps[q++];
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
                yee_node_range(cfg, c, a, mc->box_min[a], mc->box_max[a], &sc->glo[a],
                               &sc->gcount[a]);
                sc->origin[a] = yee_node_position(cfg, c, a, sc->glo[a]);
                /* this rank's nodes: global [offset, offset + n) */
                const int o = offset[a], nl = n[a];
                const int l = sc->glo[a] > o ? sc->glo[a] : o;
                const int h = sc->glo[a] + sc->gcount[a] < o + nl ? sc->glo[a] + sc->gcount[a]
                                                                  : o + nl;
                sc->lo[a] = l - o;
                sc->count[a] = h > l ? h - l : 0;
                sc->start[a] = l - sc->glo[a];
                nodes *= (size_t)sc->count[a];
            }
            /* none here: an empty block at 0, as the collective writes expect (a rank past a
             * plane would otherwise name a start beyond it: 3 ranks along z broke dipole.cfg) */
            if (nodes == 0)
                for (int a = 0; a < 3; a++)
                    sc->lo[a] = sc->start[a] = sc->count[a] = 0;
            if (nodes > biggest)
                biggest = nodes;
        }
    }
    if (biggest) {
        m->frame_buf = (yee_real *)malloc(biggest * sizeof(yee_real));
        if (!m->frame_buf)
            return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate a %.1f MiB snapshot buffer",
                            biggest * sizeof(yee_real) / 1048576.0);
    }
    return YEE_OK;
}

int yee_monitors_frames_due(const yee_monitors *m, long s)
{
    for (int q = 0; q < m->nsnaps; q++)
        if (snapshot_due(&m->snaps[q], s))
            return 1;
    return 0;
}

static int owns_nodes(const snapshot_comp *sc)
{
    return sc->count[0] > 0 && sc->count[1] > 0 && sc->count[2] > 0;
}

int yee_monitors_start_frames(yee_monitors *m, long s, yee_err *err)
{
    for (int q = 0; q < m->nsnaps; q++) {
        snapshot *sn = &m->snaps[q];
        if (!snapshot_due(sn, s))
            continue;
        for (int c = 0; c < sn->ncomp; c++) {
            snapshot_comp *sc = &sn->comps[c];
            if (owns_nodes(sc))
                YEE_TRY(m->be->copy_start(m->ctx, sc->comp, sc->lo, sc->count, sc->slot, err));
            sc->pending = 1;
            sc->pending_frame = sn->frame;
            sc->pending_step = s;
        }
        sn->frame++;
    }
    return YEE_OK;
}

static int write_vtk(const yee_monitors *m, const snapshot *sn, const snapshot_comp *sc,
                     long step, yee_err *err)
{
    const yee_config *cfg = m->cfg;
    char path[YEE_PATH_LEN + 3 * YEE_NAME_LEN];
    snprintf(path, sizeof path, "%s/%s_%s_%s_%06ld.vtk", cfg->out_dir, cfg->name, sn->cfg->name,
             yee_component_name(sc->comp), step);
    char title[256];
    snprintf(title, sizeof title, "yee %s %s %s step %ld time %.6g fs", cfg->name, sn->cfg->name,
             yee_component_name(sc->comp), step,
             frame_time(cfg, sc->comp, step) * YEE_TIME_UNIT_FS);
    const int64_t n[3] = {sc->gcount[0], sc->gcount[1], sc->gcount[2]};
    double *coords[3]; /* graded axes: the true node positions (a RECTILINEAR_GRID file) */
    YEE_TRY(yee_h5_node_coords(cfg, sc->comp, sc->glo, sc->gcount, coords, err));
    const int rc = yee_vtk_write_points(path, title, yee_component_name(sc->comp), n, sc->origin,
                                        cfg->dx, (const double *const *)coords, m->frame_buf,
                                        err);
    yee_h5_coords_free(coords);
    return rc;
}

int yee_monitors_write_frames(yee_monitors *m, yee_h5 *h5, int nranks, yee_err *err)
{
    int wrote = 0;
    for (int q = 0; q < m->nsnaps; q++) {
        snapshot *sn = &m->snaps[q];
        for (int c = 0; c < sn->ncomp; c++) {
            snapshot_comp *sc = &sn->comps[c];
            if (!sc->pending)
                continue;
            sc->pending = 0;
            const int mine = owns_nodes(sc);
            if (mine)
                YEE_TRY(m->be->copy_finish(m->ctx, sc->slot, m->frame_buf, err));
            const long step = sc->pending_step;
            const int64_t start[3] = {sc->start[0], sc->start[1], sc->start[2]};
            const int64_t count[3] = {mine ? sc->count[0] : 0, mine ? sc->count[1] : 0,
                                      mine ? sc->count[2] : 0};
            YEE_TRY(yee_h5_snapshot_write(h5, sc->h5_id, sc->pending_frame, step,
                                          frame_time(m->cfg, sc->comp, step), start, count,
                                          m->frame_buf, err));
            wrote = 1;
            /* legacy VTK is a serial format: written on one rank only */
            if (sn->cfg->vtk && nranks == 1)
                YEE_TRY(write_vtk(m, sn, sc, step, err));
        }
    }
    /* a run killed from here on keeps these frames (when the flush is due: io/h5out.h) */
    return wrote ? yee_h5_frames_done(h5, err) : YEE_OK;
}

int yee_monitors_define_output(yee_monitors *m, yee_h5 *h5, int restarted, yee_err *err)
{
    for (int q = 0; q < m->nsnaps; q++) {
        snapshot *sn = &m->snaps[q];
        for (int c = 0; c < sn->ncomp; c++) {
            snapshot_comp *sc = &sn->comps[c];
            const int64_t shape[3] = {sc->gcount[0], sc->gcount[1], sc->gcount[2]};
            double *coords[3]; /* graded axes: the true node positions, else NULL */
            YEE_TRY(yee_h5_node_coords(m->cfg, sc->comp, sc->glo, sc->gcount, coords, err));
            const int rc = yee_h5_snapshot_define(h5, sn->cfg->name, sc->comp, shape, sc->origin,
                                                  m->cfg->dx, (const double *const *)coords,
                                                  sn->nframes, &sc->h5_id, err);
            yee_h5_coords_free(coords);
            YEE_TRY(rc);
            for (long f = 0; restarted && f < sn->frame; f++) {
                const long step = snapshot_step(sn->cfg, f);
                YEE_TRY(yee_h5_snapshot_label(h5, sc->h5_id, f, step,
                                              frame_time(m->cfg, sc->comp, step), err));
            }
        }
    }
    return YEE_OK;
}

int yee_monitors_records(yee_monitors *m, long rows, yee_record_fn fn, void *arg, yee_err *err)
{
    char tag[16];
    for (int p = 0; p < m->nprobes; p++) {
        probe *pr = &m->probes[p];
        snprintf(tag, sizeof tag, "probe%d", p);
        if (pr->owned)
            YEE_TRY(fn(arg, tag, pr->series, (size_t)rows * (size_t)pr->ncomp * sizeof(yee_real),
                       err));
    }
    int64_t *frames = (int64_t *)calloc((size_t)m->nsnaps + 1, sizeof *frames);
    if (!frames)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "checkpoint");
    for (int q = 0; q < m->nsnaps; q++)
        frames[q] = m->snaps[q].frame;
    const int rc = fn(arg, "frames", frames, (size_t)m->nsnaps * sizeof *frames, err);
    for (int q = 0; q < m->nsnaps && rc == YEE_OK; q++)
        m->snaps[q].frame = (long)frames[q]; /* unchanged when saving */
    free(frames);
    return rc;
}

size_t yee_monitors_bytes_estimate(const yee_config *cfg)
{
    size_t bytes = 0;
    for (int q = 0; q < cfg->nmonitors; q++)
        if (cfg->monitors[q].kind == YEE_MON_PROBE)
            /* the series, and rank 0's gathered copy when it is written at the end */
            bytes += 2 * (size_t)cfg->steps * YEE_NCOMP * sizeof(yee_real);
    return bytes;
}

int yee_monitors_create(const yee_config *cfg, const int n[3], const int offset[3],
                        const yee_backend_ops *be, void *ctx, yee_monitors **out, yee_err *err)
{
    *out = NULL;
    yee_monitors *m = (yee_monitors *)calloc(1, sizeof *m);
    if (!m)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "monitors");
    m->cfg = cfg;
    m->be = be;
    m->ctx = ctx;
    int rc = setup_probes(m, n, offset, err);
    if (rc == YEE_OK)
        rc = setup_snapshots(m, n, offset, err);
    if (rc < 0) {
        yee_monitors_destroy(m);
        return rc;
    }
    *out = m;
    return YEE_OK;
}

void yee_monitors_destroy(yee_monitors *m)
{
    if (!m)
        return;
    for (int p = 0; p < m->nprobes; p++)
        free(m->probes[p].series);
    free(m->probes);
    free(m->samples);
    free(m->sample_probe);
    free(m->sample_col);
    free(m->snaps);
    free(m->frame_buf);
    free(m);
}
