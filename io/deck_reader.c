/* io/deck_reader.c -- the typed getters and the error collection of io/deck_reader.h.
 *
 * Errors are collected, not written at once, and sorted by deck line when flushed: the section
 * loaders visit the sections in dependency order (grid before sources), not in file order.
 * Every getter checks against the one key table (io/deck_schema.c); none knows a section.
 */
#include "io/deck_reader.h"

#include "io/deck_text.h"
#include "model/config.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Diagnostics
 * ------------------------------------------------------------------------------------------- */

void yee_rd_init(yee_rd *c, const char *path, yee_err *err, int quiet)
{
    memset(c, 0, sizeof *c);
    c->path = path;
    c->err = err;
    c->quiet = quiet;
}

void yee_rd_push(yee_rd *c, long order, const char *fmt, ...)
{
    if (c->nerr < YEE_RD_MAX_ERRORS) {
        yee_rd_diag *d = &c->diags[c->nerr];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->text, sizeof d->text, fmt, ap);
        va_end(ap);
        d->order = order;
    }
    c->nerr++;
}

int yee_rd_flush(yee_rd *c)
{
    if (c->nerr == 0)
        return YEE_OK;
    int n = c->nerr < YEE_RD_MAX_ERRORS ? c->nerr : YEE_RD_MAX_ERRORS;
    for (int i = 1; i < n; i++) {
        yee_rd_diag d = c->diags[i];
        int j = i;
        for (; j > 0 && c->diags[j - 1].order > d.order; j--)
            c->diags[j] = c->diags[j - 1];
        c->diags[j] = d;
    }
    for (int i = 0; i < n; i++)
        yee_err_append(c->err, "%s", c->diags[i].text);
    if (c->nerr > n)
        yee_err_append(c->err, "%s: error: ... and %d more errors (only the first %d are shown)",
                       c->path, c->nerr - n, YEE_RD_MAX_ERRORS);
    return YEE_ERR_DECK;
}

long yee_rd_locate(const yee_rd *c, const config_setting_t *s, char *buf, size_t n)
{
    /* a vector with one element replaced by --set (grid.size[2]=8) is reported as that --set */
    int t = s ? config_setting_type(s) : CONFIG_TYPE_NONE;
    if (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST)
        for (int i = 0; i < config_setting_length(s); i++) {
            const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
            if (e->hook) {
                snprintf(buf, n, "--set %s", (const char *)e->hook);
                return YEE_RD_ORDER_SET;
            }
        }
    for (; s; s = config_setting_parent(s)) {
        if (s->hook) {
            snprintf(buf, n, "--set %s", (const char *)s->hook);
            return YEE_RD_ORDER_SET;
        }
        if (config_setting_source_line(s) > 0) {
            const char *f = config_setting_source_file(s);
            int line = (int)config_setting_source_line(s);
            if (!f && c->text)
                yee_deck_text_place(c->text, line, &f, &line);
            snprintf(buf, n, "%s:%d", f ? f : c->path, line);
            return (long)config_setting_source_line(s);
        }
    }
    snprintf(buf, n, "%s", c->path);
    return 0;
}

static void vdiag(yee_rd *c, int warning, const config_setting_t *s, const char *key,
                  const char *fmt, va_list ap)
{
    char where[YEE_PATH_LEN + 64], what[512];
    long order = yee_rd_locate(c, s, where, sizeof where);
    vsnprintf(what, sizeof what, fmt, ap);
    if (warning) {
        if (!c->quiet)
            fprintf(stderr, "%s: warning: %s: %s\n", where, key, what);
        return;
    }
    yee_rd_push(c, order, "%s: error: %s: %s", where, key, what);
}

void yee_rd_error(yee_rd *c, const config_setting_t *s, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(c, 0, s, key, fmt, ap);
    va_end(ap);
}

int yee_rd_line(const yee_rd *c, const config_setting_t *s)
{
    const char *f;
    int line = s ? (int)config_setting_source_line(s) : 0;
    if (line > 0 && c->text)
        yee_deck_text_place(c->text, line, &f, &line);
    return line;
}

