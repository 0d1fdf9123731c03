/* tests/gpu/ops.c -- the CUDA backend against the CPU backend, op by op, on one random state.
 *
 * Both backends are created from one hand-built setup (a non-cubic grid and a one-cell-wide one,
 * random materials per E component, CPML slabs on several faces with random profiles, a PEC
 * wall, dispersive nodes) and given the same random state (fields with their ghosts, psi,
 * polarizations) through state_transfer. Each op of kernels/backend.h then runs on both, and
 * after it every state part must agree byte for byte, as must what the op returns (samples,
 * boxes, DFT sums, snapshots, halo faces); norms agree to summation order. The CPU's advance
 * (its tuned schedules) is checked against the CUDA backend's single-step ops. Not here:
 * copy_bandwidth (it allocates 2 GiB), MPI and decks (tests/backends_agree.py). Exit 77
 * where no CUDA backend can run.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/backend.h"
#include "tests/support/setup.h"

enum { CPU = 0, CUDA = 1 };
/* Components as backend.h numbers them (model/config.h YEE_EX..YEE_HZ). */
enum { C_EX = 0, C_EY, C_EZ, C_HX, C_HY, C_HZ };

static const char *const backend_name[2] = {"cpu", "cuda"};
static const char *const comp_name[6] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};

/* ---- the random setup ------------------------------------------------------------------- */

/* One test case: the grid, CPML slab cells per face (0: none), PEC walls, dispersive nodes;
 * pol2d YEE_POL_TM or _TE: a 2-D run (n[2] = 1, z stride 0) of that polarization, whose other
 * three components the backends do not store. */
typedef struct geom {
    const char *label;
    int n[3];
    int pml[3][2];
    int pec[3];
    int ndisp;
    uint64_t seed;
    int pol2d;
} geom;

enum { NMAT = 5, MAX_DISP = 16, NPCOEF = 4 };

/* Everything the setup points to, owned here. */
typedef struct owned {
    yee_setup s;
    yee_real ca[NMAT], cb[NMAT];
    uint8_t *mat[3];
    yee_real *lines;
    yee_disp_node disp[MAX_DISP];
    yee_pole_coef pcoef[NPCOEF];
} owned;

/* Random material indices per component everywhere, but all rows j = 1 and the last plane of
 * material 0, rows j = 2 with other materials in their middle third only, and rows j = 3 of
 * runs of one material (0 on the first eighth, 2 to the middle, 3 to the end, in every
 * component): both backends take material 0's coefficients as constants outside a row's span
 * of other materials (yee_row_spans), and the CPU those of a run of 16 or more cells inside it
 * (rows.c span_e), so each meets whole rows, row ends, runs and random rows of the lookup. */
static void build_materials(const geom *g, test_rng *r, owned *o, int64_t total)
{
    yee_setup *s = &o->s;
    for (int m = 0; m < NMAT; m++) {
        o->ca[m] = test_rval(r, 0.6, 1.0);
        o->cb[m] = test_rval(r, 0.1, 0.45);
    }
    s->nmat = NMAT;
    s->ca = o->ca;
    s->cb = o->cb;
    s->ch = test_rval(r, 0.3, 0.5);
    for (int a = 0; a < 3; a++) {
        o->mat[a] = (uint8_t *)malloc((size_t)total);
        for (int64_t c = 0; c < total; c++)
            o->mat[a][c] = (uint8_t)test_below(r, NMAT);
        for (int k = 0; k < g->n[2]; k++)
            for (int j = 0; j < g->n[1]; j++)
                if (j == 1 || k == g->n[2] - 1) {
                    memset(&o->mat[a][yee_idx(s->dims, 0, j, k)], 0, (size_t)g->n[0]);
                } else if (j == 2) {
                    uint8_t *row = &o->mat[a][yee_idx(s->dims, 0, j, k)];
                    memset(row, 0, (size_t)(g->n[0] / 3));
                    memset(row + 2 * g->n[0] / 3, 0, (size_t)(g->n[0] - 2 * g->n[0] / 3));
                } else if (j == 3) {
                    uint8_t *row = &o->mat[a][yee_idx(s->dims, 0, j, k)];
                    const int n0 = g->n[0];
                    memset(row, 0, (size_t)(n0 / 8));
                    memset(row + n0 / 8, 2, (size_t)(n0 / 2 - n0 / 8));
                    memset(row + n0 / 2, 3, (size_t)(n0 - n0 / 2));
                }
        s->mat[a] = o->mat[a];
    }
}

/* 1 if node x's (component, cell) is among the first n: two nodes there would race on a GPU. */
static int disp_taken(const yee_disp_node *d, int n, const yee_disp_node *x)
{
    for (int q = 0; q < n; q++)
        if (d[q].comp == x->comp && d[q].c == x->c)
            return 1;
    return 0;
}

/* Dispersive nodes: the first and last cells, then random ones, each with 1..3 poles out of a
 * table of pole coefficients of magnitude < 1 (not physical, only bounded). */
static void build_disp(const geom *g, test_rng *r, owned *o)
{
    yee_setup *s = &o->s;
    if (g->ndisp <= 0)
        return;
    for (int q = 0; q < NPCOEF; q++) {
        o->pcoef[q].c1 = test_rval(r, -0.9, 0.9);
        o->pcoef[q].c2 = test_rval(r, -0.5, 0.5);
        o->pcoef[q].c3 = test_rval(r, -0.5, 0.5);
    }
    /* the last pole is Debye (kernels/yee_ade.h: c1 = a, c2 = b, c3 = 1 - a) */
    o->pcoef[NPCOEF - 1].debye = 1;
    o->pcoef[NPCOEF - 1].c3 = (yee_real)1.0 - o->pcoef[NPCOEF - 1].c1;
    int64_t off = 0;
    for (int q = 0; q < g->ndisp; q++) {
        yee_disp_node *nd = &o->disp[q];
        memset(nd, 0, sizeof *nd);
        do {
            int ijk[3];
            for (int a = 0; a < 3; a++)
                ijk[a] = q == 0 ? 0 : q == 1 ? g->n[a] - 1 : test_below(r, g->n[a]);
            nd->comp = test_below(r, 3);
            nd->c = yee_idx(s->dims, ijk[0], ijk[1], ijk[2]);
        } while (disp_taken(o->disp, q, nd) || !yee_pol_has(s->pol2d, nd->comp));
        nd->npole = 1 + test_below(r, 3);
        nd->pole0 = test_below(r, NPCOEF - nd->npole + 1);
        nd->p_off = off;
        off += 2 * nd->npole;
    }
    s->ndisp = g->ndisp;
    s->disp = o->disp;
    s->npol = off;
    s->npcoef = NPCOEF;
    s->pcoef = o->pcoef;
    s->inv_dt = test_rval(r, 1.5, 2.5);
}

static void build(const geom *g, test_rng *r, owned *o)
{
    memset(o, 0, sizeof *o);
    yee_setup *s = &o->s;
    int64_t total = test_dims(s, g->n);
    if (g->pol2d != YEE_POL_BOTH) {
        s->dims = yee_dims_of(g->n, 1);
        s->pol2d = g->pol2d;
        total = yee_dims_cells(s->dims);
    }
    build_materials(g, r, o, total);
    o->lines = test_lines_slabs_walls(s, r, g->pml, g->pec);
    build_disp(g, r, o);
}

