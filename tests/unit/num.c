/* tests/unit/num.c -- common/yee_num.c: the strict command-line number parsers take a whole
 * number, a finite real or AxBxC only when all of the text is that, and otherwise fail with a
 * message naming the option and the text. The command-level cases are in tests/cli/check_help.py.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "common/yee_num.h"

static int failures;

static void expect(int cond, const char *what, const char *detail)
{
    if (!cond) {
        failures++;
        printf("FAIL %s: %s\n", what, detail);
    }
}

static void want_long(const char *text, long min, long max, int ok, long value)
{
    yee_err err;
    err.msg[0] = '\0';
    long v = -12345;
    const int rc = yee_parse_long("--n", text, min, max, &v, &err);
    char what[128];
    snprintf(what, sizeof what, "yee_parse_long('%s', %ld, %ld)", text, min, max);
    if (ok) {
        expect(rc == 0 && v == value, what, err.msg);
    } else {
        expect(rc == YEE_ERR_USAGE, what, "accepted");
        expect(v == -12345, what, "wrote *out on failure");
        char got[96];
        snprintf(got, sizeof got, "(got '%s')", text);
        expect(strncmp(err.msg, "--n wants a whole number", 24) == 0 && strstr(err.msg, got),
               what, err.msg);
    }
}

static void want_double(const char *text, double min, yee_num_bound b, int ok, double value)
{
    yee_err err;
    err.msg[0] = '\0';
    double v = -12345.0;
    const int rc = yee_parse_double("--x", text, min, b, &v, &err);
    char what[128];
    snprintf(what, sizeof what, "yee_parse_double('%s', %g, %s)", text, min,
             b == YEE_NUM_ABOVE ? ">" : ">=");
    if (ok) {
        expect(rc == 0 && v == value, what, err.msg);
    } else {
        expect(rc == YEE_ERR_USAGE && v == -12345.0, what, "accepted");
        expect(strncmp(err.msg, "--x wants a number", 18) == 0 && strstr(err.msg, text), what,
               err.msg);
    }
}

static void want_triple(const char *text, int allow_one, int ok, long a, long b, long c)
{
    yee_err err;
    err.msg[0] = '\0';
    long v[3] = {0, 0, 0};
    const int rc = yee_parse_triple("--r", text, "AxBxC", 1, 1000, allow_one, v, &err);
    char what[128];
    snprintf(what, sizeof what, "yee_parse_triple('%s', allow_one %d)", text, allow_one);
    if (ok)
        expect(rc == 0 && v[0] == a && v[1] == b && v[2] == c, what, err.msg);
    else
        expect(rc == YEE_ERR_USAGE && strstr(err.msg, "--r wants") && strstr(err.msg, text),
               what, rc == 0 ? "accepted" : err.msg);
}

int main(void)
{
    want_long("12", 1, LONG_MAX, 1, 12);
    want_long("-1", LONG_MIN, LONG_MAX, 1, -1);
    want_long("0", 0, 65535, 1, 0);
    want_long("65535", 0, 65535, 1, 65535);
    want_long("65536", 0, 65535, 0, 0);
    want_long("12x", 1, LONG_MAX, 0, 0);
    want_long("", 1, LONG_MAX, 0, 0);
    want_long(" 12", 1, LONG_MAX, 0, 0);
    want_long("12 ", 1, LONG_MAX, 0, 0);
    want_long("+12", 1, LONG_MAX, 0, 0);
    want_long("0x10", 0, LONG_MAX, 0, 0);
    want_long("1e3", 1, LONG_MAX, 0, 0);
    want_long("1.5", 1, LONG_MAX, 0, 0);
    want_long("-1", 0, LONG_MAX, 0, 0);
    want_long("99999999999999999999", LONG_MIN, LONG_MAX, 0, 0); /* overflow, not LONG_MAX */
    want_long("-99999999999999999999", LONG_MIN, LONG_MAX, 0, 0);

    want_double("150", 0.0, YEE_NUM_ABOVE, 1, 150.0);
    want_double("1.5e2", 0.0, YEE_NUM_ABOVE, 1, 150.0);
    want_double(".5", 0.0, YEE_NUM_ABOVE, 1, 0.5);
    want_double("0", 0.0, YEE_NUM_AT_LEAST, 1, 0.0);
    want_double("0", 0.0, YEE_NUM_ABOVE, 0, 0);
    want_double("-3", 0.0, YEE_NUM_AT_LEAST, 0, 0);
    want_double("nan", 0.0, YEE_NUM_AT_LEAST, 0, 0);
    want_double("inf", 0.0, YEE_NUM_AT_LEAST, 0, 0);
    want_double("1e999", 0.0, YEE_NUM_AT_LEAST, 0, 0);
    want_double("150THz", 0.0, YEE_NUM_AT_LEAST, 0, 0);
    want_double("", 0.0, YEE_NUM_AT_LEAST, 0, 0);
    want_double(" 1", 0.0, YEE_NUM_AT_LEAST, 0, 0);

    want_triple("2x2x1", 0, 1, 2, 2, 1);
    want_triple("64", 1, 1, 64, 64, 64);
    want_triple("64", 0, 0, 0, 0, 0);
    want_triple("2x2", 0, 0, 0, 0, 0);
    want_triple("2x2x1x", 0, 0, 0, 0, 0);
    want_triple("2x2x1x1", 0, 0, 0, 0, 0);
    want_triple("2x0x1", 0, 0, 0, 0, 0);
    want_triple("2x-1x1", 0, 0, 0, 0, 0);
    want_triple("2x 2x1", 0, 0, 0, 0, 0);
    want_triple("2x2x1001", 0, 0, 0, 0, 0);
    want_triple("", 1, 0, 0, 0, 0);

    if (failures) {
        printf("FAIL unit_num (%d case(s))\n", failures);
        return 1;
    }
    printf("PASS unit_num\n");
    return 0;
}