void yee_rd_error_line(yee_rd *c, int line, const char *key, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (key)
        yee_rd_push(c, line, "%s:%d: error: %s: %s", c->path, line, key, what);
    else
        yee_rd_push(c, line, "%s:%d: error: %s", c->path, line, what);
}

void yee_rd_warn(yee_rd *c, const config_setting_t *s, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(c, 1, s, key, fmt, ap);
    va_end(ap);
}

/* Appends printf output to buf (of size n) at *used, never overflowing. */
static void bprintf(char *buf, size_t n, size_t *used, const char *fmt, ...) YEE_RD_PRINTF(4, 5);
static void bprintf(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
    if (*used >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, n - *used, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used = (*used + (size_t)w < n) ? *used + (size_t)w : n - 1;
}

/* A float as the user would have typed it: 800.0 stays distinguishable from the integer 800. */
static void fmt_double(char *buf, size_t n, size_t *used, double v)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.9g", v);
    if (isfinite(v) && !strpbrk(tmp, ".eEn"))
        strcat(tmp, ".0");
    bprintf(buf, n, used, "%s", tmp);
}

static void fmt_value_at(const config_setting_t *s, char *buf, size_t n, size_t *used)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT: bprintf(buf, n, used, "%d", config_setting_get_int(s)); break;
    case CONFIG_TYPE_INT64: bprintf(buf, n, used, "%lld", config_setting_get_int64(s)); break;
    case CONFIG_TYPE_FLOAT: fmt_double(buf, n, used, config_setting_get_float(s)); break;
    case CONFIG_TYPE_BOOL:
        bprintf(buf, n, used, "%s", config_setting_get_bool(s) ? "true" : "false");
        break;
    case CONFIG_TYPE_STRING:
        bprintf(buf, n, used, "\"%.60s\"", config_setting_get_string(s));
        break;
    case CONFIG_TYPE_GROUP: bprintf(buf, n, used, "a group { ... }"); break;
    case CONFIG_TYPE_ARRAY:
    case CONFIG_TYPE_LIST: {
        int list = config_setting_type(s) == CONFIG_TYPE_LIST;
        int len = config_setting_length(s);
        bprintf(buf, n, used, "%c", list ? '(' : '[');
        for (int i = 0; i < len && i < 8; i++) {
            if (i)
                bprintf(buf, n, used, ", ");
            fmt_value_at(config_setting_get_elem(s, (unsigned)i), buf, n, used);
        }
        if (len > 8)
            bprintf(buf, n, used, ", ...");
        bprintf(buf, n, used, "%c", list ? ')' : ']');
        break;
    }
    default: bprintf(buf, n, used, "?"); break;
    }
}

const char *yee_rd_got(const config_setting_t *s, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    fmt_value_at(s, buf, n, &used);
    return buf;
}

/* ---------------------------------------------------------------------------------------------
 * Typed getters. Each returns 0 when the key is absent (the output gets the schema default),
 * 1 when present and valid, -1 when present and invalid (the error is already reported).
 * ------------------------------------------------------------------------------------------- */

static const yee_deck_key *scope_key(const yee_rd_scope *sc, const char *name)
{
    char pat[128];
    if (sc->pat[0])
        snprintf(pat, sizeof pat, "%s.%s", sc->pat, name);
    else
        snprintf(pat, sizeof pat, "%s", name);
    return yee_schema_find(pat);
}

void yee_rd_scope_init(yee_rd_scope *sc, const config_setting_t *s, const char *pat,
                       const char *key)
{
    memset(sc, 0, sizeof *sc);
    sc->s = s;
    sc->pat = pat;
    size_t n = strlen(key) < sizeof sc->key ? strlen(key) : sizeof sc->key - 1;
    memcpy(sc->key, key, n);
    sc->key[n] = '\0';
}

void yee_rd_key(char *buf, size_t n, const char *prefix, const char *name)
{
    size_t used = 0; /* a key longer than buf is cut, never overflowed */
    bprintf(buf, n, &used, "%s%s%s", prefix, prefix[0] ? "." : "", name);
}