static void release(owned *o)
{
    for (int a = 0; a < 3; a++) {
        free(o->mat[a]);
        o->mat[a] = NULL;
    }
    free(o->lines);
    o->lines = NULL;
}

/* ---- the two backends and their verdicts --------------------------------------------------- */

/* The CPU and the CUDA backend on one setup, and the scratch to compare them. */
typedef struct twin {
    const yee_backend_ops *be[2];
    void *ctx[2];
    const yee_setup *s;
    const char *label; /* the case, on every line */
    test_rng *r;
    yee_err err;
    int parts;
    size_t maxb;           /* bytes of the largest part */
    unsigned char *buf[2]; /* one part of each backend */
    int checked, failed;
} twin;

static int fill_random(twin *t);

/* One PASS/FAIL line per check; returns bad. After a failure both backends get a new common
 * random state, so that each later check tests its own op, not the difference left behind. */
static int verdict(twin *t, const char *op, int bad)
{
    printf("%s %s: %s\n", bad ? "FAIL" : "PASS", t->label, op);
    t->checked++;
    t->failed += bad != 0;
    if (bad && t->ctx[CPU] && t->ctx[CUDA])
        fill_random(t);
    return bad;
}

/* 1 (and the error) if a call on backend b failed. */
static int call_failed(twin *t, int b, int rc, const char *op)
{
    if (rc == YEE_OK)
        return 0;
    printf("  %s: %s on %s: rc %d: %s\n", t->label, op, backend_name[b], rc, t->err.msg);
    return 1;
}

/* Index of the first of n elements of `size` bytes where a and b differ; -1 if none. */
static long first_diff(const void *a, const void *b, size_t n, size_t size)
{
    const unsigned char *pa = (const unsigned char *)a, *pb = (const unsigned char *)b;
    for (size_t q = 0; q < n; q++)
        if (memcmp(pa + q * size, pb + q * size, size) != 0)
            return (long)q;
    return -1;
}

/* 1 (and the first difference) if n values of a and b are not the same bytes. */
static int reals_differ(twin *t, const char *op, const char *an, const yee_real *a, const char *bn,
                        const yee_real *b, size_t n)
{
    const long q = first_diff(a, b, n, sizeof(yee_real));
    if (q >= 0)
        printf("  %s: %s: value %ld differs first: %s %.9g, %s %.9g\n", t->label, op, q, an,
               (double)a[q], bn, (double)b[q]);
    return q >= 0;
}

/* Where value q of state part p lies, in words. */
static void describe_value(const yee_setup *s, int p, long q, char *out, size_t cap)
{
    static const char *const psi[4] = {"psi_e[0]", "psi_e[1]", "psi_h[0]", "psi_h[1]"};
    if (p < 6) {
        const long sy = (long)s->dims.stride[1];
        const long sz = s->dims.stride[2] ? (long)s->dims.stride[2] : LONG_MAX; /* 2-D */
        snprintf(out, cap, "%s, cell (%ld, %ld, %ld)", comp_name[p], q % sy - YEE_HALO,
                 q % sz / sy - YEE_HALO, s->dims.stride[2] ? q / sz - YEE_HALO : 0);
    } else if (p < 6 + 4 * s->nslabs) {
        const yee_slab *sl = &s->slabs[(p - 6) / 4];
        const long w0 = sl->hi[0] - sl->lo[0], w1 = sl->hi[1] - sl->lo[1];
        snprintf(out, cap, "slab %d (axis %d side %d) %s, cell (%ld, %ld, %ld)", (p - 6) / 4,
                 sl->axis, sl->side, psi[(p - 6) % 4], sl->lo[0] + q % w0, sl->lo[1] + q / w0 % w1,
                 sl->lo[2] + q / (w0 * w1));
    } else
        snprintf(out, cap, "polarization");
}

/* 1 (and the first difference: op, part, index) if any state part differs between the two. */
static int states_differ(twin *t, const char *op)
{
    for (int p = 0; p < t->parts; p++) {
        const size_t bytes = t->be[CPU]->state_part_bytes(t->ctx[CPU], p);
        for (int b = 0; b < 2; b++)
            if (call_failed(t, b, t->be[b]->state_transfer(t->ctx[b], p, t->buf[b], 0, &t->err),
                            "state_transfer get"))
                return 1;
        const yee_real *v0 = (const yee_real *)t->buf[CPU], *v1 = (const yee_real *)t->buf[CUDA];
        const long q = first_diff(v0, v1, bytes / sizeof(yee_real), sizeof(yee_real));
        if (q >= 0) {
            char where[200];
            describe_value(t->s, p, q, where, sizeof where);
            printf("  %s: after %s: part %d (%s) differs first at value %ld: cpu %.9g, "
                   "cuda %.9g\n",
                   t->label, op, p, where, q, (double)v0[q], (double)v1[q]);
            return 1;
        }
    }
    return 0;
}

static int check_state(twin *t, const char *op)
{
    return verdict(t, op, states_differ(t, op));
}

/* The same random values in every part of both (ghosts, psi and polarizations included). */
static int fill_random(twin *t)
{
    int bad = 0;
    for (int p = 0; p < t->parts; p++) {
        yee_real *v = (yee_real *)t->buf[CPU];
        const size_t n = t->be[CPU]->state_part_bytes(t->ctx[CPU], p) / sizeof(yee_real);
        for (size_t q = 0; q < n; q++)
            v[q] = test_rval(t->r, -1.0, 1.0);
        for (int b = 0; b < 2; b++)
            bad |= call_failed(t, b, t->be[b]->state_transfer(t->ctx[b], p, v, 1, &t->err),
                               "state_transfer set");
    }
    return bad;
}

/* Component comp (a state part) of the CPU backend into t->buf[CPU]; the values of the cells. */
static const yee_real *cpu_component(twin *t, int comp)
{
    if (t->be[CPU]->state_part_bytes(t->ctx[CPU], comp) == 0) {
        /* not stored (a 2-D run of one polarization): the ops read it as zero */
        memset(t->buf[CPU], 0, (size_t)yee_dims_cells(t->s->dims) * sizeof(yee_real));
        return (const yee_real *)t->buf[CPU];
    }
    if (call_failed(t, CPU, t->be[CPU]->state_transfer(t->ctx[CPU], comp, t->buf[CPU], 0, &t->err),
                    "state_transfer get"))
        return NULL;
    return (const yee_real *)t->buf[CPU];
}

/* ---- the ops ------------------------------------------------------------------------------ */

