/* tests/unit/step_pair.c -- the CPU backend's step_pair (two steps in one wavefront sweep,
 * kernels/cpu/backend_cpu.c) gives the bytes of step_h, step_e, apply_sources twice over.
 *
 * A setup built by hand: odd non-cubic dims, CPML slabs on several faces (overlapping at the
 * edges, so rows cross two or three slabs), PEC low walls, a block of random materials (rows
 * that are not all material 0), random fields and psi written through state_transfer. Two
 * contexts start from the same state; one advances by step_pair, the other by the six ops, with
 * J and M currents per step (several in one cell, some on the first and last planes and rows),
 * M added after the H update and J after the E update. All parts (fields and psi) and the
 * samples read between the two steps must agree with memcmp, for 1 to 3 threads (thread blocks
 * of planes down to one plane, and an empty one) and several band heights (YEE_CPU_PAIR_ROWS),
 * also with a single ordinary step between pairs (the deferred H sweep), and on a setup with
 * dispersive nodes, where step_pair runs the ops one by one: same bytes.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/backend.h"

typedef struct geom {
    int n[3];
    int pml[3][2];   /* slab cells per face, 0: none */
    int pec[3];
} geom;

static uint64_t rng_state = 88172645463325252ull;

static double rnd(void) /* xorshift64, [0, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static yee_real rval(double lo, double hi)
{
    return (yee_real)(lo + (hi - lo) * rnd());
}

/* Everything a setup points to, owned here. */
typedef struct owned {
    yee_setup s;
    yee_real ca[4], cb[4];
    uint8_t *mat[3];
    yee_real *lines;
    yee_disp_node disp[2];
    yee_pole_coef pcoef[1];
} owned;

static void build(const geom *g, owned *o)
{
    memset(o, 0, sizeof *o);
    yee_setup *s = &o->s;
    s->dims.n[0] = g->n[0];
    s->dims.n[1] = g->n[1];
    s->dims.n[2] = g->n[2];
    s->dims.stride[0] = 1;
    s->dims.stride[1] = g->n[0] + 2 * YEE_HALO;
    s->dims.stride[2] = s->dims.stride[1] * (g->n[1] + 2 * YEE_HALO);
    const int64_t total = s->dims.stride[2] * (g->n[2] + 2 * YEE_HALO);
    s->nmat = 4;
    for (int m = 0; m < 4; m++) {
        o->ca[m] = m == 0 ? (yee_real)1.0 : rval(0.8, 1.0);
        o->cb[m] = m == 0 ? (yee_real)0.4 : rval(0.1, 0.4);
    }
    s->ca = o->ca;
    s->cb = o->cb;
    s->ch = (yee_real)0.45;
    /* materials 1..3 at random in a block away from the corner; material 0 elsewhere */
    for (int a = 0; a < 3; a++) {
        o->mat[a] = (uint8_t *)calloc((size_t)total, 1);
        for (int k = g->n[2] / 4; k < 3 * g->n[2] / 4; k++)
            for (int j = g->n[1] / 3; j < 2 * g->n[1] / 3; j++)
                for (int i = 2; i < g->n[0] - 3; i++)
                    o->mat[a][yee_idx(s->dims, i, j, k)] = (uint8_t)(1 + (int)(3 * rnd()));
        s->mat[a] = o->mat[a];
    }
    size_t nline = 0;
    for (int a = 0; a < 3; a++)
        nline += 3 * (size_t)(g->n[a] + 1) + 3 * (size_t)g->n[a];
    o->lines = (yee_real *)malloc(nline * sizeof(yee_real));
    yee_real *p = o->lines;
    for (int a = 0; a < 3; a++) {
        const int ne = g->n[a] + 1, nh = g->n[a];
        yee_real **dst[6] = {(yee_real **)&s->ie[a], (yee_real **)&s->be[a],
                             (yee_real **)&s->ae[a], (yee_real **)&s->ih[a],
                             (yee_real **)&s->bh[a], (yee_real **)&s->ah[a]};
        for (int q = 0; q < 6; q++) {
            const int len = q < 3 ? ne : nh;
            *dst[q] = p;
            for (int i = 0; i < len; i++) /* inverse spacings ~1, b in (0.5, 1), a < 0 */
                p[i] = q % 3 == 0 ? rval(0.7, 1.0) : q % 3 == 1 ? rval(0.5, 1.0) : rval(-0.2, 0.0);
            p += len;
        }
    }
    for (int a = 0; a < 3; a++) {
        for (int side = 0; side < 2; side++) {
            const int t = g->pml[a][side];
            if (t <= 0)
                continue;
            yee_slab *sl = &s->slabs[s->nslabs++];
            sl->axis = a;
            sl->side = side;
            for (int b = 0; b < 3; b++) {
                sl->lo[b] = 0;
                sl->hi[b] = g->n[b];
            }
            sl->lo[a] = side == 0 ? 0 : g->n[a] - t;
            sl->hi[a] = side == 0 ? t : g->n[a];
        }
        s->pec_low[a] = g->pec[a];
    }
}

