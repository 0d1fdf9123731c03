/* io/deck_schema.h -- the one table of deck keys: every key a deck may hold, the `sweep`
 * section's included, with its type, unit, default, range or choices and documentation.
 *
 * Contract: the table is the only list of keys. The deck reader (io/deck_reader.h) checks types,
 * ranges, choices, required keys and unknown keys against it, for io/deck.c's section loaders
 * and io/params.c's sweep reader alike; `yee deck-keys` prints it (yee_deck_print_keys, io/deck.h)
 * and a test compares that with docs/deck.md. Paths are written as in the docs with `[]` for any
 * list index ("sources[].type"). Nothing here reads a deck or includes libconfig.h.
 */
#ifndef YEE_IO_DECK_SCHEMA_H
#define YEE_IO_DECK_SCHEMA_H

#include <stddef.h>

typedef enum yee_key_type {
    YEE_KT_GROUP,         /* { ... } */
    YEE_KT_LIST,          /* ( {...}, {...} ) of groups */
    YEE_KT_INT,
    YEE_KT_FLOAT,         /* an int is accepted too */
    YEE_KT_BOOL,
    YEE_KT_STRING,
    YEE_KT_CHOICE,        /* a string out of `choices` */
    YEE_KT_VEC3,          /* [x, y, z] numbers */
    YEE_KT_FLOAT_OR_VEC3, /* one number for all axes, or [x, y, z] */
    YEE_KT_INT_OR_6,      /* one int for all faces, or six */
    YEE_KT_STRLIST,       /* non-empty ["a", "b"] */
    YEE_KT_POINTS2,       /* ( [u, v], [u, v], ... ): polygon vertices */
    YEE_KT_INT3,          /* [i, j, k] integers */
    YEE_KT_VALUES         /* [a, b, ...] numbers or strings (sweep parameter values) */
} yee_key_type;

/* Largest source amplitude (and amplitude x table value) a deck may give: fields are 32-bit
 * floats, which end at 3.4e38, and a source's field grows well past its amplitude. */
#define YEE_SOURCE_PEAK_MAX 1e30

/* Range flags (applied to every number of the value, vector elements included) and presence. */
enum {
    YEE_R_GT = 1u << 0, /* value > lo */
    YEE_R_GE = 1u << 1, /* value >= lo */
    YEE_R_LT = 1u << 2, /* value < hi */
    YEE_R_LE = 1u << 3, /* value <= hi */
    YEE_R_NONZERO = 1u << 4,
    YEE_K_REQ = 1u << 5 /* missing is an error (conditional requirements are checked in code) */
};

typedef struct yee_deck_key {
    const char *path;    /* "grid.size", "sources[].wavelength": [] stands for any list index */
    yee_key_type type;
    const char *unit;    /* "-" when dimensionless */
    const char *def;     /* default as documented; "required" or "-" (none) */
    double dval;         /* numeric default the getters return when the key is absent */
    unsigned flags;
    double lo, hi;
    const char *choices; /* YEE_KT_CHOICE: "a|b|c" */
    const char *only;    /* "profile=gaussian": allowed only when the sibling key has that value */
    const char *doc;
} yee_deck_key;

/* The key with this schema path, or NULL. */
const yee_deck_key *yee_schema_find(const char *path);

/* The i-th key in documentation order (0-based), or NULL past the end. */
const yee_deck_key *yee_schema_at(int i);

/* The leaf of the key under the schema path `parent` ("" for the top level) closest to the
 * unknown `name` by edit distance (common/yee_hint.h), or NULL when none is close enough. */
const char *yee_schema_suggest(const char *parent, const char *name);

/* The range of k as prose ("> 0", "in (0, 1]", "nonzero"); "" when unrestricted. */
void yee_schema_range_text(const yee_deck_key *k, char *buf, size_t n);

/* Index of v in "a|b|c" (exact match), or -1; hint (may be NULL) gets the closest choice when v
 * is none of them, "" when none is close. */
int yee_schema_choice_index(const char *choices, const char *v, char *hint, size_t n);

#endif