const config_setting_t *yee_rd_elem(const config_setting_t *s, int i, const char *key,
                                    char *ekey, size_t n)
{
    size_t used = 0;
    bprintf(ekey, n, &used, "%s[%d]", key, i);
    return config_setting_get_elem(s, (unsigned)i);
}

/* Reports that s, under key, is not `want` ("a number"), showing its value in up to shown - 1
 * characters (each getter has its own width, kept so messages stay as they were); returns -1,
 * a getter's answer for an invalid value. */
static int wrong(yee_rd *c, const config_setting_t *s, const char *key, const char *want,
                 size_t shown)
{
    char got[160];
    yee_rd_error(c, s, key, "must be %s (got %s)", want,
                 yee_rd_got(s, got, shown < sizeof got ? shown : sizeof got));
    return -1;
}

static int too_large(yee_rd *c, const config_setting_t *s, const char *key, size_t shown)
{
    char got[160];
    yee_rd_error(c, s, key, "too large (got %s)",
                 yee_rd_got(s, got, shown < sizeof got ? shown : sizeof got));
    return -1;
}

/* Checks one number against the range of k; reports under `key` at setting s. */
static int check_range(yee_rd *c, const config_setting_t *s, const char *key,
                       const yee_deck_key *k, double v)
{
    char got[64];
    if (!isfinite(v)) {
        yee_rd_error(c, s, key, "must be a finite number (got %s)",
                     yee_rd_got(s, got, sizeof got));
        return -1;
    }
    unsigned f = k->flags;
    int ok = !((f & YEE_R_GT) && !(v > k->lo)) && !((f & YEE_R_GE) && !(v >= k->lo)) &&
             !((f & YEE_R_LT) && !(v < k->hi)) && !((f & YEE_R_LE) && !(v <= k->hi)) &&
             !((f & YEE_R_NONZERO) && v == 0);
    if (!ok) {
        char range[64];
        if ((f & YEE_R_NONZERO) && v == 0)
            snprintf(range, sizeof range, "nonzero");
        else
            yee_schema_range_text(k, range, sizeof range);
        yee_rd_error(c, s, key, "must be %s (got %s)", range, yee_rd_got(s, got, sizeof got));
        return -1;
    }
    return 1;
}

/* Looks `name` up in the scope; reports a missing required key. */
static const config_setting_t *member(yee_rd *c, const yee_rd_scope *sc, const char *name,
                                      const yee_deck_key **k, char *key, size_t keylen)
{
    *k = scope_key(sc, name);
    yee_rd_key(key, keylen, sc->key, name);
    if (!*k) {
        /* a key read by the code but missing from the schema: a bug here, not in the deck */
        yee_rd_error(c, sc->s, key, "internal: key missing from the schema");
        return NULL;
    }
    const config_setting_t *s = sc->s ? config_setting_get_member(sc->s, name) : NULL;
    if (!s && ((*k)->flags & YEE_K_REQ))
        yee_rd_error(c, sc->s, key, "missing required %s",
                     (*k)->type == YEE_KT_GROUP ? "group" : "key");
    return s;
}

/* The start of the scalar getters: the setting of `name` (NULL when absent) and *rc: 1 when it
 * `is` of the wanted type, 0 when absent (or missing from the table: reported), -1 when of
 * another type (reported as "must be WANT (got ...)"). *k gets its table entry. */
static const config_setting_t *typed(yee_rd *c, const yee_rd_scope *sc, const char *name,
                                     int (*is)(const config_setting_t *), const char *want,
                                     const yee_deck_key **k, char *key, size_t keylen, int *rc)
{
    const config_setting_t *s = member(c, sc, name, k, key, keylen);
    *rc = !s ? 0 : is(s) ? 1 : wrong(c, s, key, want, 128);
    return s;
}

static int is_bool(const config_setting_t *s)
{
    return config_setting_type(s) == CONFIG_TYPE_BOOL;
}

static int is_string(const config_setting_t *s)
{
    return config_setting_type(s) == CONFIG_TYPE_STRING;
}

