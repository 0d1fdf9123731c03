/* io/params.c -- the sweep section of a deck, its jobs, and ${...} substitution (io/params.h).
 *
 * The deck text is first classified byte by byte into code, string and comment (libconfig's
 * lexical rules: "..." with backslash escapes; #, // and slash-star comments). That one scan
 * serves three uses: finding the `sweep = { ... }` group at the top level (to parse it alone and
 * to blank it in job decks), finding ${...} placeholders outside comments, and finding @include
 * paths. The sweep group is parsed by libconfig on its own (the rest of a sweep deck is not valid
 * libconfig until it is resolved) and read with the deck reader (io/deck_reader.h) against the
 * one key table (io/deck_schema.h), as io/deck.c reads the rest of a deck.
 * Nothing here runs a job or reads an output file.
 */
#include "io/params.h"

#include "common/yee_hint.h"
#include "io/deck_reader.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Lexical classes of the deck text
 * ------------------------------------------------------------------------------------------- */

enum { C_CODE = 0, C_STRING, C_COMMENT };

/* cls[i] = class of text[i]; the quotes of a string are C_STRING. malloc'd; NULL when out of
 * memory. An unterminated string or comment runs to the end (libconfig reports it later). */
static char *classify(const char *t, size_t n)
{
    char *cls = (char *)malloc(n + 1);
    if (!cls)
        return NULL;
    size_t i = 0;
    while (i < n) {
        if (t[i] == '"') {
            cls[i++] = C_STRING;
            while (i < n && t[i] != '"') {
                if (t[i] == '\\' && i + 1 < n)
                    cls[i++] = C_STRING;
                cls[i++] = C_STRING;
            }
            if (i < n)
                cls[i++] = C_STRING;
        } else if (t[i] == '#' || (t[i] == '/' && i + 1 < n && t[i + 1] == '/')) {
            while (i < n && t[i] != '\n')
                cls[i++] = C_COMMENT;
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
            cls[i++] = C_COMMENT;
            cls[i++] = C_COMMENT;
            while (i < n && !(t[i] == '*' && i + 1 < n && t[i + 1] == '/'))
                cls[i++] = C_COMMENT;
            for (int k = 0; k < 2 && i < n; k++)
                cls[i++] = C_COMMENT;
        } else {
            cls[i++] = C_CODE;
        }
    }
    return cls;
}

static int line_at(const char *t, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos; i++)
        line += t[i] == '\n';
    return line;
}

static int is_ident(int ch)
{
    return isalnum(ch) || ch == '_' || ch == '-';
}

/* Skips white space and comments from i; returns the next code position (or n). */
static size_t skip_blank(const char *t, const char *cls, size_t i, size_t n)
{
    while (i < n && (cls[i] == C_COMMENT || (cls[i] == C_CODE && isspace((unsigned char)t[i]))))
        i++;
    return i;
}

/* Finds `sweep = { ... }` (or `sweep : {`) at the top level. Returns 1 and [*b, *e) (e after an
 * optional ';' or ','), 0 when absent. */
static int find_sweep(const char *t, const char *cls, size_t n, size_t *b, size_t *e)
{
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (cls[i] != C_CODE)
            continue;
        char ch = t[i];
        if (ch == '{' || ch == '[' || ch == '(')
            depth++;
        else if (ch == '}' || ch == ']' || ch == ')')
            depth--;
        if (depth != 0 || strncmp(t + i, "sweep", 5) != 0 || (i > 0 && is_ident(t[i - 1])) ||
            (i + 5 < n && is_ident(t[i + 5])))
            continue;
        size_t k = skip_blank(t, cls, i + 5, n);
        if (k >= n || (t[k] != '=' && t[k] != ':'))
            continue;
        k = skip_blank(t, cls, k + 1, n);
        if (k >= n || t[k] != '{')
            continue;
        int d = 0;
        for (; k < n; k++) {
            if (cls[k] != C_CODE)
                continue;
            if (t[k] == '{' || t[k] == '[' || t[k] == '(')
                d++;
            else if ((t[k] == '}' || t[k] == ']' || t[k] == ')') && --d == 0)
                break;
        }
        if (k >= n)
            return 0; /* unbalanced: libconfig will say where */
        size_t end = k + 1, after = skip_blank(t, cls, end, n);
        if (after < n && (t[after] == ';' || t[after] == ','))
            end = after + 1;
        *b = i;
        *e = end;
        return 1;
    }
    return 0;
}

int yee_params_has_placeholder(const char *text, int *line)
{
    size_t n = strlen(text);
    char *cls = classify(text, n);
    int found = 0;
    for (size_t i = 0; cls && i + 1 < n; i++)
        if (cls[i] != C_COMMENT && text[i] == '$' && text[i + 1] == '{') {
            found = 1;
            if (line)
                *line = line_at(text, i);
            break;
        }
    free(cls);
    return found;
}

/* ---------------------------------------------------------------------------------------------
 * Checks of the sweep's own values (the reader checks types, ranges and choices)
 * ------------------------------------------------------------------------------------------- */