/* Part lists and sizes alike, memory reported, host memory as the contract says. */
static void check_meta(twin *t)
{
    const yee_setup *s = t->s;
    int bad = t->be[CUDA]->state_parts(t->ctx[CUDA]) != t->parts ||
              t->parts != 6 + 4 * s->nslabs + (s->ndisp > 0);
    /* a 2-D run of one polarization stores its three components and, per slab, the CPML half
     * of each (psi part 6 + 4 s + q: E half q, then H half q-2, writing component axis+1+half) */
    int stored_bad = 0;
    for (int p = 0; p < t->parts && !bad; p++) {
        const size_t b0 = t->be[CPU]->state_part_bytes(t->ctx[CPU], p);
        bad |= b0 != t->be[CUDA]->state_part_bytes(t->ctx[CUDA], p);
        int comp = p; /* the field component the part holds or writes; -1: polarizations */
        if (p >= 6 && p < 6 + 4 * s->nslabs) {
            const int q = (p - 6) % 4, axis = s->slabs[(p - 6) / 4].axis;
            comp = (q < 2 ? 0 : 3) + (axis + 1 + q % 2) % 3;
        } else if (p >= 6)
            comp = -1;
        stored_bad |= (b0 > 0) != (comp < 0 || yee_pol_has(s->pol2d, comp));
    }
    verdict(t, "state_parts and state_part_bytes equal", bad);
    verdict(t, "only the components of the run's polarization are stored", stored_bad);
    const size_t m0 = t->be[CPU]->bytes(t->ctx[CPU]), m1 = t->be[CUDA]->bytes(t->ctx[CUDA]);
    if (!(m0 > 0 && m1 > 0))
        printf("  %s: bytes: cpu %zu, cuda %zu\n", t->label, m0, m1);
    verdict(t, "bytes > 0", !(m0 > 0 && m1 > 0));
    /* the CPU holds the whole state in host memory, a GPU at most that (staging buffers) */
    const size_t need = yee_backend_bytes_needed(s->dims, s->pol2d, s->nslabs, s->slabs);
    const size_t h0 = t->be[CPU]->host_bytes(s->dims, s->pol2d, s->nslabs, s->slabs);
    const size_t h1 = t->be[CUDA]->host_bytes(s->dims, s->pol2d, s->nslabs, s->slabs);
    if (!(h0 == need && h1 <= h0))
        printf("  %s: host_bytes: cpu %zu, cuda %zu, bytes_needed %zu\n", t->label, h0, h1, need);
    verdict(t, "host_bytes (cpu: bytes_needed, cuda: no more)", !(h0 == need && h1 <= h0));
}

/* step_h then step_e on box (NULL: all), each checked. */
static void check_steps(twin *t, const yee_box *box, const char *where)
{
    char op[160];
    for (int e = 0; e < 2; e++) {
        snprintf(op, sizeof op, "%s on %s", e ? "step_e" : "step_h", where);
        int bad = 0;
        for (int b = 0; b < 2; b++) {
            const int rc = e ? t->be[b]->step_e(t->ctx[b], box, &t->err)
                             : t->be[b]->step_h(t->ctx[b], box, &t->err);
            bad |= call_failed(t, b, rc, op);
        }
        verdict(t, op, bad || states_differ(t, op));
    }
}

/* A whole step with nothing in between (the CPU then fuses H and E in one sweep). */
static void check_fused_step(twin *t)
{
    const char *op = "step_h(NULL) + step_e(NULL) unobserved in between (cpu: fused sweep)";
    int bad = 0;
    for (int b = 0; b < 2; b++) {
        bad |= call_failed(t, b, t->be[b]->step_h(t->ctx[b], NULL, &t->err), op);
        bad |= call_failed(t, b, t->be[b]->step_e(t->ctx[b], NULL, &t->err), op);
    }
    verdict(t, op, bad || states_differ(t, op));
}

/* The box [lo, hi) clipped to the grid. */
static yee_box clipped(const yee_setup *s, const int lo[3], const int hi[3])
{
    yee_box b;
    for (int a = 0; a < 3; a++) {
        b.lo[a] = lo[a] < 0 ? 0 : lo[a] > s->dims.n[a] ? s->dims.n[a] : lo[a];
        b.hi[a] = hi[a] < b.lo[a] ? b.lo[a] : hi[a] > s->dims.n[a] ? s->dims.n[a] : hi[a];
    }
    return b;
}

enum { NBOX = 8 };

/* The boxes of an MPI rank's interior/boundary split and a few more: the interior, one-layer
 * boundary boxes of four faces, a box inside CPML slab 0, a box across the inner edge of the
 * last slab, and an empty box. Returns the count; names in name[]. */
static int make_boxes(const yee_setup *s, yee_box *box, const char **name)
{
    const int *n = s->dims.n;
    int lo[3], hi[3], m = 0;
    for (int a = 0; a < 3; a++) { /* the interior: one cell off every face where there is room */
        lo[a] = n[a] > 2 ? 1 : 0;
        hi[a] = n[a] > 2 ? n[a] - 1 : n[a];
    }
    name[m] = "the interior box";
    box[m++] = clipped(s, lo, hi);
    static const char *const layer_name[4] = {"the low x layer", "the high y layer",
                                              "the low z layer", "the high z layer"};
    const int layer_axis[4] = {0, 1, 2, 2}, layer_side[4] = {0, 1, 0, 1};
    for (int q = 0; q < 4; q++) {
        const int a = layer_axis[q];
        for (int b = 0; b < 3; b++) {
            lo[b] = 0;
            hi[b] = n[b];
        }
        lo[a] = layer_side[q] ? n[a] - 1 : 0;
        hi[a] = lo[a] + 1;
        name[m] = layer_name[q];
        box[m++] = clipped(s, lo, hi);
    }
    if (s->nslabs > 0) { /* slab 0 less a cell at each end of the other axes */
        const yee_slab *sl = &s->slabs[0];
        for (int a = 0; a < 3; a++) {
            const int shrink = a != sl->axis && sl->hi[a] - sl->lo[a] > 2;
            lo[a] = sl->lo[a] + shrink;
            hi[a] = sl->hi[a] - shrink;
        }
        name[m] = "a box inside CPML slab 0";
        box[m++] = clipped(s, lo, hi);
        const yee_slab *last = &s->slabs[s->nslabs - 1];
        const int a = last->axis, inner = last->side ? last->lo[a] : last->hi[a];
        for (int b = 0; b < 3; b++) {
            lo[b] = n[b] > 4 ? 2 : 0;
            hi[b] = n[b] > 4 ? n[b] - 1 : n[b];
        }
        lo[a] = inner - 2;
        hi[a] = inner + 2;
        name[m] = "a box across the inner edge of the last CPML slab";
        box[m++] = clipped(s, lo, hi);
    }
    for (int a = 0; a < 3; a++) {
        lo[a] = 0;
        hi[a] = a == 0 ? 0 : n[a];
    }
    name[m] = "an empty box";
    box[m++] = clipped(s, lo, hi);
    return m;
}

static void check_boxes(twin *t)
{
    yee_box box[NBOX];
    const char *name[NBOX];
    const int m = make_boxes(t->s, box, name);
    for (int q = 0; q < m; q++)
        check_steps(t, &box[q], name[q]);
}

enum { NRAND_CUR = 12, MAX_CUR = 16 };

/* 1 if current x's (component, cell) is among the first n. */
static int current_taken(const yee_point_current *c, int n, const yee_point_current *x)
{
    for (int q = 0; q < n; q++)
        if (c[q].comp == x->comp && c[q].i == x->i && c[q].j == x->j && c[q].k == x->k)
            return 1;
    return 0;
}

/* Random J and M currents at distinct (component, cell), the first electric and the second
 * magnetic; then the first two again, and an M in the first one's cell. A current repeated in a
 * cell repeats its value: a real GPU adds the two with atomics in either order, and only equal
 * addends give the same bytes both ways. Returns the count (<= MAX_CUR). */
