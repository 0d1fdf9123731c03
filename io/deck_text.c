/* io/deck_text.c -- reading a deck's text and its @includes (io/deck_text.h).
 *
 * A small scanner of libconfig's lexical grammar: comments and strings are copied untouched,
 * numbers and bare words are looked at, brackets are tracked to count a group's keys. It does
 * not parse: libconfig does that next, on the string built here.
 */
#include "io/deck_text.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct scan {
    yee_deck_text *t;
    yee_err *err;
    int rc;
} scan;

static int grow(yee_deck_text *t, size_t extra)
{
    if (t->len + extra + 1 <= t->cap)
        return 0;
    size_t cap = 2 * t->cap + extra + 4096;
    char *p = (char *)realloc(t->text, cap);
    if (!p)
        return -1;
    t->text = p;
    t->cap = cap;
    return 0;
}

static int put(scan *s, const char *p, size_t n)
{
    if (grow(s->t, n) < 0) {
        s->rc = yee_fail(s->err, YEE_ERR_NOMEM, "out of memory reading the deck");
        return -1;
    }
    memcpy(s->t->text + s->t->len, p, n);
    s->t->len += n;
    s->t->text[s->t->len] = '\0';
    return 0;
}

/* Ends a line of the string: it came from line `line` of file `fi`. */
static int end_line(scan *s, int fi, int line)
{
    yee_deck_text *t = s->t;
    if (t->nlines == t->cap_lines) {
        int cap = 2 * t->cap_lines + 256;
        int *f = (int *)realloc(t->file, (size_t)cap * sizeof(int));
        if (f)
            t->file = f;
        int *l = f ? (int *)realloc(t->line, (size_t)cap * sizeof(int)) : NULL;
        if (!f || !l) {
            s->rc = yee_fail(s->err, YEE_ERR_NOMEM, "out of memory reading the deck");
            return -1;
        }
        t->line = l;
        t->cap_lines = cap;
    }
    t->file[t->nlines] = fi;
    t->line[t->nlines] = line;
    t->nlines++;
    return put(s, "\n", 1);
}

static int fail(scan *s, const char *file, int line, const char *fmt, const char *a, const char *b)
{
    char what[1024];
    snprintf(what, sizeof what, fmt, a, b);
    s->rc = yee_fail(s->err, YEE_ERR_DECK, "%s:%d: error: %s", file, line, what);
    return -1;
}

/* Length of the UTF-8 sequence at p (n bytes left), 0 when it is not valid UTF-8. */
static int utf8_len(const unsigned char *p, size_t n)
{
    int len = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3
            : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || (size_t)len > n || (len == 2 && p[0] < 0xC2))
        return 0;
    for (int i = 1; i < len; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

static int is_word(int ch)
{
    return isalnum(ch) || ch == '_' || ch == '*' || ch == '-';
}

typedef struct brace {
    char kind;  /* '{' (a group: the root too), '(' or '[' */
    int keys;   /* named members so far (groups) */
    int line;
} brace;

#define MAX_NEST 256

static int expand(scan *s, const char *path, int depth, const char *from, int from_line,
                  char **stack);

/* The directory part of path ("" for none), with its slash. */
static void dir_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    size_t len = slash ? (size_t)(slash - path) + 1 : 0;
    if (len >= n)
        len = n - 1;
    memcpy(dir, path, len);
    dir[len] = '\0';
}

