/* io/deck_text.h -- the deck's text as libconfig gets it: @include expanded, checked for what
 * libconfig 1.5 would misreport or silently misread, with a map back to file:line.
 *
 * Contract: yee_deck_text_read reads the deck and, recursively, the files it @includes (an
 * absolute path as written, a relative one against the directory of the file that includes it,
 * at most YEE_DECK_MAX_INCLUDE_DEPTH deep, no cycles) into one string, and refuses with
 * "FILE:LINE: error: ..." what libconfig would report as a bare "syntax error" or not at all:
 *   - a UTF-8 byte order mark, a NUL byte, bytes that are not UTF-8, an unterminated string;
 *   - nan / inf literals (not numbers a deck accepts);
 *   - integers past 64 bits;
 *   - a group with more than YEE_DECK_MAX_GROUP_KEYS keys (libconfig's duplicate check makes
 *     reading one quadratic: 40 000 keys took 36 s; no group of the schema has 100).
 * Decimal integers past 32 bits get libconfig's `L` suffix in the copy: libconfig 1.5 cuts an
 * unsuffixed 10000000000 to 1410065408 without a word, and the key's range check in the deck
 * reader must see the real value. Only characters are inserted within lines, never lines, so
 * yee_deck_text_place maps a line of the string back to its file and line.
 */
#ifndef YEE_IO_DECK_TEXT_H
#define YEE_IO_DECK_TEXT_H

#include <stddef.h>

#include "common/yee_err.h"

#define YEE_DECK_MAX_INCLUDE_DEPTH 16
#define YEE_DECK_MAX_GROUP_KEYS 1000

typedef struct yee_deck_text {
    char *text;      /* NUL-terminated, no @include left */
    size_t len, cap;
    int nlines, cap_lines;
    int *file, *line; /* per line of text (0-based index): file index and line in that file */
    char **files;    /* files[0] is the deck path as given */
    int nfiles;
} yee_deck_text;

/* Reads `path` into t (zeroed first; free with yee_deck_text_free, also after a failure).
 * Returns YEE_OK, YEE_ERR_IO (deck missing or unreadable), YEE_ERR_DECK or YEE_ERR_NOMEM. */
int yee_deck_text_read(const char *path, yee_deck_text *t, yee_err *err);

/* The file and line of line `line` (1-based) of t->text; *file is NULL when out of range. */
void yee_deck_text_place(const yee_deck_text *t, int line, const char **file, int *fline);

void yee_deck_text_free(yee_deck_text *t);

#endif