static int random_currents(const yee_setup *s, test_rng *r, yee_point_current *c)
{
    int n = 0;
    while (n < NRAND_CUR) {
        yee_point_current x;
        x.comp = n == 0 ? test_below(r, 3) : n == 1 ? 3 + test_below(r, 3) : test_below(r, 6);
        x.i = test_below(r, s->dims.n[0]);
        x.j = test_below(r, s->dims.n[1]);
        x.k = test_below(r, s->dims.n[2]);
        x.j_value = test_rval(r, -1.0, 1.0);
        if (!current_taken(c, n, &x))
            c[n++] = x;
    }
    c[n++] = c[0];
    c[n++] = c[1];
    yee_point_current m = c[0];
    m.comp = 3 + c[0].comp;
    if (!current_taken(c, n, &m))
        c[n++] = m;
    return n;
}

static void check_sources(twin *t)
{
    for (int round = 0; round < 2; round++) {
        yee_point_current c[MAX_CUR];
        const int n = random_currents(t->s, t->r, c);
        char op[120];
        snprintf(op, sizeof op, "apply_sources (%d J and M currents, two in one cell) #%d", n,
                 round + 1);
        int bad = 0;
        for (int b = 0; b < 2; b++)
            bad |= call_failed(t, b, t->be[b]->apply_sources(t->ctx[b], n, c, &t->err), op);
        verdict(t, op, bad || states_differ(t, op));
    }
}

enum { NSAMP = 48 };

/* Samples of all six components: the eight corners, then random cells. */
static void random_samples(const yee_setup *s, test_rng *r, yee_sample *p, int n)
{
    for (int q = 0; q < n; q++) {
        const int corner = q < 8;
        p[q].comp = q % 6;
        p[q].i = corner ? (q & 1) * (s->dims.n[0] - 1) : test_below(r, s->dims.n[0]);
        p[q].j = corner ? (q >> 1 & 1) * (s->dims.n[1] - 1) : test_below(r, s->dims.n[1]);
        p[q].k = corner ? (q >> 2 & 1) * (s->dims.n[2] - 1) : test_below(r, s->dims.n[2]);
    }
}

/* gather on both, against each other and against the state's values. */
static void check_gather(twin *t)
{
    const char *op = "gather (48 samples, all six components)";
    yee_sample pts[NSAMP];
    yee_real out[2][NSAMP], want[NSAMP];
    random_samples(t->s, t->r, pts, NSAMP);
    int bad = 0;
    for (int b = 0; b < 2; b++)
        bad |= call_failed(t, b, t->be[b]->gather(t->ctx[b], NSAMP, pts, out[b], &t->err), op);
    for (int comp = 0; comp < 6 && !bad; comp++) {
        const yee_real *v = cpu_component(t, comp);
        bad |= v == NULL;
        for (int q = 0; q < NSAMP && v; q++)
            if (pts[q].comp == comp)
                want[q] = v[yee_idx(t->s->dims, pts[q].i, pts[q].j, pts[q].k)];
    }
    bad = bad || reals_differ(t, op, "cpu", out[CPU], "cuda", out[CUDA], NSAMP) ||
          reals_differ(t, op, "cpu", out[CPU], "state", want, NSAMP);
    verdict(t, op, bad);
}

/* Component comp on [lo, lo+count) from the CPU state (x fastest), into out. */
static int state_box(twin *t, int comp, const int lo[3], const int count[3], yee_real *out)
{
    const yee_real *v = cpu_component(t, comp);
    if (!v)
        return 1;
    size_t o = 0;
    for (int k = 0; k < count[2]; k++)
        for (int j = 0; j < count[1]; j++)
            for (int i = 0; i < count[0]; i++)
                out[o++] = v[yee_idx(t->s->dims, lo[0] + i, lo[1] + j, lo[2] + k)];
    return 0;
}

static size_t box_values(const int count[3])
{
    return (size_t)count[0] * (size_t)count[1] * (size_t)count[2];
}

/* download of one box on both, against each other and the state. */
static void check_download_box(twin *t, int comp, const int lo[3], const int count[3])
{
    char op[160];
    snprintf(op, sizeof op, "download %s [%d,%d,%d]+[%d,%d,%d]", comp_name[comp], lo[0], lo[1],
             lo[2], count[0], count[1], count[2]);
    const size_t n = box_values(count);
    yee_real *out[3] = {(yee_real *)malloc(n * sizeof(yee_real)),
                        (yee_real *)malloc(n * sizeof(yee_real)),
                        (yee_real *)malloc(n * sizeof(yee_real))};
    int bad = 0;
    for (int b = 0; b < 2; b++)
        bad |=
            call_failed(t, b, t->be[b]->download(t->ctx[b], comp, lo, count, out[b], &t->err), op);
    bad = bad || state_box(t, comp, lo, count, out[2]) ||
          reals_differ(t, op, "cpu", out[CPU], "cuda", out[CUDA], n) ||
          reals_differ(t, op, "cpu", out[CPU], "state", out[2], n);
    verdict(t, op, bad);
    for (int q = 0; q < 3; q++)
        free(out[q]);
}

/* A random box of the grid, at least one cell. */
static void random_box(const yee_setup *s, test_rng *r, int lo[3], int count[3])
{
    for (int a = 0; a < 3; a++) {
        lo[a] = test_below(r, s->dims.n[a]);
        count[a] = 1 + test_below(r, s->dims.n[a] - lo[a]);
    }
}

static void check_downloads(twin *t)
{
    const int zero[3] = {0, 0, 0};
    for (int comp = 0; comp < 6; comp++)
        check_download_box(t, comp, zero, t->s->dims.n);
    for (int q = 0; q < 3; q++) {
        int lo[3], count[3];
        random_box(t->s, t->r, lo, count);
        check_download_box(t, test_below(t->r, 6), lo, count);
    }
}

/* ---- DFT ---------------------------------------------------------------------------------- */

enum { NREG = 3 };

/* Ey over the whole grid; Hz on a plane averaged along z; Hx on an x-z plane averaged along x
 * (its low neighbour at i = 0 is the ghost layer). */
static void dft_regions(const yee_setup *s, yee_dft_region *r)
{
    const int *n = s->dims.n;
    memset(r, 0, NREG * sizeof *r);
    r[0].comp = C_EY;
    for (int a = 0; a < 3; a++)
        r[0].count[a] = n[a];
    r[0].avg_axis = -1;
    r[0].nfreq = 3;
    r[1].comp = C_HZ;
    r[1].lo[0] = n[0] / 3;
    r[1].lo[1] = n[1] > 2 ? 1 : 0;
    r[1].lo[2] = n[2] / 2;
    r[1].count[0] = n[0] - r[1].lo[0];
    r[1].count[1] = n[1] > 2 ? n[1] - 2 : n[1];
    r[1].count[2] = 1;
    r[1].avg_axis = 2;
    r[1].avg_hi = 0.5;
    r[1].nfreq = 2;
    r[2].comp = C_HX;
    r[2].lo[1] = n[1] / 2;
    r[2].count[0] = n[0];
    r[2].count[1] = 1;
    r[2].count[2] = n[2];
    r[2].avg_axis = 0;
    r[2].avg_hi = 0.4375; /* a graded axis's weights */
    r[2].nfreq = 4;
}