/* The type of s in words, for the messages of the sweep's list and value checks. */
static const char *type_word(const config_setting_t *s)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64: return "an integer";
    case CONFIG_TYPE_FLOAT: return "a float";
    case CONFIG_TYPE_BOOL: return "a bool";
    case CONFIG_TYPE_STRING: return "a string";
    case CONFIG_TYPE_GROUP: return "a group";
    case CONFIG_TYPE_ARRAY: return "an array";
    case CONFIG_TYPE_LIST: return "a list";
    default: return "nothing";
    }
}

/* A string key copied into out[cap]: 0 absent, 1 copied, -1 reported (not a string, or too long
 * for out); out is unchanged unless 1. */
static int get_text(yee_rd *c, const yee_rd_scope *sc, const char *name, char *out, size_t cap)
{
    const char *v;
    const config_setting_t *w;
    int rc = yee_rd_string(c, sc, name, &v, &w);
    if (rc <= 0)
        return rc;
    if (strlen(v) >= cap) {
        char key[128];
        yee_rd_key(key, sizeof key, sc->key, name);
        yee_rd_error(c, w, key, "longer than %zu characters (got \"%.40s...\")", cap - 1, v);
        return -1;
    }
    snprintf(out, cap, "%s", v);
    return 1;
}

static int valid_ident(const char *s)
{
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return 0;
    return 1;
}

/* A value for an #SBATCH line: no spaces or quotes (the script must stay one token per flag). */
static int valid_token(const char *s)
{
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("_.:,+-=/@%", *p)))
            return 0;
    return 1;
}

/* A string parameter value: it is written into deck text and into a comment. */
static int valid_string_value(const char *s)
{
    for (const char *p = s; *p; p++)
        if (!isprint((unsigned char)*p) || *p == '"' || *p == '\\' || (p[0] == '*' && p[1] == '/'))
            return 0;
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Parameters
 * ------------------------------------------------------------------------------------------- */

/* x rounded to 15 significant digits: a range 0.1, 0.2, 0.3 gives 0.3, not 0.30000000000000004. */
static double round15(double x)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", x);
    return strtod(buf, NULL);
}

/* read_values, read_range: 0 (problems are reported in c) or YEE_ERR_NOMEM. */
static int read_values(yee_rd *c, const config_setting_t *s, const char *key, yee_param *p)
{
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) {
        yee_rd_error(c, s, key, "must be an array [a, b, ...] of numbers or strings (got %s)",
                     type_word(s));
        return 0; /* reported */
    }
    int n = config_setting_length(s);
    if (n == 0) {
        yee_rd_error(c, s, key, "must not be empty");
        return 0; /* reported */
    }
    int any_float = 0, any_int = 0, any_str = 0;
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        int et = config_setting_type(e);
        if (et == CONFIG_TYPE_FLOAT)
            any_float = 1;
        else if (et == CONFIG_TYPE_INT || et == CONFIG_TYPE_INT64)
            any_int = 1;
        else if (et == CONFIG_TYPE_STRING)
            any_str = 1;
        else {
            yee_rd_error(c, e, key, "element %d must be a number or a string (got %s)",
                         i, type_word(e));
            return 0; /* reported */
        }
    }
    if (any_str && (any_float || any_int)) {
        yee_rd_error(c, s, key, "cannot mix numbers and strings");
        return 0; /* reported */
    }
    p->type = any_str ? YEE_PV_STRING : any_float ? YEE_PV_FLOAT : YEE_PV_INT;
    p->values = (yee_pvalue *)calloc((size_t)n, sizeof *p->values);
    if (!p->values)
        return YEE_ERR_NOMEM;
    p->nvalues = n;
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        yee_pvalue *v = &p->values[i];
        v->type = p->type;
        if (p->type == YEE_PV_STRING) {
            const char *str = config_setting_get_string(e);
            if (strlen(str) >= sizeof v->s || !valid_string_value(str)) {
                yee_rd_error(c, e, key,
                             "string values must be printable, without \" \\ or */, and shorter "
                             "than %zu characters (got \"%.40s\")", sizeof v->s, str);
                return 0; /* reported */
            }
            snprintf(v->s, sizeof v->s, "%s", str);
        } else if (p->type == YEE_PV_INT) {
            v->i = config_setting_get_int64(e);
            v->f = (double)v->i;
        } else {
            v->f = yee_cfg_number(e);
            if (!isfinite(v->f)) {
                yee_rd_error(c, e, key, "must be finite numbers");
                return 0; /* reported */
            }
        }
    }
    return 0;
}

