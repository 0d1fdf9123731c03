/* common/yee_num.h -- strict parsing of the numbers a user types on a command line (--steps 100,
 * --ranks 2x2x1, --fmin 150). atoi/atof/sscanf take "12x" for 12, "" for 0 and wrap on overflow,
 * so a typo ran a different simulation than the one asked for; these take the whole text or
 * nothing, and say why in a message that names the option.
 *
 * Each parser returns 0 with the value in *out, or YEE_ERR_USAGE with err->msg set to
 * "OPT wants WHAT (got 'TEXT')", e.g. "--steps wants a whole number >= 1 (got '12x')"; the
 * caller prefixes its command ("yee bench: ") and exits YEE_EXIT_USAGE. Nothing is printed here.
 */
#ifndef YEE_COMMON_NUM_H
#define YEE_COMMON_NUM_H

#include "common/yee_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A whole decimal number in [min, max]: an optional sign then digits, nothing before or after
 * (no spaces, no "0x", no "1e3"); overflow of long is out of range, not a wrapped value. */
int yee_parse_long(const char *opt, const char *text, long min, long max, long *out,
                   yee_err *err);

/* How a real number's lower bound is meant: min itself allowed (>=) or not (>). */
typedef enum yee_num_bound { YEE_NUM_AT_LEAST = 0, YEE_NUM_ABOVE = 1 } yee_num_bound;

/* A finite real number (strtod syntax: 150, 1.5e2, -3) that is >= min or > min as bound says.
 * NaN, inf, overflow and anything left over after the number are rejected. */
int yee_parse_double(const char *opt, const char *text, double min, yee_num_bound bound,
                     double *out, yee_err *err);

/* "AxBxC" (three whole numbers joined by 'x'), or with allow_one a single "N" meaning N x N x N;
 * each in [min, max]. --ranks 2x2x1, --size 64 or 64x32x32. shape is the form as the option's
 * help names it ("PXxPYxPZ"), for the message: "--ranks wants PXxPYxPZ, each a whole number
 * from 1 to 100000 (got '2x2')". */
int yee_parse_triple(const char *opt, const char *text, const char *shape, long min, long max,
                     int allow_one, long out[3], yee_err *err);

/* Numbers separated by ',' from text on (strtod syntax, each finite; at most max of them):
 * out[0..*n) and *end just after the last one, where the caller checks what may follow ("0,0.5"
 * in --k-path "0,0.5 0.5,0.5", a whole --phi "0,90"). -1 when a number is missing or not
 * finite, or there are more than max; no message: the caller names the form it wants. */
int yee_parse_number_list(const char *text, int max, double *out, int *n, const char **end);

#ifdef __cplusplus
}
#endif

#endif
