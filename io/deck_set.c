/* io/deck_set.c -- the `--set KEY=VALUE` parser and applier (io/deck_set.h).
 *
 * Three steps per argument: split KEY into segments (names and [index]), parse VALUE into a
 * typed value, walk the tree along the segments creating what is missing, and write the value.
 * No key is checked against the schema here: the section loaders do that afterwards, with the
 * location of the --set argument, as for any deck key.
 */
#include "io/deck_set.h"

#include "model/config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define OV_MAXELEM 16

typedef struct ovalue {
    int type;                        /* CONFIG_TYPE_INT/INT64/FLOAT/BOOL/STRING/ARRAY */
    long long i;
    double f;
    int b;
    char s[YEE_PATH_LEN];
    int nelem;                       /* ARRAY: elements */
    int elem_type;                   /* ARRAY: INT, FLOAT or STRING */
    double nums[OV_MAXELEM];
    char strs[OV_MAXELEM][YEE_NAME_LEN];
} ovalue;

typedef struct oseg {
    int is_index;
    long index;
    char name[64];
} oseg;

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t k = 0;
    while (s[k] && isspace((unsigned char)s[k]))
        k++;
    memmove(s, s + k, n - k + 1);
}

/* A scalar: integer, float, true/false, "quoted" or bare string. Returns 0 or -1 (+ msg). */
static int parse_scalar(const char *tok, ovalue *v, char *msg, size_t n)
{
    char *end;
    size_t len = strlen(tok);
    memset(v, 0, sizeof *v);
    if (len == 0) {
        snprintf(msg, n, "empty value");
        return -1;
    }
    if (tok[0] == '"') {
        if (len < 2 || tok[len - 1] != '"') {
            snprintf(msg, n, "unterminated string (got %.200s)", tok);
            return -1;
        }
        v->type = CONFIG_TYPE_STRING;
        snprintf(v->s, sizeof v->s, "%.*s", (int)(len - 2), tok + 1);
        return 0;
    }
    if (strcasecmp(tok, "true") == 0 || strcasecmp(tok, "false") == 0) {
        v->type = CONFIG_TYPE_BOOL;
        v->b = strcasecmp(tok, "true") == 0;
        return 0;
    }
    errno = 0;
    long long i = strtoll(tok, &end, 10);
    if (*end == '\0' && errno == 0) {
        v->type = (i >= INT_MIN && i <= INT_MAX) ? CONFIG_TYPE_INT : CONFIG_TYPE_INT64;
        v->i = i;
        return 0;
    }
    errno = 0;
    double f = strtod(tok, &end);
    if (*end == '\0' && end != tok) {
        if (!isfinite(f)) {
            snprintf(msg, n, "must be a finite number (got %.200s)", tok);
            return -1;
        }
        v->type = CONFIG_TYPE_FLOAT;
        v->f = f;
        return 0;
    }
    v->type = CONFIG_TYPE_STRING;
    snprintf(v->s, sizeof v->s, "%s", tok);
    return 0;
}

/* A value: a scalar, or [a, b, ...] of numbers (ints become floats if any is a float) or of
 * strings. */
static int parse_value(const char *text, ovalue *v, char *msg, size_t n)
{
    char buf[YEE_PATH_LEN];
    snprintf(buf, sizeof buf, "%s", text);
    trim(buf);
    size_t len = strlen(buf);
    if (buf[0] != '[')
        return parse_scalar(buf, v, msg, n);
    if (buf[len - 1] != ']') {
        snprintf(msg, n, "missing ']' (got %.200s)", buf);
        return -1;
    }
    buf[len - 1] = '\0';
    memset(v, 0, sizeof *v);
    v->type = CONFIG_TYPE_ARRAY;
    char *p = buf + 1;
    trim(p);
    if (*p == '\0') {
        v->elem_type = CONFIG_TYPE_INT;
        return 0;
    }
    int any_float = 0, any_num = 0, any_str = 0;
    while (p) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        trim(p);
        ovalue e;
        if (parse_scalar(p, &e, msg, n) < 0)
            return -1;
        if (v->nelem == OV_MAXELEM) {
            snprintf(msg, n, "more than %d elements", OV_MAXELEM);
            return -1;
        }
        if (e.type == CONFIG_TYPE_FLOAT) {
            any_float = any_num = 1;
            v->nums[v->nelem] = e.f;
        } else if (e.type == CONFIG_TYPE_INT || e.type == CONFIG_TYPE_INT64) {
            any_num = 1;
            v->nums[v->nelem] = (double)e.i;
        } else if (e.type == CONFIG_TYPE_STRING) {
            any_str = 1;
            snprintf(v->strs[v->nelem], sizeof v->strs[0], "%.63s", e.s);
        } else {
            snprintf(msg, n, "arrays hold numbers or strings (got %.200s)", p);
            return -1;
        }
        v->nelem++;
        p = comma ? comma + 1 : NULL;
    }
    if (any_num && any_str) {
        snprintf(msg, n, "an array cannot mix numbers and strings");
        return -1;
    }
    v->elem_type = any_str ? CONFIG_TYPE_STRING : any_float ? CONFIG_TYPE_FLOAT : CONFIG_TYPE_INT;
    return 0;
}