static size_t dft_values(const yee_dft_region *r)
{
    return box_values(r->count) * (size_t)r->nfreq;
}

/* DFT sums of region r on both into re/im: 1 (and where) if they differ. */
static int sums_differ(twin *t, const char *op, const int id[2], const yee_dft_region *r,
                       double *re[2], double *im[2])
{
    for (int b = 0; b < 2; b++)
        if (call_failed(t, b, t->be[b]->dft_transfer(t->ctx[b], id[b], re[b], im[b], 0, &t->err),
                        op))
            return 1;
    const size_t n = dft_values(r);
    for (int part = 0; part < 2; part++) {
        double *const *v = part ? im : re;
        const long q = first_diff(v[CPU], v[CUDA], n, sizeof(double));
        if (q >= 0) {
            printf("  %s: %s: %s sum %ld (frequency %ld, node %ld) differs: cpu %.17g, cuda "
                   "%.17g\n",
                   t->label, op, part ? "imaginary" : "real", q, q / (long)box_values(r->count),
                   q % (long)box_values(r->count), v[CPU][q], v[CUDA][q]);
            return 1;
        }
    }
    return 0;
}

/* One accumulation of region q with random phasors on both; bad[q] collects the outcome. */
static void accumulate(twin *t, const int id[2][NREG], const yee_dft_region *reg, int q,
                       double *re[2], double *im[2], int *bad)
{
    double ph[8];
    for (int f = 0; f < 2 * reg[q].nfreq; f++)
        ph[f] = 2.0 * test_rnd(t->r) - 1.0;
    const int ids[2] = {id[CPU][q], id[CUDA][q]};
    char op[80];
    snprintf(op, sizeof op, "dft_accumulate of region %d (%s)", q, comp_name[reg[q].comp]);
    for (int b = 0; b < 2; b++)
        bad[q] |= call_failed(t, b, t->be[b]->dft_accumulate(t->ctx[b], ids[b], ph, &t->err), op);
    if (!bad[q])
        bad[q] = sums_differ(t, op, ids, &reg[q], re, im);
}

static void check_dft(twin *t)
{
    yee_dft_region reg[NREG];
    int id[2][NREG];
    dft_regions(t->s, reg);
    int bad = 0;
    for (int q = 0; q < NREG; q++)
        for (int b = 0; b < 2; b++)
            bad |= call_failed(t, b, t->be[b]->dft_create(t->ctx[b], &reg[q], &id[b][q], &t->err),
                               "dft_create");
    for (int q = 0; q < NREG && !bad; q++)
        bad |= id[CPU][q] != id[CUDA][q];
    verdict(t, "dft_create (3 regions, same ids)", bad);
    if (bad)
        return;
    size_t most = 0;
    for (int q = 0; q < NREG; q++)
        most = dft_values(&reg[q]) > most ? dft_values(&reg[q]) : most;
    double *re[2], *im[2];
    for (int b = 0; b < 2; b++) {
        re[b] = (double *)malloc(most * sizeof(double));
        im[b] = (double *)malloc(most * sizeof(double));
    }
    int zero_bad = 0;
    for (int q = 0; q < NREG && !zero_bad; q++) {
        const int ids[2] = {id[CPU][q], id[CUDA][q]};
        zero_bad = sums_differ(t, "dft_transfer get", ids, &reg[q], re, im);
        for (size_t v = 0; v < dft_values(&reg[q]) && !zero_bad; v++)
            zero_bad = re[CPU][v] != 0.0 || im[CPU][v] != 0.0;
    }
    verdict(t, "dft_transfer get (new regions: zero sums)", zero_bad);
    /* three steps, H regions sampled after step_h, all after step_e, as the solver does */
    int acc_bad[NREG] = {0, 0, 0}, step_bad = 0;
    for (int st = 0; st < 3; st++) {
        for (int b = 0; b < 2; b++)
            step_bad |= call_failed(t, b, t->be[b]->step_h(t->ctx[b], NULL, &t->err), "step_h");
        for (int q = 1; q < NREG; q++)
            accumulate(t, id, reg, q, re, im, acc_bad);
        for (int b = 0; b < 2; b++)
            step_bad |= call_failed(t, b, t->be[b]->step_e(t->ctx[b], NULL, &t->err), "step_e");
        for (int q = 0; q < NREG; q++)
            accumulate(t, id, reg, q, re, im, acc_bad);
    }
    for (int q = 0; q < NREG; q++) {
        char op[160];
        snprintf(op, sizeof op, "dft_accumulate %s avg_axis %d, %d frequencies (%d times)",
                 comp_name[reg[q].comp], reg[q].avg_axis, reg[q].nfreq, q == 0 ? 3 : 6);
        verdict(t, op, acc_bad[q]);
    }
    verdict(t, "the steps between DFT accumulations",
            step_bad || states_differ(t, "the steps between DFT accumulations"));
    /* restart: replace the sums by random ones, read them back, accumulate on top */
    int set_bad = 0, after_bad[NREG] = {0, 0, 0};
    for (int q = 0; q < NREG; q++) {
        const size_t n = dft_values(&reg[q]);
        double *want_re = (double *)malloc(n * sizeof(double));
        double *want_im = (double *)malloc(n * sizeof(double));
        for (size_t v = 0; v < n; v++) {
            want_re[v] = 2.0 * test_rnd(t->r) - 1.0;
            want_im[v] = 2.0 * test_rnd(t->r) - 1.0;
        }
        const int ids[2] = {id[CPU][q], id[CUDA][q]};
        for (int b = 0; b < 2; b++)
            set_bad |= call_failed(
                t, b, t->be[b]->dft_transfer(t->ctx[b], ids[b], want_re, want_im, 1, &t->err),
                "dft_transfer set");
        set_bad = set_bad || sums_differ(t, "dft_transfer set, get", ids, &reg[q], re, im) ||
                  first_diff(re[CUDA], want_re, n, sizeof(double)) >= 0 ||
                  first_diff(im[CUDA], want_im, n, sizeof(double)) >= 0;
        free(want_re);
        free(want_im);
        accumulate(t, id, reg, q, re, im, after_bad);
    }
    verdict(t, "dft_transfer set, then get (the sums set, on both)", set_bad);
    verdict(t, "dft_accumulate after dft_transfer set", after_bad[0] | after_bad[1] | after_bad[2]);
    for (int b = 0; b < 2; b++) {
        free(re[b]);
        free(im[b]);
    }
}

/* ---- snapshots ---------------------------------------------------------------------------- */

enum { NCOPY = 3 };

/* One round of snapshots: start NCOPY copies (slot, comp, box), step both backends while they
 * are pending, finish them; each must hold the values of copy_start time on both. */