static int read_range(yee_rd *c, const config_setting_t *s, const char *key, yee_param *p)
{
    int t = config_setting_type(s);
    int n = (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST) ? config_setting_length(s) : 0;
    int all_int = 1;
    double v[3] = {0, 0, 0};
    for (int i = 0; i < n && i < 3; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        if (!yee_cfg_is_number(e)) {
            n = -1;
            break;
        }
        all_int &= yee_cfg_is_int(e);
        v[i] = yee_cfg_number(e);
    }
    if (n != 3) {
        yee_rd_error(c, s, key, "must be [start, stop, step] (stop inclusive)");
        return 0; /* reported */
    }
    if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]) || v[2] == 0 ||
        (v[1] - v[0]) / v[2] < 0) {
        yee_rd_error(c, s, key, "the step must be nonzero and lead from start to stop (got "
                                "[%g, %g, %g])", v[0], v[1], v[2]);
        return 0; /* reported */
    }
    /* stop inclusive, with a little slack so 0.1:0.3:0.1 has 3 values despite rounding */
    double count = floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
    if (count > YEE_SWEEP_MAX_JOBS) {
        yee_rd_error(c, s, key, "gives %.0f values, more than %ld", count, YEE_SWEEP_MAX_JOBS);
        return 0; /* reported */
    }
    p->type = all_int ? YEE_PV_INT : YEE_PV_FLOAT;
    p->nvalues = (int)count;
    p->values = (yee_pvalue *)calloc((size_t)p->nvalues, sizeof *p->values);
    if (!p->values)
        return YEE_ERR_NOMEM;
    for (int i = 0; i < p->nvalues; i++) {
        yee_pvalue *x = &p->values[i];
        x->type = p->type;
        if (all_int) {
            x->i = (long long)v[0] + (long long)i * (long long)v[2];
            x->f = (double)x->i;
        } else {
            x->f = round15(v[0] + i * v[2]); /* not accumulated: no drift along the range */
        }
    }
    return 0;
}