/* "a.b[0].c" or "a.b.[0].c" -> segments. */
static int parse_key(const char *key, oseg *segs, int max, int *nseg, char *msg, size_t n)
{
    const char *p = key;
    *nseg = 0;
    if (*p == '\0') {
        snprintf(msg, n, "empty key");
        return -1;
    }
    while (*p) {
        if (*nseg == max) {
            snprintf(msg, n, "key too deep");
            return -1;
        }
        oseg *s = &segs[(*nseg)++];
        memset(s, 0, sizeof *s);
        if (*p == '[') {
            char *end;
            errno = 0;
            long idx = strtol(p + 1, &end, 10);
            if (end == p + 1 || *end != ']' || idx < 0 || errno) {
                snprintf(msg, n, "bad list index in key");
                return -1;
            }
            s->is_index = 1;
            s->index = idx;
            p = end + 1;
        } else {
            size_t len = strcspn(p, ".[");
            if (len == 0 || len >= sizeof s->name) {
                snprintf(msg, n, "bad key");
                return -1;
            }
            memcpy(s->name, p, len);
            p += len;
        }
        if (*p == '.') {
            p++;
            if (*p == '\0') {
                snprintf(msg, n, "key ends with '.'");
                return -1;
            }
        } else if (*p && *p != '[') {
            snprintf(msg, n, "bad key");
            return -1;
        }
    }
    return 0;
}

static int scalar_fits(int settype, const ovalue *v)
{
    return settype == v->type;
}

/* Sets a scalar setting in place; numeric type changes are made by retyping the setting, which
 * libconfig permits for numbers only because they own no memory. */
static int set_scalar(config_setting_t *s, const ovalue *v)
{
    int t = config_setting_type(s);
    int vnum = v->type == CONFIG_TYPE_INT || v->type == CONFIG_TYPE_INT64 ||
               v->type == CONFIG_TYPE_FLOAT;
    if (vnum && yee_cfg_is_number(s)) {
        s->type = (short)v->type;
        if (v->type == CONFIG_TYPE_FLOAT)
            s->value.fval = v->f;
        else if (v->type == CONFIG_TYPE_INT)
            s->value.ival = (int)v->i;
        else
            s->value.llval = v->i;
        return 0;
    }
    if (!scalar_fits(t, v))
        return -1;
    if (t == CONFIG_TYPE_BOOL)
        return config_setting_set_bool(s, v->b) ? 0 : -1;
    if (t == CONFIG_TYPE_STRING)
        return config_setting_set_string(s, v->s) ? 0 : -1;
    return -1;
}

/* Adds `v` to parent (a group, under `name`, or a list/array when name is NULL). */
static config_setting_t *add_value(config_setting_t *parent, const char *name, const ovalue *v)
{
    config_setting_t *s = config_setting_add(parent, name, v->type);
    if (!s)
        return NULL;
    switch (v->type) {
    case CONFIG_TYPE_INT: config_setting_set_int(s, (int)v->i); break;
    case CONFIG_TYPE_INT64: config_setting_set_int64(s, v->i); break;
    case CONFIG_TYPE_FLOAT: config_setting_set_float(s, v->f); break;
    case CONFIG_TYPE_BOOL: config_setting_set_bool(s, v->b); break;
    case CONFIG_TYPE_STRING: config_setting_set_string(s, v->s); break;
    case CONFIG_TYPE_ARRAY:
        for (int i = 0; i < v->nelem; i++) {
            if (v->elem_type == CONFIG_TYPE_STRING)
                config_setting_set_string_elem(s, -1, v->strs[i]);
            else if (v->elem_type == CONFIG_TYPE_FLOAT)
                config_setting_set_float_elem(s, -1, v->nums[i]);
            else
                config_setting_set_int64_elem(s, -1, (long long)v->nums[i]);
        }
        break;
    default: break;
    }
    return s;
}

static const char *type_word(int t)
{
    switch (t) {
    case CONFIG_TYPE_GROUP: return "a group";
    case CONFIG_TYPE_LIST: return "a list";
    case CONFIG_TYPE_ARRAY: return "an array";
    default: return "a value";
    }
}

