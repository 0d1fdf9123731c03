/* solver/checkpoint.c -- checkpoint file format: rank files of records with a checksummed
 * trailer, the text manifest, and the write-to-temp / fsync / rename protocol (see
 * solver/checkpoint.h). Knows nothing about what the records hold.
 */
#include "solver/checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC "YEECKPT1"
#define VERSION 1
#define TAG_LEN 8

/* Header words after the magic, in file order. */
enum { H_VERSION, H_REAL, H_HASH, H_STEP, H_STEPS, H_NRANKS, H_RANK, H_DIMS, H_N = H_DIMS + 3,
       H_OFFSET = H_N + 3, H_NLOCAL = H_OFFSET + 3, H_WORDS = H_NLOCAL + 3 };

struct yee_ckpt_file {
    FILE *fp;
    int writing;
    char path[YEE_PATH_LEN + 64];     /* final name */
    char tmp[YEE_PATH_LEN + 64 + 8];  /* <path>.tmp while writing */
    uint64_t sum;                     /* checksum of everything so far */
};

uint64_t yee_ckpt_hash(uint64_t h, const void *data, size_t bytes)
{
    /* word-wise multiply-xorshift: a few GB/s, so a checkpoint's checksum costs little next to
     * writing it; the byte tail goes one byte per word */
    const unsigned char *p = (const unsigned char *)data;
    const uint64_t k = 0x9E3779B97F4A7C15ull;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    for (; i < bytes; i++) {
        h = (h ^ p[i]) * k;
        h ^= h >> 29;
    }
    return h;
}

void yee_ckpt_data_path(const char *manifest, long step, int rank, char *out, size_t n)
{
    snprintf(out, n, "%s.%08ld.r%d", manifest, step, rank);
}

/* fsync the directory holding path, so a rename in it survives a crash. */
static void sync_dir(const char *path)
{
    char dir[YEE_PATH_LEN + 64];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        fsync(fd); /* best effort: some file systems refuse fsync on directories */
        close(fd);
    }
}

/* Write bytes and add them to the checksum. */
static int put_raw(yee_ckpt_file *f, const void *data, size_t bytes, yee_err *err)
{
    if (bytes && fwrite(data, 1, bytes, f->fp) != bytes)
        return yee_fail(err, YEE_ERR_IO, "cannot write checkpoint '%s': %s", f->tmp,
                        strerror(errno));
    f->sum = yee_ckpt_hash(f->sum, data, bytes);
    return YEE_OK;
}

static int get_raw(yee_ckpt_file *f, void *data, size_t bytes, yee_err *err)
{
    if (bytes && fread(data, 1, bytes, f->fp) != bytes)
        return yee_fail(err, YEE_ERR_IO, "checkpoint '%s' is truncated (%s)", f->path,
                        ferror(f->fp) ? strerror(errno) : "unexpected end of file");
    f->sum = yee_ckpt_hash(f->sum, data, bytes);
    return YEE_OK;
}

static void header_words(const yee_ckpt_id *id, int rank, const int offset[3],
                         const int n_local[3], int64_t w[H_WORDS])
{
    memset(w, 0, H_WORDS * sizeof *w);
    w[H_VERSION] = VERSION;
    w[H_REAL] = id->real_bytes;
    memcpy(&w[H_HASH], &id->deck_hash, sizeof id->deck_hash);
    w[H_STEP] = id->step;
    w[H_STEPS] = id->steps;
    w[H_NRANKS] = id->nranks;
    w[H_RANK] = rank;
    for (int a = 0; a < 3; a++) {
        w[H_DIMS + a] = id->dims[a];
        w[H_N + a] = id->n[a];
        w[H_OFFSET + a] = offset[a];
        w[H_NLOCAL + a] = n_local[a];
    }
}

void yee_ckpt_abandon(yee_ckpt_file *f)
{
    if (!f)
        return;
    if (f->fp)
        fclose(f->fp);
    if (f->writing)
        remove(f->tmp);
    free(f);
}

