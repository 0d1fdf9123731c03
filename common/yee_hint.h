/* common/yee_hint.h -- "did you mean" hints: the deck reader (io/deck_reader.c, also for the
 * sweep section) suggests the nearest known word for a misspelled key, choice or name. */
#ifndef YEE_COMMON_HINT_H
#define YEE_COMMON_HINT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Levenshtein distance of a and b, case-insensitive; 99 for words over 63 characters. */
int yee_edit_distance(const char *a, const char *b);

/* 1 when a candidate at distance d from what was typed is worth suggesting: at most 2 edits and
 * fewer edits than the shorter word has letters. */
int yee_close_enough(const char *typed, const char *cand, int d);

#ifdef __cplusplus
}
#endif

#endif
