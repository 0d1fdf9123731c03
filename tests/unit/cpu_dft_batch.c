/* tests/unit/cpu_dft_batch.c -- the CPU backend holds DFT samples and adds them to the sums a
 * batch at a time (yee_dft_batch, kernels/cpu/backend_cpu.c dft_flush); the sums must be the
 * bytes of adding each sample as it comes (yee_dft_add, kernels/yee_cell.h).
 *
 * On a grid with random fields stepped between samples, regions of 40 and 23 frequencies
 * (batches of 10 and 5; 23 samples, so the last batch is partial), one averaged along an axis,
 * each created twice: one read back only mid-run (after 7 samples, a partial batch) and at the
 * end, its twin read back after every sample (so every sample is added alone). Both must equal,
 * with memcmp, the host's sums of yee_dft_sample values of the fields read back by
 * state_transfer; and a dft_transfer set replaces the sums, held samples included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/backend.h"
#include "tests/support/setup.h"

enum { NREG = 2, NSAMPLES = 23, MID = 7 };

static int fail(const char *what, const yee_err *err)
{
    fprintf(stderr, "FAIL %s: %s\n", what, err->msg);
    return 1;
}

/* The host's copy of the six field parts (ghosts included), as yee_fields over it. */
static int host_fields(const yee_backend_ops *be, void *ctx, yee_real *buf[6], yee_fields *f,
                       yee_err *err)
{
    for (int p = 0; p < 6; p++)
        if (be->state_transfer(ctx, p, buf[p], 0, err) != 0)
            return 1;
    for (int a = 0; a < 3; a++) {
        f->e[a] = buf[a];
        f->h[a] = buf[3 + a];
    }
    return 0;
}

static int64_t nodes_of(const yee_dft_region *r)
{
    return (int64_t)r->count[0] * r->count[1] * r->count[2];
}

/* 1 if the n doubles differ; says where. */
static int differ(const char *what, const double *a, const double *b, int64_t n)
{
    for (int64_t q = 0; q < n; q++)
        if (memcmp(&a[q], &b[q], sizeof(double)) != 0) {
            fprintf(stderr, "FAIL %s: sum %lld: %.17g, expected %.17g\n", what, (long long)q, a[q],
                    b[q]);
            return 1;
        }
    return 0;
}

