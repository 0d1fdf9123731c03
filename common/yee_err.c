/* common/yee_err.c -- formatting of yee_err messages. Holds no state of its own. */
#include "yee_err.h"

#include <stdio.h>
#include <string.h>

int yee_fail(yee_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

int yee_fail_at(yee_err *err, int code, const char *file, int line, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        int used = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        if (used >= 0 && (size_t)used < sizeof err->msg)
            snprintf(err->msg + used, sizeof err->msg - (size_t)used, " (%s:%d)", file, line);
    }
    return code;
}

void yee_err_append(yee_err *err, const char *fmt, ...)
{
    if (!err)
        return;
    size_t used = strlen(err->msg);
    if (used + 2 >= sizeof err->msg)
        return;
    if (used > 0)
        err->msg[used++] = '\n', err->msg[used] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + used, sizeof err->msg - used, fmt, ap);
    va_end(ap);
}

const char *yee_status_name(int code)
{
    switch (code) {
    case YEE_OK: return "ok";
    case YEE_ERR_NOMEM: return "out of memory";
    case YEE_ERR_DECK: return "deck";
    case YEE_ERR_IO: return "io";
    case YEE_ERR_CUDA: return "cuda";
    case YEE_ERR_MPI: return "mpi";
    case YEE_ERR_UNSUPPORTED: return "unsupported";
    case YEE_ERR_NUMERIC: return "numeric";
    case YEE_ERR_USAGE: return "usage";
    default: return "unknown";
    }
}
