/* tests/support/setup.c -- random backend setups (tests/support/setup.h). */
#include "tests/support/setup.h"

#include <stdlib.h>
#include <string.h>

double test_rnd(test_rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (double)(r->s >> 11) / 9007199254740992.0;
}

yee_real test_rval(test_rng *r, double lo, double hi)
{
    return (yee_real)(lo + (hi - lo) * test_rnd(r));
}

int test_below(test_rng *r, int n)
{
    return (int)(test_rnd(r) * n);
}

int64_t test_dims(yee_setup *s, const int n[3])
{
    for (int a = 0; a < 3; a++)
        s->dims.n[a] = n[a];
    s->dims.stride[0] = 1;
    s->dims.stride[1] = n[0] + 2 * YEE_HALO;
    s->dims.stride[2] = s->dims.stride[1] * (n[1] + 2 * YEE_HALO);
    return s->dims.stride[2] * (n[2] + 2 * YEE_HALO);
}

yee_real *test_lines_slabs_walls(yee_setup *s, test_rng *r, const int pml[3][2],
                                 const int pec[3])
{
    const int *n = s->dims.n;
    size_t nline = 0;
    for (int a = 0; a < 3; a++)
        nline += 3 * (size_t)(n[a] + 1) + 3 * (size_t)n[a];
    yee_real *mem = (yee_real *)malloc(nline * sizeof(yee_real));
    if (!mem)
        return NULL;
    yee_real *p = mem;
    for (int a = 0; a < 3; a++) {
        const yee_real **dst[6] = {&s->ie[a], &s->be[a], &s->ae[a],
                                   &s->ih[a], &s->bh[a], &s->ah[a]};
        for (int q = 0; q < 6; q++) {
            const int len = q < 3 ? n[a] + 1 : n[a];
            *dst[q] = p;
            for (int i = 0; i < len; i++)
                p[i] = q % 3 == 0   ? test_rval(r, 0.7, 1.0)
                       : q % 3 == 1 ? test_rval(r, 0.5, 1.0)
                                    : test_rval(r, -0.2, 0.0);
            p += len;
        }
    }
    s->nslabs = 0;
    for (int a = 0; a < 3; a++) {
        for (int side = 0; side < 2; side++) {
            const int w = pml[a][side];
            if (w <= 0)
                continue;
            yee_slab *sl = &s->slabs[s->nslabs++];
            sl->axis = a;
            sl->side = side;
            for (int b = 0; b < 3; b++) {
                sl->lo[b] = 0;
                sl->hi[b] = n[b];
            }
            sl->lo[a] = side == 0 ? 0 : n[a] - w;
            sl->hi[a] = side == 0 ? w : n[a];
        }
        s->pec_low[a] = pec[a];
    }
    return mem;
}

yee_real *test_one_material(yee_setup *s, test_rng *r, const int n[3], yee_real coef[2],
                            uint8_t **mat)
{
    memset(s, 0, sizeof *s);
    const int64_t total = test_dims(s, n);
    const int no_pml[3][2] = {{0, 0}, {0, 0}, {0, 0}}, no_pec[3] = {0, 0, 0};
    coef[0] = (yee_real)1.0;
    coef[1] = (yee_real)0.4;
    s->nmat = 1;
    s->ca = &coef[0];
    s->cb = &coef[1];
    s->ch = (yee_real)0.45;
    *mat = (uint8_t *)calloc((size_t)total, 1);
    for (int a = 0; a < 3; a++)
        s->mat[a] = *mat;
    return test_lines_slabs_walls(s, r, no_pml, no_pec);
}
