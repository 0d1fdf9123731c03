/* io/deck_reader.h -- reading typed values out of a parsed deck, and collecting its errors.
 *
 * Contract: one reader for every part of the deck language. io/deck.c's section loaders and
 * io/params.c's sweep reader look every key up through these getters, which check it against
 * the key table (io/deck_schema.h): its type, its range or choices, and its presence when the
 * table marks it required. Problems never stop the reading: each one is recorded in the reader
 * (yee_rd) with its place, and yee_rd_flush writes them all at once into the caller's yee_err,
 * one per line, sorted by deck line (--set arguments last), like a compiler:
 *   dipole.cfg:14: error: sources[0].wavelength: must be > 0 (got -1)
 *   --set sources[0].wavelength=-1: error: sources[0].wavelength: must be > 0 (got -1)
 * Warnings go to stderr at once (not on MPI ranks other than 0: `quiet`).
 * Only io/ includes this header (it includes libconfig.h); nothing here allocates for the run.
 */
#ifndef YEE_IO_DECK_READER_H
#define YEE_IO_DECK_READER_H

#include <libconfig.h>
#include <stddef.h>

#include "common/yee_err.h"
#include "io/deck_schema.h"

#if defined(__GNUC__)
#define YEE_RD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define YEE_RD_PRINTF(a, b)
#endif

/* ---- the number tests of a setting ---- */

/* An int, int64 or float setting. */
static inline int yee_cfg_is_number(const config_setting_t *s)
{
    int t = config_setting_type(s);
    return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64 || t == CONFIG_TYPE_FLOAT;
}