static int is_group(const config_setting_t *s)
{
    return config_setting_type(s) == CONFIG_TYPE_GROUP;
}

/* A list of groups, or an empty array: [] and () both read as no elements. */
static int is_list(const config_setting_t *s)
{
    int t = config_setting_type(s);
    return t == CONFIG_TYPE_LIST || (t == CONFIG_TYPE_ARRAY && config_setting_length(s) == 0);
}

/* The number getters: a number, or with want_int an integer (at most LONG_MAX / 2, kept exact
 * in *i), checked against the table's range into *d and *i; both get the table default when the
 * key is absent and keep it unless the result is 1. */
static int number(yee_rd *c, const yee_rd_scope *sc, const char *name, int want_int, double *d,
                  long long *i)
{
    const yee_deck_key *k;
    char key[128];
    int rc;
    const config_setting_t *s = typed(c, sc, name, want_int ? yee_cfg_is_int : yee_cfg_is_number,
                                      want_int ? "an integer" : "a number", &k, key, sizeof key,
                                      &rc);
    if (k)
        *d = k->dval, *i = (long long)k->dval;
    if (rc <= 0)
        return rc;
    /* io/deck_text.c gives integers past 32 bits libconfig's int64 type (libconfig 1.5 would
     * cut them); an integer key without an upper limit of its own stops at YEE_RD_INT_LIMIT, so
     * that the callers' int and long fields hold every accepted value */
    long long iv = want_int ? config_setting_get_int64(s) : 0;
    if (want_int && !(k->flags & (YEE_R_LT | YEE_R_LE)) &&
        (iv > YEE_RD_INT_LIMIT || iv < -YEE_RD_INT_LIMIT)) {
        yee_rd_error(c, s, key, "must be at most %lld in magnitude (got %lld)",
                     (long long)YEE_RD_INT_LIMIT, iv);
        return -1;
    }
    double v = want_int ? (double)iv : yee_cfg_number(s);
    if (check_range(c, s, key, k, v) < 0)
        return -1;
    *d = v, *i = iv;
    return 1;
}

int yee_rd_num(yee_rd *c, const yee_rd_scope *sc, const char *name, double *out)
{
    long long unused = 0;
    return number(c, sc, name, 0, out, &unused);
}

int yee_rd_long(yee_rd *c, const yee_rd_scope *sc, const char *name, long *out)
{
    double unused = 0;
    long long v = *out;
    int rc = number(c, sc, name, 1, &unused, &v);
    *out = (long)v;
    return rc;
}

int yee_rd_bool(yee_rd *c, const yee_rd_scope *sc, const char *name, int *out)
{
    const yee_deck_key *k;
    char key[128];
    int rc;
    const config_setting_t *s = typed(c, sc, name, is_bool, "true or false", &k, key, sizeof key,
                                      &rc);
    if (k)
        *out = k->dval != 0;
    if (rc > 0)
        *out = config_setting_get_bool(s);
    return rc;
}

int yee_rd_string(yee_rd *c, const yee_rd_scope *sc, const char *name, const char **out,
                  const config_setting_t **where)
{
    const yee_deck_key *k;
    char key[128];
    int rc;
    const config_setting_t *s = typed(c, sc, name, is_string, "a string", &k, key, sizeof key,
                                      &rc);
    if (where) /* even when it is no string: callers point their own errors at it */
        *where = s;
    *out = rc > 0 ? config_setting_get_string(s) : NULL;
    return rc;
}

/* The start of the getters of string values: yee_rd_string into *v and *w (and *where when
 * given), the key's user path into key. */
static int text(yee_rd *c, const yee_rd_scope *sc, const char *name, const char **v,
                const config_setting_t **w, const config_setting_t **where, char *key,
                size_t keylen)
{
    int rc = yee_rd_string(c, sc, name, v, w);
    if (where)
        *where = *w;
    yee_rd_key(key, keylen, sc->key, name);
    return rc;
}