static int read_params(yee_rd *c, const yee_rd_scope *sw, yee_sweep_spec *out)
{
    const config_setting_t *list = config_setting_get_member(sw->s, "parameters");
    if (!list) {
        yee_rd_error(c, sw->s, "sweep.parameters", "missing required key");
        return 0;
    }
    int n = config_setting_length(list);
    if (config_setting_type(list) != CONFIG_TYPE_LIST || n == 0) {
        yee_rd_error(c, list, "sweep.parameters",
                     "must be a non-empty list ( {name = ...; values = [...];}, ... ) (got %s)",
                     type_word(list));
        return 0;
    }
    out->params = (yee_param *)calloc((size_t)n, sizeof *out->params);
    if (!out->params)
        return YEE_ERR_NOMEM;
    out->nparams = n;
    for (int i = 0; i < n; i++) {
        const config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
        yee_param *p = &out->params[i];
        char key[64];
        snprintf(key, sizeof key, "sweep.parameters[%d]", i);
        p->line = (int)config_setting_source_line(g);
        if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
            yee_rd_error(c, g, key, "must be a group { name = ...; values = [...]; } (got %s)",
                         type_word(g));
            continue;
        }
        yee_rd_scope sc;
        yee_rd_scope_init(&sc, g, "sweep.parameters[]", key);
        yee_rd_check_unknown(c, &sc);
        char full[96];
        snprintf(full, sizeof full, "%s.name", key);
        int rc = get_text(c, &sc, "name", p->name, sizeof p->name);
        if (rc == 0)
            yee_rd_error(c, g, full, "missing required key");
        else if (rc > 0 && !valid_ident(p->name))
            yee_rd_error(c, g, full, "must be a name [A-Za-z_][A-Za-z0-9_]* (got \"%s\")",
                         p->name);
        for (int j = 0; rc > 0 && j < i; j++)
            if (strcmp(out->params[j].name, p->name) == 0)
                yee_rd_error(c, g, full, "parameter '%s' is already defined on line %d", p->name,
                             out->params[j].line);
        const config_setting_t *vals = config_setting_get_member(g, "values");
        const config_setting_t *range = config_setting_get_member(g, "range");
        snprintf(full, sizeof full, "%s.%s", key, vals ? "values" : "range");
        if (!!vals == !!range) {
            yee_rd_error(c, g, key, "give exactly one of values / range (got %s)",
                         vals ? "both" : "neither");
            continue;
        }
        rc = vals ? read_values(c, vals, full, p) : read_range(c, range, full, p);
        if (rc == YEE_ERR_NOMEM)
            return rc;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Results and Slurm resources
 * ------------------------------------------------------------------------------------------- */

static int read_results(yee_rd *c, const yee_rd_scope *sw, yee_sweep_spec *out)
{
    static const char *const fixed[] = {"job", "status", "wall_s", "message"};
    const config_setting_t *list = config_setting_get_member(sw->s, "results");
    if (!list)
        return 0;
    int n = config_setting_length(list);
    int t = config_setting_type(list);
    if (t != CONFIG_TYPE_LIST && !(t == CONFIG_TYPE_ARRAY && n == 0)) {
        yee_rd_error(c, list, "sweep.results",
                     "must be a list ( { name = ...; flux = ...; }, ... ) (got %s)",
                     type_word(list));
        return 0;
    }
    if (n == 0)
        return 0;
    out->results = (yee_result_spec *)calloc((size_t)n, sizeof *out->results);
    if (!out->results)
        return YEE_ERR_NOMEM;
    out->nresults = n;
    for (int i = 0; i < n; i++) {
        const config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
        yee_result_spec *r = &out->results[i];
        char key[64], full[96];
        snprintf(key, sizeof key, "sweep.results[%d]", i);
        r->line = (int)config_setting_source_line(g);
        if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
            yee_rd_error(c, g, key, "must be a group { name = ...; flux = ...; } (got %s)",
                         type_word(g));
            continue;
        }
        yee_rd_scope sc;
        yee_rd_scope_init(&sc, g, "sweep.results[]", key);
        yee_rd_check_unknown(c, &sc);
        snprintf(full, sizeof full, "%s.name", key);
        int rc = get_text(c, &sc, "name", r->name, sizeof r->name);
        if (rc == 0)
            yee_rd_error(c, g, full, "missing required key");
        if (rc > 0 && !yee_rd_valid_name(r->name)) /* what a CSV header takes unquoted */
            yee_rd_error(c, g, full, "must be a column name [A-Za-z0-9_.-]+ (got \"%s\")",
                         r->name);
        for (int j = 0; rc > 0 && j < (int)(sizeof fixed / sizeof fixed[0]); j++)
            if (strcmp(r->name, fixed[j]) == 0)
                yee_rd_error(c, g, full, "'%s' is a column of summary.csv already", r->name);
        for (int j = 0; rc > 0 && j < out->nparams; j++)
            if (strcmp(r->name, out->params[j].name) == 0)
                yee_rd_error(c, g, full, "'%s' is a parameter's column already", r->name);
        for (int j = 0; rc > 0 && j < i; j++)
            if (strcmp(r->name, out->results[j].name) == 0)
                yee_rd_error(c, g, full, "result '%s' is already defined on line %d", r->name,
                             out->results[j].line);

        char flux[YEE_NAME_LEN] = "", probe[YEE_NAME_LEN] = "";
        int has_flux = get_text(c, &sc, "flux", flux, sizeof flux);
        int has_res = get_text(c, &sc, "resonance", probe, sizeof probe);
        if (has_flux < 0 || has_res < 0)
            continue;
        if (!has_flux == !has_res) {
            yee_rd_error(c, g, key, "give exactly one of flux / resonance (got %s)",
                         has_flux ? "both" : "neither");
            continue;
        }
        /* keys of the other kind are errors, as the deck's "only when" keys are */
        static const char *const flux_only[] = {"frequency", "wavelength"};
        static const char *const res_only[] = {"what", "component", "fmin", "fmax", "start"};
        const char *const *other = has_flux ? res_only : flux_only;
        int nother = has_flux ? 5 : 2;
        for (int k = 0; k < nother; k++) {
            const config_setting_t *m = config_setting_get_member(g, other[k]);
            if (m) {
                snprintf(full, sizeof full, "%s.%s", key, other[k]);
                yee_rd_error(c, m, full, "only allowed with %s", has_flux ? "resonance" : "flux");
            }
        }
        if (has_flux) {
            r->kind = YEE_RESULT_FLUX;
            snprintf(r->monitor, sizeof r->monitor, "%s", flux);
            double thz = 0, wl = 0;
            int hf = yee_rd_num(c, &sc, "frequency", &thz);
            int hw = yee_rd_num(c, &sc, "wavelength", &wl);
            if (hf < 0 || hw < 0)
                continue;
            if (!hf == !hw) {
                yee_rd_error(c, g, key, "give exactly one of frequency (THz) / wavelength (um) "
                                        "for a flux result (got %s)", hf ? "both" : "neither");
                continue;
            }
            r->by_wavelength = hw > 0;
            r->freq = hw > 0 ? 1.0 / wl : thz / YEE_C_UM_THZ;
        } else {
            r->kind = YEE_RESULT_RESONANCE;
            snprintf(r->monitor, sizeof r->monitor, "%s", probe);
            int what = 0;
            if (yee_rd_choice(c, &sc, "what", &what, NULL) > 0)
                r->what = (yee_resonance_what)what; /* the table lists them in enum order */
            char comp[16] = "";
            if (get_text(c, &sc, "component", comp, sizeof comp) > 0) {
                int cc = yee_component_parse(comp);
                snprintf(full, sizeof full, "%s.component", key);
                if (cc < 0)
                    yee_rd_error(c, g, full, "must be one of Ex Ey Ez Hx Hy Hz (got \"%s\")",
                                 comp);
                else
                    snprintf(r->component, sizeof r->component, "%s", yee_component_name(cc));
            }
            double fmin = 0, fmax = 0, start = 0;
            yee_rd_num(c, &sc, "fmin", &fmin);
            yee_rd_num(c, &sc, "fmax", &fmax);
            yee_rd_num(c, &sc, "start", &start);
            if (fmax > 0 && fmin >= fmax)
                yee_rd_error(c, g, key, "fmin must be below fmax (got %g and %g THz)", fmin,
                             fmax);
            r->fmin = fmin / YEE_C_UM_THZ;
            r->fmax = fmax / YEE_C_UM_THZ;
            r->start = start / YEE_TIME_UNIT_FS;
        }
    }
    return 0;
}