/* One file's text b (n bytes, file index fi, shown as `name`) into the string. */
static int scan_file(scan *s, const char *name, int fi, const char *b, size_t n, int depth,
                     char **stack)
{
    brace nest[MAX_NEST];
    int nn = 1, line = 1, bol = 1;
    nest[0].kind = '{', nest[0].keys = 0, nest[0].line = 1;
    char prev = '='; /* last non-space character outside comments: what a word follows */
    size_t i = 0;
    if (n >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0)
        return fail(s, name, 1, "the file starts with a UTF-8 byte order mark; save it without "
                    "one (in most editors: encoding \"UTF-8\", not \"UTF-8 with BOM\")", "", "");
    for (size_t q = 0, l = 1; q < n;) { /* bytes first: libconfig stops at NUL, says little else */
        if (b[q] == '\0')
            return fail(s, name, (int)l, "the file holds a NUL byte: is it a deck (a text file)?",
                        "", "");
        int len = utf8_len((const unsigned char *)b + q, n - q);
        if (!len) {
            char byte[8];
            snprintf(byte, sizeof byte, "0x%02x", (unsigned char)b[q]);
            return fail(s, name, (int)l, "byte %s is not UTF-8: save the deck as UTF-8 text%s",
                        byte, "");
        }
        l += b[q] == '\n';
        q += (size_t)len;
    }
    while (i < n) {
        char ch = b[i];
        if (ch == '\n') {
            if (end_line(s, fi, line) < 0)
                return -1;
            line++, i++, bol = 1;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\r') {
            if (put(s, &b[i++], 1) < 0)
                return -1;
            continue;
        }
        if (bol && ch == '@' && n - i >= 8 && strncmp(b + i, "@include", 8) == 0) {
            size_t j = i + 8;
            while (j < n && (b[j] == ' ' || b[j] == '\t'))
                j++;
            size_t q0 = j + 1, q1 = q0;
            while (q1 < n && b[q1] != '"' && b[q1] != '\n')
                q1++;
            if (j >= n || b[j] != '"' || q1 >= n || b[q1] != '"')
                return fail(s, name, line, "@include wants a file name in double quotes", "",
                            "");
            char inc[4096], dir[4096], full[8192];
            snprintf(inc, sizeof inc, "%.*s", (int)(q1 - q0), b + q0);
            dir_of(name, dir, sizeof dir);
            snprintf(full, sizeof full, "%s%s", inc[0] == '/' ? "" : dir, inc);
            if (expand(s, full, depth + 1, name, line, stack) < 0)
                return -1;
            i = q1 + 1;
            bol = 0;
            continue;
        }
        bol = 0;
        if (ch == '#' || (ch == '/' && i + 1 < n && b[i + 1] == '/')) {
            size_t j = i;
            while (j < n && b[j] != '\n')
                j++;
            if (put(s, b + i, j - i) < 0)
                return -1;
            i = j;
            continue;
        }
        if (ch == '/' && i + 1 < n && b[i + 1] == '*') {
            size_t j = i + 2;
            int start = line;
            while (j + 1 < n && !(b[j] == '*' && b[j + 1] == '/'))
                j++;
            if (j + 1 >= n)
                return fail(s, name, start, "unterminated comment: /* without */", "", "");
            for (size_t q = i; q < j + 2; q++) {
                if (b[q] == '\n') {
                    if (end_line(s, fi, line++) < 0)
                        return -1;
                } else if (put(s, b + q, 1) < 0) {
                    return -1;
                }
            }
            i = j + 2;
            continue;
        }
        if (ch == '"') {
            size_t j = i + 1;
            while (j < n && b[j] != '"' && b[j] != '\n')
                j += (b[j] == '\\' && j + 1 < n && b[j + 1] != '\n') ? 2 : 1;
            if (j >= n || b[j] != '"')
                return fail(s, name, line, "unterminated string: a \" without its closing \" "
                            "on the same line", "", "");
            if (put(s, b + i, j + 1 - i) < 0)
                return -1;
            i = j + 1;
            prev = '"';
            continue;
        }
        if (isdigit((unsigned char)ch) || (ch == '.' && i + 1 < n && isdigit((unsigned char)b[i + 1]))) {
            size_t j = i;
            int hex = ch == '0' && i + 1 < n && (b[i + 1] == 'x' || b[i + 1] == 'X');
            while (j < n && (isalnum((unsigned char)b[j]) || b[j] == '.' || b[j] == '_' ||
                             (!hex && (b[j] == '+' || b[j] == '-') &&
                              (b[j - 1] == 'e' || b[j - 1] == 'E'))))
                j++;
            size_t k = hex ? i + 2 : i;
            while (k < j && isxdigit((unsigned char)b[k]) && (hex || isdigit((unsigned char)b[k])))
                k++;
            char tok[64];
            snprintf(tok, sizeof tok, "%.*s", (int)(j - i < 60 ? j - i : 60), b + i);
            if (k == j && k > (hex ? i + 2 : i)) { /* an integer without suffix */
                errno = 0;
                unsigned long long v = strtoull(b + i, NULL, hex ? 16 : 10);
                int neg = prev == '-';
                if (errno == ERANGE || (!hex && v > (unsigned long long)LLONG_MAX + (unsigned)neg))
                    return fail(s, name, line, "the integer %s%s does not fit in 64 bits",
                                neg ? "-" : "", tok);
                if (put(s, b + i, j - i) < 0)
                    return -1;
                if (v > (unsigned long long)INT_MAX + (unsigned)neg && !hex && put(s, "L", 1) < 0)
                    return -1;
                if (hex && v > 0xffffffffull && put(s, "L", 1) < 0)
                    return -1;
            } else if (put(s, b + i, j - i) < 0) {
                return -1;
            }
            i = j;
            prev = '0';
            continue;
        }
        if (isalpha((unsigned char)ch) || ch == '_' || ch == '*') {
            size_t j = i;
            while (j < n && is_word((unsigned char)b[j]))
                j++;
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(j - i < 60 ? j - i : 60), b + i);
            size_t k = j;
            while (k < n && (b[k] == ' ' || b[k] == '\t' || b[k] == '\r'))
                k++;
            int is_key = k < n && (b[k] == '=' || b[k] == ':');
            if (!is_key && strchr("=:,[(+-", prev) && (strcasecmp(word, "nan") == 0 ||
                strcasecmp(word, "inf") == 0 || strcasecmp(word, "infinity") == 0))
                return fail(s, name, line, "`%s` is not a number a deck accepts (NaN and "
                            "infinity are not numbers: write a finite value)", word, "");
            if (is_key && nest[nn - 1].kind == '{' &&
                ++nest[nn - 1].keys > YEE_DECK_MAX_GROUP_KEYS) {
                char at[32];
                snprintf(at, sizeof at, "%d", nest[nn - 1].line);
                return fail(s, name, line, "more than %s keys in the group that starts at line "
                            "%s (no group of a deck has 100 keys: a generated or corrupt deck?)",
                            "1000", at);
            }
            if (put(s, b + i, j - i) < 0)
                return -1;
            i = j;
            prev = 'a';
            continue;
        }
        if (ch == '{' || ch == '(' || ch == '[') {
            if (nn == MAX_NEST)
                return fail(s, name, line, "brackets nested more than 256 deep", "", "");
            nest[nn].kind = ch, nest[nn].keys = 0, nest[nn].line = line;
            nn++;
        } else if ((ch == '}' || ch == ')' || ch == ']') && nn > 1) {
            nn--;
        }
        if (put(s, &b[i++], 1) < 0)
            return -1;
        prev = ch;
    }
    (void)depth;
    (void)stack;
    return 0;
}