int main(void)
{
    const int n[3] = {23, 17, 13};
    test_rng r = {0x9e3779b97f4a7c15ull};
    yee_setup s;
    yee_real coef[2];
    uint8_t *mat;
    yee_real *lines = test_one_material(&s, &r, n, coef, &mat);

    const yee_backend_ops *be = &yee_backend_cpu;
    yee_err err;
    memset(&err, 0, sizeof err);
    void *ctx = NULL;
    if (be->create(&s, &ctx, &err) != 0)
        return fail("create", &err);
    yee_real *buf[6];
    for (int p = 0; p < 6; p++) {
        const size_t bytes = be->state_part_bytes(ctx, p);
        buf[p] = (yee_real *)malloc(bytes);
        for (size_t q = 0; q < bytes / sizeof(yee_real); q++)
            buf[p][q] = test_rval(&r, -1.0, 1.0);
        if (be->state_transfer(ctx, p, buf[p], 1, &err) != 0)
            return fail("state_transfer set", &err);
    }

    yee_dft_region reg[NREG];
    memset(reg, 0, sizeof reg);
    reg[0].comp = YEE_EY; /* a box, 40 frequencies: batches of 10 */
    reg[0].lo[0] = 2, reg[0].lo[1] = 1, reg[0].lo[2] = 3;
    reg[0].count[0] = 19, reg[0].count[1] = 15, reg[0].count[2] = 7;
    reg[0].avg_axis = -1;
    reg[0].nfreq = 40;
    reg[1].comp = YEE_HX; /* a y-z plane at i = 0, averaged along x (the ghost below): 5 */
    reg[1].count[0] = 1, reg[1].count[1] = n[1], reg[1].count[2] = n[2];
    reg[1].avg_axis = 0;
    reg[1].avg_hi = 0.375; /* a graded axis's weights */
    reg[1].nfreq = 23;
    int id[NREG][2], bad = 0;
    double *want[NREG], *got[NREG], *ph[NREG];
    for (int q = 0; q < NREG; q++) {
        const size_t sums = 2 * (size_t)nodes_of(&reg[q]) * (size_t)reg[q].nfreq;
        want[q] = (double *)calloc(sums, sizeof(double));
        got[q] = (double *)malloc(sums * sizeof(double));
        ph[q] = (double *)malloc(2 * (size_t)reg[q].nfreq * sizeof(double));
        for (int t = 0; t < 2; t++)
            if (be->dft_create(ctx, &reg[q], &id[q][t], &err) != 0)
                return fail("dft_create", &err);
        printf("region %d: %d frequencies, batches of %d\n", q, reg[q].nfreq,
               yee_dft_batch(reg[q].nfreq));
    }

    yee_fields hf;
    for (int sample = 0; sample < NSAMPLES && !bad; sample++) {
        if (be->step_h(ctx, NULL, &err) != 0 || be->step_e(ctx, NULL, &err) != 0)
            return fail("step", &err);
        if (host_fields(be, ctx, buf, &hf, &err))
            return fail("state_transfer get", &err);
        for (int q = 0; q < NREG; q++) {
            const yee_dft_region *g = &reg[q];
            const int64_t nn = nodes_of(g);
            for (int f = 0; f < 2 * g->nfreq; f++)
                ph[q][f] = 2.0 * test_rnd(&r) - 1.0;
            for (int k = 0; k < g->count[2]; k++)
                for (int j = 0; j < g->count[1]; j++)
                    for (int i = 0; i < g->count[0]; i++) {
                        const double v = yee_dft_sample(hf, s.dims, g->comp, g->avg_axis, g->avg_hi,
                                                        g->lo[0] + i, g->lo[1] + j, g->lo[2] + k);
                        yee_dft_add(want[q], want[q] + nn * g->nfreq,
                                    i + (int64_t)g->count[0] * (j + (int64_t)g->count[1] * k), nn,
                                    g->nfreq, ph[q], v);
                    }
            for (int t = 0; t < 2; t++)
                if (be->dft_accumulate(ctx, id[q][t], ph[q], &err) != 0)
                    return fail("dft_accumulate", &err);
            /* the twin: read back after every sample; the other mid-run once */
            for (int t = 0; t < 2 && !bad; t++) {
                if (t == 0 && sample != MID - 1)
                    continue;
                if (be->dft_transfer(ctx, id[q][t], got[q], got[q] + nn * g->nfreq, 0, &err))
                    return fail("dft_transfer get", &err);
                char what[96];
                snprintf(what, sizeof what, "region %d, %s, after sample %d", q,
                         t ? "read after each sample" : "batched", sample + 1);
                bad |= differ(what, got[q], want[q], 2 * nn * g->nfreq);
            }
        }
    }
    for (int q = 0; q < NREG && !bad; q++) {
        const int64_t nn = nodes_of(&reg[q]);
        if (be->dft_transfer(ctx, id[q][0], got[q], got[q] + nn * reg[q].nfreq, 0, &err))
            return fail("dft_transfer get", &err);
        char what[64];
        snprintf(what, sizeof what, "region %d, batched, at the end", q);
        bad |= differ(what, got[q], want[q], 2 * nn * reg[q].nfreq);
    }
    /* set while samples are held: the set sums replace them (a restart from a checkpoint) */
    if (!bad) {
        const yee_dft_region *g = &reg[0];
        const int64_t nn = nodes_of(g), sums = 2 * nn * g->nfreq;
        for (int t = 0; t < 3; t++)
            if (be->dft_accumulate(ctx, id[0][0], ph[0], &err) != 0)
                return fail("dft_accumulate", &err);
        for (int64_t v = 0; v < sums; v++)
            want[0][v] = 2.0 * test_rnd(&r) - 1.0;
        if (be->dft_transfer(ctx, id[0][0], want[0], want[0] + nn * g->nfreq, 1, &err) != 0 ||
            be->dft_transfer(ctx, id[0][0], got[0], got[0] + nn * g->nfreq, 0, &err) != 0)
            return fail("dft_transfer", &err);
        bad |= differ("region 0, set with 3 samples held, then get", got[0], want[0], sums);
    }
    printf("%s cpu DFT batches: %d samples, sums identical to one sample at a time\n",
           bad ? "FAIL" : "PASS", NSAMPLES);
    for (int q = 0; q < NREG; q++) {
        free(want[q]);
        free(got[q]);
        free(ph[q]);
    }
    for (int p = 0; p < 6; p++)
        free(buf[p]);
    be->destroy(ctx);
    free(lines);
    free(mat);
    return bad;
}