int yee_ckpt_create(const char *manifest, const yee_ckpt_id *id, int rank, const int offset[3],
                    const int n_local[3], yee_ckpt_file **out, yee_err *err)
{
    *out = NULL;
    yee_ckpt_file *f = (yee_ckpt_file *)calloc(1, sizeof *f);
    if (!f)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "checkpoint writer");
    yee_ckpt_data_path(manifest, id->step, rank, f->path, sizeof f->path);
    snprintf(f->tmp, sizeof f->tmp, "%s.tmp", f->path);
    f->fp = fopen(f->tmp, "wb");
    if (!f->fp) {
        int rc = yee_fail(err, YEE_ERR_IO, "cannot create checkpoint '%s': %s", f->tmp,
                          strerror(errno));
        free(f);
        return rc;
    }
    f->writing = 1;
    int64_t w[H_WORDS];
    header_words(id, rank, offset, n_local, w);
    int rc = put_raw(f, MAGIC, 8, err);
    if (rc == YEE_OK)
        rc = put_raw(f, w, sizeof w, err);
    if (rc < 0) {
        yee_ckpt_abandon(f);
        return rc;
    }
    *out = f;
    return YEE_OK;
}

int yee_ckpt_put(yee_ckpt_file *f, const char *tag, const void *data, size_t bytes,
                 yee_err *err)
{
    char t[TAG_LEN] = {0};
    memcpy(t, tag, strnlen(tag, TAG_LEN));
    const uint64_t len = bytes;
    YEE_TRY(put_raw(f, t, TAG_LEN, err));
    YEE_TRY(put_raw(f, &len, sizeof len, err));
    return put_raw(f, data, bytes, err);
}

int yee_ckpt_finish(yee_ckpt_file *f, yee_err *err)
{
    const uint64_t sum = f->sum;
    char t[TAG_LEN] = {'E', 'N', 'D'};
    const uint64_t len = sizeof sum;
    int rc = put_raw(f, t, TAG_LEN, err);
    if (rc == YEE_OK)
        rc = put_raw(f, &len, sizeof len, err);
    if (rc == YEE_OK && fwrite(&sum, sizeof sum, 1, f->fp) != 1)
        rc = yee_fail(err, YEE_ERR_IO, "cannot write checkpoint '%s': %s", f->tmp,
                      strerror(errno));
    /* the data must be on disk before the rename makes the file count */
    if (rc == YEE_OK && (fflush(f->fp) != 0 || fsync(fileno(f->fp)) != 0))
        rc = yee_fail(err, YEE_ERR_IO, "cannot write checkpoint '%s': %s", f->tmp,
                      strerror(errno));
    const int closed = fclose(f->fp);
    f->fp = NULL;
    if (rc == YEE_OK && closed != 0)
        rc = yee_fail(err, YEE_ERR_IO, "cannot write checkpoint '%s': %s", f->tmp,
                      strerror(errno));
    if (rc == YEE_OK && rename(f->tmp, f->path) != 0)
        rc = yee_fail(err, YEE_ERR_IO, "cannot rename '%s' to '%s': %s", f->tmp, f->path,
                      strerror(errno));
    if (rc < 0) {
        yee_ckpt_abandon(f);
        return rc;
    }
    sync_dir(f->path);
    free(f);
    return YEE_OK;
}

/* ---- manifest ---- */

int yee_ckpt_commit(const char *manifest, const yee_ckpt_id *id, yee_err *err)
{
    char tmp[YEE_PATH_LEN + 64];
    snprintf(tmp, sizeof tmp, "%s.tmp", manifest);
    FILE *fp = fopen(tmp, "w");
    if (!fp)
        return yee_fail(err, YEE_ERR_IO, "cannot create checkpoint manifest '%s': %s", tmp,
                        strerror(errno));
    fprintf(fp, "yee-checkpoint %d\n", VERSION);
    fprintf(fp, "name %s\n", id->name);
    fprintf(fp, "deck_hash %016llx\n", (unsigned long long)id->deck_hash);
    fprintf(fp, "step %ld\n", id->step);
    fprintf(fp, "steps %ld\n", id->steps);
    fprintf(fp, "grid %d %d %d\n", id->n[0], id->n[1], id->n[2]);
    fprintf(fp, "ranks %d %d %d %d\n", id->nranks, id->dims[0], id->dims[1], id->dims[2]);
    fprintf(fp, "precision %s\n", id->real_bytes == 8 ? "double" : "float");
    fprintf(fp, "deck %s\n", id->deck); /* last: the rest of the line, spaces and all */
    int rc = YEE_OK;
    if (ferror(fp) || fflush(fp) != 0 || fsync(fileno(fp)) != 0)
        rc = yee_fail(err, YEE_ERR_IO, "cannot write checkpoint manifest '%s': %s", tmp,
                      strerror(errno));
    if (fclose(fp) != 0 && rc == YEE_OK)
        rc = yee_fail(err, YEE_ERR_IO, "cannot write checkpoint manifest '%s': %s", tmp,
                      strerror(errno));
    if (rc == YEE_OK && rename(tmp, manifest) != 0)
        rc = yee_fail(err, YEE_ERR_IO, "cannot rename '%s' to '%s': %s", tmp, manifest,
                      strerror(errno));
    if (rc < 0) {
        remove(tmp);
        return rc;
    }
    sync_dir(manifest);
    return YEE_OK;
}