/* An int or int64 setting. */
static inline int yee_cfg_is_int(const config_setting_t *s)
{
    int t = config_setting_type(s);
    return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

/* The value of a number setting as a double. */
static inline double yee_cfg_number(const config_setting_t *s)
{
    return yee_cfg_is_int(s) ? (double)config_setting_get_int64(s) : config_setting_get_float(s);
}

/* ---- the error collection ---- */

/* More are counted, not kept: the flush ends with "... and N more errors". Twenty fill a
 * screen; a deck with more has one mistake repeated, or is not a deck. */
#define YEE_RD_MAX_ERRORS 20
#define YEE_RD_ORDER_SET 0x7fffffffL /* sort key of --set diagnostics: after every deck line */

typedef struct yee_rd_diag {
    long order; /* deck line, or YEE_RD_ORDER_SET */
    char text[360];
} yee_rd_diag;

typedef struct yee_rd {
    const char *path; /* deck path as the user gave it */
    yee_err *err;
    int nerr;
    int quiet;        /* suppress warnings (MPI ranks other than 0) */
    const struct yee_deck_text *text; /* maps lines of the parsed text to file:line, or NULL */
    yee_rd_diag diags[YEE_RD_MAX_ERRORS];
} yee_rd;

/* An empty reader for the deck `path` (kept by pointer) reporting into err. */
void yee_rd_init(yee_rd *c, const char *path, yee_err *err, int quiet);

/* Writes the recorded errors to c->err (appended, stably sorted by order, then a count of those
 * not kept). Returns YEE_OK when there were none, else YEE_ERR_DECK. */
int yee_rd_flush(yee_rd *c);

/* Records one finished line of text (no location added) under sort key `order`. */
void yee_rd_push(yee_rd *c, long order, const char *fmt, ...) YEE_RD_PRINTF(3, 4);

/* Records "WHERE: error: KEY: what", WHERE being the place of setting s (yee_rd_locate). */
void yee_rd_error(yee_rd *c, const config_setting_t *s, const char *key, const char *fmt, ...)
    YEE_RD_PRINTF(4, 5);

/* Prints "WHERE: warning: KEY: what" to stderr now, unless c->quiet. */
void yee_rd_warn(yee_rd *c, const config_setting_t *s, const char *key, const char *fmt, ...)
    YEE_RD_PRINTF(4, 5);

/* Records "PATH:LINE: error: KEY: what" (key NULL: "PATH:LINE: error: what") for a place known
 * by its line only (deck text that libconfig has not parsed, a setting already destroyed). */
void yee_rd_error_line(yee_rd *c, int line, const char *key, const char *fmt, ...)
    YEE_RD_PRINTF(4, 5);

/* Writes the place of setting s into buf: the --set argument that made it (or an ancestor, or
 * an element of it), else its file:line, else its nearest ancestor's, else the deck path.
 * Returns the sort key: the line, YEE_RD_ORDER_SET, or 0. */
long yee_rd_locate(const yee_rd *c, const config_setting_t *s, char *buf, size_t n);

/* The line of setting s in its own file (the deck or an @included one), 0 when unknown. */
int yee_rd_line(const yee_rd *c, const config_setting_t *s);

/* The value of s as shown after "got": as the user would type it (800.0 stays a float). */
const char *yee_rd_got(const config_setting_t *s, char *buf, size_t n);

/* ---- scopes and keys ---- */

/* A group being read: its setting, its schema path ("sources[]") and its key path as shown to
 * the user ("sources[0]"). The root has empty paths. */
typedef struct yee_rd_scope {
    const config_setting_t *s;
    const char *pat; /* kept by pointer */
    char key[96];
} yee_rd_scope;

/* The scope of group s (the root: pat and key ""); key is copied (cut at 95 characters). */
void yee_rd_scope_init(yee_rd_scope *sc, const config_setting_t *s, const char *pat,
                       const char *key);

/* "prefix.name", or "name" when prefix is empty. */
void yee_rd_key(char *buf, size_t n, const char *prefix, const char *name);

/* 1 when s is a name: non-empty, only A-Z a-z 0-9 _ . - (run, material, monitor, column). */
int yee_rd_valid_name(const char *s);

/* The limit of an integer key whose table entry gives none (2^31 - 1): integers up to 64 bits
 * are read exactly, and one past this is an error naming the key, never cut to 32 bits. */
#define YEE_RD_INT_LIMIT 2147483647LL

/* ---- typed getters ----
 * Each looks `name` up in the scope and its key in the table (a key missing from the table is
 * reported as an internal error), reports a missing required key, and returns 0 when the key is
 * absent (outputs that have a table default get it: dval), 1 when present and valid, -1 when
 * present and invalid (reported). Ranges are the table's, applied to every number. */

int yee_rd_num(yee_rd *c, const yee_rd_scope *sc, const char *name, double *out);
int yee_rd_long(yee_rd *c, const yee_rd_scope *sc, const char *name, long *out);
int yee_rd_bool(yee_rd *c, const yee_rd_scope *sc, const char *name, int *out);

/* A string; *out points into the config tree (valid until config_destroy), NULL when absent;
 * *where (may be NULL) gets the setting. */
int yee_rd_string(yee_rd *c, const yee_rd_scope *sc, const char *name, const char **out,
                  const config_setting_t **where);

/* A name string (yee_rd_valid_name) shorter than n, copied into out; out is unchanged unless 1.
 * *where (may be NULL) gets the setting. */
int yee_rd_name(yee_rd *c, const yee_rd_scope *sc, const char *name, char *out, size_t n,
                const config_setting_t **where);

/* A choice; *out gets its index in the table's choices, or stays as given unless 1. An unknown
 * value is reported with the closest choice as a hint. *where (may be NULL) gets the setting. */
int yee_rd_choice(yee_rd *c, const yee_rd_scope *sc, const char *name, int *out,
                  const config_setting_t **where);

/* [x, y, z]; out is unchanged unless 1. With scalar_ok a single number fills all three. */
int yee_rd_vec3_ex(yee_rd *c, const yee_rd_scope *sc, const char *name, double out[3],
                   int scalar_ok);
int yee_rd_vec3(yee_rd *c, const yee_rd_scope *sc, const char *name, double out[3]);

/* One int for all six faces, or six ints. */
int yee_rd_int6(yee_rd *c, const yee_rd_scope *sc, const char *name, int out[6]);

/* [i, j, k] integers; out is unchanged unless 1. */
int yee_rd_int3(yee_rd *c, const yee_rd_scope *sc, const char *name, int out[3]);

/* A non-empty array or list (of strings, say) under `name` into *out (NULL when absent): returns
 * its length, 0 when absent, -1 when it is none or empty (reported as "must be a non-empty list
 * of WHAT (got ...)"). key gets its user path; read the elements with yee_rd_elem. */
int yee_rd_strings(yee_rd *c, const yee_rd_scope *sc, const char *name, const char *what,
                   char *key, size_t keylen, const config_setting_t **out);

/* Element i of array or list s (user path key) and its path "key[i]" in ekey. */
const config_setting_t *yee_rd_elem(const config_setting_t *s, int i, const char *key,
                                    char *ekey, size_t n);

/* ( [a, b], ... ) of at least min pairs -> *xy (malloc'd, 2 per pair, caller frees), *n pairs;
 * `pair` names one element in messages ("[u, v]"). */
int yee_rd_pairs(yee_rd *c, const yee_rd_scope *sc, const char *name, int min, const char *pair,
                 double **xy, int *n);

/* A group member; fills *out as the scope of that group (zeroed unless 1) and reports its
 * unknown keys (yee_rd_check_unknown). */
int yee_rd_group(yee_rd *c, const yee_rd_scope *sc, const char *name, yee_rd_scope *out);

/* A list of groups ( {...}, ... ); an empty array [] or () is an empty list. *out NULL unless 1. */
int yee_rd_list(yee_rd *c, const yee_rd_scope *sc, const char *name,
                const config_setting_t **out);

/* Element i of list as the scope "key[i]" with schema path pat, its unknown keys reported
 * (yee_rd_check_unknown); 0 (reported) when it is not a group, else 1. */
int yee_rd_list_elem(yee_rd *c, const config_setting_t *list, const char *pat, const char *key,
                     int i, yee_rd_scope *out);

/* ---- whole-group checks ---- */

/* Reports members of the scope's group that the table does not know there, with a hint. */
void yee_rd_check_unknown(yee_rd *c, const yee_rd_scope *sc);

/* Reports keys that the table restricts ("only") to another value of the sibling key, e.g. a
 * snapshot's `interval` on a probe. `value` is the sibling's value; NULL (invalid) checks none. */
void yee_rd_check_only(yee_rd *c, const yee_rd_scope *sc, const char *sibling, const char *value);

#endif
