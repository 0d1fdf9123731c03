/* tests/unit/cpu_blocks.c -- the CPU schedules' split of the layers into thread blocks
 * (kernels/cpu/wavefront.c cpu_block_start, cpu_layer_costs_build). The bytes do not depend on
 * the split (tests/unit/cpu_schedules.c); what must hold is the split itself:
 *   - blocks cover [0, n) in order, each of at least `least` layers;
 *   - with equal layers, equal halves;
 *   - a CPML slab on one face makes its layers dearer, and the blocks balance the estimated work
 *     to within one layer (3-D planes and a 2-D run's rows);
 *   - where `least` binds, the blocks keep it rather than balance;
 *   - on random costs (no least), no block holds more than 1/nt of the work plus one layer;
 *   - given shares (the threads' measured speeds), each block holds its share of the work to
 *     within one layer, the least still binding;
 *   - cpu_balance_update: shares in proportion to the speeds, a running mean of work / time
 *     whose sample moves it by at most 2x, untouched by an untimed sweep, restarted by a new
 *     thread count; a sweep splits by the shares it finds, or by equal work when told to ignore
 *     them (setup.tuning.cpu_unmeasured, YEE_CPU_BALANCE=0).
 */
#include <math.h>
#include <omp.h>
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

/* The blocks of c for nt threads (shares: share, NULL for equal) tile its n layers, each at
 * least `least`. */
static int tiles_share(const cpu_ctx *c, int n, int nt, int least, const double *share)
{
    int prev = cpu_block_start(c, nt, 0, least, share);
    if (prev != 0 || cpu_block_start(c, nt, nt, least, share) != n)
        return 0;
    for (int t = 1; t <= nt; t++) {
        const int s = cpu_block_start(c, nt, t, least, share);
        if (s - prev < least)
            return 0;
        prev = s;
    }
    return 1;
}