static void copy_round(twin *t, const int slot[NCOPY], const int comp[NCOPY], int lo[NCOPY][3],
                       int count[NCOPY][3], const char *round)
{
    yee_real *want[NCOPY], *got[2][NCOPY];
    int bad[NCOPY] = {0, 0, 0};
    for (int q = 0; q < NCOPY; q++) {
        const size_t n = box_values(count[q]);
        want[q] = (yee_real *)malloc(n * sizeof(yee_real));
        got[CPU][q] = (yee_real *)malloc(n * sizeof(yee_real));
        got[CUDA][q] = (yee_real *)malloc(n * sizeof(yee_real));
        bad[q] |= state_box(t, comp[q], lo[q], count[q], want[q]);
        for (int b = 0; b < 2; b++)
            bad[q] |= call_failed(
                t, b, t->be[b]->copy_start(t->ctx[b], comp[q], lo[q], count[q], slot[q], &t->err),
                "copy_start");
    }
    int step_bad = 0;
    for (int b = 0; b < 2; b++) {
        step_bad |= call_failed(t, b, t->be[b]->step_h(t->ctx[b], NULL, &t->err), "step_h");
        step_bad |= call_failed(t, b, t->be[b]->step_e(t->ctx[b], NULL, &t->err), "step_e");
    }
    for (int q = 0; q < NCOPY; q++) {
        char op[200];
        snprintf(op, sizeof op,
                 "copy_start/copy_finish %s: slot %d, %s [%d,%d,%d]+[%d,%d,%d], stepped between",
                 round, slot[q], comp_name[comp[q]], lo[q][0], lo[q][1], lo[q][2], count[q][0],
                 count[q][1], count[q][2]);
        for (int b = 0; b < 2; b++)
            bad[q] |= call_failed(
                t, b, t->be[b]->copy_finish(t->ctx[b], slot[q], got[b][q], &t->err), op);
        const size_t n = box_values(count[q]);
        for (int b = 0; b < 2 && !bad[q]; b++)
            bad[q] =
                reals_differ(t, op, "start-time state", want[q], backend_name[b], got[b][q], n);
        verdict(t, op, bad[q]);
        free(want[q]);
        free(got[CPU][q]);
        free(got[CUDA][q]);
    }
    char op[120];
    snprintf(op, sizeof op, "the steps while snapshots were pending (%s)", round);
    verdict(t, op, step_bad || states_differ(t, op));
}

static void check_copies(twin *t)
{
    const int *n = t->s->dims.n;
    int lo[NCOPY][3], count[NCOPY][3];
    for (int q = 0; q < NCOPY; q++)
        random_box(t->s, t->r, lo[q], count[q]);
    const int slot1[NCOPY] = {0, 17, 63}, comp1[NCOPY] = {C_EX, C_HY, C_HZ};
    copy_round(t, slot1, comp1, lo, count, "round 1");
    /* the same slots again: slot 17 with the whole grid (a larger buffer), 0 with one cell */
    const int slot2[NCOPY] = {17, 0, 63}, comp2[NCOPY] = {C_EZ, C_HX, C_EY};
    for (int a = 0; a < 3; a++) {
        lo[0][a] = 0;
        count[0][a] = n[a];
        lo[1][a] = n[a] - 1;
        count[1][a] = 1;
    }
    copy_round(t, slot2, comp2, lo, count, "round 2, slots reused");
}

/* ---- halos -------------------------------------------------------------------------------- */

/* Values of a face buffer of `axis`: two tangential components over the other two axes. */
static size_t face_values(const yee_setup *s, int axis)
{
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    return 2 * (size_t)s->dims.n[u] * (size_t)s->dims.n[v];
}

/* pack_halo of layers 0 and n-1 into host buffers and into halo_alloc's pinned ones. */
static void check_pack(twin *t, yee_field_kind kind, int axis, yee_real *host[2],
                       yee_real *pinned[2], const char *what)
{
    const size_t nv = face_values(t->s, axis);
    const int layers[2] = {0, t->s->dims.n[axis] - 1};
    for (int use_pinned = 0; use_pinned < 2; use_pinned++) {
        char op[160];
        snprintf(op, sizeof op, "pack_halo %s layers 0, n-1 into %s buffers", what,
                 use_pinned ? "halo_alloc(device = 0)" : "malloc'd host");
        yee_real **buf = use_pinned ? pinned : host;
        int bad = buf[CPU] == NULL || buf[CUDA] == NULL;
        for (int l = 0; l < 2 && !bad; l++) {
            for (int b = 0; b < 2; b++)
                bad |= call_failed(
                    t, b, t->be[b]->pack_halo(t->ctx[b], kind, axis, layers[l], buf[b], &t->err),
                    op);
            bad = bad || reals_differ(t, op, "cpu", buf[CPU], "cuda", buf[CUDA], nv);
        }
        verdict(t, op, bad);
    }
}

/* unpack_halo of one random face into ghost layer -1 from host memory and n from pinned. */
static void check_unpack(twin *t, yee_field_kind kind, int axis, yee_real *host[2],
                         yee_real *pinned[2], const char *what)
{
    char op[160];
    snprintf(op, sizeof op, "unpack_halo %s layers -1 (host buffer), n (halo_alloc device = 0)",
             what);
    const size_t nv = face_values(t->s, axis);
    int bad = pinned[CPU] == NULL || pinned[CUDA] == NULL;
    for (int l = 0; l < 2 && !bad; l++) {
        for (size_t q = 0; q < nv; q++)
            host[CPU][q] = test_rval(t->r, -1.0, 1.0);
        for (int b = 0; b < 2; b++) {
            yee_real *buf = l ? pinned[b] : host[b];
            if (buf != host[CPU])
                memcpy(buf, host[CPU], nv * sizeof(yee_real));
            bad |= call_failed(t, b,
                               t->be[b]->unpack_halo(t->ctx[b], kind, axis,
                                                     l ? t->s->dims.n[axis] : -1, buf, &t->err),
                               op);
        }
    }
    verdict(t, op, bad || states_differ(t, op));
}

/* The face path of a CUDA-aware MPI: pack into a device buffer of halo_alloc(device = 1) and
 * unpack that buffer into the opposite ghost layer (a periodic wrap), without reading it on the
 * host (a real GPU's device memory cannot be); the CPU, which has no device memory (NULL),
 * does the same through a host buffer, and the states must agree. */
static void check_device_halo(twin *t, yee_field_kind kind, int axis, yee_real *host,
                              const char *what)
{
    const size_t bytes = face_values(t->s, axis) * sizeof(yee_real);
    void *cpu_dev = t->be[CPU]->halo_alloc(t->ctx[CPU], bytes, 1);
    yee_real *dev = (yee_real *)t->be[CUDA]->halo_alloc(t->ctx[CUDA], bytes, 1);
    char op[200];
    snprintf(op, sizeof op, "halo_alloc(device = 1) %s: NULL on the cpu, a buffer on cuda", what);
    verdict(t, op, cpu_dev != NULL || dev == NULL);
    if (cpu_dev)
        t->be[CPU]->halo_free(t->ctx[CPU], cpu_dev);
    if (!dev)
        return;
    snprintf(op, sizeof op,
             "pack_halo/unpack_halo %s through a device buffer (cuda) and a host one (cpu): "
             "0 -> n, n-1 -> -1",
             what);
    const int n = t->s->dims.n[axis];
    const int from[2] = {0, n - 1}, to[2] = {n, -1};
    int bad = 0;
    for (int l = 0; l < 2; l++) {
        yee_real *buf[2] = {host, dev};
        for (int b = 0; b < 2; b++) {
            bad |= call_failed(
                t, b, t->be[b]->pack_halo(t->ctx[b], kind, axis, from[l], buf[b], &t->err), op);
            bad |= call_failed(
                t, b, t->be[b]->unpack_halo(t->ctx[b], kind, axis, to[l], buf[b], &t->err), op);
        }
    }
    verdict(t, op, bad || states_differ(t, op));
    t->be[CUDA]->halo_free(t->ctx[CUDA], dev);
}