static void read_slurm(yee_rd *c, const yee_rd_scope *sw, yee_slurm_spec *sl)
{
    const config_setting_t *g = config_setting_get_member(sw->s, "slurm");
    if (!g)
        return;
    if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
        yee_rd_error(c, g, "sweep.slurm", "must be a group { time = ...; } (got %s)",
                     type_word(g));
        return;
    }
    yee_rd_scope sc;
    yee_rd_scope_init(&sc, g, "sweep.slurm", "sweep.slurm");
    yee_rd_check_unknown(c, &sc);
    struct {
        const char *name;
        char *out;
        size_t cap;
    } strs[] = {{"time", sl->time, sizeof sl->time},
                {"partition", sl->partition, sizeof sl->partition},
                {"account", sl->account, sizeof sl->account},
                {"memory", sl->memory, sizeof sl->memory},
                {"mpi", sl->mpi, sizeof sl->mpi}};
    for (int k = 0; k < 5; k++)
        if (get_text(c, &sc, strs[k].name, strs[k].out, strs[k].cap) > 0 &&
            !valid_token(strs[k].out)) {
            char full[64];
            snprintf(full, sizeof full, "sweep.slurm.%s", strs[k].name);
            yee_rd_error(c, g, full, "must be one word without spaces or quotes (got \"%s\")",
                         strs[k].out);
            strs[k].out[0] = '\0';
        }
    /* only what the deck gives: 0 leaves the cluster's default (io/params.h), not the table's */
    long v;
    if (yee_rd_long(c, &sc, "gpus", &v) > 0)
        sl->gpus = (int)v;
    if (yee_rd_long(c, &sc, "cpus", &v) > 0)
        sl->cpus = (int)v;
    if (yee_rd_long(c, &sc, "checkpoint_margin", &v) > 0)
        sl->checkpoint_margin = (int)v;
    get_text(c, &sc, "setup", sl->setup, sizeof sl->setup);
}

/* ---------------------------------------------------------------------------------------------
 * The section as a whole
 * ------------------------------------------------------------------------------------------- */

void yee_sweep_spec_free(yee_sweep_spec *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nparams; i++) {
        free(s->params[i].values);
        s->params[i].values = NULL;
    }
    free(s->params);
    s->params = NULL;
    free(s->results);
    s->results = NULL;
    s->nparams = s->nresults = 0;
}

int yee_sweep_spec_parse(const char *deck_path, const char *text, yee_sweep_spec *out,
                         yee_err *err)
{
    memset(out, 0, sizeof *out);
    if (err)
        err->msg[0] = '\0';
    yee_rd c;
    yee_rd_init(&c, deck_path, err, 0);
    size_t n = strlen(text), b = 0, e = 0;
    char *cls = classify(text, n);
    if (!cls)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "out of memory reading '%s'", deck_path);
    if (!find_sweep(text, cls, n, &b, &e)) {
        free(cls);
        return yee_fail(err, YEE_ERR_DECK, "%s: error: no `sweep = { ... };` group at the top "
                        "level: yee sweep needs one (docs/sweeps.md)", deck_path);
    }
    const int line0 = line_at(text, b);
    for (size_t i = b; i + 1 < e; i++)
        if (cls[i] != C_COMMENT && text[i] == '$' && text[i + 1] == '{') {
            yee_rd_error_line(&c, line_at(text, i), "sweep",
                              "placeholders ${...} cannot be used inside the sweep section");
            break;
        }
    free(cls);
    out->sec_begin = b;
    out->sec_end = e;

    /* parse the section alone, after line0-1 newlines, so libconfig's lines are the deck's */
    size_t len = e - b;
    char *buf = (char *)malloc((size_t)line0 + len + 2);
    if (!buf)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "out of memory reading '%s'", deck_path);
    memset(buf, '\n', (size_t)line0 - 1);
    memcpy(buf + line0 - 1, text + b, len);
    buf[line0 - 1 + len] = '\0';
    config_t lc;
    config_init(&lc);
    if (!config_read_string(&lc, buf)) {
        yee_rd_error_line(&c, config_error_line(&lc), NULL, "syntax: %s",
                          config_error_text(&lc) ? config_error_text(&lc) : "?");
        config_destroy(&lc);
        free(buf);
        return yee_rd_flush(&c);
    }
    free(buf);
    yee_rd_scope root, sw;
    yee_rd_scope_init(&root, config_root_setting(&lc), "", "");
    if (yee_rd_group(&c, &root, "sweep", &sw) <= 0) { /* not reached: find_sweep saw its '{' */
        config_destroy(&lc);
        return yee_fail(err, YEE_ERR_DECK, "%s:%d: error: sweep: not a group", deck_path, line0);
    }
    int mode = 0; /* the table's choices: product|zip */
    yee_rd_choice(&c, &sw, "mode", &mode, NULL);
    out->zip = mode == 1;
    int rc = read_params(&c, &sw, out);
    if (rc == 0)
        rc = read_results(&c, &sw, out);
    out->slurm.checkpoint_margin = -1;
    if (rc == 0)
        read_slurm(&c, &sw, &out->slurm);
    config_destroy(&lc);
    if (rc == YEE_ERR_NOMEM) {
        yee_sweep_spec_free(out);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "out of memory reading '%s'", deck_path);
    }

    if (c.nerr == 0) {
        double jobs = out->zip ? 0 : 1;
        for (int i = 0; i < out->nparams; i++) {
            const yee_param *p = &out->params[i];
            if (out->zip && i > 0 && p->nvalues != out->params[0].nvalues)
                yee_rd_error_line(&c, p->line, "sweep.mode",
                                  "zip needs lists of one length: '%s' has %d values, '%s' has %d",
                                  out->params[0].name, out->params[0].nvalues, p->name,
                                  p->nvalues);
            jobs = out->zip ? p->nvalues : jobs * p->nvalues;
        }
        if (jobs > YEE_SWEEP_MAX_JOBS)
            yee_rd_error_line(&c, line0, "sweep", "%.0f jobs, more than %ld: check the ranges",
                              jobs, YEE_SWEEP_MAX_JOBS);
        out->njobs = (long)jobs;
    }
    rc = yee_rd_flush(&c);
    if (rc < 0)
        yee_sweep_spec_free(out);
    return rc;
}

