/* common/yee_num.c -- strict command-line numbers (common/yee_num.h): strtol/strtod with the end
 * pointer and errno checked, so a value is all of its text or an error naming the option. */
#include "common/yee_num.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "a whole number >= 1", "a whole number from 0 to 65535", "a whole number": the range in the
 * words the message uses, so the user reads what would have been accepted. */
static void describe_range(long min, long max, char *out, size_t cap)
{
    if (min == LONG_MIN && max == LONG_MAX)
        snprintf(out, cap, "a whole number");
    else if (max == LONG_MAX)
        snprintf(out, cap, "a whole number >= %ld", min);
    else if (min == LONG_MIN)
        snprintf(out, cap, "a whole number <= %ld", max);
    else
        snprintf(out, cap, "a whole number from %ld to %ld", min, max);
}

/* strtol would skip leading spaces and accept "+": a number typed on a command line starts with
 * a digit or a minus sign, so " 12" (a quoting slip) is an error rather than 12. */
static int starts_number(const char *s, int allow_dot)
{
    const unsigned char c = (unsigned char)s[0];
    return isdigit(c) || c == '-' || (allow_dot && c == '.');
}

/* The digits of one whole number at *s, advancing *s past them; 0 or -1 (none, or overflow). */
static int scan_long(const char **s, long *v)
{
    if (!starts_number(*s, 0))
        return -1;
    char *end = NULL;
    errno = 0;
    const long x = strtol(*s, &end, 10);
    if (end == *s || errno == ERANGE)
        return -1;
    *s = end;
    *v = x;
    return 0;
}

int yee_parse_long(const char *opt, const char *text, long min, long max, long *out,
                   yee_err *err)
{
    const char *p = text ? text : "";
    long v = 0;
    if (scan_long(&p, &v) < 0 || *p != '\0' || v < min || v > max) {
        char want[96];
        describe_range(min, max, want, sizeof want);
        return yee_fail(err, YEE_ERR_USAGE, "%s wants %s (got '%s')", opt, want,
                        text ? text : "");
    }
    *out = v;
    return 0;
}

int yee_parse_double(const char *opt, const char *text, double min, yee_num_bound bound,
                     double *out, yee_err *err)
{
    const char *t = text ? text : "";
    char *end = NULL;
    double v = 0.0;
    int ok = starts_number(t, 1);
    if (ok) {
        errno = 0;
        v = strtod(t, &end);
        /* ERANGE: overflow (inf) or a denormal underflow; both are typos here, not values */
        ok = end != t && *end == '\0' && errno != ERANGE && isfinite(v) &&
             (bound == YEE_NUM_ABOVE ? v > min : v >= min);
    }
    if (!ok)
        return yee_fail(err, YEE_ERR_USAGE, "%s wants a number %s %g (got '%s')", opt,
                        bound == YEE_NUM_ABOVE ? ">" : ">=", min, t);
    *out = v;
    return 0;
}

int yee_parse_triple(const char *opt, const char *text, const char *shape, long min, long max,
                     int allow_one, long out[3], yee_err *err)
{
    const char *p = text ? text : "";
    long v[3] = {0, 0, 0};
    int n = 0, ok = 1;
    while (ok && n < 3) {
        ok = scan_long(&p, &v[n]) == 0 && v[n] >= min && v[n] <= max;
        n++;
        if (!ok || n == 3 || *p != 'x')
            break; /* a trailing 'x' after the third number stays and fails below */
        p++;
    }
    ok = ok && *p == '\0' && (n == 3 || (allow_one && n == 1));
    if (!ok) {
        char want[96];
        describe_range(min, max, want, sizeof want);
        return yee_fail(err, YEE_ERR_USAGE, "%s wants %s, each %s (got '%s')", opt, shape,
                        want, text ? text : "");
    }
    for (int a = 0; a < 3; a++)
        out[a] = n == 1 ? v[0] : v[a];
    return 0;
}

int yee_parse_number_list(const char *text, int max, double *out, int *n, const char **end)
{
    const char *p = text;
    for (int k = 0;; k++) {
        char *stop = NULL;
        errno = 0;
        const double v = strtod(p, &stop);
        if (k == max || stop == p || errno == ERANGE || !isfinite(v))
            return -1;
        out[k] = v;
        p = stop;
        if (*p != ',') {
            *n = k + 1;
            *end = p;
            return 0;
        }
        p++;
    }
}