static void check_halos(twin *t)
{
    for (int kind = 0; kind < 2; kind++)
        for (int axis = 0; axis < 3; axis++) {
            char what[40];
            snprintf(what, sizeof what, "%s axis %c", kind ? "H" : "E", "xyz"[axis]);
            const size_t bytes = face_values(t->s, axis) * sizeof(yee_real);
            yee_real *host[2], *pinned[2];
            for (int b = 0; b < 2; b++) {
                host[b] = (yee_real *)malloc(bytes);
                pinned[b] = (yee_real *)t->be[b]->halo_alloc(t->ctx[b], bytes, 0);
            }
            check_pack(t, (yee_field_kind)kind, axis, host, pinned, what);
            check_unpack(t, (yee_field_kind)kind, axis, host, pinned, what);
            check_device_halo(t, (yee_field_kind)kind, axis, host[CPU], what);
            for (int b = 0; b < 2; b++) {
                free(host[b]);
                if (pinned[b])
                    t->be[b]->halo_free(t->ctx[b], pinned[b]);
            }
        }
}

/* ---- advance ------------------------------------------------------------------------------- */

/* A plan's currents split by kind (magnetic after the H update, electric after the E update),
 * each kind in list order. */
static void split_plan(int n, const yee_point_current *list, yee_point_current *m,
                       yee_point_current *j, yee_step_plan *p)
{
    p->nm = p->nj = 0;
    for (int q = 0; q < n; q++) {
        if (YEE_IS_ELECTRIC(list[q].comp))
            j[p->nj++] = list[q];
        else
            m[p->nm++] = list[q];
    }
    p->m = m;
    p->j = j;
}

/* One step of plan p through the single-step ops on backend b: step_h, M, step_e, J, gather
 * (backend.h's advance contract); an empty list is no call, as in the solver. */
static int one_step(twin *t, int b, const yee_step_plan *p, yee_real *out)
{
    const yee_backend_ops *be = t->be[b];
    int rc = be->step_h(t->ctx[b], NULL, &t->err);
    if (rc == YEE_OK && p->nm)
        rc = be->apply_sources(t->ctx[b], p->nm, p->m, &t->err);
    if (rc == YEE_OK)
        rc = be->step_e(t->ctx[b], NULL, &t->err);
    if (rc == YEE_OK && p->nj)
        rc = be->apply_sources(t->ctx[b], p->nj, p->j, &t->err);
    if (rc == YEE_OK)
        rc = be->gather(t->ctx[b], p->nsamp, p->samp, out, &t->err);
    return rc;
}

/* The CPU's advance (two steps: its wavefront or, with dispersive nodes, its fused sweep) against
 * the CUDA backend's single-step ops, and the samples after each step. */
static void check_advance(twin *t)
{
    if (!t->be[CPU]->advance) {
        verdict(t, "advance on the cpu", 1);
        return;
    }
    for (int round = 0; round < 2; round++) {
        yee_point_current cur[2][MAX_CUR], m[2][MAX_CUR], j[2][MAX_CUR];
        yee_step_plan plan[2];
        yee_sample samp[NSAMP];
        yee_real out[2][2][NSAMP]; /* [backend][step] */
        random_samples(t->s, t->r, samp, NSAMP);
        for (int st = 0; st < 2; st++) {
            const int n = random_currents(t->s, t->r, cur[st]);
            split_plan(n, cur[st], m[st], j[st], &plan[st]);
            plan[st].nsamp = NSAMP;
            plan[st].samp = samp;
            plan[st].samp_out = out[CPU][st];
        }
        char op[200];
        snprintf(op, sizeof op, "advance 2 steps (cpu) vs step_h, M, step_e, J, gather twice "
                                "(cuda), %d+%d and %d+%d currents #%d",
                 plan[0].nm, plan[0].nj, plan[1].nm, plan[1].nj, round + 1);
        int bad = call_failed(t, CPU, t->be[CPU]->advance(t->ctx[CPU], 2, plan, &t->err), op);
        for (int st = 0; st < 2; st++)
            bad |= call_failed(t, CUDA, one_step(t, CUDA, &plan[st], out[CUDA][st]), op);
        verdict(t, op, bad || states_differ(t, op));
        for (int st = 0; st < 2; st++) {
            snprintf(op, sizeof op, "advance's samples after step %d vs gather there #%d", st + 1,
                     round + 1);
            verdict(t, op,
                    bad || reals_differ(t, op, "cpu", out[CPU][st], "cuda", out[CUDA][st], NSAMP));
        }
    }
}

/* ---- norms -------------------------------------------------------------------------------- */

/* Norms on both: sums to summation order (1e-12 relative), the rest identical; with want_bad
 * the first non-finite value must be that one (NULL: all finite). */
static void check_norms_now(twin *t, const char *op, const yee_norms *want_bad)
{
    yee_norms v[2];
    int bad = 0;
    for (int b = 0; b < 2; b++)
        bad |= call_failed(t, b, t->be[b]->norms(t->ctx[b], &v[b], &t->err), op);
    if (!bad) {
        for (int q = 0; q < 2; q++) {
            const double x = q ? v[CPU].h2 : v[CPU].e2, y = q ? v[CUDA].h2 : v[CUDA].e2;
            const int same = isfinite(x) && isfinite(y)
                                 ? fabs(x - y) <= 1e-12 * fmax(fabs(x), fabs(y))
                                 : isnan(x) == isnan(y) && (isnan(x) || x == y);
            bad |= !same;
        }
        const yee_norms *w = want_bad ? want_bad : &v[CPU];
        bad |= v[CPU].nonfinite != (want_bad != NULL);
        for (int b = 0; b < 2; b++)
            bad |= v[b].nonfinite != v[CPU].nonfinite || v[b].bad_comp != w->bad_comp ||
                   v[b].bad_i != w->bad_i || v[b].bad_j != w->bad_j || v[b].bad_k != w->bad_k;
        if (bad)
            for (int b = 0; b < 2; b++)
                printf("  %s: %s: %s e2 %.17g h2 %.17g nonfinite %d at %s (%d, %d, %d)\n", t->label,
                       op, backend_name[b], v[b].e2, v[b].h2, v[b].nonfinite,
                       comp_name[v[b].bad_comp % 6], v[b].bad_i, v[b].bad_j, v[b].bad_k);
    }
    verdict(t, op, bad);
}

/* Writes value into component comp at (i,j,k) of both backends. */
static void plant(twin *t, int comp, int i, int j, int k, yee_real value)
{
    for (int b = 0; b < 2; b++) {
        yee_real *v = (yee_real *)t->buf[b];
        if (call_failed(t, b, t->be[b]->state_transfer(t->ctx[b], comp, v, 0, &t->err), "plant"))
            continue;
        v[yee_idx(t->s->dims, i, j, k)] = value;
        call_failed(t, b, t->be[b]->state_transfer(t->ctx[b], comp, v, 1, &t->err), "plant");
    }
}

