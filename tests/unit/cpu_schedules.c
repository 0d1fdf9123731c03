/* tests/unit/cpu_schedules.c -- every schedule of the tuned CPU backend gives the reference's
 * bytes: `cpu`'s advance (the fused single-step sweep, sweep_fused.c, and the K-step
 * wavefront, wavefront.c, K = 1..8 by setup.tuning.cpu_sweep_steps) against `cpu-reference`'s ops one by one (backend_cpu.c).
 *
 * A setup built by hand: odd non-cubic dims, CPML slabs on several faces (overlapping at the
 * edges, so rows cross two or three slabs), PEC or PMC low walls, a block of random materials (rows
 * that are not all material 0), random fields and psi written through state_transfer. Two
 * contexts start from the same state; one advances by advance calls of 1, 2, 3 or 5 steps, the
 * other by step_h, the magnetic currents, step_e, the electric currents and gather per step
 * (several currents in one cell, some on the first and last planes and rows). The samples after
 * every step and all parts (fields and psi) at the end must agree with memcmp, for 1 to 3
 * threads (thread blocks of planes down to one plane, and an empty one) and several band
 * heights (setup.tuning.cpu_band_rows), on a single plane (3-D one cell thick, and 2-D runs of
 * each polarization with z stride 0: the wavefront's layers are then the rows); and on a
 * setup with dispersive nodes, which the fused single-step sweep takes (the wavefront does
 * not): same bytes. And complex fields (a Bloch cell): two contexts of each backend under
 * yee_backend_complex, wrapped axes with random Bloch factors (one of them 1), complex current
 * amplitudes; the tuned side through the complex backend's advance (advance_complex), the
 * reference through its split ops and the complex halo's pack and unpack. The wavefront's
 * thread blocks follow the threads' measured speeds (cpu_balance): besides the splits this
 * machine's timings give, the skewed cases set random shares before each call, down to blocks
 * of the least 2K layers. DFT regions: about half the steps of each call ask the tuned side to
 * hold their fields (yee_step_plan.dft), sampled after the call, and the reference samples them
 * after those steps; the sums must agree bit for bit, and the rows are held in the sweep unless
 * the held box of a component the run stores reaches a ghost node. Tensor nodes (random
 * off-diagonal terms, kernels/yee_tensor.h), which make the wavefront's E trail its H by a
 * layer: K = 1..8 on blocks of the least 4K layers, bands, a wrapped z axis, complex fields,
 * 2-D runs, with dispersive nodes, skewed blocks.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/backend.h"
#include "kernels/cpu/cpu.h"
#include "tests/support/setup.h"

enum { NDISP = 4, NTENSOR = 40 };

/* run_case's extras */
enum { DISPERSIVE = 1, TENSOR = 2 };

/* 1: the tuned context's wavefront starts each call from random shares of the work (real
 * fields; the complex wrapper owns its two contexts) */
static int skewed;

typedef struct geom {
    int n[3];
    int pml[3][2]; /* slab cells per face, 0: none */
    int pec[3];
    int pmc[3];    /* low PMC walls (not where pec) */
    int wrap[3];   /* periodic onto itself (no CPML or walls there): setup.wrap for the tuned
                    * backend, pack_halo + unpack_halo after each step's currents for the
                    * reference, as the solver's halo */
    int two_d;     /* 1 + YEE_POL_*: a 2-D run (one plane, z stride 0) of that polarization,
                    * whose currents, samples and dispersive nodes take its components */
} geom;

/* Component c (0..5) as the geometry has it: itself in 3-D and in a 2-D run of both
 * polarizations; else the polarization's component of the same kind (electric or magnetic). */
static int comp_of(const geom *g, int c)
{
    if (g->two_d - 1 == YEE_POL_TM)
        return YEE_IS_ELECTRIC(c) ? YEE_EZ : YEE_HX + c % 2;
    if (g->two_d - 1 == YEE_POL_TE)
        return YEE_IS_ELECTRIC(c) ? YEE_EX + c % 2 : YEE_HZ;
    return c;
}

/* Index v along axis a, clipped to the geometry's cells (a single plane takes every k as 0;
 * the short y axes of the 2K-row geometries clip the currents placed past their middle). */
static int clip(const geom *g, int a, int v)
{
    return v < 0 ? 0 : v >= g->n[a] ? g->n[a] - 1 : v;
}

/* Everything a setup points to, owned here. */
typedef struct owned {
    yee_setup s;
    yee_real ca[4], cb[4];
    uint8_t *mat[3];
    yee_real *lines;
    yee_disp_node disp[NDISP];
    yee_pole_coef pcoef[2];
    yee_tensor_node tensor[NTENSOR];
    yee_curl_node curl[8 * NTENSOR];
} owned;