static void release(owned *o)
{
    for (int a = 0; a < 3; a++)
        free(o->mat[a]);
    free(o->lines);
}

/* The currents of step `step`: two in one cell, the first and last planes and rows, i = 0. */
static int currents(const geom *g, int step, yee_point_current *c)
{
    const int nx = g->n[0], ny = g->n[1], nz = g->n[2];
    const int at[][4] = {
        {2, nx / 2, ny / 2, nz / 2},     {2, nx / 2, ny / 2, nz / 2}, /* same cell twice */
        {0, 1, 0, 0},                    {1, nx - 1, ny - 1, nz - 1},
        {2, 0, ny / 3 + 1, 0},           {0, nx / 3, ny - 1, nz - 1},
        {1, nx / 2 + 1, ny / 2, nz / 2}, {2, nx / 2, ny / 2, nz / 2}, /* and a third time */
        {0, 3, ny / 2 + 2, 1},           {1, 4, 1, nz - 2},
        /* magnetic (3..5: Hx..Hz), added after the H update: twice in one cell, on the first
         * and last rows and planes, and in a cell that also gets an electric current */
        {5, nx / 2, ny / 2, nz / 2},     {3, 0, 0, 0},
        {4, nx - 1, ny - 1, nz - 1},     {5, nx / 2, ny / 2, nz / 2},
        {3, 2, ny - 1, 1},               {4, nx / 3, 0, nz - 2},
    };
    const int n = (int)(sizeof at / sizeof at[0]);
    for (int q = 0; q < n; q++) {
        c[q].comp = at[q][0];
        c[q].i = at[q][1];
        c[q].j = at[q][2];
        c[q].k = at[q][3];
        c[q].j_value = (yee_real)(0.3 * (q + 1) + 0.17 * step) * (q % 2 ? 1 : -1);
    }
    return n;
}

static int fail_rc(const char *what, int rc, const yee_err *err)
{
    fprintf(stderr, "FAIL %s: rc %d %s\n", what, rc, err->msg);
    return 1;
}

/* One comparison: pairs of steps by step_pair against the six ops. mode 0: pairs only;
 * 1: one ordinary step between pairs; 2: two dispersive nodes (step_pair's one-by-one path). */
