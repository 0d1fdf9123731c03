/* solver/checkpoint.h -- checkpoint files: their format, atomic writing and checked reading.
 *
 * A checkpoint of step N is one binary file per MPI rank, <M>.<N as %08ld>.r<rank>, plus the
 * manifest M (<dir>/<name>.ckpt, a few lines of text naming the step), which is what
 * `yee run --restart` takes. Every file is written as <file>.tmp, fsynced and renamed over its
 * final name, and the manifest only after every rank's file is complete, so the manifest always
 * names a complete checkpoint: a crash while writing leaves the previous one in force (its files
 * are removed only after the new manifest is in place).
 *
 * A rank file is a header (run identity, this rank's block), then records (an 8-byte tag, a
 * 64-bit length, the bytes) and a trailer with a checksum of everything before it. Reading
 * checks the tags and lengths against what the continuing run expects and the checksum at the
 * end, so a truncated, corrupted or foreign file is refused with its name and what differs.
 * Byte order and sizes are the machine's (a checkpoint moves between machines of one kind, and
 * between the CPU and CUDA backends). What goes into the records is solver/sim.c's business.
 */
#ifndef YEE_SOLVER_CHECKPOINT_H
#define YEE_SOLVER_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "common/yee_err.h"
#include "model/config.h"

/* What a checkpoint must share with the run that continues it (the manifest holds all of it). */
typedef struct yee_ckpt_id {
    char name[YEE_NAME_LEN];   /* run name */
    char deck[YEE_PATH_LEN];   /* deck path, for messages only */
    uint64_t deck_hash;        /* yee_ckpt_hash of the deck text and its --set options */
    long step;                 /* completed steps at the checkpoint */
    long steps;                /* steps of the whole run */
    int n[3];                  /* global cells */
    int nranks;
    int dims[3];               /* ranks per axis */
    int real_bytes;            /* sizeof(yee_real): 4 float, 8 double */
} yee_ckpt_id;

typedef struct yee_ckpt_file yee_ckpt_file;

/* 64-bit checksum of bytes, continuing from h (start with 0). Not cryptographic: it catches
 * truncation, bit rot and mixed-up files. */
uint64_t yee_ckpt_hash(uint64_t h, const void *data, size_t bytes);

/* Path of rank `rank`'s file of the checkpoint of `step` named by manifest. */
void yee_ckpt_data_path(const char *manifest, long step, int rank, char *out, size_t n);

/* Start this rank's file of the checkpoint id (id->step) under manifest: creates <file>.tmp
 * and writes the header with this rank's block (offset, n_local). YEE_ERR_IO naming the file. */
int yee_ckpt_create(const char *manifest, const yee_ckpt_id *id, int rank, const int offset[3],
                    const int n_local[3], yee_ckpt_file **out, yee_err *err);

/* Append a record: tag (up to 8 characters) and bytes of data. */
int yee_ckpt_put(yee_ckpt_file *f, const char *tag, const void *data, size_t bytes,
                 yee_err *err);

/* Finish a file being written: trailer, fflush, fsync, close, rename <file>.tmp to <file>,
 * fsync the directory. Frees f, also on failure (the .tmp file is then removed). */
int yee_ckpt_finish(yee_ckpt_file *f, yee_err *err);

/* Rank 0, after every rank finished its file: writes the manifest for id atomically (the commit
 * point of the checkpoint). */
int yee_ckpt_commit(const char *manifest, const yee_ckpt_id *id, yee_err *err);

/* Read the manifest. YEE_ERR_IO when missing or not a yee checkpoint manifest. */
int yee_ckpt_read_manifest(const char *manifest, yee_ckpt_id *id, yee_err *err);

/* YEE_ERR_USAGE listing every way the checkpoint `have` differs from the run `want` (deck,
 * precision, grid, steps, ranks), with how to fix it; YEE_OK when they match (step aside). */
int yee_ckpt_compare(const yee_ckpt_id *have, const yee_ckpt_id *want, const char *manifest,
                     yee_err *err);

/* Open this rank's file of checkpoint id (id->step) for reading and check its header against
 * id, rank, offset and n_local. */
int yee_ckpt_open(const char *manifest, const yee_ckpt_id *id, int rank, const int offset[3],
                  const int n_local[3], yee_ckpt_file **out, yee_err *err);

/* Read the next record into data: its tag and length must be tag and bytes. */
int yee_ckpt_get(yee_ckpt_file *f, const char *tag, void *data, size_t bytes, yee_err *err);

/* Finish reading: the trailer's checksum must match and nothing may follow it. Frees f. */
int yee_ckpt_close(yee_ckpt_file *f, yee_err *err);

/* Free a file without finishing it (after an error); a file being written loses its .tmp.
 * NULL is a no-op. */
void yee_ckpt_abandon(yee_ckpt_file *f);

#endif
