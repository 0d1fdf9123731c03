/* common/yee_file.c -- file-system chores (common/yee_file.h). */
#include "common/yee_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int yee_make_dirs(const char *path, const char *what, yee_err *err)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return yee_fail(err, YEE_ERR_IO, "%s path too long: '%.64s...'", what, path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            const char c = *p;
            *p = '\0';
            if (mkdir(buf, 0777) < 0 && errno != EEXIST)
                return yee_fail(err, YEE_ERR_IO, "cannot create %s '%s': %s", what, buf,
                                strerror(errno));
            *p = c;
            if (c == '\0')
                break;
        }
    }
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
        return yee_fail(err, YEE_ERR_IO, "'%s' is not a directory", path);
    return YEE_OK;
}

char *yee_read_file(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = (char *)malloc(cap);
    while (buf) {
        const size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
        if (len + 1 == cap) {
            char *grown = (char *)realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) {
        buf[len] = '\0';
        if (len_out)
            *len_out = len;
    }
    return buf;
}

/* Writes data to path through path.tmp, fsync and rename, then syncs the directory: a crash
 * leaves either the old file or the new one, never a torn one. */
int yee_write_file_atomic(const char *path, const char *data, size_t len, yee_err *err)
{
    char tmp[4096 + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return yee_fail(err, YEE_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            unlink(tmp);
            return yee_fail(err, YEE_ERR_IO, "cannot write '%s': %s", tmp, strerror(e));
        }
        done += (size_t)w;
    }
    if (fsync(fd) < 0 || close(fd) < 0) {
        int e = errno;
        unlink(tmp);
        return yee_fail(err, YEE_ERR_IO, "cannot write '%s': %s", tmp, strerror(e));
    }
    if (rename(tmp, path) < 0) {
        int e = errno;
        unlink(tmp);
        return yee_fail(err, YEE_ERR_IO, "cannot rename '%s' to '%s': %s", tmp, path,
                        strerror(e));
    }
    /* the rename itself is durable once the directory is synced */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        slash[slash == dir ? 1 : 0] = '\0';
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return YEE_OK;
}