int yee_rd_name(yee_rd *c, const yee_rd_scope *sc, const char *name, char *out, size_t n,
                const config_setting_t **where)
{
    const char *v;
    const config_setting_t *w;
    char key[128];
    int rc = text(c, sc, name, &v, &w, where, key, sizeof key);
    if (rc <= 0)
        return rc;
    if (!yee_rd_valid_name(v)) {
        yee_rd_error(c, w, key,
                     "must be non-empty and use only A-Z a-z 0-9 _ . - (got \"%.60s\")", v);
        return -1;
    }
    if (strlen(v) >= n) {
        yee_rd_error(c, w, key, "longer than %zu characters (got \"%.60s\")", n - 1, v);
        return -1;
    }
    snprintf(out, n, "%s", v);
    return 1;
}

int yee_rd_valid_name(const char *s)
{
    if (!s[0])
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '-')
            return 0;
    return 1;
}

int yee_rd_choice(yee_rd *c, const yee_rd_scope *sc, const char *name, int *out,
                  const config_setting_t **where)
{
    const char *v;
    const config_setting_t *w;
    char key[128], hint[32], list[96];
    int rc = text(c, sc, name, &v, &w, where, key, sizeof key);
    if (rc <= 0)
        return rc;
    const yee_deck_key *k = scope_key(sc, name);
    int idx = yee_schema_choice_index(k->choices, v, hint, sizeof hint);
    if (idx < 0) {
        size_t used = 0;
        list[0] = '\0';
        for (const char *p = k->choices; *p;) {
            size_t len = strcspn(p, "|");
            bprintf(list, sizeof list, &used, "%s\"%.*s\"", used ? ", " : "", (int)len, p);
            p += len + (p[len] == '|');
        }
        if (hint[0])
            yee_rd_error(c, w, key, "must be one of %s (got \"%.60s\"), did you mean \"%s\"?",
                         list, v, hint);
        else
            yee_rd_error(c, w, key, "must be one of %s (got \"%.60s\")", list, v);
        return -1;
    }
    *out = idx;
    return 1;
}

/* The numbers of array or list s (key `key`, ranges of k) into vals, *len their count: 0 when s
 * is no array or list, 1 when more than maxlen (unread: the caller reports the length) or all
 * valid, -1 when one is not a number (an integer with want_int) or out of range (reported). */
static int numbers(yee_rd *c, const config_setting_t *s, const char *key, const yee_deck_key *k,
                   int want_int, double *vals, int maxlen, int *len)
{
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST)
        return 0;
    int n = config_setting_length(s);
    *len = n;
    if (n > maxlen)
        return 1; /* the caller reports the length */
    int rc = 1;
    for (int i = 0; i < n; i++) {
        char ekey[160];
        const config_setting_t *e = yee_rd_elem(s, i, key, ekey, sizeof ekey);
        if (want_int ? !yee_cfg_is_int(e) : !yee_cfg_is_number(e)) {
            rc = wrong(c, e, ekey, want_int ? "an integer" : "a number", 128);
            continue;
        }
        vals[i] = yee_cfg_number(e);
        if (check_range(c, e, ekey, k, vals[i]) < 0)
            rc = -1;
    }
    return rc;
}

/* Up to n numbers of a vector key into vals: 1 when exactly n valid ones, else -1 (reported;
 * a wrong shape as "must be SHAPE (got ...)"). */
static int vector(yee_rd *c, const config_setting_t *s, const char *key, const yee_deck_key *k,
                  int want_int, double *vals, int n, const char *shape)
{
    int len = 0;
    int rc = numbers(c, s, key, k, want_int, vals, n, &len);
    if (rc == 0 || len != n)
        return wrong(c, s, key, shape, 160);
    return rc;
}

int yee_rd_vec3_ex(yee_rd *c, const yee_rd_scope *sc, const char *name, double out[3],
                   int scalar_ok)
{
    const yee_deck_key *k;
    char key[128];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    if (!s)
        return 0;
    if (scalar_ok && yee_cfg_is_number(s)) {
        double v = yee_cfg_number(s);
        if (check_range(c, s, key, k, v) < 0)
            return -1;
        out[0] = out[1] = out[2] = v;
        return 1;
    }
    double vals[3];
    if (vector(c, s, key, k, 0, vals, 3, scalar_ok ? "a number or [x, y, z]" : "[x, y, z]") < 0)
        return -1;
    memcpy(out, vals, sizeof vals);
    return 1;
}