void yee_sweep_job_indices(const yee_sweep_spec *s, long job, int *idx)
{
    /* product: the last parameter varies fastest, as nested loops in the order listed */
    for (int i = s->nparams - 1; i >= 0; i--) {
        if (s->zip) {
            idx[i] = (int)job;
        } else {
            idx[i] = (int)(job % s->params[i].nvalues);
            job /= s->params[i].nvalues;
        }
    }
}

/* ---------------------------------------------------------------------------------------------
 * Expressions
 * ------------------------------------------------------------------------------------------- */

typedef struct eparser {
    const char *p;
    int nvars;
    const char *const *names;
    const yee_pvalue *vals;
    int *used;    /* per variable, set when read (may be NULL) */
    char *msg;
    size_t msglen;
    int failed;
} eparser;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void efail(eparser *e, const char *fmt, ...)
{
    if (e->failed)
        return;
    e->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, e->msglen, fmt, ap);
    va_end(ap);
}

static void eskip(eparser *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static yee_pvalue mk_int(long long i)
{
    yee_pvalue v;
    memset(&v, 0, sizeof v);
    v.type = YEE_PV_INT;
    v.i = i;
    v.f = (double)i;
    return v;
}

static yee_pvalue mk_float(double f)
{
    yee_pvalue v;
    memset(&v, 0, sizeof v);
    v.type = YEE_PV_FLOAT;
    v.f = f;
    return v;
}

static yee_pvalue eexpr(eparser *e);
static yee_pvalue eunary(eparser *e);

/* Arithmetic needs numbers: a string parameter may only stand alone. */
static int need_number(eparser *e, const yee_pvalue *v)
{
    if (v->type == YEE_PV_STRING) {
        efail(e, "string value \"%s\" used in arithmetic (a string parameter can only stand "
                 "alone: ${name})", v->s);
        return 0;
    }
    return 1;
}

static yee_pvalue eprimary(eparser *e)
{
    eskip(e);
    const char *start = e->p;
    if (*e->p == '(') {
        e->p++;
        yee_pvalue v = eexpr(e);
        eskip(e);
        if (*e->p != ')')
            efail(e, "missing ')'");
        else
            e->p++;
        return v;
    }
    if (isdigit((unsigned char)*e->p) || (*e->p == '.' && isdigit((unsigned char)e->p[1]))) {
        char *end;
        errno = 0;
        double f = strtod(start, &end);
        size_t len = (size_t)(end - start);
        int is_float = memchr(start, '.', len) || memchr(start, 'e', len) ||
                       memchr(start, 'E', len);
        e->p = end;
        if (!is_float) {
            errno = 0;
            long long i = strtoll(start, &end, 10);
            if (errno == 0 && end == e->p)
                return mk_int(i);
        }
        if (!isfinite(f) || errno == ERANGE)
            efail(e, "number out of range: %.*s", (int)len, start);
        return mk_float(f);
    }
    if (isalpha((unsigned char)*e->p) || *e->p == '_') {
        while (isalnum((unsigned char)*e->p) || *e->p == '_')
            e->p++;
        size_t len = (size_t)(e->p - start);
        const char *best = NULL;
        int bestd = 99;
        for (int k = 0; k < e->nvars; k++) {
            if (strlen(e->names[k]) == len && strncmp(e->names[k], start, len) == 0) {
                if (e->used)
                    e->used[k] = 1;
                return e->vals[k];
            }
        }
        char name[YEE_NAME_LEN];
        snprintf(name, sizeof name, "%.*s", (int)len, start);
        for (int k = 0; k < e->nvars; k++) {
            int d = yee_edit_distance(name, e->names[k]);
            if (d < bestd && yee_close_enough(name, e->names[k], d))
                bestd = d, best = e->names[k];
        }
        if (best)
            efail(e, "unknown parameter '%s' (did you mean '%s'?)", name, best);
        else
            efail(e, "unknown parameter '%s'", name);
        return mk_int(0);
    }
    if (*e->p == '\0')
        efail(e, "expression ends too early");
    else
        efail(e, "unexpected '%c'", *e->p);
    return mk_int(0);
}

/* base ^ exponent: integers stay integers for exponents >= 0 (with overflow checks). */
static yee_pvalue epow(eparser *e, yee_pvalue a, yee_pvalue b)
{
    if (!need_number(e, &a) || !need_number(e, &b))
        return mk_int(0);
    if (a.type == YEE_PV_INT && b.type == YEE_PV_INT && b.i >= 0) {
        /* bases 0, 1, -1 never overflow, whatever the exponent: no loop over a huge one */
        if (a.i == 0 || a.i == 1)
            return mk_int(b.i == 0 ? 1 : a.i);
        if (a.i == -1)
            return mk_int(b.i % 2 ? -1 : 1);
        long long r = 1;
        for (long long k = 0; k < b.i; k++)
            if (__builtin_mul_overflow(r, a.i, &r)) { /* |a| >= 2: at most 63 rounds */
                efail(e, "integer overflow in %lld^%lld", a.i, b.i);
                return mk_int(0);
            }
        return mk_int(r);
    }
    return mk_float(pow(a.f, b.f));
}

static yee_pvalue epower(eparser *e)
{
    yee_pvalue a = eprimary(e);
    eskip(e);
    if (*e->p == '^') {
        e->p++;
        yee_pvalue b = eunary(e); /* right-associative: 2^3^2 = 2^(3^2) */
        return epow(e, a, b);
    }
    return a;
}

static yee_pvalue eunary(eparser *e)
{
    eskip(e);
    if (*e->p == '-' || *e->p == '+') {
        int neg = *e->p == '-';
        e->p++;
        yee_pvalue v = eunary(e);
        if (!neg || !need_number(e, &v))
            return v;
        if (v.type == YEE_PV_INT) {
            if (v.i == LLONG_MIN) {
                efail(e, "integer overflow");
                return mk_int(0);
            }
            return mk_int(-v.i);
        }
        return mk_float(-v.f);
    }
    return epower(e);
}

static yee_pvalue ebinary(eparser *e, char op, yee_pvalue a, yee_pvalue b)
{
    if (!need_number(e, &a) || !need_number(e, &b))
        return mk_int(0);
    if (op == '/') {
        if (b.f == 0) {
            efail(e, "division by zero");
            return mk_int(0);
        }
        return mk_float(a.f / b.f); /* always a float, as in Python 3: predictable types */
    }
    if (a.type == YEE_PV_INT && b.type == YEE_PV_INT) {
        long long r = 0;
        int ovf = op == '+' ? __builtin_add_overflow(a.i, b.i, &r)
                  : op == '-' ? __builtin_sub_overflow(a.i, b.i, &r)
                              : __builtin_mul_overflow(a.i, b.i, &r);
        if (ovf) {
            efail(e, "integer overflow in %lld %c %lld", a.i, op, b.i);
            return mk_int(0);
        }
        return mk_int(r);
    }
    return mk_float(op == '+' ? a.f + b.f : op == '-' ? a.f - b.f : a.f * b.f);
}

static yee_pvalue eterm(eparser *e)
{
    yee_pvalue v = eunary(e);
    for (;;) {
        eskip(e);
        char op = *e->p;
        if (op != '*' && op != '/')
            return v;
        e->p++;
        v = ebinary(e, op, v, eunary(e));
    }
}

static yee_pvalue eexpr(eparser *e)
{
    yee_pvalue v = eterm(e);
    for (;;) {
        eskip(e);
        char op = *e->p;
        if (op != '+' && op != '-')
            return v;
        e->p++;
        v = ebinary(e, op, v, eterm(e));
    }
}

static int expr_eval_used(const char *expr, int nvars, const char *const *names,
                          const yee_pvalue *vals, int *used, yee_pvalue *out, char *msg,
                          size_t msglen)
{
    eparser e;
    memset(&e, 0, sizeof e);
    e.p = expr;
    e.nvars = nvars;
    e.names = names;
    e.vals = vals;
    e.used = used;
    e.msg = msg;
    e.msglen = msglen;
    msg[0] = '\0';
    eskip(&e);
    if (*e.p == '\0') {
        snprintf(msg, msglen, "empty expression");
        return -1;
    }
    *out = eexpr(&e);
    eskip(&e);
    if (!e.failed && *e.p != '\0')
        efail(&e, *e.p == ')' ? "unbalanced ')'" : "unexpected '%c'", *e.p);
    if (!e.failed && out->type == YEE_PV_FLOAT && !isfinite(out->f))
        efail(&e, "the value is not a finite number");
    return e.failed ? -1 : 0;
}

int yee_expr_eval(const char *expr, int nvars, const char *const *names, const yee_pvalue *vals,
                  yee_pvalue *out, char *msg, size_t msglen)
{
    return expr_eval_used(expr, nvars, names, vals, NULL, out, msg, msglen);
}

void yee_pvalue_format(const yee_pvalue *v, int in_string, char *buf, size_t n)
{
    if (v->type == YEE_PV_INT) {
        snprintf(buf, n, "%lld", v->i);
        return;
    }
    if (v->type == YEE_PV_STRING) {
        snprintf(buf, n, in_string ? "%s" : "\"%s\"", v->s);
        return;
    }
    char tmp[48];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v->f);
        if (strtod(tmp, NULL) == v->f)
            break;
    }
    /* libconfig types 2 as an int: a float must show it is one */
    if (!in_string && !strpbrk(tmp, ".eEn"))
        strcat(tmp, ".0");
    snprintf(buf, n, "%s", tmp);
}