static void build(const geom *g, test_rng *r, owned *o)
{
    memset(o, 0, sizeof *o);
    yee_setup *s = &o->s;
    int64_t total = test_dims(s, g->n);
    if (g->two_d) {
        total /= g->n[2] + 2 * YEE_HALO; /* one plane: stride[2] = 0, as yee_dims_of makes it */
        s->dims.stride[2] = 0;
        s->pol2d = g->two_d - 1;
    }
    s->nmat = 4;
    for (int m = 0; m < 4; m++) {
        o->ca[m] = m == 0 ? (yee_real)1.0 : test_rval(r, 0.8, 1.0);
        o->cb[m] = m == 0 ? (yee_real)0.4 : test_rval(r, 0.1, 0.4);
    }
    s->ca = o->ca;
    s->cb = o->cb;
    s->ch = (yee_real)0.45;
    /* materials 1..3 at random in a block away from the corner; material 0 elsewhere */
    for (int a = 0; a < 3; a++) {
        o->mat[a] = (uint8_t *)calloc((size_t)total, 1);
        for (int k = g->n[2] / 4; k < 3 * g->n[2] / 4 || k == 0; k++) /* a single plane: k = 0 */
            for (int j = g->n[1] / 3; j < 2 * g->n[1] / 3; j++)
                for (int i = 2; i < g->n[0] - 3; i++)
                    o->mat[a][yee_idx(s->dims, i, j, k)] = (uint8_t)(1 + test_below(r, 3));
        s->mat[a] = o->mat[a];
    }
    o->lines = test_lines_slabs_walls(s, r, g->pml, g->pec);
    for (int a = 0; a < 3; a++) {
        s->pmc_low[a] = g->pmc[a];
        s->wrap[a] = g->wrap[a];
    }
}

/* The reference's periodic faces: what the solver's halo does for a rank that is its own
 * neighbour, H layer n-1 into ghost -1, E layer 0 into ghost n. */