int yee_rd_vec3(yee_rd *c, const yee_rd_scope *sc, const char *name, double out[3])
{
    return yee_rd_vec3_ex(c, sc, name, out, 0);
}

int yee_rd_int6(yee_rd *c, const yee_rd_scope *sc, const char *name, int out[6])
{
    const yee_deck_key *k;
    char key[128];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    if (k)
        for (int i = 0; i < 6; i++)
            out[i] = (int)k->dval;
    if (!s)
        return 0;
    if (yee_cfg_is_int(s)) {
        double v = yee_cfg_number(s);
        if (check_range(c, s, key, k, v) < 0)
            return -1;
        if (v > INT_MAX / 4)
            return too_large(c, s, key, 160);
        for (int i = 0; i < 6; i++)
            out[i] = (int)v;
        return 1;
    }
    double vals[6];
    if (vector(c, s, key, k, 1, vals, 6, "an integer or 6 integers [x_low, x_high, y_low, "
                                         "y_high, z_low, z_high]") < 0)
        return -1;
    for (int i = 0; i < 6; i++) {
        if (vals[i] > INT_MAX / 4)
            return too_large(c, s, key, 160);
        out[i] = (int)vals[i];
    }
    return 1;
}

int yee_rd_int3(yee_rd *c, const yee_rd_scope *sc, const char *name, int out[3])
{
    const yee_deck_key *k;
    char key[128];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    if (!s)
        return 0;
    double vals[3];
    if (vector(c, s, key, k, 1, vals, 3, "[i, j, k] integers") < 0)
        return -1;
    for (int a = 0; a < 3; a++)
        if (vals[a] > YEE_RD_INT_LIMIT || vals[a] < -YEE_RD_INT_LIMIT) {
            char ekey[160];
            yee_rd_error(c, yee_rd_elem(s, a, key, ekey, sizeof ekey), ekey,
                         "must be at most %lld in magnitude (got %.0f)",
                         (long long)YEE_RD_INT_LIMIT, vals[a]);
            return -1;
        }
    for (int a = 0; a < 3; a++)
        out[a] = (int)vals[a];
    return 1;
}

int yee_rd_pairs(yee_rd *c, const yee_rd_scope *sc, const char *name, int min, const char *pair,
                 double **xy, int *n)
{
    const yee_deck_key *k;
    char key[128], shape[96];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    *xy = NULL;
    *n = 0;
    if (!s)
        return 0;
    int t = config_setting_type(s);
    int len = (t == CONFIG_TYPE_LIST || t == CONFIG_TYPE_ARRAY) ? config_setting_length(s) : 0;
    if (t != CONFIG_TYPE_LIST || len < min) {
        snprintf(shape, sizeof shape, "a list of at least %d elements ( %s, %s, ... )", min,
                 pair, pair);
        return wrong(c, s, key, shape, 160);
    }
    double *p = (double *)calloc(2 * (size_t)len, sizeof(double));
    if (!p)
        return -1;
    snprintf(shape, sizeof shape, "a pair %s", pair);
    int rc = 1;
    for (int i = 0; i < len; i++) {
        char ekey[160];
        const config_setting_t *e = yee_rd_elem(s, i, key, ekey, sizeof ekey);
        if (vector(c, e, ekey, k, 0, p + 2 * i, 2, shape) < 0)
            rc = -1;
    }
    if (rc < 0) {
        free(p);
        return -1;
    }
    *xy = p;
    *n = len;
    return 1;
}

int yee_rd_strings(yee_rd *c, const yee_rd_scope *sc, const char *name, const char *what,
                   char *key, size_t keylen, const config_setting_t **out)
{
    const yee_deck_key *k;
    const config_setting_t *s = member(c, sc, name, &k, key, keylen);
    *out = s;
    if (!s)
        return 0;
    int t = config_setting_type(s);
    if ((t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST) && config_setting_length(s) > 0)
        return config_setting_length(s);
    char shape[96];
    snprintf(shape, sizeof shape, "a non-empty list of %s", what);
    return wrong(c, s, key, shape, 160);
}