void yee_deck_set_apply(yee_rd *c, config_t *cfg, const char *arg)
{
    char key[256], msg[640];
    const char *eq = strchr(arg, '=');
    if (!eq) {
        yee_rd_push(c, YEE_RD_ORDER_SET, "--set %s: error: expected key=value", arg);
        return;
    }
    snprintf(key, sizeof key, "%.*s", (int)(eq - arg), arg);
    trim(key);
    oseg segs[16];
    int nseg = 0;
    ovalue *v = calloc(1, sizeof *v);
    if (!v) {
        yee_rd_push(c, YEE_RD_ORDER_SET, "--set %s: error: out of memory", arg);
        return;
    }
    if (parse_key(key, segs, 16, &nseg, msg, sizeof msg) < 0 ||
        parse_value(eq + 1, v, msg, sizeof msg) < 0)
        goto fail;

    config_setting_t *cur = config_root_setting(cfg);
    char sofar[256] = "";
    for (int i = 0; i < nseg; i++) {
        const oseg *sg = &segs[i];
        int last = i == nseg - 1;
        int t = config_setting_type(cur);
        const char *where = sofar[0] ? sofar : "the top level";
        config_setting_t *next = NULL;
        if (!sg->is_index) {
            if (t != CONFIG_TYPE_GROUP) {
                snprintf(msg, sizeof msg, "%s is %s, not a group", where, type_word(t));
                goto fail;
            }
            next = config_setting_get_member(cur, sg->name);
            if (last) {
                /* replace: remove and re-add, so the type may change (an int for a float) */
                if (next && !config_setting_remove(cur, sg->name)) {
                    snprintf(msg, sizeof msg, "cannot replace %s", key);
                    goto fail;
                }
                next = add_value(cur, sg->name, v);
            } else if (!next) {
                next = config_setting_add(cur, sg->name, CONFIG_TYPE_GROUP);
                if (next)
                    config_setting_set_hook(next, (void *)arg);
            }
            if (!next) {
                snprintf(msg, sizeof msg, "invalid key name `%s`", sg->name);
                goto fail;
            }
            size_t l = strlen(sofar);
            snprintf(sofar + l, sizeof sofar - l, "%s%s", l ? "." : "", sg->name);
        } else {
            if (t != CONFIG_TYPE_LIST && t != CONFIG_TYPE_ARRAY) {
                snprintf(msg, sizeof msg, "%s is %s, not a list", where, type_word(t));
                goto fail;
            }
            long len = config_setting_length(cur);
            /* one past the end appends a group to a list of groups (e.g. a new source) */
            if (sg->index > len || (sg->index == len && (t != CONFIG_TYPE_LIST || last))) {
                snprintf(msg, sizeof msg, "index %ld out of range (%s has %ld element%s)",
                         sg->index, where, len, len == 1 ? "" : "s");
                goto fail;
            }
            if (sg->index == len) {
                next = config_setting_add(cur, NULL, CONFIG_TYPE_GROUP);
                if (!next) {
                    snprintf(msg, sizeof msg, "cannot add an element to %s", where);
                    goto fail;
                }
                config_setting_set_hook(next, (void *)arg);
            } else {
                next = config_setting_get_elem(cur, (unsigned)sg->index);
                if (last) {
                    if (v->type == CONFIG_TYPE_ARRAY || config_setting_is_aggregate(next)) {
                        snprintf(msg, sizeof msg, "only a single value can replace an element");
                        goto fail;
                    }
                    if (t == CONFIG_TYPE_ARRAY && v->type == CONFIG_TYPE_FLOAT &&
                        yee_cfg_is_int(next)) {
                        /* a float into an int array: the whole array becomes float */
                        int n = config_setting_length(cur);
                        for (int j = 0; j < n; j++) {
                            config_setting_t *e = config_setting_get_elem(cur, (unsigned)j);
                            double d = yee_cfg_number(e);
                            e->type = CONFIG_TYPE_FLOAT;
                            e->value.fval = d;
                        }
                    }
                    ovalue cv = *v;
                    if (t == CONFIG_TYPE_ARRAY && config_setting_type(next) == CONFIG_TYPE_FLOAT &&
                        (v->type == CONFIG_TYPE_INT || v->type == CONFIG_TYPE_INT64)) {
                        cv.type = CONFIG_TYPE_FLOAT;
                        cv.f = (double)v->i;
                    }
                    if (set_scalar(next, &cv) < 0) {
                        snprintf(msg, sizeof msg, "value does not fit the type of the element");
                        goto fail;
                    }
                }
            }
            size_t l = strlen(sofar);
            snprintf(sofar + l, sizeof sofar - l, "[%ld]", sg->index);
        }
        if (last)
            config_setting_set_hook(next, (void *)arg);
        cur = next;
    }
    free(v);
    return;
fail:
    yee_rd_push(c, YEE_RD_ORDER_SET, "--set %s: error: %s: %s", arg, key, msg);
    free(v);
}
