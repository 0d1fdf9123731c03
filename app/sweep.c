/* app/sweep.c -- `yee sweep`: expand a sweep deck into jobs, run them (locally, under mpirun
 * or as a Slurm array), keep per-job markers and write DIR/summary.csv (app/sweep.h).
 *
 * Order of work: options -> (rank 0) output directory writable? -> sweep section -> job decks
 * written and validated -> dispatch -> summary. Everything that can be wrong with the deck or the
 * directory is reported before the first job starts. Jobs run as child processes spawned with
 * posix_spawn (which, unlike fork, is safe after MPI_Init) and their output goes to
 * job-NNNN/run.log. Results are read back from each job's HDF5 file once per invocation.
 * Not here: the expression language and the sweep section (io/params.c), harminv
 * (postproc/harminv_modes.c), the simulation itself (a child `yee run`).
 */
#include "app/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/config.h"
#include "app/child_env.h"
#include "app/slurm.h"
#include "io/deck.h"
#include "io/h5read.h"
#include "common/yee_file.h"
#include "common/yee_num.h"
#include "io/params.h"
#include "kernels/backend.h"
#include "postproc/harminv_modes.h"


enum { TAG_SETUP = 11, TAG_JOB = 12, TAG_REPORT = 13 };

typedef enum job_state { JOB_PENDING = 0, JOB_OK, JOB_FAILED } job_state;

typedef struct sweep_job {
    char dir[YEE_PATH_LEN];                   /* DIR/job-NNNN */
    char h5[YEE_PATH_LEN + YEE_NAME_LEN + 8]; /* the run's HDF5 file */
    int valid;                                /* its deck loaded */
    job_state state;
    double wall_s;
    char msg[512];
    int busy;          /* another runner holds its lock: left alone, pending */
    int results_known; /* results computed in this invocation */
    int results_ok;
    double *results;   /* spec.nresults values */
} sweep_job;

typedef struct sweep_opts {
    const char *deck;
    char out_dir[YEE_PATH_LEN];
    int jobs, ranks_per_job, slurm, submit, collect, dry_run, quiet;
    yee_slurm_spec flags; /* --time etc.; gpus/cpus -1 when not given */
} sweep_opts;

typedef struct sweep {
    const sweep_opts *o;
    yee_sweep_spec spec;
    char *text;           /* the sweep deck */
    long njobs;
    sweep_job *jobs;
    char exe[YEE_PATH_LEN];
    int lock_fd;
} sweep;

static int world_rank(void)
{
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A receive that sleeps between polls: Open MPI's blocking receive spins a core, which would
 * starve the job processes that share this node with idle ranks. */
static void recv_polite(void *buf, int count, MPI_Datatype type, int src, int tag,
                        MPI_Status *st)
{
    MPI_Request req;
    MPI_Irecv(buf, count, type, src, tag, MPI_COMM_WORLD, &req);
    int done = 0;
    while (!done) {
        MPI_Test(&req, &done, st ? st : MPI_STATUS_IGNORE);
        if (!done)
            nap_ms(10);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Files: directories, atomic writes, markers, logs
 * ------------------------------------------------------------------------------------------- */

/* One line of text for a CSV cell or a marker: control characters become spaces, trimmed. */
static void one_line(char *s)
{
    for (char *p = s; *p; p++)
        if ((unsigned char)*p < 32)
            *p = ' ';
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        s[--n] = '\0';
    size_t k = 0;
    while (s[k] == ' ')
        k++;
    memmove(s, s + k, n - k + 1);
}

/* 1 when line holds "error" in any case (yee's "error:", a sanitizer's "ERROR:"). */
static int has_error_word(const char *line)
{
    for (const char *p = line; *p; p++)
        if (tolower((unsigned char)p[0]) == 'e' && strncasecmp(p, "error", 5) == 0)
            return 1;
    return 0;
}

/* 1 when line has a letter or digit (not a rule of dashes). */
static int has_words(const char *line)
{
    for (const char *p = line; *p; p++)
        if (isalnum((unsigned char)*p))
            return 1;
    return 0;
}

/* What went wrong, from a job's log: the first line with "error", else the last line with
 * words. */
static void log_reason(const char *log_path, char *out, size_t n)
{
    out[0] = '\0';
    size_t len = 0;
    char *text = yee_read_file(log_path, &len);
    if (!text)
        return;
    const char *best = NULL, *last = NULL;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (has_words(line)) {
            last = line;
            if (!best && has_error_word(line))
                best = line;
        }
        line = nl ? nl + 1 : NULL;
    }
    snprintf(out, n, "%s", best ? best : last ? last : "");
    one_line(out);
    free(text);
}

typedef struct marker {
    int found;
    job_state state;
    double wall_s;
    char msg[512];
} marker;

/* DONE / FAILED: lines "key<TAB>value" with status, wall_s and (FAILED) message. The Slurm script
 * writes the same format, so both kinds of run read back alike. */
static void read_marker(const char *dir, marker *m)
{
    memset(m, 0, sizeof *m);
    static const char *const names[] = {"DONE", "FAILED"};
    for (int k = 0; k < 2 && !m->found; k++) {
        char path[YEE_PATH_LEN + 16];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        char *text = yee_read_file(path, NULL);
        if (!text)
            continue;
        m->found = 1;
        m->state = k == 0 ? JOB_OK : JOB_FAILED;
        for (char *line = text; line && *line;) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            char *tab = strchr(line, '\t');
            if (tab) {
                *tab = '\0';
                if (strcmp(line, "wall_s") == 0)
                    m->wall_s = atof(tab + 1);
                else if (strcmp(line, "message") == 0)
                    snprintf(m->msg, sizeof m->msg, "%s", tab + 1);
            }
            line = nl ? nl + 1 : NULL;
        }
        free(text);
    }
}

static int write_marker(const char *dir, job_state state, double wall_s, const char *msg,
                        yee_err *err)
{
    char path[YEE_PATH_LEN + 16], body[800];
    snprintf(path, sizeof path, "%s/%s", dir, state == JOB_OK ? "DONE" : "FAILED");
    if (state == JOB_OK)
        snprintf(body, sizeof body, "status\tok\nwall_s\t%.3f\n", wall_s);
    else
        snprintf(body, sizeof body, "status\tfailed\nwall_s\t%.3f\nmessage\t%s\n", wall_s, msg);
    return yee_write_file_atomic(path, body, strlen(body), err);
}

/* A job's checkpoint: the first <name>.ckpt manifest in its directory (a run stopped by a
 * signal, or with checkpoint.interval, leaves one there by default); 0 and its path, or -1. */
static int find_checkpoint(const char *dir, char *path, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int found = -1;
    for (struct dirent *e; found < 0 && (e = readdir(d)) != NULL;) {
        const size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".ckpt") == 0) {
            snprintf(path, cap, "%s/%s", dir, e->d_name);
            struct stat st;
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
                found = 0;
        }
    }
    closedir(d);
    return found;
}

/* Removes a job's checkpoints (manifests and rank files) and the wall time of earlier parts:
 * they belong to a deck that changed. */