/* Norms of finite fields, then with non-finite values planted: in a ghost cell (not counted),
 * at the last cell, then earlier cells, each time the first in (k, j, i, component) order. The
 * components planted are ones the run stores (2-D TM: Ez, Hy, Ez; TE: Ey, Hz, Ex). */
static void check_norms(twin *t)
{
    const int *n = t->s->dims.n;
    const int pol = t->s->pol2d;
    const int last = pol == YEE_POL_TE ? C_EY : C_EZ, earlier = pol == YEE_POL_TE ? C_HZ : C_HY;
    const int lower = pol == YEE_POL_TM ? C_EZ : C_EX;
    char op[120];
    check_norms_now(t, "norms (finite fields)", NULL);
    plant(t, C_HX, -1, 0, n[2] - 1, (yee_real)NAN);
    check_norms_now(t, "norms with a NaN in a ghost cell (interior only: finite)", NULL);
    yee_norms want;
    memset(&want, 0, sizeof want);
    want.nonfinite = 1;
    want.bad_comp = last;
    want.bad_i = n[0] - 1;
    want.bad_j = n[1] - 1;
    want.bad_k = n[2] - 1;
    plant(t, want.bad_comp, want.bad_i, want.bad_j, want.bad_k, (yee_real)INFINITY);
    snprintf(op, sizeof op, "norms with an Inf in %s at the last cell", comp_name[last]);
    check_norms_now(t, op, &want);
    want.bad_comp = earlier;
    want.bad_i = n[0] / 2;
    want.bad_j = n[1] / 2;
    want.bad_k = n[2] / 3;
    plant(t, want.bad_comp, want.bad_i, want.bad_j, want.bad_k, (yee_real)NAN);
    snprintf(op, sizeof op, "norms with a NaN in %s at an earlier cell", comp_name[earlier]);
    check_norms_now(t, op, &want);
    want.bad_comp = lower;
    plant(t, want.bad_comp, want.bad_i, want.bad_j, want.bad_k, (yee_real)-NAN);
    snprintf(op, sizeof op, "norms with a NaN in %s there too (the lower component)",
             comp_name[lower]);
    check_norms_now(t, op, &want);
    check_state(t, "planting the non-finite values");
}

/* ---- the cases ---------------------------------------------------------------------------- */

/* Creates both backends and the scratch; 1 on failure (reported). */
static int twin_open(twin *t, const owned *o)
{
    for (int b = 0; b < 2; b++)
        if (call_failed(t, b, t->be[b]->create(&o->s, &t->ctx[b], &t->err), "create"))
            return verdict(t, "create", 1);
    t->parts = t->be[CPU]->state_parts(t->ctx[CPU]);
    for (int b = 0; b < 2; b++)
        for (int p = 0; p < t->be[b]->state_parts(t->ctx[b]); p++) {
            const size_t bytes = t->be[b]->state_part_bytes(t->ctx[b], p);
            t->maxb = bytes > t->maxb ? bytes : t->maxb;
        }
    for (int b = 0; b < 2; b++)
        t->buf[b] = (unsigned char *)malloc(t->maxb);
    return 0;
}

static void twin_close(twin *t)
{
    for (int b = 0; b < 2; b++) {
        t->be[b]->destroy(t->ctx[b]);
        t->ctx[b] = NULL;
        free(t->buf[b]);
        t->buf[b] = NULL;
    }
}

/* Every op on one setup; adds to *checked and *failed. */
static void run_case(const geom *g, const yee_backend_ops *cuda, int *checked, int *failed)
{
    test_rng r = {g->seed};
    owned o;
    build(g, &r, &o);
    twin t;
    memset(&t, 0, sizeof t);
    t.be[CPU] = yee_backend_find("cpu");
    t.be[CUDA] = cuda;
    t.s = &o.s;
    t.label = g->label;
    t.r = &r;
    if (twin_open(&t, &o) == 0) {
        check_meta(&t);
        verdict(&t, "state_transfer set (random state), get",
                fill_random(&t) || states_differ(&t, "fill"));
        check_steps(&t, NULL, "the whole grid (NULL)");
        check_fused_step(&t);
        check_boxes(&t);
        check_sources(&t);
        check_gather(&t);
        check_downloads(&t);
        check_dft(&t);
        check_copies(&t);
        check_halos(&t);
        check_advance(&t);
        check_norms(&t);
    }
    twin_close(&t);
    release(&o);
    *checked += t.checked;
    *failed += t.failed;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* the lines so far survive a crash under ctest's pipe */
    const yee_backend_ops *cuda = yee_backend_find("cuda");
    if (!cuda || yee_backend_cuda_devices() == 0) {
        printf("SKIP gpu_ops_identical: no CUDA backend or device\n");
        return 77;
    }
    const geom cases[] = {
        /* CPML on x low, y high, z both; PEC on y; dispersive nodes */
        {"13x9x7", {13, 9, 7}, {{3, 0}, {0, 2}, {2, 2}}, {0, 1, 0}, 12, 0x9e3779b97f4a7c15ull, YEE_POL_BOTH},
        /* one cell wide in x, a slab across all of x; PEC on z */
        {"1x11x8", {1, 11, 8}, {{1, 0}, {3, 0}, {0, 2}}, {0, 0, 1}, 8, 0xd1b54a32d192ed03ull, YEE_POL_BOTH},
        /* no dispersive nodes: the CPU's advance runs its wavefront, not the fused sweep */
        {"13x9x7 no ADE",
         {13, 9, 7},
         {{0, 2}, {3, 0}, {0, 3}},
         {1, 0, 0},
         0,
         0x94d049bb133111ebull,
         YEE_POL_BOTH},
        /* 2-D runs of one polarization: CPML on x low and y both, PEC on x, dispersive nodes */
        {"2-D TM 13x9", {13, 9, 1}, {{3, 0}, {2, 2}, {0, 0}}, {1, 0, 0}, 10,
         0xbf58476d1ce4e5b9ull, YEE_POL_TM},
        {"2-D TE 13x9", {13, 9, 1}, {{0, 3}, {2, 0}, {0, 0}}, {0, 1, 0}, 10,
         0x2545f4914f6cdd1dull, YEE_POL_TE},
        /* rows long enough for runs of one material (rows j = 3: 16 and 19 cells), one of them
         * crossing a CPML slab; 3-D and 2-D TM */
        {"37x6x5 runs", {37, 6, 5}, {{0, 4}, {0, 0}, {2, 0}}, {0, 0, 1}, 6,
         0x853c49e6748fea9bull, YEE_POL_BOTH},
        {"2-D TM 37x6 runs", {37, 6, 1}, {{4, 0}, {0, 2}, {0, 0}}, {0, 1, 0}, 6,
         0xda942042e4dd58b5ull, YEE_POL_TM},
    };
    int checked = 0, failed = 0;
    for (size_t q = 0; q < sizeof cases / sizeof cases[0]; q++)
        run_case(&cases[q], cuda, &checked, &failed);
    printf("%s gpu_ops_identical (%d checks, %d failed)\n", failed ? "FAIL" : "PASS", checked,
           failed);
    return failed ? 1 : 0;
}
