/* common/yee_file.h -- the few file-system chores the library and the programs share. */
#ifndef YEE_COMMON_FILE_H
#define YEE_COMMON_FILE_H

#include <stddef.h>

#include "common/yee_err.h"

/* mkdir -p: every missing directory of path; YEE_ERR_IO naming the one that could not be made
 * ("cannot create <what> '<dir>': <reason>"), or "'<path>' is not a directory". what: "directory",
 * "output directory", ... */
int yee_make_dirs(const char *path, const char *what, yee_err *err);

/* The whole file, NUL-terminated, malloc'd (its length in *len when len is not NULL); NULL with
 * errno set when it cannot be read. */
char *yee_read_file(const char *path, size_t *len);

/* Replaces path with data through path.tmp<pid>: write, fsync, rename, then fsync of the
 * directory, so a crash leaves the old file or the new one, never a torn one. YEE_ERR_IO naming
 * the file and the reason. */
int yee_write_file_atomic(const char *path, const char *data, size_t len, yee_err *err);

#endif