static int exchange_wraps(const yee_backend_ops *be, void *ctx, const geom *g,
                          yee_field_kind kind, yee_real *buf, yee_err *err)
{
    for (int a = 0; a < 3; a++) {
        if (!g->wrap[a])
            continue;
        const int from = kind == YEE_FIELD_H ? g->n[a] - 1 : 0;
        const int to = kind == YEE_FIELD_H ? -1 : g->n[a];
        int rc = be->pack_halo(ctx, kind, a, from, buf, err);
        if (rc == 0)
            rc = be->unpack_halo(ctx, kind, a, to, buf, err);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Lorentz-like and Debye poles on E nodes (coefficients need not be physical): two
 * neighbours in the middle row, one on the last row and plane, one on the first row and plane
 * (rows of different bands and thread blocks). */
static void add_dispersion(const geom *g, owned *o)
{
    o->pcoef[0].c1 = (yee_real)1.2;
    o->pcoef[0].c2 = (yee_real)-0.3;
    o->pcoef[0].c3 = (yee_real)0.05;
    o->pcoef[1].c1 = (yee_real)0.9; /* Debye: a, b, 1 - a */
    o->pcoef[1].c2 = (yee_real)0.2;
    o->pcoef[1].c3 = (yee_real)0.1;
    o->pcoef[1].debye = 1;
    const int at[NDISP][4] = {{g->n[0] / 2, g->n[1] / 2, g->n[2] / 2, 0},
                              {g->n[0] / 2 + 1, g->n[1] / 2, g->n[2] / 2, 1},
                              {1, g->n[1] - 1, g->n[2] - 1, 2},
                              {g->n[0] - 2, 0, 0, 1}};
    for (int q = 0; q < NDISP; q++) {
        memset(&o->disp[q], 0, sizeof o->disp[q]);
        o->disp[q].c = yee_idx(o->s.dims, at[q][0], at[q][1], at[q][2]);
        o->disp[q].p_off = 2 * q;
        o->disp[q].comp = comp_of(g, at[q][3]);
        o->disp[q].pole0 = q % 2;
        o->disp[q].npole = 1;
    }
    o->s.ndisp = NDISP;
    o->s.disp = o->disp;
    o->s.npol = 2 * NDISP;
    o->s.npcoef = 2;
    o->s.pcoef = o->pcoef;
    o->s.inv_dt = (yee_real)2.0;
}

/* Tensor nodes (kernels/yee_tensor.h) with random weights, where the geometry may put them: two
 * cells clear of every face and CPML slab (geometry/geometry.c tensor_node). Eight at the first
 * and last such planes and rows, the others at random (so across band and block edges), all of
 * distinct cells and components the run stores; about one slot in four unused (curl -1). The
 * curl list holds one entry per used slot, the neighbour solver/structure.c would list. */
static void add_tensor(const geom *g, test_rng *r, owned *o)
{
    const yee_dims d = o->s.dims;
    const int axes = g->two_d ? 2 : 3;
    int lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}; /* the clear cells [lo, hi) */
    for (int a = 0; a < axes; a++) {
        lo[a] = g->pml[a][0] + 2;
        hi[a] = g->n[a] - g->pml[a][1] - 2;
        if (hi[a] <= lo[a])
            return; /* too small: no nodes */
    }
    if (g->two_d - 1 == YEE_POL_TM)
        return; /* Ez alone: no neighbour to couple */
    int nt = 0, nc = 0;
    for (int q = 0; q < NTENSOR; q++) {
        yee_tensor_node *n = &o->tensor[nt];
        n->comp = comp_of(g, test_below(r, 3));
        for (int a = 0; a < 3; a++)
            n->at[a] = q < 8 ? (q >> a & 1 ? hi[a] - 1 : lo[a])
                             : lo[a] + test_below(r, hi[a] - lo[a]);
        n->c = yee_idx(d, n->at[0], n->at[1], n->at[2]);
        int taken = 0;
        for (int p = 0; p < nt; p++)
            taken |= o->tensor[p].c == n->c && o->tensor[p].comp == n->comp;
        if (taken)
            continue;
        for (int slot = 0; slot < 8; slot++) {
            const int sq = slot / 4, u = slot % 4, b = (n->comp + 1 + sq) % 3;
            n->w[sq][u] = test_rval(r, -0.05, 0.05);
            n->curl[sq][u] = -1;
            if (!yee_pol_has(o->s.pol2d, b) || test_rnd(r) < 0.25)
                continue;
            yee_curl_node *cn = &o->curl[nc];
            cn->comp = b;
            cn->c = yee_e_neighbour(d.stride, n->c, n->comp, b, u);
            yee_idx_cell(d, cn->c, &cn->at[0], &cn->at[1], &cn->at[2]);
            n->curl[sq][u] = nc++;
        }
        nt++;
    }
    o->s.ntensor = nt;
    o->s.tensor = o->tensor;
    o->s.ncurl = nc;
    o->s.curl = o->curl;
}

static void release(owned *o)
{
    for (int a = 0; a < 3; a++)
        free(o->mat[a]);
    free(o->lines);
}

enum { NCUR = 16, NSAMP = 36, MAXK = 16, NDFT = 4, NFREQ = 12 };

/* The currents of step `step` (magnetic in m, electric in j): two in one cell, the first and
 * last planes and rows, i = 0, and a cell with both kinds. moved: each one row further along y
 * (as many currents in other rows: the backend must not reuse the row order of the lists
 * before, which it keeps while the rows come in the same sequence). */
static void currents(const geom *g, int step, int moved, int cplx, yee_point_current *m, int *nm,
                     yee_point_current *j, int *nj)
{
    const int nx = g->n[0], ny = g->n[1], nz = g->n[2];
    const int at[NCUR][4] = {
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
    *nm = *nj = 0;
    for (int q = 0; q < NCUR; q++) {
        yee_point_current c;
        c.comp = comp_of(g, at[q][0]);
        c.i = clip(g, 0, at[q][1]);
        c.j = clip(g, 1, at[q][2] + moved);
        c.k = clip(g, 2, at[q][3]);
        c.j_value = (yee_real)(0.3 * (q + 1) + 0.17 * step) * (q % 2 ? 1 : -1);
        c.j_imag = 0;
        if (cplx && q % 3 != 0) /* complex amplitudes; q % 3 == 2: imaginary only */
            c.j_imag = (yee_real)(0.2 * q - 0.11 * step);
        if (cplx && q % 3 == 2)
            c.j_value = 0;
        if (YEE_IS_ELECTRIC(c.comp))
            j[(*nj)++] = c;
        else
            m[(*nm)++] = c;
    }
}

static int fail_rc(const char *what, int rc, const yee_err *err)
{
    fprintf(stderr, "FAIL %s: rc %d %s\n", what, rc, err->msg);
    return 1;
}

/* The first differing value of two parts, named for a person. */
static void report_part(const char *label, const owned *o, int p, const yee_real *a,
                        const yee_real *b, size_t n)
{
    for (size_t q = 0; q < n; q++)
        if (memcmp(&a[q], &b[q], sizeof(yee_real)) != 0) {
            fprintf(stderr, "FAIL %s: part %d differs first at value %zu: cpu %.9g, reference %.9g\n",
                    label, p, q, (double)a[q], (double)b[q]);
            if (p < 6) {
                const int64_t sy = o->s.dims.stride[1];
                const int64_t sz = o->s.dims.stride[2] ? o->s.dims.stride[2] : (int64_t)q + 1;
                fprintf(stderr, "  (cell i %d, j %d, k %d)\n", (int)(q % sy) - YEE_HALO,
                        (int)(q % sz / sy) - YEE_HALO, (int)(q / sz) - YEE_HALO);
            }
            return;
        }
}

/* One comparison: `calls` advance calls of chunk[c % nchunk] steps each against the reference
 * ops. */
static int run_case(const geom *g, int threads, int band_rows, int sweep, int extras,
                    int cplx, const int *chunk, int nchunk, int calls)
{
    char label[220];
    int len = snprintf(label, sizeof label,
                       "%dx%dx%d%s%s%s%s threads %d rows %d sweep %d%s%s%s steps per call",
                       g->n[0], g->n[1], g->n[2], g->two_d ? " 2-D" : "",
                       g->wrap[0] ? " wrap x" : "", g->wrap[1] ? " wrap y" : "",
                       g->wrap[2] ? " wrap z" : "", threads, band_rows, sweep,
                       extras & DISPERSIVE ? " dispersive," : "",
                       extras & TENSOR ? " tensor," : "",
                       cplx ? " complex," : skewed ? " skewed," : "");
    for (int c = 0; c < nchunk; c++)
        len += snprintf(label + len, sizeof label - (size_t)len, " %d", chunk[c]);
    omp_set_num_threads(threads);
    test_rng r = {88172645463325252ull};
    owned o;
    build(g, &r, &o);
    if (extras & DISPERSIVE)
        add_dispersion(g, &o);
    if (extras & TENSOR)
        add_tensor(g, &r, &o);
    o.s.tuning.cpu_band_rows = band_rows;
    o.s.tuning.cpu_sweep_steps = sweep;
    const yee_backend_ops *tuned = &yee_backend_cpu, *ref = &yee_backend_cpu_reference;
    yee_err err;
    memset(&err, 0, sizeof err);
    void *ctx[2] = {NULL, NULL};
    int rc;
    if (cplx) {
        rc = yee_backend_complex_create(tuned, &o.s, &ctx[0], &err);
        if (rc == 0)
            rc = yee_backend_complex_create(ref, &o.s, &ctx[1], &err);
        tuned = ref = &yee_backend_complex;
        /* a Bloch factor per wrapped axis; x's is 1 (where the halo copies) when y is wrapped
         * too on several planes */
        for (int a = 0; a < 3 && rc == 0; a++) {
            if (!g->wrap[a])
                continue;
            const int one = a == 0 && g->wrap[1] && g->n[2] > 1;
            const double phi = one ? 0.0 : test_rval(&r, -3.0, 3.0);
            for (int q = 0; q < 2; q++) {
                yee_backend_complex_set_phase(ctx[q], YEE_FIELD_E, a, cos(phi), sin(phi));
                yee_backend_complex_set_phase(ctx[q], YEE_FIELD_H, a, cos(phi), -sin(phi));
            }
        }
    } else {
        rc = tuned->create(&o.s, &ctx[0], &err);
        if (rc == 0)
            rc = ref->create(&o.s, &ctx[1], &err);
    }
    if (rc != 0)
        return fail_rc("create", rc, &err);
    const int parts = ref->state_parts(ctx[1]);
    size_t maxb = 0;
    for (int p = 0; p < parts; p++)
        if (ref->state_part_bytes(ctx[1], p) > maxb)
            maxb = ref->state_part_bytes(ctx[1], p);
    yee_real *buf[2] = {(yee_real *)malloc(maxb), (yee_real *)malloc(maxb)};
    for (int p = 0; p < parts; p++) { /* the same random state (ghosts included) in both */
        const size_t n = ref->state_part_bytes(ctx[1], p) / sizeof(yee_real);
        for (size_t q = 0; q < n; q++)
            buf[0][q] = test_rval(&r, -1.0, 1.0);
        if ((rc = tuned->state_transfer(ctx[0], p, buf[0], 1, &err)) != 0 ||
            (rc = ref->state_transfer(ctx[1], p, buf[0], 1, &err)) != 0)
            return fail_rc("state_transfer set", rc, &err);
    }
    /* the ghosts of the wrapped faces as the exchange leaves them (advance fills them on entry) */
    const size_t face_values = 4 * (size_t)(g->n[0] + g->n[2]) * (size_t)(g->n[1] + g->n[2]);
    yee_real *face = (yee_real *)malloc(face_values * sizeof(yee_real));
    if ((rc = exchange_wraps(ref, ctx[1], g, YEE_FIELD_E, face, &err)) != 0 ||
        (rc = exchange_wraps(ref, ctx[1], g, YEE_FIELD_H, face, &err)) != 0)
        return fail_rc("wrap", rc, &err);
    /* samples after each step (probes): all six components, on the first and last planes, rows
     * and columns and at random cells */
    yee_sample samp[NSAMP];
    for (int q = 0; q < NSAMP; q++) {
        /* the last six: every component, those a 2-D run does not store reading zero */
        samp[q].comp = q >= NSAMP - 6 ? q % 6 : comp_of(g, q % 6);
        const int corner = q < 12;
        samp[q].i = corner ? (q & 1 ? g->n[0] - 1 : 0) : test_below(&r, g->n[0]);
        samp[q].j = corner ? (q & 2 ? g->n[1] - 1 : 0) : test_below(&r, g->n[1]);
        samp[q].k = corner ? (q & 4 ? g->n[2] - 1 : 0) : test_below(&r, g->n[2]);
    }
    /* DFT regions: random boxes, components (some a 2-D run lacks) and averaging axes; with
     * some luck all inside, whose fields the sweeps hold row by row, else one at a low face,
     * whose held box has ghost nodes (the sweep ends at the step and copies it whole). A 2-D
     * run of one polarization has one more, of a component it lacks, at the x low face and
     * averaging across it: never held, it must not end the sweep (dft_inside). */
    const int one_pol = g->two_d && g->two_d - 1 != YEE_POL_BOTH;
    const int nregions = 1 + test_below(&r, NDFT) + one_pol;
    int dft_id[2][NDFT + 1];
    size_t dft_len[NDFT + 1]; /* sums per part: nfreq x nodes */
    yee_dft_region reg[NDFT + 1];
    for (int q = 0; q < nregions && rc == 0; q++) {
        reg[q].comp = q % 2 ? comp_of(g, test_below(&r, 6)) : test_below(&r, 6);
        reg[q].nfreq = NFREQ;
        reg[q].avg_axis = test_below(&r, 4) - 1;
        reg[q].avg_hi = test_rval(&r, 0.2, 0.8);
        const int edge = q == 0 && test_rnd(&r) < 0.3, lacking = one_pol && q == nregions - 1;
        for (int a = 0; a < 3; a++) {
            reg[q].lo[a] = (edge || lacking) && a == 0 ? 0 : test_below(&r, g->n[a]);
            reg[q].count[a] = 1 + test_below(&r, g->n[a] - reg[q].lo[a]);
        }
        if (lacking) { /* Ex in TM, Ez in TE */
            reg[q].comp = g->two_d - 1 == YEE_POL_TM ? YEE_EX : YEE_EZ;
            reg[q].avg_axis = 0;
        }
        dft_len[q] = (size_t)NFREQ * (size_t)reg[q].count[0] * (size_t)reg[q].count[1] *
                     (size_t)reg[q].count[2];
        if ((rc = tuned->dft_create(ctx[0], &reg[q], &dft_id[0][q], &err)) == 0)
            rc = ref->dft_create(ctx[1], &reg[q], &dft_id[1][q], &err);
    }
    if (rc != 0)
        return fail_rc("dft_create", rc, &err);
    if (!cplx) { /* rows held in the sweep unless a stored component's held box leaves it */
        const cpu_ctx *tc = (const cpu_ctx *)ctx[0];
        int want = 1;
        for (int q = 0; q < nregions; q++)
            for (int a = 0; a < 3 && yee_component_array(tc->f, reg[q].comp); a++) {
                const int below = reg[q].avg_axis == a && tc->d.stride[a] != 0;
                want &= reg[q].lo[a] - below >= 0;
            }
        if (tc->dft_inside != want) {
            fprintf(stderr, "FAIL %s: dft_inside %d, want %d\n", label, tc->dft_inside, want);
            return 1;
        }
    }
    static yee_point_current m[MAXK][NCUR], j[MAXK][NCUR];
    yee_real out[2][MAXK][NSAMP];
    yee_step_plan plan[MAXK];
    double ph[MAXK][2 * NFREQ];
    int bad = 0, step = 0;
    for (int call = 0; call < calls && rc == 0 && !bad; call++) {
        const int k = chunk[call % nchunk];
        int held = 0;
        for (int st = 0; st < k; st++) {
            currents(g, step + st, call % 2, cplx, m[st], &plan[st].nm, j[st], &plan[st].nj);
            plan[st].m = m[st];
            plan[st].j = j[st];
            plan[st].nsamp = NSAMP;
            plan[st].samp = samp;
            plan[st].samp_out = out[0][st];
            /* about half the steps sample the DFTs, the last one included */
            plan[st].dft = test_rnd(&r) < 0.5 ? ++held : 0;
            for (int f = 0; f < 2 * NFREQ; f++)
                ph[st][f] = test_rval(&r, -1.0, 1.0);
        }
        if (skewed && !cplx && threads > 1) {
            /* random shares, one of them up to 20x another's */
            cpu_balance *b = &((cpu_ctx *)ctx[0])->balance;
            b->nt = threads;
            b->share[0] = 0.0;
            for (int t = 0; t < threads; t++)
                b->share[t + 1] = b->share[t] + 0.05 + test_rnd(&r);
            for (int t = 1; t <= threads; t++)
                b->share[t] /= b->share[threads];
        }
        rc = tuned->advance(ctx[0], k, plan, &err);
        /* the held steps' samples, in order, as the solver takes them after the call */
        for (int st = 0; st < k && rc == 0; st++)
            for (int q = 0; q < nregions && plan[st].dft && rc == 0; q++)
                rc = tuned->dft_accumulate(ctx[0], dft_id[0][q], ph[st], &err);
        for (int st = 0; st < k && rc == 0; st++) {
            if ((rc = ref->step_h(ctx[1], NULL, &err)) == 0 &&
                (rc = ref->apply_sources(ctx[1], plan[st].nm, plan[st].m, &err)) == 0 &&
                (rc = exchange_wraps(ref, ctx[1], g, YEE_FIELD_H, face, &err)) == 0 &&
                (rc = ref->step_e(ctx[1], NULL, &err)) == 0 &&
                (rc = ref->apply_sources(ctx[1], plan[st].nj, plan[st].j, &err)) == 0 &&
                (rc = exchange_wraps(ref, ctx[1], g, YEE_FIELD_E, face, &err)) == 0)
                rc = ref->gather(ctx[1], NSAMP, samp, out[1][st], &err);
            for (int q = 0; q < nregions && plan[st].dft && rc == 0; q++)
                rc = ref->dft_accumulate(ctx[1], dft_id[1][q], ph[st], &err);
            for (int q = 0; q < NSAMP && rc == 0 && !bad; q++)
                if (memcmp(&out[0][st][q], &out[1][st][q], sizeof(yee_real)) != 0) {
                    fprintf(stderr, "FAIL %s: step %d sample %d (comp %d at %d %d %d): cpu %.9g, "
                                    "reference %.9g\n",
                            label, step + st, q, samp[q].comp, samp[q].i, samp[q].j, samp[q].k,
                            (double)out[0][st][q], (double)out[1][st][q]);
                    bad = 1;
                }
        }
        /* now and then a sample of the fields as they are (the held ones are all taken) */
        if (call % 3 == 1)
            for (int q = 0; q < nregions && rc == 0; q++)
                if ((rc = tuned->dft_accumulate(ctx[0], dft_id[0][q], ph[0], &err)) == 0)
                    rc = ref->dft_accumulate(ctx[1], dft_id[1][q], ph[0], &err);
        step += k;
    }
    if (rc != 0)
        return fail_rc("step", rc, &err);
    for (int q = 0; q < nregions && !bad; q++) { /* the DFT sums, bit for bit */
        double *sums[2][2];
        for (int b = 0; b < 2; b++)
            for (int part = 0; part < 2; part++)
                sums[b][part] = (double *)malloc(dft_len[q] * sizeof(double));
        if ((rc = tuned->dft_transfer(ctx[0], dft_id[0][q], sums[0][0], sums[0][1], 0, &err)) ||
            (rc = ref->dft_transfer(ctx[1], dft_id[1][q], sums[1][0], sums[1][1], 0, &err)))
            return fail_rc("dft_transfer", rc, &err);
        for (int part = 0; part < 2 && !bad; part++)
            for (size_t v = 0; v < dft_len[q] && !bad; v++)
                if (memcmp(&sums[0][part][v], &sums[1][part][v], sizeof(double)) != 0) {
                    fprintf(stderr, "FAIL %s: DFT region %d (of %d), %s sum %zu: cpu %.17g, "
                                    "reference %.17g\n",
                            label, q, nregions, part ? "imaginary" : "real", v, sums[0][part][v],
                            sums[1][part][v]);
                    bad = 1;
                }
        for (int b = 0; b < 2; b++)
            for (int part = 0; part < 2; part++)
                free(sums[b][part]);
    }
    for (int p = 0; p < parts && !bad; p++) {
        const size_t bytes = ref->state_part_bytes(ctx[1], p);
        if ((rc = tuned->state_transfer(ctx[0], p, buf[0], 0, &err)) != 0 ||
            (rc = ref->state_transfer(ctx[1], p, buf[1], 0, &err)) != 0)
            return fail_rc("state_transfer get", rc, &err);
        if (memcmp(buf[0], buf[1], bytes) != 0) {
            report_part(label, &o, p, buf[0], buf[1], bytes / sizeof(yee_real));
            bad = 1;
        }
    }
    if (!bad)
        printf("ok %s: %d steps, samples after each, %d DFT regions and %d parts identical\n",
               label, step, nregions, parts);
    free(buf[0]);
    free(buf[1]);
    free(face);
    tuned->destroy(ctx[0]);
    ref->destroy(ctx[1]);
    release(&o);
    return bad;
}

int main(void)
{
    const geom g[] = {
        /* CPML on x low, y high, z both; PEC on x and z low */
        {{37, 29, 23}, {{4, 0}, {0, 3}, {2, 5}}, {1, 0, 1}, {0, 0, 0}, {0, 0, 0}, 0},
        /* thin y, CPML on every face, PEC on every low face */
        {{19, 5, 11}, {{2, 2}, {1, 1}, {3, 2}}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, 0},
        /* 3 and 2 planes: thread blocks of one plane, and an empty one with 3 threads */
        {{13, 9, 3}, {{0, 3}, {2, 0}, {1, 1}}, {0, 1, 1}, {0, 0, 0}, {0, 0, 0}, 0},
        {{11, 7, 2}, {{2, 0}, {0, 0}, {0, 1}}, {1, 0, 1}, {0, 0, 0}, {0, 0, 0}, 0},
        /* PMC on x and y low (mirror planes: the ghost H filled per row), PEC on z low */
        {{17, 13, 9}, {{0, 3}, {0, 2}, {1, 2}}, {0, 0, 1}, {1, 1, 0}, {0, 0, 0}, 0},
        /* PMC on every low face, 2 planes */
        {{9, 6, 2}, {{0, 2}, {0, 1}, {0, 1}}, {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, 0},
        /* one plane (the threads share its rows: sweep_fused.c), PEC x, PMC y */
        {{13, 11, 1}, {{2, 1}, {0, 2}, {0, 0}}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0}, 0},
        /* periodic axes the backend wraps: x with a PMC y wall, y with PEC x, both, both in
         * one plane */
        {{17, 11, 9}, {{0, 0}, {0, 2}, {1, 2}}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}, 0},
        {{13, 10, 8}, {{2, 1}, {0, 0}, {2, 0}}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, 0},
        {{12, 9, 10}, {{0, 0}, {0, 0}, {2, 3}}, {0, 0, 1}, {0, 0, 0}, {1, 1, 0}, 0},
        {{13, 11, 1}, {{0, 0}, {0, 0}, {0, 0}}, {0, 0, 0}, {0, 0, 0}, {1, 1, 0}, 0},
        /* a wrapped z axis (its faces a seam of the wavefront): with CPML on x and PEC y, and
         * every axis wrapped */
        {{12, 9, 10}, {{2, 1}, {0, 0}, {0, 0}}, {0, 1, 0}, {0, 0, 0}, {0, 0, 1}, 0},
        {{11, 8, 9}, {{0, 0}, {0, 0}, {0, 0}}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 0},
        /* 2-D runs (z stride 0; the wavefront's layers are the rows): TM with CPML, a PEC y
         * and a PMC x wall; TE; TM with x and y wrapped; both polarizations */
        {{21, 17, 1}, {{2, 3}, {3, 0}, {0, 0}}, {0, 1, 0}, {1, 0, 0}, {0, 0, 0}, 1 + YEE_POL_TM},
        {{19, 16, 1}, {{0, 2}, {2, 2}, {0, 0}}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0}, 1 + YEE_POL_TE},
        {{14, 12, 1}, {{0, 0}, {0, 0}, {0, 0}}, {0, 0, 0}, {0, 0, 0}, {1, 1, 0}, 1 + YEE_POL_TM},
        {{15, 13, 1}, {{2, 2}, {2, 2}, {0, 0}}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0},
         1 + YEE_POL_BOTH},
    };
    const int pairs[] = {2}, singles[] = {1}, mixed[] = {3, 1, 2, 5}, long_calls[] = {16, 7, 11};
    const int rows[] = {0, 1, 2, 3, 7};
    int bad = 0;
    for (size_t q = 0; q < sizeof g / sizeof g[0]; q++)
        for (int t = 1; t <= 3; t++) {
            for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
                bad |= run_case(&g[q], t, rows[r], 0, 0, 0, pairs, 1, 6);
            bad |= run_case(&g[q], t, 0, 0, 0, 0, singles, 1, 5);
        }
    bad |= run_case(&g[0], 2, 0, 0, 0, 0, mixed, 4, 8);
    bad |= run_case(&g[0], 2, 3, 0, 0, 0, mixed, 4, 8);
    bad |= run_case(&g[0], 2, 0, 0, 1, 0, mixed, 4, 8);
    bad |= run_case(&g[1], 3, 0, 0, 1, 0, singles, 1, 5);
    bad |= run_case(&g[8], 2, 0, 0, 1, 0, mixed, 4, 8); /* dispersive: single fused steps */
    /* complex fields: the wrapped geometries (Bloch factors), and one without wraps */
    for (int q = 7; q < 13; q++)
        for (int t = 1; t <= 3; t++) {
            bad |= run_case(&g[q], t, 0, 0, 0, 1, pairs, 1, 6);
            bad |= run_case(&g[q], t, 0, 0, 0, 1, singles, 1, 5);
            bad |= run_case(&g[q], t, 0, 0, 1, 1, mixed, 4, 8);
        }
    bad |= run_case(&g[0], 2, 0, 0, 0, 1, mixed, 4, 8);
    for (int t = 1; t <= 3; t++) { /* a 2-D Bloch cell; 2-D dispersive nodes */
        bad |= run_case(&g[15], t, 0, 0, 0, 1, pairs, 1, 6);
        bad |= run_case(&g[15], t, 0, 0, 1, 1, mixed, 4, 8);
        bad |= run_case(&g[13], t, 0, 0, 1, 0, mixed, 4, 8);
        bad |= run_case(&g[14], t, 0, 0, 1, 0, mixed, 4, 8);
    }
    /* K = 1..8 steps per sweep: calls of 16, 7 and 11 steps (whole sweeps and a shorter last
     * one), on 1-3 threads, bands sized for L2 and of K rows (the least the sweep takes); the
     * first geometry with blocks of 7-23 planes (some below 2K: fewer blocks), the one below with
     * 2K-plane blocks for 2 threads (seams exactly apart), both with PMC and PEC walls */
    for (int K = 1; K <= 8; K++) {
        const geom seams = {{15, 2 * K + 5, 4 * K}, {{2, 1}, {0, 3}, {1, 2}}, {0, 1, 1}, {1, 0, 0},
                             {0, 0, 0}, 0};
        /* z wrapped: 2K-plane blocks for 2 threads, and one block of 2K planes */
        const geom seams_z = {{15, 2 * K + 5, 4 * K}, {{2, 1}, {0, 3}, {0, 0}}, {0, 1, 0},
                              {1, 0, 0}, {0, 0, 1}, 0};
        const geom one_block_z = {{9, 7, 2 * K}, {{0, 0}, {0, 0}, {0, 0}}, {0, 0, 0}, {0, 0, 0},
                                  {1, 1, 1}, 0};
        /* 2-D: blocks of 2K rows for 2 threads, and y wrapped in one block of 2K rows */
        const geom seams_2d = {{15, 4 * K, 1}, {{2, 1}, {0, 3}, {0, 0}}, {0, 1, 0}, {1, 0, 0},
                               {0, 0, 0}, 1 + YEE_POL_TM};
        const geom one_block_2d = {{9, 2 * K, 1}, {{0, 0}, {0, 0}, {0, 0}}, {0, 0, 0},
                                   {0, 0, 0}, {1, 1, 0}, 1 + YEE_POL_TE};
        for (int t = 1; t <= 3; t++) {
            bad |= run_case(&g[0], t, 0, K, 0, 0, long_calls, 3, 4);
            bad |= run_case(&g[0], t, K, K, 0, 0, long_calls, 3, 4);
            bad |= run_case(&seams, t, 0, K, 0, 0, long_calls, 3, 4);
            bad |= run_case(&g[4], t, 1, K, 0, 0, mixed, 4, 4);
            for (int q = 7; q < 13; q++) /* the wrapped cells (bands of K rows: x only) */
                for (int cplx = 0; cplx < 2; cplx++)
                    bad |= run_case(&g[q], t, K, K, 0, cplx, long_calls, 3, 4);
            for (int cplx = 0; cplx < 2; cplx++) {
                bad |= run_case(&seams_z, t, 0, K, 0, cplx, long_calls, 3, 4);
                bad |= run_case(&one_block_z, t, 0, K, 0, cplx, long_calls, 3, 4);
            }
            /* dispersive nodes, their ADE stages row by row in the sweep */
            bad |= run_case(&g[0], t, K, K, 1, 0, long_calls, 3, 4);
            bad |= run_case(&seams, t, 0, K, 1, 0, long_calls, 3, 4);
            /* 2-D */
            for (int q = 13; q < 17; q++)
                bad |= run_case(&g[q], t, 0, K, q == 13, 0, long_calls, 3, 4);
            bad |= run_case(&seams_2d, t, 0, K, 1, 0, long_calls, 3, 4);
            for (int cplx = 0; cplx < 2; cplx++)
                bad |= run_case(&one_block_2d, t, 0, K, 0, cplx, long_calls, 3, 4);
        }
    }
    /* tensor nodes: E a layer behind H in the wavefront (K >= 2; K = 1 the fused sweep with the
     * terms after it), blocks of the least 4K layers for 2 threads (planes, and 2-D rows), bands
     * of K rows, a wrapped z axis and complex fields, and with dispersive nodes */
    for (int K = 1; K <= 8; K++) {
        const geom seams = {{15, 4 * K + 5, 8 * K}, {{2, 1}, {0, 3}, {1, 2}}, {0, 1, 1},
                            {1, 0, 0}, {0, 0, 0}, 0};
        const geom seams_z = {{15, 2 * K + 6, 8 * K}, {{2, 1}, {0, 3}, {0, 0}}, {0, 1, 0},
                              {1, 0, 0}, {0, 0, 1}, 0};
        const geom seams_2d = {{15, 8 * K, 1}, {{2, 1}, {0, 3}, {0, 0}}, {0, 1, 0}, {1, 0, 0},
                               {0, 0, 0}, 1 + YEE_POL_TE};
        for (int t = 1; t <= 3; t++) {
            bad |= run_case(&g[0], t, 0, K, TENSOR, 0, long_calls, 3, 4);
            bad |= run_case(&g[0], t, K, K, TENSOR | DISPERSIVE, 0, long_calls, 3, 4);
            bad |= run_case(&seams, t, 0, K, TENSOR, 0, long_calls, 3, 4);
            bad |= run_case(&seams, t, 1, K, TENSOR, 0, mixed, 4, 4);
            for (int cplx = 0; cplx < 2; cplx++)
                bad |= run_case(&seams_z, t, 0, K, TENSOR, cplx, long_calls, 3, 4);
            bad |= run_case(&g[14], t, 0, K, TENSOR, 0, long_calls, 3, 4);
            bad |= run_case(&g[16], t, 0, K, TENSOR, 0, long_calls, 3, 4);
            bad |= run_case(&seams_2d, t, 0, K, TENSOR | DISPERSIVE, 0, long_calls, 3, 4);
        }
    }
    /* skewed thread blocks (the shares of measured speeds, here random): the fused single
     * steps (3-D planes, 3 planes, 2-D rows); the wavefront's 3-D planes with and without bands,
     * 2K-plane blocks where the least binds, a wrapped z axis, 2-D rows */
    skewed = 1;
    for (int t = 2; t <= 3; t++) { /* the single fused sweeps split by the same shares */
        bad |= run_case(&g[0], t, 0, 1, 0, 0, singles, 1, 6);
        bad |= run_case(&g[2], t, 0, 1, 0, 0, singles, 1, 6);
        bad |= run_case(&g[13], t, 0, 1, 1, 0, singles, 1, 6);
    }
    for (int K = 2; K <= 8; K += 3) {
        const geom seams = {{15, 2 * K + 5, 6 * K}, {{2, 1}, {0, 3}, {1, 2}}, {0, 1, 1},
                            {1, 0, 0}, {0, 0, 0}, 0};
        const geom seams_2d = {{15, 6 * K, 1}, {{2, 1}, {0, 3}, {0, 0}}, {0, 1, 0}, {1, 0, 0},
                               {0, 0, 0}, 1 + YEE_POL_TM};
        const geom seams_t = {{15, 2 * K + 5, 12 * K}, {{2, 1}, {0, 3}, {1, 2}}, {0, 1, 1},
                              {1, 0, 0}, {0, 0, 0}, 0};
        for (int t = 2; t <= 3; t++) {
            bad |= run_case(&g[0], t, 0, K, 0, 0, long_calls, 3, 6);
            bad |= run_case(&g[0], t, K, K, 1, 0, long_calls, 3, 6);
            bad |= run_case(&seams, t, 0, K, 0, 0, long_calls, 3, 6);
            bad |= run_case(&g[11], t, 0, K, 0, 0, long_calls, 3, 6);
            bad |= run_case(&seams_2d, t, 0, K, 1, 0, long_calls, 3, 6);
            bad |= run_case(&g[0], t, 0, K, TENSOR, 0, long_calls, 3, 6);
            bad |= run_case(&seams_t, t, 0, K, TENSOR, 0, long_calls, 3, 6);
        }
    }
    skewed = 0;
    printf("%s cpu schedules\n", bad ? "FAIL" : "PASS");
    return bad;
}