static int tiles(const cpu_ctx *c, int n, int nt, int least)
{
    return tiles_share(c, n, nt, least, NULL);
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fabs(b);
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
    check(tiles(c, 40, 2, 8) && cpu_block_start(c, 2, 1, 8, NULL) == 20,
          "40 equal planes, 2 blocks of at least 8: 20 + 20");
    check(tiles(c, 40, 3, 2) && cpu_block_start(c, 3, 1, 2, NULL) == 14 &&
              cpu_block_start(c, 3, 2, 2, NULL) == 27,
          "40 equal planes, 3 blocks: 14 + 13 + 13");
    release(c, lines, mat);

    /* CPML on the top 10 planes: the lower block grows, the work balances */
    c = context(cube, 2, 10, &lines, &mat);
    const int k1 = cpu_block_start(c, 2, 1, 8, NULL);
    snprintf(what, sizeof what,
             "CPML on z high: split at %d (> 20), work %.0f / %.0f within one plane (%.0f)", k1,
             work(c, 0, k1), work(c, k1, 40), dearest_layer(c, 40));
    check(tiles(c, 40, 2, 8) && k1 > 20 &&
              fabs(work(c, 0, k1) - work(c, k1, 40)) <= dearest_layer(c, 40),
          what);
    check(tiles(c, 40, 2, 19) && cpu_block_start(c, 2, 1, 19, NULL) == 21,
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
    const int j1 = cpu_block_start(c, 2, 1, 4, NULL);
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
            const int a = cpu_block_start(&fake, nt, t, 0, NULL), b = cpu_block_start(&fake, nt, t + 1, 0, NULL);
            ok &= cost[b] - cost[a] <= cost[n] / nt + most + 1e-9;
        }
        if (!ok)
            printf("round %d: %d layers, %d blocks\n", round, n, nt);
    }
    check(ok, "200 random cost profiles, 1-8 blocks: each within 1/nt of the work plus a layer");

    /* shares: the first of two blocks a quarter of 40 equal planes; a tenth, where the least
     * (8) binds; three blocks of a half and two quarters; and with the CPML on top, the work */
    c = context(cube, 2, 0, &lines, &mat);
    const double quarter[3] = {0.0, 0.25, 1.0}, tenth[3] = {0.0, 0.1, 1.0};
    const double halves[4] = {0.0, 0.5, 0.75, 1.0};
    check(cpu_block_start(c, 2, 1, 8, quarter) == 10 && tiles_share(c, 40, 2, 8, quarter),
          "40 equal planes, shares 1/4 3/4: 10 + 30");
    check(cpu_block_start(c, 2, 1, 8, tenth) == 8 && tiles_share(c, 40, 2, 8, tenth),
          "40 equal planes, shares 1/10 9/10, at least 8: 8 + 32");
    check(cpu_block_start(c, 3, 1, 2, halves) == 20 && cpu_block_start(c, 3, 2, 2, halves) == 30 &&
              tiles_share(c, 40, 3, 2, halves),
          "40 equal planes, shares 1/2 1/4 1/4: 20 + 10 + 10");
    release(c, lines, mat);
    c = context(cube, 2, 10, &lines, &mat);
    const int q1 = cpu_block_start(c, 2, 1, 2, quarter);
    snprintf(what, sizeof what, "CPML on z high, shares 1/4 3/4: work %.0f of %.0f below %d",
             work(c, 0, q1), work(c, 0, 40), q1);
    check(tiles_share(c, 40, 2, 2, quarter) &&
              fabs(work(c, 0, q1) - 0.25 * work(c, 0, 40)) <= dearest_layer(c, 40),
          what);
    release(c, lines, mat);

    /* a sweep on 2 threads splits by the shares it finds, then times its blocks: the work it
     * records is that of the quarter split, and its shares are set */
    c = context(cube, 2, 10, &lines, &mat);
    omp_set_num_threads(2);
    c->balance.nt = 2;
    memcpy(c->balance.share, quarter, sizeof quarter);
    yee_step_plan plans[2];
    memset(plans, 0, sizeof plans);
    yee_err err;
    memset(&err, 0, sizeof err);
    const int took = cpu_wavefront(c, 2, plans, NULL, &err);
    const int q4 = cpu_block_start(c, 2, 1, 4, quarter);
    snprintf(what, sizeof what, "a 2-step sweep from shares 1/4 3/4: block works %.0f %.0f (%.0f "
             "%.0f), shares now %.3f %.3f", c->balance.work[0], c->balance.work[1],
             work(c, 0, q4), work(c, q4, 40), c->balance.share[1], c->balance.share[2]);
    check(took == 1 && c->balance.work[0] == work(c, 0, q4) &&
              c->balance.work[1] == work(c, q4, 40) && c->balance.nt == 2 &&
              c->balance.share[1] != quarter[1] && c->balance.share[2] == 1.0,
          what);
    /* YEE_CPU_BALANCE=0: the same sweep splits equal estimated work, whatever the speeds say */
    c->unmeasured = 1;
    const int q_equal = cpu_block_start(c, 2, 1, 4, NULL);
    const int took_equal = cpu_wavefront(c, 2, plans, NULL, &err);
    snprintf(what, sizeof what, "unmeasured: shares %s, block works %.0f %.0f (%.0f %.0f)",
             cpu_balance_share(c, 2) ? "given" : "none", c->balance.work[0], c->balance.work[1],
             work(c, 0, q_equal), work(c, q_equal, 40));
    check(took_equal == 1 && !cpu_balance_share(c, 2) && c->balance.work[0] == work(c, 0, q_equal),
          what);
    release(c, lines, mat);

    /* the speeds: thread 1 half as fast, then as fast, then preempted; 3 threads start over */
    static cpu_balance b;
    b.work[0] = b.work[1] = 100.0;
    b.seconds[0] = 1.0;
    b.seconds[1] = 2.0;
    cpu_balance_update(&b, 2);
    check(b.nt == 2 && near(b.share[1], 2.0 / 3.0) && b.share[2] == 1.0,
          "speeds 100 and 50: shares 2/3 and 1/3");
    b.seconds[1] = 1.0;
    cpu_balance_update(&b, 2);
    check(near(b.rate[1], 62.5) && near(b.share[1], 100.0 / 162.5),
          "then 100 and 100: thread 1's mean moves a quarter of the way, to 62.5");
    b.seconds[1] = 100.0;
    cpu_balance_update(&b, 2);
    check(near(b.rate[1], 62.5 - 0.25 * 31.25), "then a sweep 100x slower: the sample taken as 2x");
    const double kept = b.share[1];
    b.seconds[0] = 0.0;
    cpu_balance_update(&b, 2);
    check(b.share[1] == kept, "an untimed block: the shares stay");
    b.seconds[0] = b.seconds[1] = b.seconds[2] = 1.0;
    b.work[2] = 200.0;
    cpu_balance_update(&b, 3);
    check(b.nt == 3 && near(b.share[1], 0.25) && near(b.share[2], 0.5) && b.share[3] == 1.0,
          "3 threads: the means start over, shares 1/4 1/4 1/2");
    cpu_balance_update(&b, 1);
    check(b.nt == 3, "one thread: nothing to balance");

    if (failures)
        printf("%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
