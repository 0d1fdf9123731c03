/* common/yee_hint.c -- edit distance for "did you mean" hints (see yee_hint.h). */
#include "common/yee_hint.h"

#include <ctype.h>
#include <string.h>

int yee_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    int row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

int yee_close_enough(const char *typed, const char *cand, int d)
{
    size_t l = strlen(typed) < strlen(cand) ? strlen(typed) : strlen(cand);
    return d <= 2 && (size_t)d < l;
}