/* ---------------------------------------------------------------------------------------------
 * Resolving a job's deck
 * ------------------------------------------------------------------------------------------- */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    int nomem;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->nomem)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *s2 = (char *)realloc(b->s, cap);
        if (!s2) {
            b->nomem = 1;
            return;
        }
        b->s = s2;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void sb_str(sbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

int yee_sweep_resolve(const yee_sweep_spec *s, const char *deck_path, const char *text, long job,
                      const char *include_prefix, char **out, int *unused, yee_err *err)
{
    *out = NULL;
    if (err)
        err->msg[0] = '\0';
    yee_rd c;
    yee_rd_init(&c, deck_path, err, 0);
    size_t n = strlen(text);
    char *cls = classify(text, n);
    int np = s->nparams;
    int *idx = (int *)calloc((size_t)np + 1, sizeof *idx);
    int *used = (int *)calloc((size_t)np + 1, sizeof *used);
    const char **names = (const char **)calloc((size_t)np + 1, sizeof *names);
    yee_pvalue *vals = (yee_pvalue *)calloc((size_t)np + 1, sizeof *vals);
    sbuf b = {NULL, 0, 0, 0};
    if (!cls || !idx || !used || !names || !vals) {
        b.nomem = 1;
        goto done;
    }
    yee_sweep_job_indices(s, job, idx);
    for (int i = 0; i < np; i++) {
        names[i] = s->params[i].name;
        vals[i] = s->params[i].values[idx[i]];
    }

    /* line 1 starts with a comment naming the job: no line moves */
    char head[160];
    snprintf(head, sizeof head, "/* yee sweep job %ld of %ld:", job + 1, s->njobs);
    sb_str(&b, head);
    for (int i = 0; i < np; i++) {
        char v[80];
        yee_pvalue_format(&vals[i], 1, v, sizeof v);
        snprintf(head, sizeof head, "%s %s = %s", i ? "," : "", names[i], v);
        sb_str(&b, head);
    }
    sb_str(&b, " */ ");

    int want_include = 0;
    for (size_t i = 0; i < n && !b.nomem;) {
        if (i >= s->sec_begin && i < s->sec_end) {
            /* the sweep section goes; its newlines stay, so every line keeps its number */
            if (text[i] == '\n' || i == s->sec_begin)
                sb_put(&b, text[i] == '\n' ? "\n" : " ", 1);
            i++;
            continue;
        }
        if (cls[i] == C_CODE && strncmp(text + i, "@include", 8) == 0) {
            want_include = 1;
        } else if (want_include && cls[i] == C_STRING && text[i] == '"') {
            want_include = 0;
            sb_put(&b, "\"", 1);
            i++;
            if (include_prefix && include_prefix[0] && text[i] != '/')
                sb_str(&b, include_prefix);
            continue;
        }
        if (cls[i] == C_COMMENT || text[i] != '$' || i + 1 >= n || text[i + 1] != '{') {
            sb_put(&b, text + i, 1);
            i++;
            continue;
        }
        /* ${ ... } must close on the same line and in the same class (code or one string) */
        size_t j = i + 2;
        while (j < n && text[j] != '}' && text[j] != '\n' && cls[j] == cls[i])
            j++;
        int line = line_at(text, i);
        if (j >= n || text[j] != '}') {
            yee_rd_error_line(&c, line, NULL, "unterminated placeholder %.*s (a ${...} ends "
                              "with '}' on the same line)", (int)((j - i) < 40 ? (j - i) : 40),
                              text + i);
            i = j;
            continue;
        }
        char expr[256];
        snprintf(expr, sizeof expr, "%.*s", (int)(j - i - 2), text + i + 2);
        char msg[256];
        yee_pvalue v;
        if (expr_eval_used(expr, np, names, vals, used, &v, msg, sizeof msg) < 0) {
            /* "unknown parameter 'x' (did you mean 'y'?)" reads best with the ${...} in between */
            const char *hint = strstr(msg, " (did you mean");
            if (hint)
                yee_rd_error_line(&c, line, NULL, "%.*s in ${%s}%s", (int)(hint - msg), msg,
                                  expr, hint);
            else
                yee_rd_error_line(&c, line, NULL, "%s in ${%s}", msg, expr);
        } else {
            char val[96];
            yee_pvalue_format(&v, cls[i] == C_STRING, val, sizeof val);
            sb_str(&b, val);
        }
        i = j + 1;
    }
done:
    free(cls);
    free(idx);
    free(names);
    free(vals);
    if (unused)
        for (int i = 0; i < np; i++)
            unused[i] = used ? !used[i] : 0;
    free(used);
    if (b.nomem) {
        free(b.s);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "out of memory resolving '%s'", deck_path);
    }
    if (yee_rd_flush(&c) < 0) {
        free(b.s);
        return YEE_ERR_DECK;
    }
    *out = b.s;
    return YEE_OK;
}
