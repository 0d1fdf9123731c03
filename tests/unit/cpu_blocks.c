/* tests/unit/cpu_blocks.c -- the CPU schedules' split of the layers into thread blocks
 * (kernels/cpu/wavefront.c cpu_block_start, cpu_layer_costs_build). The bytes do not depend on
 * the split (tests/unit/cpu_schedules.c); what must hold is the split itself:
 *   - blocks cover [0, n) in order, each of at least `least` layers;
 *   - with equal layers, equal halves;
 *   - a CPML slab on one face makes its layers dearer, and the blocks balance the estimated work
 *     to within one layer (3-D planes and a 2-D run's rows);
 *   - where `least` binds, the blocks keep it rather than balance;
 *   - on random costs (no least), no block holds more than 1/nt of the work plus one layer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu.h"
#include "tests/support/setup.h"

static int failures;

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    failures += !ok;
}

/* The blocks of c for nt threads tile its n layers, each at least `least`. */
static int tiles(const cpu_ctx *c, int n, int nt, int least)
{
    int prev = cpu_block_start(c, nt, 0, least);
    if (prev != 0 || cpu_block_start(c, nt, nt, least) != n)
        return 0;
    for (int t = 1; t <= nt; t++) {
        const int s = cpu_block_start(c, nt, t, least);
        if (s - prev < least)
            return 0;
        prev = s;
    }
    return 1;
}

/* A CPU context of n cells of one material with a CPML slab of `cells` on the high face of
 * `axis` (0: none). */
static cpu_ctx *context(const int n[3], int axis, int cells, void **lines_out, uint8_t **mat)
{
    test_rng r = {0x2545f4914f6cdd1dull};
    static yee_setup s;
    static yee_real coef[2];
    yee_real *lines = test_one_material(&s, &r, n, coef, mat);
    if (cells > 0) {
        free(lines);
        int pml[3][2] = {{0, 0}, {0, 0}, {0, 0}};
        const int pec[3] = {0, 0, 0};
        pml[axis][1] = cells;
        lines = test_lines_slabs_walls(&s, &r, pml, pec);
    }
    *lines_out = lines;
    yee_err err;
    memset(&err, 0, sizeof err);
    void *ctx = NULL;
    if (yee_backend_cpu.create(&s, &ctx, &err) != 0) {
        fprintf(stderr, "FAIL create: %s\n", err.msg);
        exit(1);
    }
    return (cpu_ctx *)ctx;
}

static void release(cpu_ctx *c, void *lines, uint8_t *mat)
{
    yee_backend_cpu.destroy(c);
    free(lines);
    free(mat);
}

/* The estimated work of layers [a, b). */
static double work(const cpu_ctx *c, int a, int b)
{
    return c->layer_cost[b] - c->layer_cost[a];
}

static double dearest_layer(const cpu_ctx *c, int n)
{
    double most = 0.0;
    for (int p = 0; p < n; p++)
        if (work(c, p, p + 1) > most)
            most = work(c, p, p + 1);
    return most;
}

int main(void)
{
    void *lines;
    uint8_t *mat;
    char what[160];

    /* equal planes: the halves */
    const int cube[3] = {24, 20, 40};
    cpu_ctx *c = context(cube, 2, 0, &lines, &mat);
    check(tiles(c, 40, 2, 8) && cpu_block_start(c, 2, 1, 8) == 20,
          "40 equal planes, 2 blocks of at least 8: 20 + 20");
    check(tiles(c, 40, 3, 2) && cpu_block_start(c, 3, 1, 2) == 14 &&
              cpu_block_start(c, 3, 2, 2) == 27,
          "40 equal planes, 3 blocks: 14 + 13 + 13");
    release(c, lines, mat);

    /* CPML on the top 10 planes: the lower block grows, the work balances */
    c = context(cube, 2, 10, &lines, &mat);
    const int k1 = cpu_block_start(c, 2, 1, 8);
    snprintf(what, sizeof what,
             "CPML on z high: split at %d (> 20), work %.0f / %.0f within one plane (%.0f)", k1,
             work(c, 0, k1), work(c, k1, 40), dearest_layer(c, 40));
    check(tiles(c, 40, 2, 8) && k1 > 20 &&
              fabs(work(c, 0, k1) - work(c, k1, 40)) <= dearest_layer(c, 40),
          what);
    check(tiles(c, 40, 2, 19) && cpu_block_start(c, 2, 1, 19) == 21,
          "CPML on z high, blocks of at least 19: the upper block keeps 19 planes");
    for (int nt = 1; nt <= 5; nt++) {
        snprintf(what, sizeof what, "CPML on z high, %d blocks of at least 0..%d: tiled", nt,
                 40 / nt);
        int ok = 1;
        for (int least = 0; least <= 40 / nt; least++)
            ok &= tiles(c, 40, nt, least);
        check(ok, what);
    }
    release(c, lines, mat);

    /* a 2-D run: its rows are the layers, the CPML on y high makes the top rows dearer */
    const int plane[3] = {30, 40, 1};
    c = context(plane, 1, 12, &lines, &mat);
    const int j1 = cpu_block_start(c, 2, 1, 4);
    snprintf(what, sizeof what, "2-D, CPML on y high: split at row %d (> 20), work %.0f / %.0f",
             j1, work(c, 0, j1), work(c, j1, 40));
    check(tiles(c, 40, 2, 4) && j1 > 20 &&
              fabs(work(c, 0, j1) - work(c, j1, 40)) <= dearest_layer(c, 40),
          what);
    release(c, lines, mat);

    /* random layer costs, no least: each block within 1/nt of the work plus one layer */
    test_rng r = {0x9e3779b97f4a7c15ull};
    cpu_ctx fake;
    memset(&fake, 0, sizeof fake);
    int ok = 1;
    for (int round = 0; round < 200 && ok; round++) {
        const int n = 1 + test_below(&r, 80), nt = 1 + test_below(&r, 8);
        fake.d.n[0] = 4;
        fake.d.n[1] = 4;
        double cost[82];
        cost[0] = 0.0;
        for (int p = 0; p < n; p++)
            cost[p + 1] = cost[p] + (test_rnd(&r) < 0.2 ? 0.0 : 1.0 + 9.0 * test_rnd(&r));
        fake.d.n[2] = n; /* n >= 2: the layers are planes */
        fake.layer_cost = cost;
        double most = 0.0;
        for (int p = 0; p < n; p++)
            if (cost[p + 1] - cost[p] > most)
                most = cost[p + 1] - cost[p];
        ok &= n < 2 || tiles(&fake, n, nt, 0);
        for (int t = 0; t < nt && ok && n >= 2; t++) {
            const int a = cpu_block_start(&fake, nt, t, 0), b = cpu_block_start(&fake, nt, t + 1, 0);
            ok &= cost[b] - cost[a] <= cost[n] / nt + most + 1e-9;
        }
        if (!ok)
            printf("round %d: %d layers, %d blocks\n", round, n, nt);
    }
    check(ok, "200 random cost profiles, 1-8 blocks: each within 1/nt of the work plus a layer");

    if (failures)
        printf("%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