int yee_ckpt_read_manifest(const char *manifest, yee_ckpt_id *id, yee_err *err)
{
    memset(id, 0, sizeof *id);
    FILE *fp = fopen(manifest, "r");
    if (!fp)
        return yee_fail(err, YEE_ERR_IO, "cannot read checkpoint '%s': %s", manifest,
                        strerror(errno));
    char line[YEE_PATH_LEN + 64];
    int version = 0, seen = 0;
    char prec[16] = "";
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = '\0';
        unsigned long long h;
        if (sscanf(line, "yee-checkpoint %d", &version) == 1)
            seen |= 1;
        else if (strncmp(line, "name ", 5) == 0)
            snprintf(id->name, sizeof id->name, "%.*s", (int)sizeof id->name - 1, line + 5),
                seen |= 2;
        else if (sscanf(line, "deck_hash %llx", &h) == 1)
            id->deck_hash = h, seen |= 4;
        else if (sscanf(line, "step %ld", &id->step) == 1)
            seen |= 8;
        else if (sscanf(line, "steps %ld", &id->steps) == 1)
            seen |= 16;
        else if (sscanf(line, "grid %d %d %d", &id->n[0], &id->n[1], &id->n[2]) == 3)
            seen |= 32;
        else if (sscanf(line, "ranks %d %d %d %d", &id->nranks, &id->dims[0], &id->dims[1],
                        &id->dims[2]) == 4)
            seen |= 64;
        else if (sscanf(line, "precision %15s", prec) == 1)
            seen |= 128;
        else if (strncmp(line, "deck ", 5) == 0)
            snprintf(id->deck, sizeof id->deck, "%.*s", (int)sizeof id->deck - 1, line + 5),
                seen |= 256;
    }
    fclose(fp);
    if (seen != 511 || version != VERSION)
        return yee_fail(err, YEE_ERR_IO,
                        "'%s' is not a yee checkpoint manifest (version %d): --restart takes the "
                        "<name>.ckpt file a run wrote (or its directory)", manifest, VERSION);
    id->real_bytes = strcmp(prec, "double") == 0 ? 8 : 4;
    return YEE_OK;
}

int yee_ckpt_compare(const yee_ckpt_id *have, const yee_ckpt_id *want, const char *manifest,
                     yee_err *err)
{
    char msg[YEE_ERR_MSG_LEN];
    size_t used = 0;
    int ndiff = 0;
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (used < sizeof msg)                                                                     \
            used += (size_t)snprintf(msg + used, sizeof msg - used, "%s", ndiff++ ? "; " : "");    \
        if (used < sizeof msg)                                                                     \
            used += (size_t)snprintf(msg + used, sizeof msg - used, __VA_ARGS__);                  \
    } while (0)
    if (have->deck_hash != want->deck_hash || strcmp(have->name, want->name) != 0)
        ADD("deck: written for run '%s' of %s (deck hash %016llx), this is run '%s' of %s "
            "(hash %016llx): the deck or its --set options changed since",
            have->name, have->deck, (unsigned long long)have->deck_hash, want->name, want->deck,
            (unsigned long long)want->deck_hash);
    if (have->real_bytes != want->real_bytes)
        ADD("precision: written by a %s build, this one is %s (YEE_PRECISION)",
            have->real_bytes == 8 ? "double" : "float", want->real_bytes == 8 ? "double" : "float");
    if (memcmp(have->n, want->n, sizeof have->n) != 0)
        ADD("grid: %d x %d x %d cells, this run %d x %d x %d", have->n[0], have->n[1], have->n[2],
            want->n[0], want->n[1], want->n[2]);
    if (have->steps != want->steps)
        ADD("steps: a run of %ld steps, this one %ld", have->steps, want->steps);
    if (have->nranks != want->nranks || memcmp(have->dims, want->dims, sizeof have->dims) != 0)
        ADD("ranks: written by %d MPI rank%s (%dx%dx%d), this run has %d (%dx%dx%d): restart "
            "with mpirun -np %d ... --ranks %dx%dx%d",
            have->nranks, have->nranks == 1 ? "" : "s", have->dims[0], have->dims[1],
            have->dims[2], want->nranks, want->dims[0], want->dims[1], want->dims[2],
            have->nranks, have->dims[0], have->dims[1], have->dims[2]);