static int run_case(const geom *g, int threads, int rows, int mode)
{
    const yee_backend_ops *be = &yee_backend_cpu;
    char label[128];
    snprintf(label, sizeof label, "%dx%dx%d threads %d rows %d mode %d", g->n[0], g->n[1],
             g->n[2], threads, rows, mode);
    omp_set_num_threads(threads);
    if (rows > 0) {
        char v[16];
        snprintf(v, sizeof v, "%d", rows);
        setenv("YEE_CPU_PAIR_ROWS", v, 1);
    } else
        unsetenv("YEE_CPU_PAIR_ROWS");
    owned o;
    build(g, &o);
    if (mode == 2) { /* a Lorentz-like pole on two E nodes (coefficients need not be physical) */
        o.pcoef[0].c1 = (yee_real)1.2;
        o.pcoef[0].c2 = (yee_real)-0.3;
        o.pcoef[0].c3 = (yee_real)0.05;
        for (int q = 0; q < 2; q++) {
            memset(&o.disp[q], 0, sizeof o.disp[q]);
            o.disp[q].c = yee_idx(o.s.dims, g->n[0] / 2 + q, g->n[1] / 2, g->n[2] / 2);
            o.disp[q].p_off = 2 * q;
            o.disp[q].comp = q;
            o.disp[q].npole = 1;
        }
        o.s.ndisp = 2;
        o.s.disp = o.disp;
        o.s.npol = 4;
        o.s.npcoef = 1;
        o.s.pcoef = o.pcoef;
        o.s.inv_dt = (yee_real)2.0;
    }
    yee_err err;
    memset(&err, 0, sizeof err);
    void *ctx[2] = {NULL, NULL};
    int rc = 0, bad = 0;
    for (int q = 0; q < 2 && rc == 0; q++)
        rc = be->create(&o.s, &ctx[q], &err);
    if (rc != 0)
        return fail_rc("create", rc, &err);
    const int parts = be->state_parts(ctx[0]);
    size_t maxb = 0;
    for (int p = 0; p < parts; p++)
        if (be->state_part_bytes(ctx[0], p) > maxb)
            maxb = be->state_part_bytes(ctx[0], p);
    yee_real *buf[2] = {(yee_real *)malloc(maxb), (yee_real *)malloc(maxb)};
    /* the same random state (ghosts included) in both */
    for (int p = 0; p < parts; p++) {
        const size_t n = be->state_part_bytes(ctx[0], p) / sizeof(yee_real);
        for (size_t q = 0; q < n; q++)
            buf[0][q] = rval(-1.0, 1.0);
        for (int c = 0; c < 2; c++)
            if ((rc = be->state_transfer(ctx[c], p, buf[0], 1, &err)) != 0)
                return fail_rc("state_transfer set", rc, &err);
    }
    yee_point_current j1[16], j2[16];
    /* samples between the two steps of a pair (probes): all six components, on the first and
     * last planes, rows and columns and at random cells */
    enum { NSAMP = 36 };
    yee_sample samp[NSAMP];
    yee_real mid[2][NSAMP];
    for (int q = 0; q < NSAMP; q++) {
        samp[q].comp = q % 6;
        const int corner = q < 12;
        samp[q].i = corner ? (q & 1 ? g->n[0] - 1 : 0) : (int)rval(0.0, g->n[0] - 0.01);
        samp[q].j = corner ? (q & 2 ? g->n[1] - 1 : 0) : (int)rval(0.0, g->n[1] - 0.01);
        samp[q].k = corner ? (q & 4 ? g->n[2] - 1 : 0) : (int)rval(0.0, g->n[2] - 0.01);
    }
    for (int pair = 0; pair < 6 && rc == 0; pair++) {
        const int s = 2 * pair + (mode == 1 ? pair : 0);
        const int n1 = currents(g, s, j1), n2 = currents(g, s + 1, j2);
        rc = be->step_pair(ctx[0], n1, j1, n2, j2, NSAMP, samp, mid[0], &err);
        for (int st = 0; st < 2 && rc == 0; st++) {
            const int n = st ? n2 : n1;
            const yee_point_current *list = st ? j2 : j1;
            yee_point_current kind[2][16]; /* [0] magnetic, [1] electric, list order kept */
            int nk[2] = {0, 0};
            for (int q = 0; q < n; q++) {
                const int e = list[q].comp < 3;
                kind[e][nk[e]++] = list[q];
            }
            if ((rc = be->step_h(ctx[1], NULL, &err)) == 0 &&
                (rc = be->apply_sources(ctx[1], nk[0], kind[0], &err)) == 0 &&
                (rc = be->step_e(ctx[1], NULL, &err)) == 0)
                rc = be->apply_sources(ctx[1], nk[1], kind[1], &err);
            if (st == 0 && rc == 0)
                rc = be->gather(ctx[1], NSAMP, samp, mid[1], &err);
        }
        if (rc == 0 && memcmp(mid[0], mid[1], sizeof mid[0]) != 0) {
            for (int q = 0; q < NSAMP; q++)
                if (memcmp(&mid[0][q], &mid[1][q], sizeof(yee_real)) != 0) {
                    fprintf(stderr, "FAIL %s: pair %d sample %d (comp %d at %d %d %d): step_pair "
                                    "%.9g, between the six ops %.9g\n",
                            label, pair, q, samp[q].comp, samp[q].i, samp[q].j, samp[q].k,
                            (double)mid[0][q], (double)mid[1][q]);
                    break;
                }
            bad = 1;
        }
        if (mode == 1 && rc == 0) { /* one ordinary step on both, between pairs */
            const int n3 = currents(g, s + 2, j1);
            for (int c = 0; c < 2 && rc == 0; c++)
                if ((rc = be->step_h(ctx[c], NULL, &err)) == 0 &&
                    (rc = be->step_e(ctx[c], NULL, &err)) == 0)
                    rc = be->apply_sources(ctx[c], n3, j1, &err);
        }
    }
    if (rc != 0)
        return fail_rc("step", rc, &err);
    for (int p = 0; p < parts && !bad; p++) {
        const size_t bytes = be->state_part_bytes(ctx[0], p);
        for (int c = 0; c < 2; c++)
            if ((rc = be->state_transfer(ctx[c], p, buf[c], 0, &err)) != 0)
                return fail_rc("state_transfer get", rc, &err);
        if (memcmp(buf[0], buf[1], bytes) != 0) {
            const size_t n = bytes / sizeof(yee_real);
            for (size_t q = 0; q < n; q++)
                if (memcmp(&buf[0][q], &buf[1][q], sizeof(yee_real)) != 0) {
                    fprintf(stderr, "FAIL %s: part %d differs first at value %zu: step_pair %.9g, "
                                    "six ops %.9g\n",
                            label, p, q, (double)buf[0][q], (double)buf[1][q]);
                    if (p < 6) {
                        const int64_t sy = o.s.dims.stride[1], sz = o.s.dims.stride[2];
                        fprintf(stderr, "  (padded i %d, j %d, k %d; cell i %d, j %d, k %d)\n",
                                (int)(q % sy), (int)(q % sz / sy), (int)(q / sz),
                                (int)(q % sy) - YEE_HALO, (int)(q % sz / sy) - YEE_HALO,
                                (int)(q / sz) - YEE_HALO);
                    }
                    break;
                }
            bad = 1;
        }
    }
    if (!bad)
        printf("ok %s (%d parts identical)\n", label, parts);
    free(buf[0]);
    free(buf[1]);
    be->destroy(ctx[0]);
    be->destroy(ctx[1]);
    release(&o);
    return bad;
}

