/* solver/restart.c -- what a run keeps to continue later: its checkpoints (the file format is
 * solver/checkpoint.h; docs/checkpoint.md), the restore, and the signals that ask for them
 * (contracts in solver/sim_private.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/yee_file.h"
#include "solver/checkpoint.h"
#include "solver/sim_private.h"

uint64_t yee_run_hash(const yee_config *cfg, const yee_run_options *opt)
{
    char *text = yee_read_file(cfg->deck_path, NULL);
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
        id->dims[a] = s->dec.dims[a];
    }
    id->real_bytes = (int)sizeof(yee_real);
}

/* One record of a checkpoint file: written (save) or read back. */
typedef struct record_file {
    yee_ckpt_file *f;
    int save;
} record_file;

static int record(void *arg, const char *tag, void *data, size_t bytes, yee_err *err)
{
    const record_file *r = (const record_file *)arg;
    return r->save ? yee_ckpt_put(r->f, tag, data, bytes, err)
                   : yee_ckpt_get(r->f, tag, data, bytes, err);
}

/* Everything that evolves between steps on this rank, written (save) or read back in one
 * order: the loop's counters, the backend's parts (fields with ghosts, psi, polarizations),
 * the plane waves' 1-D grids, the DFT sums, the probe rows so far and the snapshot frame
 * counters. The rest (materials, coefficients, source and monitor geometry) is rebuilt from
 * the deck, which is why a restart needs the same deck. */
static int checkpoint_records(yee_sim *s, yee_ckpt_file *f, int save, yee_err *err)
{
    record_file rf = {f, save};
    char tag[16];
    int64_t loop[3] = {s->step, s->health.energy_ref_step, 0};
    memcpy(&loop[2], &s->health.energy_ref, sizeof s->health.energy_ref);
    YEE_TRY(record(&rf, "loop", loop, sizeof loop, err));
    if (!save) {
        s->step = (long)loop[0];
        s->health.energy_ref_step = (long)loop[1];
        memcpy(&s->health.energy_ref, &loop[2], sizeof s->health.energy_ref);
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
            rc = record(&rf, tag, buf, bytes, err);
        if (rc == YEE_OK && !save)
            rc = s->be->state_transfer(s->ctx, p, buf, 1, err);
    }
    if (rc == YEE_OK) {
        const size_t bytes = yee_sources_state_size(s->sources);
        if (save)
            yee_sources_state_save(s->sources, buf);
        rc = record(&rf, "sources", buf, bytes, err);
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
            rc = record(&rf, tag, buf, 2 * n * sizeof(double), err);
        if (rc == YEE_OK && !save)
            rc = yee_dft_set_transfer(s->dft, r, re, im, 1, err);
    }
    free(buf);
    YEE_TRY(rc);
    const long rows = s->step < s->cfg->steps ? s->step : s->cfg->steps;
    return yee_monitors_records(s->mon, rows, record, &rf, err);
}

/* Collective. Output flushed first (the file then holds every frame up to this step), then
 * each rank's file, then rank 0's manifest: the checkpoint counts only once all are complete,
 * and only then are the previous checkpoint's files removed. */
int yee_write_checkpoint(yee_sim *s, yee_err *err)
{
    const yee_config *cfg = s->cfg;
    const double t0 = MPI_Wtime();
    YEE_TRY(yee_halo_settle(s->halo, s->step, err)); /* the ghost layers are part of the state */
    const char *dir = cfg->checkpoint_dir[0] ? cfg->checkpoint_dir : cfg->out_dir;
    YEE_TRY(yee_sim_sync_status(
        s, s->rank == 0 ? yee_make_dirs(dir, "output directory", err) : YEE_OK, err));
    if (s->h5) {
        /* the frames of this very step are still on their way (written during the next step):
         * write them now, or a restart, which counts them as taken, would leave them empty */
        YEE_TRY(yee_monitors_write_frames(s->mon, s->h5, s->nranks, err));
        YEE_TRY(yee_sim_sync_status(s, yee_h5_flush(s->h5, err), err));
    }
    yee_ckpt_id id;
    checkpoint_id(s, s->step, &id);
    yee_ckpt_file *f = NULL;
    int rc = yee_ckpt_create(s->ckpt_path, &id, s->rank, s->structure.offset, s->structure.n, &f, err);
    if (rc == YEE_OK)
        rc = checkpoint_records(s, f, 1, err);
    if (rc == YEE_OK) {
        rc = yee_ckpt_finish(f, err);
        f = NULL;
    }
    yee_ckpt_abandon(f);
    YEE_TRY(yee_sim_sync_status(s, rc, err));
    YEE_TRY(yee_sim_sync_status(
        s, s->rank == 0 ? yee_ckpt_commit(s->ckpt_path, &id, err) : YEE_OK, err));
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
int yee_restore(yee_sim *s, yee_err *err)
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
    rc = yee_ckpt_open(manifest, &have, s->rank, s->structure.offset, s->structure.n, &f, err);
    if (rc == YEE_OK)
        rc = checkpoint_records(s, f, 0, err);
    if (rc == YEE_OK) {
        rc = yee_ckpt_close(f, err);
        f = NULL;
    }
    yee_ckpt_abandon(f);
    YEE_TRY(yee_sim_sync_status(s, rc, err));
    s->restarted = 1;
    s->ckpt_step = have.step;
    s->step0 = s->step;
    if (!s->opt.quiet && s->rank == 0)
        printf("restart from %s: step %ld of %ld\n", manifest, s->step, s->cfg->steps);
    return YEE_OK;
}

/* One rank reads the flags directly. With several, a signal reaches the ranks at different
 * steps, so each rank's request goes into a nonblocking MAX reduction started after one step (an
 * advance call: up to 16 fused steps) and completed after the next: every rank then acts at the
 * same step, without a blocking collective in every step. A checkpoint answers every SIGUSR1
 * received before it. */
int yee_poll_signals(yee_sim *s)
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
        MPI_Iallreduce(&s->sig_send, &s->sig_recv, 1, MPI_INT, MPI_MAX, s->dec.cart,
                       &s->sig_req);
    }
    if (agreed)
        s->usr1_seen = sig->usr1;
    return agreed;
}