#undef ADD
    if (!ndiff)
        return YEE_OK;
    return yee_fail(err, YEE_ERR_USAGE, "cannot restart from '%s' (step %ld): it belongs to "
                    "another run: %s", manifest, have->step, msg);
}

/* ---- reading ---- */

int yee_ckpt_open(const char *manifest, const yee_ckpt_id *id, int rank, const int offset[3],
                  const int n_local[3], yee_ckpt_file **out, yee_err *err)
{
    *out = NULL;
    yee_ckpt_file *f = (yee_ckpt_file *)calloc(1, sizeof *f);
    if (!f)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "checkpoint reader");
    yee_ckpt_data_path(manifest, id->step, rank, f->path, sizeof f->path);
    f->fp = fopen(f->path, "rb");
    if (!f->fp) {
        int rc = yee_fail(err, YEE_ERR_IO, "cannot read checkpoint '%s' (rank %d's part of "
                          "'%s'): %s", f->path, rank, manifest, strerror(errno));
        free(f);
        return rc;
    }
    char magic[8];
    int64_t have[H_WORDS], want[H_WORDS];
    header_words(id, rank, offset, n_local, want);
    int rc = get_raw(f, magic, 8, err);
    if (rc == YEE_OK && memcmp(magic, MAGIC, 8) != 0)
        rc = yee_fail(err, YEE_ERR_IO, "'%s' is not a yee checkpoint file", f->path);
    if (rc == YEE_OK)
        rc = get_raw(f, have, sizeof have, err);
    if (rc == YEE_OK && memcmp(have, want, sizeof have) != 0)
        rc = yee_fail(err, YEE_ERR_IO,
                      "'%s' does not belong to '%s': it holds step %lld of rank %lld of %lld "
                      "(block at %lld,%lld,%lld), expected step %ld of rank %d of %d (block at "
                      "%d,%d,%d) of a deck with hash %016llx",
                      f->path, manifest, (long long)have[H_STEP], (long long)have[H_RANK],
                      (long long)have[H_NRANKS], (long long)have[H_OFFSET],
                      (long long)have[H_OFFSET + 1], (long long)have[H_OFFSET + 2], id->step, rank,
                      id->nranks, offset[0], offset[1], offset[2],
                      (unsigned long long)id->deck_hash);
    if (rc < 0) {
        yee_ckpt_abandon(f);
        return rc;
    }
    *out = f;
    return YEE_OK;
}

int yee_ckpt_get(yee_ckpt_file *f, const char *tag, void *data, size_t bytes, yee_err *err)
{
    char t[TAG_LEN], want[TAG_LEN] = {0};
    memcpy(want, tag, strnlen(tag, TAG_LEN));
    uint64_t len;
    YEE_TRY(get_raw(f, t, TAG_LEN, err));
    YEE_TRY(get_raw(f, &len, sizeof len, err));
    if (memcmp(t, want, TAG_LEN) != 0 || len != bytes)
        return yee_fail(err, YEE_ERR_IO,
                        "checkpoint '%s': found record '%.8s' of %llu bytes where this run "
                        "expects '%.8s' of %zu bytes (written by another version of yee?)",
                        f->path, t, (unsigned long long)len, want, bytes);
    return get_raw(f, data, bytes, err);
}

int yee_ckpt_close(yee_ckpt_file *f, yee_err *err)
{
    const uint64_t expect = f->sum;
    char t[TAG_LEN];
    uint64_t len = 0, sum = 0;
    int rc = get_raw(f, t, TAG_LEN, err);
    if (rc == YEE_OK)
        rc = get_raw(f, &len, sizeof len, err);
    if (rc == YEE_OK && (memcmp(t, "END", 4) != 0 || len != sizeof sum))
        rc = yee_fail(err, YEE_ERR_IO, "checkpoint '%s': records left unread (written by "
                      "another version of yee?)", f->path);
    if (rc == YEE_OK && fread(&sum, sizeof sum, 1, f->fp) != 1)
        rc = yee_fail(err, YEE_ERR_IO, "checkpoint '%s' is truncated", f->path);
    if (rc == YEE_OK && sum != expect)
        rc = yee_fail(err, YEE_ERR_IO, "checkpoint '%s' is corrupt (checksum %016llx, the data "
                      "gives %016llx)", f->path, (unsigned long long)sum,
                      (unsigned long long)expect);
    if (rc == YEE_OK && fgetc(f->fp) != EOF)
        rc = yee_fail(err, YEE_ERR_IO, "checkpoint '%s' has data after its end", f->path);
    yee_ckpt_abandon(f);
    return rc;
}