static void clear_checkpoints(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const char *c = strstr(e->d_name, ".ckpt");
        if ((c && (c[5] == '\0' || c[5] == '.')) || strcmp(e->d_name, ".wall_before") == 0) {
            char path[YEE_PATH_LEN + 300];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    closedir(d);
}

/* Takes the lock of a job directory (DIR/job-NNNN/.lock, flock: the lock the Slurm tasks take
 * with flock(1)). Returns the descriptor (close-on-exec: only the job's own process inherits
 * it, see spawn_job), -2 when another runner holds the lock, -1 when it cannot be opened. */
static int lock_job(const char *dir)
{
    char path[YEE_PATH_LEN + 16];
    snprintf(path, sizeof path, "%s/.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        if (errno == EINTR)
            continue;
        const int held = errno == EWOULDBLOCK;
        close(fd);
        return held ? -2 : -1;
    }
    return fd;
}

static void clear_markers(const char *dir)
{
    char path[YEE_PATH_LEN + 16];
    snprintf(path, sizeof path, "%s/DONE", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/FAILED", dir);
    unlink(path);
}

/* The path from directory `from` to directory `to` ("../../decks/"), for @include lines of job
 * decks: libconfig resolves them against the job deck's directory. Empty when equal. */
static void relative_dir(const char *from, const char *to, char *out, size_t n)
{
    char a[PATH_MAX], b[PATH_MAX];
    out[0] = '\0';
    if (!realpath(from, a) || !realpath(to, b))
        return; /* cannot happen for directories just created; includes stay as written */
    size_t common = 0, i = 0;
    for (; a[i] && a[i] == b[i]; i++)
        if (a[i] == '/')
            common = i;
    if ((a[i] == '\0' && (b[i] == '/' || b[i] == '\0')) || (b[i] == '\0' && a[i] == '/'))
        common = i;
    size_t used = 0;
    for (const char *p = a + common; *p; p++)
        if (*p == '/' && used + 4 < n) {
            memcpy(out + used, "../", 3);
            used += 3;
        }
    out[used] = '\0';
    const char *rest = b + common + (b[common] == '/');
    if (*rest)
        snprintf(out + used, n - used, "%s/", rest);
}

/* ---------------------------------------------------------------------------------------------
 * Results (read back from a finished job's HDF5 file)
 * ------------------------------------------------------------------------------------------- */

static int flux_result(const yee_result_spec *r, const char *h5, double *out, yee_err *err)
{
    yee_flux_spectrum sp;
    YEE_TRY(yee_h5_read_flux_spectrum(h5, r->monitor, &sp, err));
    const long n = sp.nfreq;
    const double lo = fmin(sp.freq[0], sp.freq[n - 1]), hi = fmax(sp.freq[0], sp.freq[n - 1]);
    const double f = r->freq, slack = 1e-9 * hi;
    int rc = YEE_ERR_NUMERIC;
    if (f >= lo - slack && f <= hi + slack) {
        for (long k = 0; k + 1 < n || (n == 1 && k == 0); k++) {
            const double f0 = sp.freq[k], f1 = n == 1 ? f0 : sp.freq[k + 1];
            if (f < fmin(f0, f1) - slack || f > fmax(f0, f1) + slack)
                continue;
            const double t = f1 == f0 ? 0.0 : (f - f0) / (f1 - f0);
            const double v1 = n == 1 ? sp.value[k] : sp.value[k + 1];
            *out = sp.value[k] + fmin(fmax(t, 0.0), 1.0) * (v1 - sp.value[k]);
            rc = YEE_OK;
            break;
        }
    }
    if (rc < 0) {
        char at[96];
        if (r->by_wavelength)
            snprintf(at, sizeof at, "wavelength %g um (%g THz)", 1.0 / f, f * YEE_C_UM_THZ);
        else
            snprintf(at, sizeof at, "frequency %g THz", f * YEE_C_UM_THZ);
        yee_fail(err, rc, "%s is outside the range of flux monitor '%s' (%g to %g THz)", at,
                 r->monitor, lo * YEE_C_UM_THZ, hi * YEE_C_UM_THZ);
    }
    yee_flux_spectrum_free(&sp);
    return rc;
}

/* The strongest mode of one probe series, kept so that results asking the same question of the
 * same series (frequency, Q, ...) share one harminv run. */
typedef struct mode_cache {
    int valid;
    const yee_result_spec *key;
    yee_harminv_mode mode;
} mode_cache;

static int same_question(const yee_result_spec *a, const yee_result_spec *b)
{
    return strcmp(a->monitor, b->monitor) == 0 && strcmp(a->component, b->component) == 0 &&
           a->fmin == b->fmin && a->fmax == b->fmax && a->start == b->start;
}

static int strongest_mode(const yee_result_spec *r, const char *h5, yee_harminv_mode *out,
                          yee_err *err)
{
    yee_probe_series s;
    YEE_TRY(yee_h5_read_probe(h5, r->monitor, &s, err));
    const int col = yee_probe_column(&s, r->component);
    int rc = YEE_OK;
    if (col < 0) {
        rc = yee_fail(err, YEE_ERR_IO, "probe '%s' does not record %s", r->monitor,
                      r->component);
    } else {
        const long first = yee_probe_first_row(&s, col, r->start);
        yee_harminv_mode *modes = NULL;
        int nm = 0;
        rc = yee_harminv_modes(s.data + first * s.ncomp + col, s.ncomp, s.nsteps - first, s.dt,
                               r->fmin, r->fmax, 100, 1e-2, YEE_HARMINV_MIN_Q, &modes, &nm,
                               err);
        const int best = rc == YEE_OK ? yee_harminv_strongest(modes, nm) : -1;
        if (rc == YEE_OK && best < 0) {
            char band[96] = "";
            if (r->fmin > 0 || r->fmax > 0)
                snprintf(band, sizeof band, " in [%g, %g] THz", r->fmin * YEE_C_UM_THZ,
                         r->fmax > 0 ? r->fmax * YEE_C_UM_THZ : 0.5 / s.dt * YEE_C_UM_THZ);
            rc = yee_fail(err, YEE_ERR_NUMERIC, "harminv found no mode%s in probe '%s' %s",
                          band, r->monitor, s.components[col]);
        } else if (rc == YEE_OK) {
            *out = modes[best];
        }
        free(modes);
    }
    yee_probe_series_free(&s);
    return rc;
}

static int resonance_result(const yee_result_spec *r, const char *h5, mode_cache *cache,
                            double *out, yee_err *err)
{
    if (!cache->valid || !same_question(cache->key, r)) {
        cache->valid = 0;
        YEE_TRY(strongest_mode(r, h5, &cache->mode, err));
        cache->valid = 1;
        cache->key = r;
    }
    const yee_harminv_mode *m = &cache->mode; /* frequency in c/um, decay per c-unit */
    switch (r->what) {
    case YEE_RES_FREQUENCY: *out = m->freq * YEE_C_UM_THZ; break;
    case YEE_RES_WAVELENGTH: *out = 1.0 / m->freq; break;
    case YEE_RES_Q: *out = m->q; break;
    case YEE_RES_DECAY: *out = m->decay / YEE_TIME_UNIT_FS; break;
    }
    return YEE_OK;
}

/* Computes the results of a finished job once; a failure names the result. */
static void job_results(sweep *sw, sweep_job *j)
{
    if (j->results_known || j->state != JOB_OK)
        return;
    j->results_known = 1;
    j->results_ok = 1;
    mode_cache cache;
    memset(&cache, 0, sizeof cache);
    for (int k = 0; k < sw->spec.nresults; k++) {
        const yee_result_spec *r = &sw->spec.results[k];
        yee_err err;
        err.msg[0] = '\0';
        int rc = r->kind == YEE_RESULT_FLUX ? flux_result(r, j->h5, &j->results[k], &err)
                                            : resonance_result(r, j->h5, &cache, &j->results[k],
                                                               &err);
        if (rc < 0) {
            j->results_ok = 0;
            snprintf(j->msg, sizeof j->msg, "result '%s': %s", r->name, err.msg);
            one_line(j->msg);
            return;
        }
    }
}

/* ---------------------------------------------------------------------------------------------
 * summary.csv
 * ------------------------------------------------------------------------------------------- */

/* 1 when a spreadsheet would take the cell for a formula: it starts with =, +, -, @, a tab or a
 * carriage return and is not simply a number (-0.5 and +3 stay numbers). */
static int looks_like_formula(const char *s)
{
    if (!s[0] || !strchr("=+-@\t\r", s[0]))
        return 0;
    char *end = NULL;
    errno = 0;
    (void)strtod(s, &end);
    return !(end && end != s && *end == '\0' && (s[0] == '+' || s[0] == '-'));
}

/* One CSV cell (RFC 4180 quoting). A cell a spreadsheet would run as a formula gets a leading
 * ' inside quotes, the OWASP advice for CSV injection: "'=HYPERLINK(...)" shows as text. */
static void csv_cell(FILE *f, const char *s)
{
    const int formula = looks_like_formula(s);
    if (!formula && !strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    if (formula)
        fputc('\'', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

static void fmt_result(double v, char *buf, size_t n)
{
    yee_pvalue pv;
    memset(&pv, 0, sizeof pv);
    pv.type = YEE_PV_FLOAT;
    pv.f = v;
    yee_pvalue_format(&pv, 1, buf, n);
}

static const char *job_status(const sweep_job *j)
{
    if (j->state == JOB_OK && j->results_ok)
        return "ok";
    return j->state == JOB_PENDING ? "pending" : "failed";
}

/* Rewrites DIR/summary.csv from the job table; counts ok/failed/pending. */
static int write_summary(sweep *sw, int counts[3], yee_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot build the summary");
    const yee_sweep_spec *s = &sw->spec;
    fputs("job", f);
    for (int p = 0; p < s->nparams; p++)
        fprintf(f, ",%s", s->params[p].name);
    fputs(",status,wall_s", f);
    for (int r = 0; r < s->nresults; r++)
        fprintf(f, ",%s", s->results[r].name);
    fputs(",message\n", f);
    int *idx = (int *)calloc((size_t)s->nparams + 1, sizeof *idx);
    counts[0] = counts[1] = counts[2] = 0;
    for (long j = 0; idx && j < sw->njobs; j++) {
        sweep_job *jb = &sw->jobs[j];
        job_results(sw, jb);
        const char *st = job_status(jb);
        counts[st[0] == 'o' ? 0 : st[0] == 'f' ? 1 : 2]++;
        fprintf(f, "%ld", j + 1);
        yee_sweep_job_indices(s, j, idx);
        for (int p = 0; p < s->nparams; p++) {
            char v[96];
            yee_pvalue_format(&s->params[p].values[idx[p]], 1, v, sizeof v);
            fputc(',', f);
            csv_cell(f, v);
        }
        fprintf(f, ",%s,", st);
        if (jb->state != JOB_PENDING)
            fprintf(f, "%.3f", jb->wall_s);
        for (int r = 0; r < s->nresults; r++) {
            char v[64] = "";
            if (jb->state == JOB_OK && jb->results_ok)
                fmt_result(jb->results[r], v, sizeof v);
            fprintf(f, ",%s", v);
        }
        fputc(',', f);
        csv_cell(f, jb->state == JOB_PENDING && !jb->busy ? "" : jb->msg);
        fputc('\n', f);
    }
    fclose(f);
    int rc = idx ? YEE_OK : YEE_FAIL(err, YEE_ERR_NOMEM, "cannot build the summary");
    free(idx);
    if (rc == YEE_OK) {
        char path[YEE_PATH_LEN + 16];
        snprintf(path, sizeof path, "%s/summary.csv", sw->o->out_dir);
        rc = yee_write_file_atomic(path, buf, len, err);
    }
    free(buf);
    return rc;
}

/* "thickness = 0.1, res = 10" */
static void job_values_text(const sweep *sw, long j, char *out, size_t n)
{
    const yee_sweep_spec *s = &sw->spec;
    int *idx = (int *)calloc((size_t)s->nparams + 1, sizeof *idx);
    size_t used = 0;
    out[0] = '\0';
    if (idx)
        yee_sweep_job_indices(s, j, idx);
    for (int p = 0; idx && p < s->nparams && used < n; p++) {
        char v[96];
        yee_pvalue_format(&s->params[p].values[idx[p]], 1, v, sizeof v);
        int w = snprintf(out + used, n - used, "%s%s = %s", p ? ", " : "", s->params[p].name, v);
        if (w > 0)
            used += (size_t)w;
    }
    free(idx);
}

static void report_job(const sweep *sw, long j, long done_count)
{
    if (sw->o->quiet)
        return;
    const sweep_job *jb = &sw->jobs[j];
    char vals[256];
    job_values_text(sw, j, vals, sizeof vals);
    const char *st = job_status(jb);
    if (jb->busy)
        printf("[%ld/%ld] job-%04ld %s\n", done_count, sw->njobs, j + 1, jb->msg);
    else if (st[0] == 'o')
        printf("[%ld/%ld] job-%04ld ok in %.2f s (%s)\n", done_count, sw->njobs, j + 1,
               jb->wall_s, vals);
    else
        printf("[%ld/%ld] job-%04ld failed after %.2f s (%s): %s\n", done_count, sw->njobs,
               j + 1, jb->wall_s, vals, jb->msg);
    fflush(stdout);
}

/* ---------------------------------------------------------------------------------------------
 * Setup: directory, job decks, validation (rank 0)
 * ------------------------------------------------------------------------------------------- */

/* The output directory must exist (or be creatable) and take a file: checked before any job. */
static int check_out_dir(sweep *sw, yee_err *err)
{
    const char *dir = sw->o->out_dir;
    if (sw->o->collect) {
        struct stat st;
        if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
            return yee_fail(err, YEE_ERR_IO, "no sweep directory '%s' to collect (got: %s)",
                            dir, strerror(errno ? errno : ENOTDIR));
    } else if (yee_make_dirs(dir, "directory", err) < 0) {
        char msg[YEE_ERR_MSG_LEN];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return yee_fail(err, YEE_ERR_IO, "the output directory is not usable: %s", msg);
    }
    char probe[YEE_PATH_LEN + 32];
    snprintf(probe, sizeof probe, "%s/.yee-write-test%ld", dir, (long)getpid());
    int fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return yee_fail(err, YEE_ERR_IO, "cannot write to the output directory '%s': %s", dir,
                        strerror(errno));
    close(fd);
    unlink(probe);
    /* one sweep per directory at a time: two would run the same jobs and race on summary.csv */
    char lock[YEE_PATH_LEN + 16];
    snprintf(lock, sizeof lock, "%s/.sweep.lock", dir);
    sw->lock_fd = open(lock, O_RDWR | O_CREAT, 0644);
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (sw->lock_fd >= 0 && fcntl(sw->lock_fd, F_SETLK, &fl) < 0)
        return yee_fail(err, YEE_ERR_IO, "another yee sweep is working in '%s' (it holds %s)",
                        dir, lock);
    return YEE_OK;
}

/* Loads a job deck to validate it and learn its run name, without printing its warnings (the
 * job's own run prints them into its log). */
static int check_job_deck(const char *path, char *name, size_t cap, yee_err *err)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int devnull = open("/dev/null", O_WRONLY);
    if (saved >= 0 && devnull >= 0)
        dup2(devnull, STDERR_FILENO);
    yee_config cfg;
    int rc = yee_deck_load(path, NULL, 0, &cfg, err);
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
    if (devnull >= 0)
        close(devnull);
    if (rc == YEE_OK) {
        snprintf(name, cap, "%s", cfg.name);
        yee_config_free(&cfg);
    }
    return rc;
}

static int setup(sweep *sw, yee_err *err)
{
    const sweep_opts *o = sw->o;
    sw->text = yee_read_file(o->deck, NULL);
    if (!sw->text)
        return yee_fail(err, YEE_ERR_IO, "cannot open deck '%s': %s", o->deck, strerror(errno));
    /* the deck first: a deck with a typo leaves no output directory behind */
    YEE_TRY(yee_sweep_spec_parse(o->deck, sw->text, &sw->spec, err));
    YEE_TRY(check_out_dir(sw, err));
    sw->njobs = sw->spec.njobs;
    sw->jobs = (sweep_job *)calloc((size_t)sw->njobs, sizeof *sw->jobs);
    if (!sw->jobs)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %ld jobs", sw->njobs);
    for (long j = 0; j < sw->njobs; j++) {
        sw->jobs[j].results = (double *)calloc((size_t)sw->spec.nresults + 1, sizeof(double));
        if (!sw->jobs[j].results)
            return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %ld jobs", sw->njobs);
    }

    char deck_dir[YEE_PATH_LEN];
    snprintf(deck_dir, sizeof deck_dir, "%s", o->deck);
    char *slash = strrchr(deck_dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(deck_dir, sizeof deck_dir, ".");

    int invalid = 0;
    for (long j = 0; j < sw->njobs; j++) {
        sweep_job *jb = &sw->jobs[j];
        snprintf(jb->dir, sizeof jb->dir, "%.990s/job-%04ld", o->out_dir, j + 1);
        YEE_TRY(yee_make_dirs(jb->dir, "directory", err));
        char include_prefix[YEE_PATH_LEN];
        relative_dir(jb->dir, deck_dir, include_prefix, sizeof include_prefix);
        char *deck = NULL;
        int *unused = (int *)calloc((size_t)sw->spec.nparams, sizeof *unused);
        int rc = yee_sweep_resolve(&sw->spec, o->deck, sw->text, j, include_prefix, &deck,
                                   unused, err);
        if (rc < 0) {
            free(unused);
            if (rc == YEE_ERR_DECK && sw->njobs > 1) {
                char vals[256];
                job_values_text(sw, j, vals, sizeof vals);
                yee_err_append(err, "(in job %ld of %ld: %s)", j + 1, sw->njobs, vals);
            }
            return rc;
        }
        if (j == 0 && unused && world_rank() == 0)
            for (int p = 0; p < sw->spec.nparams; p++)
                if (unused[p])
                    fprintf(stderr, "%s:%d: warning: parameter '%s' is not used by any ${...}\n",
                            o->deck, sw->spec.params[p].line, sw->spec.params[p].name);
        free(unused);

        /* a job whose deck changed is not finished any more, whatever it left behind */
        char path[YEE_PATH_LEN + 16];
        snprintf(path, sizeof path, "%s/deck.cfg", jb->dir);
        char *old = yee_read_file(path, NULL);
        if (!old || strcmp(old, deck) != 0) {
            clear_markers(jb->dir);
            clear_checkpoints(jb->dir);
            rc = yee_write_file_atomic(path, deck, strlen(deck), err);
        }
        free(old);
        free(deck);
        YEE_TRY(rc);

        char name[YEE_NAME_LEN] = "";
        yee_err derr;
        derr.msg[0] = '\0';
        if (check_job_deck(path, name, sizeof name, &derr) == YEE_OK) {
            jb->valid = 1;
            snprintf(jb->h5, sizeof jb->h5, "%s/%s.h5", jb->dir, name);
        } else {
            /* shown once on stderr; the job is failed, not run, and the others go on */
            if (invalid++ < 3 && world_rank() == 0)
                fprintf(stderr, "yee sweep: job-%04ld has an invalid deck:\n%s\n", j + 1,
                        derr.msg);
            char *nl = strchr(derr.msg, '\n');
            if (nl)
                *nl = '\0';
            jb->state = JOB_FAILED;
            snprintf(jb->msg, sizeof jb->msg, "invalid deck: %s", derr.msg);
            one_line(jb->msg);
            continue;
        }
        marker m;
        read_marker(jb->dir, &m);
        if (m.found) {
            jb->state = m.state;
            jb->wall_s = m.wall_s;
            snprintf(jb->msg, sizeof jb->msg, "%s", m.msg);
        }
    }
    if (invalid == sw->njobs)
        return yee_fail(err, YEE_ERR_DECK, "every job's deck is invalid (the first error is "
                        "above): nothing to run");
    if (invalid > 3 && world_rank() == 0)
        fprintf(stderr, "yee sweep: %d jobs have invalid decks (see summary.csv)\n", invalid);
    return YEE_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Running one job as a child process
 * ------------------------------------------------------------------------------------------- */

/* How a job process is started; the same in every rank of a sweep. */
typedef struct launch {
    const char *exe;       /* the yee binary (or YEE_SWEEP_EXE) */
    int threads;           /* OMP_NUM_THREADS of each job */
    int ranks;             /* ranks of one job: > 1 starts it with a nested mpirun */
    char hosts[1024];      /* --host list of the nested mpirun ("" = let it choose) */
    int open_mpi;          /* the MPI library is Open MPI (its mpirun's flags) */
    const char *gpu_list;  /* CUDA_VISIBLE_DEVICES to spread jobs over ("" = leave alone) */
    int ngpus;             /* devices in gpu_list, or on the node */
} launch;

/* Environment of a job (app/child_env.h): the one yee started with, without the MPI launcher's
 * variables, so that the child's MPI_Init starts a new (singleton) job instead of joining ours;
 * plus OMP_NUM_THREADS and, with several GPUs, the one device of this slot. */
static char **child_env(const launch *L, int slot)
{
    static char omp[64], cuda[64];
    const char *extra[2];
    size_t nextra = 0;
    snprintf(omp, sizeof omp, "OMP_NUM_THREADS=%d", L->threads);
    extra[nextra++] = omp;
    if (L->ngpus > 1) {
        /* the (slot mod ngpus)-th entry of the list, or that device number */
        int want = slot % L->ngpus, at = 0;
        const char *p = L->gpu_list;
        char dev[32];
        snprintf(dev, sizeof dev, "%d", want);
        while (p && *p && at < want) {
            p = strchr(p, ',');
            p = p ? p + 1 : NULL;
            at++;
        }
        if (p && *p && L->gpu_list[0])
            snprintf(dev, sizeof dev, "%.*s", (int)strcspn(p, ","), p);
        snprintf(cuda, sizeof cuda, "CUDA_VISIBLE_DEVICES=%s", dev);
        extra[nextra++] = cuda;
    }
    return yee_child_env(extra, nextra);
}

/* Starts job j; *pid gets the child. Output goes to job-NNNN/run.log; a job that left a
 * checkpoint continues from it (and its log goes on). The child inherits lock_fd, the job
 * directory's lock, so that the lock lives as long as the run even when this sweep is killed. */
static int spawn_job(const launch *L, const char *out_dir, long j, int slot, int lock_fd,
                     pid_t *pid, char *msg, size_t msglen)
{
    char dir[YEE_PATH_LEN], deck[YEE_PATH_LEN + 16], log[YEE_PATH_LEN + 16];
    snprintf(dir, sizeof dir, "%s/job-%04ld", out_dir, j + 1);
    snprintf(deck, sizeof deck, "%s/deck.cfg", dir);
    snprintf(log, sizeof log, "%s/run.log", dir);
    char np[16];
    snprintf(np, sizeof np, "%d", L->ranks);
    const char *mpirun = getenv("YEE_SWEEP_MPIRUN") ? getenv("YEE_SWEEP_MPIRUN") : "mpirun";
    const char *argv[16];
    int a = 0;
    if (L->ranks > 1) {
        argv[a++] = mpirun;
        argv[a++] = "-np";
        argv[a++] = np;
        if (L->hosts[0]) {
            argv[a++] = "--host";
            argv[a++] = L->hosts;
        }
        if (L->open_mpi) {
            argv[a++] = "--oversubscribe";
            if (geteuid() == 0)
                argv[a++] = "--allow-run-as-root";
        }
    }
    argv[a++] = L->exe;
    argv[a++] = "run";
    argv[a++] = deck;
    argv[a++] = "--out";
    argv[a++] = dir;
    char ckpt[YEE_PATH_LEN + 300];
    const int restart = find_checkpoint(dir, ckpt, sizeof ckpt) == 0;
    if (restart) {
        argv[a++] = "--restart";
        argv[a++] = ckpt;
    }
    argv[a] = NULL;

    char **env = child_env(L, slot);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log,
                                     O_WRONLY | O_CREAT | (restart ? O_APPEND : O_TRUNC), 0644);
    /* dup2 onto itself clears close-on-exec in the child alone (POSIX.1-2024, glibc >= 2.29) */
    if (lock_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, lock_fd, lock_fd);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    int rc = env ? (L->ranks > 1 ? posix_spawnp : posix_spawn)(pid, argv[0], &fa, NULL,
                                                                 (char *const *)argv, env)
                 : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    if (rc != 0) {
        snprintf(msg, msglen, "cannot start '%s': %s", argv[0], strerror(rc));
        return -1;
    }
    return 0;
}

/* Records how the child of job j ended: DONE after exit 0, else FAILED with the reason. */
static void finish_job(const char *out_dir, long j, int status, double wall_s, const char *why,
                       sweep_job *jb)
{
    char dir[YEE_PATH_LEN], log[YEE_PATH_LEN + 16], reason[400];
    snprintf(dir, sizeof dir, "%s/job-%04ld", out_dir, j + 1);
    snprintf(log, sizeof log, "%s/run.log", dir);
    job_state state = JOB_FAILED;
    char msg[512] = "";
    if (why) {
        snprintf(msg, sizeof msg, "%s", why);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        state = JOB_OK;
    } else {
        log_reason(log, reason, sizeof reason);
        if (WIFSIGNALED(status))
            snprintf(msg, sizeof msg, "crashed: signal %d (%s)%s%s", WTERMSIG(status),
                     strsignal(WTERMSIG(status)), reason[0] ? "; log: " : "", reason);
        else
            snprintf(msg, sizeof msg, "exit status %d: %s", WEXITSTATUS(status),
                     reason[0] ? reason : "(run.log is empty)");
    }
    one_line(msg);
    yee_err err;
    if (write_marker(dir, state, wall_s, msg, &err) < 0) {
        state = JOB_FAILED;
        snprintf(msg, sizeof msg, "%.500s", err.msg);
    }
    if (jb) {
        jb->state = state;
        jb->wall_s = wall_s;
        snprintf(jb->msg, sizeof jb->msg, "%s", msg);
        jb->results_known = 0;
    }
}

/* Another runner has job j: it is left alone and stays pending. */
static void mark_busy(sweep_job *jb, long j)
{
    jb->busy = 1;
    jb->state = JOB_PENDING;
    snprintf(jb->msg, sizeof jb->msg, "left alone: another runner holds job-%04ld/.lock (a run "
             "of an earlier sweep or a Slurm task still going)", j + 1);
}

/* With the lock of job j held: a DONE marker there means another runner finished the job after
 * this sweep read the directory (a Slurm task, an earlier sweep); it is taken as it is, not run
 * again. Returns 1 then (jb, when given, holds the marker's state), else 0. */
static int finished_elsewhere(const char *dir, sweep_job *jb)
{
    marker m;
    read_marker(dir, &m);
    if (!m.found || m.state != JOB_OK)
        return 0;
    if (jb) {
        jb->state = JOB_OK;
        jb->wall_s = m.wall_s;
        jb->msg[0] = '\0';
        jb->results_known = 0;
    }
    return 1;
}

/* Runs job j to its end (a worker rank's unit of work). Returns 1 when another runner holds
 * the job (nothing ran), else 0. */
static int run_one(const launch *L, const char *out_dir, long j, int slot, sweep_job *jb)
{
    char dir[YEE_PATH_LEN];
    snprintf(dir, sizeof dir, "%s/job-%04ld", out_dir, j + 1);
    const int lock_fd = lock_job(dir);
    if (lock_fd == -2)
        return 1;
    if (lock_fd >= 0 && finished_elsewhere(dir, jb)) {
        close(lock_fd);
        return 0;
    }
    clear_markers(dir);
    const double t0 = now_s();
    pid_t pid;
    char msg[512];
    if (lock_fd < 0) {
        snprintf(msg, sizeof msg, "cannot open the lock %.300s/.lock: %s", dir, strerror(errno));
        finish_job(out_dir, j, 0, 0.0, msg, jb);
        return 0;
    }
    if (spawn_job(L, out_dir, j, slot, lock_fd, &pid, msg, sizeof msg) < 0) {
        finish_job(out_dir, j, 0, 0.0, msg, jb);
        close(lock_fd);
        return 0;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    finish_job(out_dir, j, status, now_s() - t0, NULL, jb);
    close(lock_fd);
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Dispatch: a local pool, or a master and workers under mpirun
 * ------------------------------------------------------------------------------------------- */

static long count_done(const sweep *sw)
{
    long n = 0;
    for (long j = 0; j < sw->njobs; j++)
        n += sw->jobs[j].state != JOB_PENDING;
    return n;
}

static void after_job(sweep *sw, long j)
{
    int counts[3];
    yee_err err;
    job_results(sw, &sw->jobs[j]);
    if (write_summary(sw, counts, &err) < 0)
        fprintf(stderr, "yee sweep: warning: %s\n", err.msg);
    report_job(sw, j, count_done(sw));
}

/* Up to o->jobs children at once on this machine. */
static void run_local(sweep *sw, const launch *L, const long *todo, long ntodo)
{
    const int slots = sw->o->jobs;
    pid_t *pids = (pid_t *)calloc((size_t)slots, sizeof *pids);
    long *slot_job = (long *)calloc((size_t)slots, sizeof *slot_job);
    double *t0 = (double *)calloc((size_t)slots, sizeof *t0);
    int *locks = (int *)calloc((size_t)slots, sizeof *locks);
    if (!pids || !slot_job || !t0 || !locks) {
        free(pids);
        free(slot_job);
        free(t0);
        free(locks);
        return;
    }
    long next = 0;
    int running = 0;
    while (next < ntodo || running > 0) {
        for (int s = 0; s < slots && next < ntodo; s++) {
            if (pids[s] > 0)
                continue;
            const long j = todo[next++];
            char msg[512];
            locks[s] = lock_job(sw->jobs[j].dir);
            if (locks[s] == -2) {
                mark_busy(&sw->jobs[j], j);
                after_job(sw, j);
                continue;
            }
            if (locks[s] >= 0 && finished_elsewhere(sw->jobs[j].dir, &sw->jobs[j])) {
                close(locks[s]);
                after_job(sw, j);
                continue;
            }
            clear_markers(sw->jobs[j].dir);
            t0[s] = now_s();
            if (locks[s] < 0)
                snprintf(msg, sizeof msg, "cannot open the lock %.300s/.lock: %s", sw->jobs[j].dir,
                         strerror(errno));
            if (locks[s] < 0 ||
                spawn_job(L, sw->o->out_dir, j, s, locks[s], &pids[s], msg, sizeof msg) < 0) {
                pids[s] = 0;
                if (locks[s] >= 0)
                    close(locks[s]);
                finish_job(sw->o->out_dir, j, 0, 0.0, msg, &sw->jobs[j]);
                after_job(sw, j);
                continue;
            }
            slot_job[s] = j;
            running++;
        }
        if (running == 0)
            continue;
        /* our children only, never waitpid(-1): MPI's singleton daemon is a child of ours too */
        int reaped = 0;
        for (int s = 0; s < slots; s++) {
            int status = 0;
            if (pids[s] <= 0 || waitpid(pids[s], &status, WNOHANG) != pids[s])
                continue;
            const long j = slot_job[s];
            pids[s] = 0;
            running--;
            reaped++;
            finish_job(sw->o->out_dir, j, status, now_s() - t0[s], NULL, &sw->jobs[j]);
            close(locks[s]); /* after the marker: no other runner sees the job unfinished */
            after_job(sw, j);
        }
        if (!reaped)
            nap_ms(20);
    }
    free(pids);
    free(slot_job);
    free(t0);
    free(locks);
}

/* Rank 0 under mpirun: hands job after job to the group leaders as they report back. */
static void run_master(sweep *sw, const long *todo, long ntodo, int nranks, int rpj)
{
    const int ngroups = (nranks - 1) / rpj;
    long next = 0;
    int busy = 0;
    for (int g = 0; g < ngroups; g++) {
        long j = next < ntodo ? todo[next++] : -1;
        MPI_Send(&j, 1, MPI_LONG, 1 + g * rpj, TAG_JOB, MPI_COMM_WORLD);
        busy += j >= 0;
    }
    while (busy > 0) {
        long report[2] = {-1, 0}; /* the job, and 1 when another runner held it */
        MPI_Status st;
        recv_polite(report, 2, MPI_LONG, MPI_ANY_SOURCE, TAG_REPORT, &st);
        busy--;
        const long j = report[0];
        if (j >= 0 && j < sw->njobs && report[1]) {
            mark_busy(&sw->jobs[j], j);
            after_job(sw, j);
        } else if (j >= 0 && j < sw->njobs) {
            marker m;
            read_marker(sw->jobs[j].dir, &m);
            sweep_job *jb = &sw->jobs[j];
            jb->state = m.found ? m.state : JOB_FAILED;
            jb->wall_s = m.wall_s;
            snprintf(jb->msg, sizeof jb->msg, "%s",
                     m.found ? m.msg : "the worker wrote no DONE or FAILED marker");
            jb->results_known = 0;
            after_job(sw, j);
        }
        long nj = next < ntodo ? todo[next++] : -1;
        MPI_Send(&nj, 1, MPI_LONG, st.MPI_SOURCE, TAG_JOB, MPI_COMM_WORLD);
        busy += nj >= 0;
    }
    /* the other members of each group only wait for this */
    for (int r = 1; r < nranks; r++)
        if ((r - 1) % rpj != 0) {
            long stop = -1;
            MPI_Send(&stop, 1, MPI_LONG, r, TAG_JOB, MPI_COMM_WORLD);
        }
}

/* A group leader under mpirun: runs the jobs rank 0 sends until it sends -1. */
static void run_worker(const launch *L, const char *out_dir, int slot)
{
    for (;;) {
        long j = -1;
        recv_polite(&j, 1, MPI_LONG, 0, TAG_JOB, NULL);
        if (j < 0)
            return;
        long report[2] = {j, run_one(L, out_dir, j, slot, NULL)};
        MPI_Send(report, 2, MPI_LONG, 0, TAG_REPORT, MPI_COMM_WORLD);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Slurm
 * ------------------------------------------------------------------------------------------- */

/* The script's resources: the deck's sweep.slurm group with the command-line flags over it. */
static int write_sbatch(sweep *sw, const long *todo, long ntodo, char *path, size_t cap,
                        yee_err *err)
{
    const sweep_opts *o = sw->o;
    yee_slurm_script s;
    memset(&s, 0, sizeof s);
    s.res = sw->spec.slurm;
    yee_slurm_spec *sl = &s.res;
    if (o->flags.time[0])
        snprintf(sl->time, sizeof sl->time, "%s", o->flags.time);
    if (o->flags.partition[0])
        snprintf(sl->partition, sizeof sl->partition, "%s", o->flags.partition);
    if (o->flags.account[0])
        snprintf(sl->account, sizeof sl->account, "%s", o->flags.account);
    if (o->flags.memory[0])
        snprintf(sl->memory, sizeof sl->memory, "%s", o->flags.memory);
    if (o->flags.mpi[0])
        snprintf(sl->mpi, sizeof sl->mpi, "%s", o->flags.mpi);
    if (o->flags.gpus >= 0)
        sl->gpus = o->flags.gpus;
    if (o->flags.cpus >= 0)
        sl->cpus = o->flags.cpus;
    if (o->flags.checkpoint_margin >= 0)
        sl->checkpoint_margin = o->flags.checkpoint_margin;
    s.exe = sw->exe;
    s.deck = o->deck;
    s.dir = o->out_dir;
    s.todo = todo;
    s.ntodo = ntodo;
    s.ranks_per_job = o->ranks_per_job;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    s.open_mpi = strstr(lib, "Open MPI") != NULL;
    return yee_slurm_write_script(&s, path, cap, err);
}

/* ---------------------------------------------------------------------------------------------
 * Options and the command
 * ------------------------------------------------------------------------------------------- */

/* A whole-number option in [lo, hi] (common/yee_num.h); -1 with "yee sweep: --jobs wants ...
 * (got '...')" printed when loud. hi keeps a typo from asking for a million jobs. */
static int int_option(const char *opt, const char *text, long lo, long hi, int *out, int loud)
{
    long v = 0;
    yee_err err;
    if (yee_parse_long(opt, text, lo, hi, &v, &err) < 0) {
        if (loud)
            fprintf(stderr, "yee sweep: %s\n", err.msg);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* A value that goes into an #SBATCH line as it is: the characters of Slurm's own syntax. */
static int one_word(const char *s)
{
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("_.:,+-=/@%", *p)))
            return 0;
    return *s != '\0';
}

static int parse_opts(int argc, char **argv, sweep_opts *o, int loud)
{
    memset(o, 0, sizeof *o);
    o->jobs = 1;
    o->ranks_per_job = 1;
    o->flags.gpus = o->flags.cpus = o->flags.checkpoint_margin = -1;
    const char *out = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        struct {
            const char *flag;
            char *dst;
            size_t cap;
        } strs[] = {{"--time", o->flags.time, sizeof o->flags.time},
                    {"--partition", o->flags.partition, sizeof o->flags.partition},
                    {"--account", o->flags.account, sizeof o->flags.account},
                    {"--mem", o->flags.memory, sizeof o->flags.memory},
                    {"--mpi", o->flags.mpi, sizeof o->flags.mpi}};
        int matched = 0;
        for (int k = 0; k < 5; k++)
            if (strcmp(a, strs[k].flag) == 0 && more) {
                const char *v = argv[++i];
                if (strlen(v) >= strs[k].cap || !one_word(v)) {
                    if (loud)
                        fprintf(stderr, "yee sweep: %s wants one word (got '%s')\n", a, v);
                    return 2;
                }
                snprintf(strs[k].dst, strs[k].cap, "%s", v);
                matched = 1;
            }
        if (matched)
            continue;
        if (strcmp(a, "--out") == 0 && more) {
            out = argv[++i];
        } else if ((strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) && more) {
            if (int_option(a, argv[++i], 1, 100000, &o->jobs, loud) < 0)
                return 2;
        } else if (strcmp(a, "--ranks-per-job") == 0 && more) {
            if (int_option(a, argv[++i], 1, 100000, &o->ranks_per_job, loud) < 0)
                return 2;
        } else if (strcmp(a, "--gpus-per-job") == 0 && more) {
            if (int_option(a, argv[++i], 0, 100000, &o->flags.gpus, loud) < 0)
                return 2;
        } else if (strcmp(a, "--cpus-per-job") == 0 && more) {
            if (int_option(a, argv[++i], 1, 100000, &o->flags.cpus, loud) < 0)
                return 2;
        } else if (strcmp(a, "--checkpoint-margin") == 0 && more) {
            /* seconds; sbatch --signal=B:TERM@S takes at most 65535 */
            if (int_option(a, argv[++i], 0, 65535, &o->flags.checkpoint_margin, loud) < 0)
                return 2;
        } else if (strcmp(a, "--slurm") == 0) {
            o->slurm = 1;
        } else if (strcmp(a, "--submit") == 0) {
            o->submit = 1;
        } else if (strcmp(a, "--collect") == 0) {
            o->collect = 1;
        } else if (strcmp(a, "--dry-run") == 0) {
            o->dry_run = 1;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o->quiet = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            if (loud)
                fprintf(stderr, "yee sweep: unknown or incomplete option '%s' (see yee sweep "
                                "--help)\n", a);
            return 2;
        } else if (!o->deck) {
            o->deck = a;
        } else {
            if (loud)
                fprintf(stderr, "yee sweep: more than one deck given ('%s' and '%s')\n",
                        o->deck, a);
            return 2;
        }
    }
    if (!o->deck) {
        if (loud)
            fprintf(stderr, "yee sweep: no deck given (see yee sweep --help)\n");
        return 2;
    }
    if (o->slurm + o->collect + o->dry_run > 1) {
        if (loud)
            fprintf(stderr, "yee sweep: --slurm, --collect and --dry-run exclude each other\n");
        return 2;
    }
    if (o->submit && !o->slurm) {
        if (loud)
            fprintf(stderr, "yee sweep: --submit goes with --slurm (it submits the script "
                            "--slurm writes)\n");
        return 2;
    }
    if (out) {
        if (strlen(out) >= sizeof o->out_dir - 16) {
            if (loud)
                fprintf(stderr, "yee sweep: --out path too long\n");
            return 2;
        }
        snprintf(o->out_dir, sizeof o->out_dir, "%s", out);
    } else {
        /* <deck name>_sweep in the current directory */
        const char *base = strrchr(o->deck, '/') ? strrchr(o->deck, '/') + 1 : o->deck;
        snprintf(o->out_dir, sizeof o->out_dir, "%.*s_sweep", (int)strcspn(base, "."), base);
    }
    size_t n = strlen(o->out_dir);
    while (n > 1 && o->out_dir[n - 1] == '/')
        o->out_dir[--n] = '\0';
    return 0;
}

/* Threads per job, GPUs per slot, how a job is launched. `concurrent` jobs share this node. */
static void make_launch(launch *L, const char *exe, int concurrent, int ranks)
{
    memset(L, 0, sizeof *L);
    L->exe = exe;
    L->ranks = ranks;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const char *omp = getenv("OMP_NUM_THREADS");
    long total = omp && atoi(omp) > 0 ? atoi(omp) : (cores > 0 ? cores : 1);
    /* a job of R ranks takes R times the threads' cores */
    long t = total / ((long)concurrent * ranks);
    L->threads = t > 0 ? (int)t : 1;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    L->open_mpi = strstr(lib, "Open MPI") != NULL;
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    L->gpu_list = vis ? vis : "";
    if (vis && vis[0]) {
        L->ngpus = 1;
        for (const char *p = vis; *p; p++)
            L->ngpus += *p == ',';
    } else if (yee_backend_find("cuda")) {
        L->ngpus = yee_backend_cuda_devices();
    }
}

static void sweep_free(sweep *sw)
{
    for (long j = 0; sw->jobs && j < sw->njobs; j++)
        free(sw->jobs[j].results);
    free(sw->jobs);
    free(sw->text);
    yee_sweep_spec_free(&sw->spec);
    if (sw->lock_fd > 0)
        close(sw->lock_fd);
}

/* Rank 0's work after setup; returns the exit status. */
static int lead(sweep *sw, int nranks, int node_jobs)
{
    const sweep_opts *o = sw->o;
    long *todo = (long *)calloc((size_t)sw->njobs + 1, sizeof *todo);
    long ntodo = 0, earlier = 0;
    if (!todo)
        return 1;
    for (long j = 0; j < sw->njobs; j++) {
        const sweep_job *jb = &sw->jobs[j];
        if (jb->valid && jb->state != JOB_OK)
            todo[ntodo++] = j;
        earlier += jb->state == JOB_OK;
    }
    yee_err err;
    err.msg[0] = '\0';
    int counts[3] = {0, 0, 0};
    int rc = 0;
    if (o->dry_run) {
        for (long j = 0; j < sw->njobs; j++) {
            char vals[256];
            job_values_text(sw, j, vals, sizeof vals);
            const sweep_job *jb = &sw->jobs[j];
            printf("job-%04ld  %s  %s%s%s\n", j + 1, vals,
                   !jb->valid ? "invalid" : jb->state == JOB_OK ? "finished" : "to run",
                   jb->valid ? "" : ": ", jb->valid ? "" : jb->msg);
        }
        printf("yee sweep: %ld jobs in %s, %ld finished, %ld to run (dry run: nothing ran)\n",
               sw->njobs, o->out_dir, earlier, ntodo);
    } else if (o->slurm) {
        char path[YEE_PATH_LEN + 16];
        if (ntodo == 0) {
            printf("yee sweep: all %ld jobs in %s are finished; nothing to submit\n", sw->njobs,
                   o->out_dir);
        } else if (write_sbatch(sw, todo, ntodo, path, sizeof path, &err) < 0) {
            fprintf(stderr, "yee sweep: error: %s\n", err.msg);
            rc = 1;
        } else if (o->submit) {
            char id[64];
            if (yee_slurm_submit(path, id, sizeof id, &err) < 0) {
                fprintf(stderr, "yee sweep: error: %s\n", err.msg);
                rc = 1;
            } else {
                if (o->quiet)
                    printf("%s\n", id); /* for scripts: the id alone */
                else
                    printf("yee sweep: submitted %s (%ld array tasks) as job %s\n"
                           "when the array has finished:\n  yee sweep %s --out %s --collect\n",
                           path, ntodo, id, o->deck, o->out_dir);
            }
        } else {
            printf("yee sweep: wrote %s (%ld array tasks). Submit it with:\n  sbatch %s\n"
                   "then, when the array has finished:\n  yee sweep %s --out %s --collect\n",
                   path, ntodo, path, o->deck, o->out_dir);
        }
    } else {
        if (!o->collect && ntodo > 0) {
            launch L;
            make_launch(&L, sw->exe, nranks > 1 ? node_jobs : o->jobs, o->ranks_per_job);
            if (!o->quiet) {
                printf("yee sweep: %ld jobs in %s: %ld finished earlier, %ld to run", sw->njobs,
                       o->out_dir, earlier, ntodo);
                if (nranks > 1)
                    printf(" on %d worker group(s) of %d rank(s)\n",
                           (nranks - 1) / o->ranks_per_job, o->ranks_per_job);
                else
                    printf(", %d at once, %d thread(s) each\n", o->jobs, L.threads);
                fflush(stdout);
            }
            if (nranks > 1)
                run_master(sw, todo, ntodo, nranks, o->ranks_per_job);
            else
                run_local(sw, &L, todo, ntodo);
        } else if (nranks > 1) {
            run_master(sw, todo, 0, nranks, o->ranks_per_job); /* only stops the workers */
        }
        if (write_summary(sw, counts, &err) < 0) {
            fprintf(stderr, "yee sweep: error: %s\n", err.msg);
            rc = 1;
        } else {
            if (!o->quiet || counts[1] > 0)
                printf("yee sweep: %d ok, %d failed, %d pending; wrote %s/summary.csv\n",
                       counts[0], counts[1], counts[2], o->out_dir);
            rc = counts[1] > 0 || (!o->collect && counts[2] > 0) ? 1 : 0;
        }
    }
    free(todo);
    return rc;
}

/* Host names of the ranks of a group, as mpirun's --host list "a:2,b:1" (on the leader). */
static void group_hosts(int rank, int rpj, char *out, size_t cap)
{
    MPI_Comm g;
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : (rank - 1) / rpj, rank, &g);
    out[0] = '\0';
    if (g == MPI_COMM_NULL)
        return;
    char me[MPI_MAX_PROCESSOR_NAME] = "";
    int len = 0, grank = 0, gsize = 1;
    MPI_Get_processor_name(me, &len);
    MPI_Comm_rank(g, &grank);
    MPI_Comm_size(g, &gsize);
    char *all = (char *)calloc((size_t)gsize, MPI_MAX_PROCESSOR_NAME);
    MPI_Gather(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, g);
    if (grank == 0 && all) {
        size_t used = 0;
        for (int i = 0; i < gsize; i++) {
            const char *h = all + (size_t)i * MPI_MAX_PROCESSOR_NAME;
            int seen = 0, count = 0;
            for (int k = 0; k < gsize; k++) {
                const char *hk = all + (size_t)k * MPI_MAX_PROCESSOR_NAME;
                if (strcmp(h, hk) == 0) {
                    seen |= k < i;
                    count++;
                }
            }
            if (!seen && used < cap) {
                int w = snprintf(out + used, cap - used, "%s%s:%d", used ? "," : "", h, count);
                if (w > 0)
                    used += (size_t)w;
            }
        }
    }
    free(all);
    MPI_Comm_free(&g);
}

int yee_sweep_main(int argc, char **argv)
{
    int rank = 0, nranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    sweep_opts o;
    int prc = parse_opts(argc, argv, &o, rank == 0);
    if (prc != 0)
        return prc;
    /* writing a script, collecting or a dry run is rank 0's alone */
    if (o.slurm || o.collect || o.dry_run) {
        if (rank != 0)
            return 0;
        nranks = 1;
    }
    if (nranks > 1 && (nranks - 1) % o.ranks_per_job != 0) {
        if (rank == 0)
            fprintf(stderr, "yee sweep: %d ranks are rank 0 (hands out jobs) and %d workers, "
                            "not a multiple of --ranks-per-job %d\n",
                    nranks, nranks - 1, o.ranks_per_job);
        return 2;
    }

    sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.o = &o;
    sw.lock_fd = -1;
    const char *exe_env = getenv("YEE_SWEEP_EXE");
    if (exe_env && exe_env[0]) {
        snprintf(sw.exe, sizeof sw.exe, "%s", exe_env);
    } else {
        ssize_t n = readlink("/proc/self/exe", sw.exe, sizeof sw.exe - 1);
        sw.exe[n > 0 ? n : 0] = '\0';
        if (n <= 0)
            snprintf(sw.exe, sizeof sw.exe, "%s", argv[0]);
    }

    /* where this rank sits: node-local rank and how many job groups share the node */
    int node_rank = 0, node_groups = 1;
    launch L;
    memset(&L, 0, sizeof L);
    if (nranks > 1) {
        MPI_Comm node;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
        int node_size = 1, has_master = rank == 0;
        MPI_Comm_rank(node, &node_rank);
        MPI_Comm_size(node, &node_size);
        MPI_Allreduce(MPI_IN_PLACE, &has_master, 1, MPI_INT, MPI_MAX, node);
        MPI_Comm_free(&node);
        node_groups = (node_size - has_master) / o.ranks_per_job;
        if (node_groups < 1)
            node_groups = 1;
        make_launch(&L, sw.exe, node_groups, o.ranks_per_job);
        if (o.ranks_per_job > 1)
            group_hosts(rank, o.ranks_per_job, L.hosts, sizeof L.hosts);
    }

    int ok = 1;
    yee_err err;
    err.msg[0] = '\0';
    if (rank == 0 && setup(&sw, &err) < 0) {
        fprintf(stderr, "yee sweep: error: %s\n", err.msg);
        ok = 0;
    }
    /* workers wait (sleeping, see recv_polite) until rank 0 has checked everything */
    if (nranks > 1) {
        if (rank == 0)
            for (int r = 1; r < nranks; r++)
                MPI_Send(&ok, 1, MPI_INT, r, TAG_SETUP, MPI_COMM_WORLD);
        else
            recv_polite(&ok, 1, MPI_INT, 0, TAG_SETUP, NULL);
    }
    int rc = ok ? 0 : 1;
    if (ok && rank == 0) {
        rc = lead(&sw, nranks, node_groups);
    } else if (ok && (rank - 1) % o.ranks_per_job == 0) {
        run_worker(&L, o.out_dir, node_rank / o.ranks_per_job);
    } else if (ok) {
        long stop;
        recv_polite(&stop, 1, MPI_LONG, 0, TAG_JOB, NULL);
    }
    sweep_free(&sw);
    return rc;
}