int main(void)
{
    const geom g[] = {
        /* CPML on x low, y high, z both; PEC on x and z low */
        {{37, 29, 23}, {{4, 0}, {0, 3}, {2, 5}}, {1, 0, 1}},
        /* thin y, CPML on every face, PEC on every low face */
        {{19, 5, 11}, {{2, 2}, {1, 1}, {3, 2}}, {1, 1, 1}},
        /* 3 and 2 planes: thread blocks of one plane, and an empty one with 3 threads */
        {{13, 9, 3}, {{0, 3}, {2, 0}, {1, 1}}, {0, 1, 1}},
        {{11, 7, 2}, {{2, 0}, {0, 0}, {0, 1}}, {1, 0, 1}},
    };
    const int rows[] = {0, 1, 2, 3, 7};
    int bad = 0;
    for (size_t q = 0; q < sizeof g / sizeof g[0]; q++)
        for (int t = 1; t <= 3; t++)
            for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
                bad |= run_case(&g[q], t, rows[r], 0);
    bad |= run_case(&g[0], 2, 0, 1);
    bad |= run_case(&g[0], 2, 3, 1);
    bad |= run_case(&g[0], 2, 0, 2);
    printf("%s step_pair\n", bad ? "FAIL" : "PASS");
    return bad;
}