int yee_rd_group(yee_rd *c, const yee_rd_scope *sc, const char *name, yee_rd_scope *out)
{
    const yee_deck_key *k;
    int rc;
    memset(out, 0, sizeof *out);
    const config_setting_t *s = typed(c, sc, name, is_group, "a group { ... }", &k, out->key,
                                      sizeof out->key, &rc);
    if (rc <= 0)
        return rc;
    out->s = s;
    out->pat = k->path;
    yee_rd_check_unknown(c, out);
    return 1;
}

int yee_rd_list(yee_rd *c, const yee_rd_scope *sc, const char *name, const config_setting_t **out)
{
    const yee_deck_key *k;
    char key[128];
    int rc;
    const config_setting_t *s = typed(c, sc, name, is_list, "a list ( {...}, {...} )", &k, key,
                                      sizeof key, &rc);
    *out = rc > 0 ? s : NULL;
    return rc;
}

int yee_rd_list_elem(yee_rd *c, const config_setting_t *list, const char *pat, const char *key,
                     int i, yee_rd_scope *out)
{
    memset(out, 0, sizeof *out);
    out->s = yee_rd_elem(list, i, key, out->key, sizeof out->key);
    out->pat = pat;
    if (!is_group(out->s)) {
        wrong(c, out->s, out->key, "a group { ... }", 128);
        return 0;
    }
    yee_rd_check_unknown(c, out);
    return 1;
}

/* Reports members of the scope's group that the schema does not know there, with a hint. */
void yee_rd_check_unknown(yee_rd *c, const yee_rd_scope *sc)
{
    int n = config_setting_length(sc->s);
    for (int i = 0; i < n; i++) {
        const config_setting_t *m = config_setting_get_elem(sc->s, (unsigned)i);
        const char *name = config_setting_name(m);
        if (!name || scope_key(sc, name))
            continue;
        char key[160];
        yee_rd_key(key, sizeof key, sc->key, name);
        const char *hint = yee_schema_suggest(sc->pat, name);
        if (hint)
            yee_rd_error(c, m, key, "unknown key, did you mean `%s`?", hint);
        else
            yee_rd_error(c, m, key, "unknown key");
    }
}

/* Reports keys that the schema restricts ("only") to another value of a sibling key, e.g. a
 * snapshot's `interval` on a probe. `value` is the sibling's value, NULL when it is invalid. */
void yee_rd_check_only(yee_rd *c, const yee_rd_scope *sc, const char *sibling, const char *value)
{
    if (!value)
        return;
    int n = config_setting_length(sc->s);
    for (int i = 0; i < n; i++) {
        const config_setting_t *m = config_setting_get_elem(sc->s, (unsigned)i);
        const char *name = config_setting_name(m);
        const yee_deck_key *k = name ? scope_key(sc, name) : NULL;
        if (!k || !k->only)
            continue;
        size_t len = strcspn(k->only, "=");
        if (strncmp(k->only, sibling, len) != 0 || sibling[len] != '\0')
            continue;
        if (yee_schema_choice_index(k->only + len + 1, value, NULL, 0) >= 0)
            continue;
        char key[160], allowed[160];
        size_t used = 0;
        allowed[0] = '\0';
        for (const char *p = k->only + len + 1; *p && used + 8 < sizeof allowed; p++) {
            if (*p == '|')
                used += (size_t)snprintf(allowed + used, sizeof allowed - used, "%s",
                                         strchr(p + 1, '|') ? "\", \"" : "\" or \"");
            else
                allowed[used++] = *p, allowed[used] = '\0';
        }
        yee_rd_key(key, sizeof key, sc->key, name);
        yee_rd_error(c, m, key, "only allowed when %s is \"%s\" (this %s is \"%s\")", sibling,
                     allowed, sibling, value);
    }
}