/* Reads `path` (an @include of from:from_line, or the deck when from is NULL) into the string. */
static int expand(scan *s, const char *path, int depth, const char *from, int from_line,
                  char **stack)
{
    yee_deck_text *t = s->t;
    char where[4200];
    if (from)
        snprintf(where, sizeof where, "%s:%d: error: @include \"%s\"", from, from_line, path);
    if (from && depth > YEE_DECK_MAX_INCLUDE_DEPTH)
        return s->rc = yee_fail(s->err, YEE_ERR_DECK, "%s: includes nested more than %d deep "
                                "(an include cycle?)", where, YEE_DECK_MAX_INCLUDE_DEPTH);
    struct stat st;
    if (stat(path, &st) != 0) {
        if (from)
            return s->rc = yee_fail(s->err, YEE_ERR_DECK, "%s: cannot open '%s': %s", where,
                                    path, strerror(errno));
        return s->rc = yee_fail(s->err, YEE_ERR_IO, "cannot open deck '%s': %s", path,
                                strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) {
        if (from)
            return s->rc = yee_fail(s->err, YEE_ERR_DECK, "%s: '%s' is a directory, not a file",
                                    where, path);
        return s->rc = yee_fail(s->err, YEE_ERR_IO, "cannot read deck '%s': it is a directory, "
                                "not a deck file", path);
    }
    char *real = realpath(path, NULL);
    for (int d = 0; real && d < depth; d++)
        if (stack[d] && strcmp(stack[d], real) == 0) {
            free(real);
            return s->rc = yee_fail(s->err, YEE_ERR_DECK, "%s: includes itself (an include "
                                    "cycle)", where);
        }
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        free(real);
        if (from)
            return s->rc = yee_fail(s->err, YEE_ERR_DECK, "%s: cannot open '%s': %s", where,
                                    path, strerror(errno));
        return s->rc = yee_fail(s->err, YEE_ERR_IO, "cannot open deck '%s': %s", path,
                                strerror(errno));
    }
    size_t cap = (size_t)st.st_size + 1, n = 0, got;
    char *b = (char *)malloc(cap);
    while (b && (got = fread(b + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = (char *)realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    int ioerr = ferror(fp);
    fclose(fp);
    if (!b || ioerr) {
        free(b);
        free(real);
        return s->rc = b ? yee_fail(s->err, YEE_ERR_IO, "cannot read '%s'", path)
                         : yee_fail(s->err, YEE_ERR_NOMEM, "out of memory reading '%s'", path);
    }
    char **files = (char **)realloc(t->files, (size_t)(t->nfiles + 1) * sizeof(char *));
    char *copy = files ? strdup(path) : NULL;
    if (files)
        t->files = files;
    if (!copy) {
        free(b);
        free(real);
        return s->rc = yee_fail(s->err, YEE_ERR_NOMEM, "out of memory reading '%s'", path);
    }
    int fi = t->nfiles++;
    t->files[fi] = copy;
    stack[depth] = real;
    int rc = scan_file(s, copy, fi, b, n, depth, stack);
    stack[depth] = NULL;
    free(real);
    free(b);
    return rc < 0 ? -1 : 0;
}

int yee_deck_text_read(const char *path, yee_deck_text *t, yee_err *err)
{
    memset(t, 0, sizeof *t);
    scan s;
    s.t = t;
    s.err = err;
    s.rc = 0;
    char *stack[YEE_DECK_MAX_INCLUDE_DEPTH + 2];
    memset(stack, 0, sizeof stack);
    if (expand(&s, path, 0, NULL, 0, stack) < 0)
        return s.rc < 0 ? s.rc : YEE_ERR_DECK;
    if (put(&s, "", 0) < 0 || end_line(&s, 0, t->nlines ? t->line[t->nlines - 1] + 1 : 1) < 0)
        return s.rc;
    return YEE_OK;
}

void yee_deck_text_place(const yee_deck_text *t, int line, const char **file, int *fline)
{
    if (!t || line < 1 || line > t->nlines) {
        *file = NULL;
        *fline = line;
        return;
    }
    *file = t->files[t->file[line - 1]];
    *fline = t->line[line - 1];
}

void yee_deck_text_free(yee_deck_text *t)
{
    for (int i = 0; i < t->nfiles; i++)
        free(t->files[i]);
    free(t->files);
    free(t->text);
    free(t->file);
    free(t->line);
    memset(t, 0, sizeof *t);
}
