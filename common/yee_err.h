/* common/yee_err.h -- status codes and the error buffer every fallible yee function fills.
 *
 * Errors are values: a function that can fail returns a yee_status (YEE_OK == 0, failures < 0)
 * and writes a human-readable message into a caller-owned yee_err. Nothing below main() exits.
 * Deck errors are formatted by io/deck_reader.c as "file:line: error: key: what (got X)"; other errors
 * carry the C source location of the failure, as llm.c does, but return instead of aborting.
 */
#ifndef YEE_COMMON_ERR_H
#define YEE_COMMON_ERR_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum yee_status {
    YEE_OK = 0,
    YEE_ERR_NOMEM = -1,       /* host or device allocation failed, or would not fit */
    YEE_ERR_DECK = -2,        /* the input deck is invalid (message names file:line) */
    YEE_ERR_IO = -3,          /* a file could not be read or written */
    YEE_ERR_CUDA = -4,        /* a CUDA runtime call failed */
    YEE_ERR_MPI = -5,         /* an MPI call failed, or another rank failed */
    YEE_ERR_UNSUPPORTED = -6, /* the deck asks for something this build/backend cannot do */
    YEE_ERR_NUMERIC = -7,     /* the fields became NaN/Inf or grew without bound */
    YEE_ERR_USAGE = -8        /* bad command line */
} yee_status;

#define YEE_ERR_MSG_LEN 4096

/* A message buffer owned by the caller. msg is always NUL-terminated. */
typedef struct yee_err {
    char msg[YEE_ERR_MSG_LEN];
} yee_err;

/* Overwrite err->msg with a formatted message; returns code so callers can `return yee_fail(...)`. */
int yee_fail(yee_err *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Append one more line to err->msg (used to collect several deck errors). */
void yee_err_append(yee_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Short name of a status code ("deck", "io", ...). */
const char *yee_status_name(int code);

/* Fail with the C source location appended: "what (solver/sim.c:120)". */
#define YEE_FAIL(err, code, ...) \
    yee_fail_at((err), (code), __FILE__, __LINE__, __VA_ARGS__)

int yee_fail_at(yee_err *err, int code, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Propagate a failure: evaluate expr once, return its status if negative. */
#define YEE_TRY(expr)              \
    do {                           \
        int yee_try_rc_ = (expr);  \
        if (yee_try_rc_ < 0)       \
            return yee_try_rc_;    \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif
