/* kernels/cpu/rows.c -- the rows every CPU schedule is made of (contract in kernels/cpu/cpu.h).
 *
 * A sweep visits each row once: the bulk update of the row, then the CPML corrections of every
 * slab the row crosses while the row is still in L1 (a separate pass would stream the slab
 * fields from memory a second time). Per cell the order is the one of separate sweeps (bulk,
 * then slabs s = 0, 1, ...), so the results do not depend on the fusion. The i loops are
 * `omp simd`: cells of a row are independent (H reads only E, E reads only H), and without the
 * pragma the compiler must assume the field arrays alias and leaves the loop scalar. The slab
 * axis is a constant inside each i loop (switch outside), so the CPML profile index is i, j or k
 * at compile time.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu.h"

/* psi index of row (j, k) of slab sl, at i = lo[0]; -1 if the row does not cross the slab. */
static int64_t slab_row(const cpu_slab *sl, int j, int k)
{
    const yee_slab *b = &sl->box;
    if (j < b->lo[1] || j >= b->hi[1] || k < b->lo[2] || k >= b->hi[2])
        return -1;
    return ((int64_t)(k - b->lo[2]) * sl->w[1] + (j - b->lo[1])) * sl->w[0];
}

/* The CPML of a 2-D run of one polarization: of a slab's two halves (yee_cpml_h_half), the one
 * of each field the run has (its psi; NULL otherwise), over cells [lo, hi) of row (j, k). The
 * loops are inlined with constant axis and half (and material 0's cb on rows of material 0),
 * as the 3-D switches below do: a variable axis in the loop cost the 2-D bend 12 %. */
static inline __attribute__((always_inline)) void
half_h(const cpu_ctx *c, yee_real *YEE_RESTRICT psi, int64_t row, int j, int k, int lo, int hi,
       const int axis, const int half)
{
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    const yee_cpml_axis pa = c->pml[axis];
    const yee_real ch = c->media.ch;
#pragma omp simd
    for (int i = lo; i < hi; i++)
        yee_cpml_h_half(f, d, ch, pa, axis, half, psi, row + i, i, j, k);
}

static inline __attribute__((always_inline)) void
half_e(const cpu_ctx *c, yee_real *YEE_RESTRICT psi, int64_t row, int j, int k, int lo, int hi,
       const int axis, const int half, const int mat0)
{
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    const yee_media m = c->media;
    const yee_cpml_axis pa = c->pml[axis];
    const uint8_t *mat = m.mat[(axis + 1 + half) % 3];
    const yee_real cb0 = c->coef0.cb[0];
#pragma omp simd
    for (int i = lo; i < hi; i++)
        yee_cpml_e_half(f, d, mat0 ? cb0 : m.cb[mat[yee_idx(d, i, j, k)]], pa, axis, half, psi,
                        row + i, i, j, k);
}

static void row_cpml_h_halves(const cpu_ctx *c, const cpu_slab *sl, int64_t row, int j, int k,
                              int lo, int hi)
{
    for (int half = 0; half < 2; half++) {
        yee_real *psi = sl->psi_h[half];
        if (!psi)
            continue;
        switch (2 * sl->box.axis + half) { /* 2-D: slabs on x and y only */
        case 0: half_h(c, psi, row, j, k, lo, hi, 0, 0); break;
        case 1: half_h(c, psi, row, j, k, lo, hi, 0, 1); break;
        case 2: half_h(c, psi, row, j, k, lo, hi, 1, 0); break;
        default: half_h(c, psi, row, j, k, lo, hi, 1, 1); break;
        }
    }
}

static void row_cpml_e_halves(const cpu_ctx *c, const cpu_slab *sl, int64_t row, int j, int k,
                              int lo, int hi, int mat0)
{
    for (int half = 0; half < 2; half++) {
        yee_real *psi = sl->psi_e[half];
        if (!psi)
            continue;
        switch (4 * mat0 + 2 * sl->box.axis + half) {
        case 0: half_e(c, psi, row, j, k, lo, hi, 0, 0, 0); break;
        case 1: half_e(c, psi, row, j, k, lo, hi, 0, 1, 0); break;
        case 2: half_e(c, psi, row, j, k, lo, hi, 1, 0, 0); break;
        case 3: half_e(c, psi, row, j, k, lo, hi, 1, 1, 0); break;
        case 4: half_e(c, psi, row, j, k, lo, hi, 0, 0, 1); break;
        case 5: half_e(c, psi, row, j, k, lo, hi, 0, 1, 1); break;
        case 6: half_e(c, psi, row, j, k, lo, hi, 1, 0, 1); break;
        default: half_e(c, psi, row, j, k, lo, hi, 1, 1, 1); break;
        }
    }
}

void cpu_row_h(const cpu_ctx *c, int j, int k, int i0, int i1)
{
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    const yee_lines L = c->lines;
    const yee_real ch = c->media.ch;
    switch (c->pol2d) {
    case YEE_POL_TM:
#pragma omp simd
        for (int i = i0; i < i1; i++)
            yee_update_h_tm2d(f, d, L, ch, i, j, k);
        break;
    case YEE_POL_TE:
#pragma omp simd
        for (int i = i0; i < i1; i++)
            yee_update_hz(f, d, L, ch, i, j, k);
        break;
    default:
#pragma omp simd
        for (int i = i0; i < i1; i++)
            yee_update_h(f, d, L, ch, i, j, k);
    }
    for (int s = 0; s < c->nslabs; s++) {
        const cpu_slab *sl = &c->slabs[s];
        int64_t row = slab_row(sl, j, k);
        if (row < 0)
            continue;
        const yee_cpml_axis pa = c->pml[sl->box.axis];
        yee_real *YEE_RESTRICT pq = sl->psi_h[0];
        yee_real *YEE_RESTRICT pr = sl->psi_h[1];
        const int lo = sl->box.lo[0] > i0 ? sl->box.lo[0] : i0;
        const int hi = sl->box.hi[0] < i1 ? sl->box.hi[0] : i1;
        row -= sl->box.lo[0]; /* psi index of cell i: row + i */
        if (c->pol2d != YEE_POL_BOTH) {
            row_cpml_h_halves(c, sl, row, j, k, lo, hi);
            continue;
        }
        switch (sl->box.axis) {
        case 0:
#pragma omp simd
            for (int i = lo; i < hi; i++)
                yee_cpml_h(f, d, ch, pa, 0, pq, pr, row + i, i, j, k);
            break;
        case 1:
#pragma omp simd
            for (int i = lo; i < hi; i++)
                yee_cpml_h(f, d, ch, pa, 1, pq, pr, row + i, i, j, k);
            break;
        default:
#pragma omp simd
            for (int i = lo; i < hi; i++)
                yee_cpml_h(f, d, ch, pa, 2, pq, pr, row + i, i, j, k);
            break;
        }
    }
}

/* The bulk E update of cells [a, b) of row (j, k): with coefficients q0 as loop constants (those
 * of the one material of these cells), or (lookup) each cell's own; the 3-D update, or a 2-D
 * polarization's (c->pol2d). Inlined, so that lookup is a constant at each call: as a plain
 * function with lookup a parameter GCC 12 left the constant loop scalar (the hot loop in
 * vmulss), half the speed of a vacuum step (docs/performance.md, "Steps per sweep"). */
static inline __attribute__((always_inline)) void bulk_e(const cpu_ctx *c, int j, int k, int a,
                                                       int b, const int lookup, yee_ecoef q0)
{
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    const yee_lines L = c->lines;
    const yee_media m = c->media;
    switch (c->pol2d) {
    case YEE_POL_TM:
#pragma omp simd
        for (int i = a; i < b; i++)
            yee_update_ez_coef(f, d, L, lookup ? yee_media_ecoef(m, yee_idx(d, i, j, k)) : q0, i, j,
                               k);
        break;
    case YEE_POL_TE:
#pragma omp simd
        for (int i = a; i < b; i++)
            yee_update_e_te2d_coef(f, d, L,
                                   lookup ? yee_media_ecoef(m, yee_idx(d, i, j, k)) : q0, i, j, k);
        break;
    default:
#pragma omp simd
        for (int i = a; i < b; i++)
            yee_update_e_coef(f, d, L, lookup ? yee_media_ecoef(m, yee_idx(d, i, j, k)) : q0, i, j,
                              k);
    }
}

/* The CPML correction of E on cells [lo, hi) of row (j, k) in slab sl (row: the slab's index of
 * the row's cell 0), with material 0's cb as a constant (mat0) or each cell's own. */
static void row_cpml_e(const cpu_ctx *c, const cpu_slab *sl, int64_t row, int j, int k, int lo,
                       int hi, int mat0)
{
    if (hi <= lo)
        return;
    if (c->pol2d != YEE_POL_BOTH) {
        row_cpml_e_halves(c, sl, row, j, k, lo, hi, mat0);
        return;
    }
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    const yee_media m = c->media;
    const yee_real cb0 = c->coef0.cb[0];
    const yee_cpml_axis pa = c->pml[sl->box.axis];
    yee_real *YEE_RESTRICT pq = sl->psi_e[0];
    yee_real *YEE_RESTRICT pr = sl->psi_e[1];
    switch (sl->box.axis + 3 * mat0) {
    case 0:
#pragma omp simd
        for (int i = lo; i < hi; i++)
            yee_cpml_e(f, d, m, pa, 0, pq, pr, row + i, i, j, k);
        break;
    case 1:
#pragma omp simd
        for (int i = lo; i < hi; i++)
            yee_cpml_e(f, d, m, pa, 1, pq, pr, row + i, i, j, k);
        break;
    case 2:
#pragma omp simd
        for (int i = lo; i < hi; i++)
            yee_cpml_e(f, d, m, pa, 2, pq, pr, row + i, i, j, k);
        break;
    case 3:
#pragma omp simd
        for (int i = lo; i < hi; i++)
            yee_cpml_e_coef(f, d, cb0, cb0, pa, 0, pq, pr, row + i, i, j, k);
        break;
    case 4:
#pragma omp simd
        for (int i = lo; i < hi; i++)
            yee_cpml_e_coef(f, d, cb0, cb0, pa, 1, pq, pr, row + i, i, j, k);
        break;
    default:
#pragma omp simd
        for (int i = lo; i < hi; i++)
            yee_cpml_e_coef(f, d, cb0, cb0, pa, 2, pq, pr, row + i, i, j, k);
        break;
    }
}

#define MIN_RUN 16 /* cells of one material that take its coefficients as constants: a vector */

/* Cells at and other of the same material in every component this run stores. */
static int same_material(const cpu_ctx *c, int64_t at, int64_t other)
{
    for (int a = 0; a < 3; a++)
        if (yee_pol_has(c->pol2d, a) && c->media.mat[a][at] != c->media.mat[a][other])
            return 0;
    return 1;
}

/* Cells [a, b) of row (j, k), inside the row's span of other materials: each run of at least
 * MIN_RUN cells of one material (a guide's core, the inside of a sphere) with that material's
 * coefficients as loop constants, the cells between runs (interfaces, averaged materials) by
 * the per-cell lookup. The same values enter the same arithmetic. */
static void span_e(const cpu_ctx *c, int j, int k, int a, int b)
{
    const int64_t c0 = yee_idx(c->d, 0, j, k);
    int pending = a; /* the first cell not yet updated */
    for (int i = a; i < b;) {
        int e = i + 1;
        while (e < b && same_material(c, c0 + i, c0 + e))
            e++;
        if (e - i >= MIN_RUN) {
            if (i > pending)
                bulk_e(c, j, k, pending, i, 1, c->coef0);
            bulk_e(c, j, k, i, e, 0, yee_media_ecoef(c->media, c0 + i));
            pending = e;
        }
        i = e;
    }
    if (b > pending)
        bulk_e(c, j, k, pending, b, 1, c->coef0);
}

/* Outside its span of other materials (c->row_span) a row takes material 0's coefficients as
 * loop constants (yee_update_e_coef, yee_cpml_e_coef): the same arithmetic on the same values
 * as the per-cell lookup, 3 bytes per cell less to read and no gathers (with the lookup on every
 * row a vacuum step ran at 0.56x the speed, and the 2-D bend of validation/bend2d, a guide
 * crossing most rows, at 0.5x: docs/performance.md); inside it, runs of one material do the
 * same with theirs (span_e). The CPML parts of a row are cut at the span the same way: a guide
 * running into the CPML leaves most of each such row vacuum. */
void cpu_row_e(const cpu_ctx *c, int j, int k, int i0, int i1)
{
    const yee_dims d = c->d;
    const int64_t r = j + (int64_t)k * d.n[1];
    const int lo = c->row_span[2 * r], hi = c->row_span[2 * r + 1];
    const int a = lo > i0 ? (lo < i1 ? lo : i1) : i0; /* [i0, a) [a, b) [b, i1) */
    const int b = hi < i1 ? (hi > a ? hi : a) : i1;
    if (a > i0)
        bulk_e(c, j, k, i0, a, 0, c->coef0);
    if (b > a)
        span_e(c, j, k, a, b);
    if (i1 > b)
        bulk_e(c, j, k, b, i1, 0, c->coef0);
    for (int s = 0; s < c->nslabs; s++) {
        const cpu_slab *sl = &c->slabs[s];
        int64_t row = slab_row(sl, j, k);
        if (row < 0)
            continue;
        const int s0 = sl->box.lo[0] > i0 ? sl->box.lo[0] : i0;
        const int s1 = sl->box.hi[0] < i1 ? sl->box.hi[0] : i1;
        row -= sl->box.lo[0];
        const int sa = a < s0 ? s0 : a > s1 ? s1 : a, sb = b < sa ? sa : b > s1 ? s1 : b;
        row_cpml_e(c, sl, row, j, k, s0, sa, 1);
        row_cpml_e(c, sl, row, j, k, sa, sb, 0);
        row_cpml_e(c, sl, row, j, k, sb, s1, 1);
    }
}

/* node(axis, ...) on the wall nodes of row (j, k): the row's first node on an x wall, the
 * whole row on a y or z wall. */
static void row_walls(const cpu_ctx *c, int j, int k, const int on[3], cpu_wall_node_fn node)
{
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    if (on[0])
        node(f, d, 0, 0, j, k);
    if (on[1] && j == 0)
        for (int i = 0; i < d.n[0]; i++)
            node(f, d, 1, i, 0, k);
    if (on[2] && k == 0)
        for (int i = 0; i < d.n[0]; i++)
            node(f, d, 2, i, j, 0);
}

void cpu_pec_row(const cpu_ctx *c, int j, int k)
{
    row_walls(c, j, k, c->pec_low, yee_pec_low);
}

void cpu_pmc_row(const cpu_ctx *c, int j, int k)
{
    row_walls(c, j, k, c->pmc_low, yee_pmc_low);
}

static yee_real *field(const cpu_ctx *c, yee_field_kind kind, int comp)
{
    return (kind == YEE_FIELD_E ? c->f.e : c->f.h)[comp];
}

/* n consecutive ghost values of component comp at dst from the values at src: a copy in each
 * part, or with a Bloch factor other than 1 the pair rotated (complex_unpack_halo copies the
 * message where the factor is 1). */
static void wrap_run(const cpu_ctx *c, yee_field_kind kind, int comp, int64_t dst, int64_t src,
                     int n, double cs, double sn)
{
    if (cs == 1.0 && sn == 0.0) {
        CPU_PARTS(p, c) {
            yee_real *w = field(p, kind, comp);
            memcpy(&w[dst], &w[src], (size_t)n * sizeof(yee_real));
        }
        return;
    }
    yee_real *re = field(c, kind, comp), *im = field(c->twin, kind, comp);
    for (int q = 0; q < n; q++)
        yee_bloch_rotate(cs, sn, re[src + q], im[src + q], &re[dst + q], &im[dst + q]);
}

/* The components of `kind` tangential to axis a, from layer `from` into ghost layer `to`: for
 * x the rows [j0, j1) of plane k, for y the one row of plane k, for z the rows [j0, j1) of the
 * planes (the halo's face: interior cells only). With a twin, both parts. */
static void wrap_axis(const cpu_ctx *c, yee_field_kind kind, int a, int k, int j0, int j1,
                      int from, int to)
{
    const yee_dims d = c->d;
    const double cs = c->twin ? c->wrap_phase[kind][a][0] : 1.0;
    const double sn = c->twin ? c->wrap_phase[kind][a][1] : 0.0;
    for (int q = 0; q < 2; q++) {
        const int comp = (a + 1 + q) % 3;
        if (!field(c, kind, comp)) /* not in this 2-D run */
            continue;
        if (a == 0)
            for (int j = j0; j < j1; j++)
                wrap_run(c, kind, comp, yee_idx(d, to, j, k), yee_idx(d, from, j, k), 1, cs, sn);
        else if (a == 1)
            wrap_run(c, kind, comp, yee_idx(d, 0, to, k), yee_idx(d, 0, from, k), d.n[0], cs, sn);
        else
            for (int j = j0; j < j1; j++)
                wrap_run(c, kind, comp, yee_idx(d, 0, j, to), yee_idx(d, 0, j, from), d.n[0], cs,
                         sn);
    }
}

void cpu_wrap_h_rows(const cpu_ctx *c, int k, int j0, int j1)
{
    if (c->wrap[0])
        wrap_axis(c, YEE_FIELD_H, 0, k, j0, j1, c->d.n[0] - 1, -1);
    if (c->wrap[1] && j1 == c->d.n[1])
        wrap_axis(c, YEE_FIELD_H, 1, k, 0, 0, c->d.n[1] - 1, -1);
    if (c->wrap[2] && k == c->d.n[2] - 1)
        wrap_axis(c, YEE_FIELD_H, 2, k, j0, j1, k, -1);
}

void cpu_wrap_e_rows(const cpu_ctx *c, int k, int j0, int j1)
{
    if (c->wrap[0])
        wrap_axis(c, YEE_FIELD_E, 0, k, j0, j1, 0, c->d.n[0]);
    if (c->wrap[1] && j0 == 0)
        wrap_axis(c, YEE_FIELD_E, 1, k, 0, 0, 0, c->d.n[1]);
    if (c->wrap[2] && k == 0)
        wrap_axis(c, YEE_FIELD_E, 2, k, j0, j1, 0, c->d.n[2]);
}

void cpu_wrap_all(const cpu_ctx *c, yee_field_kind kind)
{
    if (!c->wrap[0] && !c->wrap[1] && !c->wrap[2])
        return;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < c->d.n[2]; k++) {
        if (kind == YEE_FIELD_H)
            cpu_wrap_h_rows(c, k, 0, c->d.n[1]);
        else
            cpu_wrap_e_rows(c, k, 0, c->d.n[1]);
    }
}

void cpu_curl_rows(const cpu_ctx *c, int k, int j0, int j1, unsigned comps)
{
    if (!c->ntensor)
        return;
    const int64_t r0 = j0 + (int64_t)k * c->d.n[1], r1 = j1 + (int64_t)k * c->d.n[1];
    for (int64_t q = c->curl_row[r0]; q < c->curl_row[r1]; q++)
        if (comps >> c->curl[q].comp & 1u)
            c->curl_h[q] = yee_curl_h_of(c->f, c->d, c->lines, c->curl[q]);
}

void cpu_tensor_row(const cpu_ctx *c, int j, int k)
{
    if (!c->ntensor)
        return;
    const int64_t r = j + (int64_t)k * c->d.n[1];
    for (int64_t q = c->tensor_row[r]; q < c->tensor_row[r + 1]; q++)
        yee_tensor_e(c->f, c->tensor[q], c->curl_h);
}

void cpu_polarize_row(const cpu_ctx *c, int j, int k)
{
    if (!c->ndisp)
        return;
    const int64_t r = j + (int64_t)k * c->d.n[1];
    for (int64_t q = c->disp_row[r]; q < c->disp_row[r + 1]; q++)
        yee_ade_polarize(c->f, c->disp[c->disp_by_row[q]], c->pcoef, c->pol);
}

void cpu_polarization_current_row(const cpu_ctx *c, int j, int k)
{
    if (!c->ndisp)
        return;
    const int64_t r = j + (int64_t)k * c->d.n[1];
    for (int64_t q = c->disp_row[r]; q < c->disp_row[r + 1]; q++)
        yee_ade_current(c->f, c->media, c->disp[c->disp_by_row[q]], c->pcoef, c->inv_dt, c->pol);
}

void cpu_add_current(const cpu_ctx *c, const yee_point_current *p)
{
    const int64_t at = yee_idx(c->d, p->i, p->j, p->k);
    if (!yee_component_array(c->f, p->comp))
        return; /* not in this 2-D run (io/deck.c refuses such sources; TFSF leaves them out) */
    if (YEE_IS_ELECTRIC(p->comp))
        yee_add_current(c->f, c->media, p->comp, at, p->j_value);
    else
        yee_add_mcurrent(c->f, c->media.ch, p->comp - YEE_HX, at, p->j_value);
}

/* ---- a step's lists, sorted for a sweep ---- */

/* Room for n ints in *a (capacity *cap), kept between steps: a sweep runs every step. */
static int room(int **a, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 1;
    int *grown = (int *)realloc(*a, n * sizeof(int));
    if (!grown)
        return 0;
    *a = grown;
    *cap = n;
    return 1;
}

/* Counting sort of the n keys l->key (rows 0 .. nkeys-1) into b, unless b was last sorted from
 * the same key sequence: b->order lists the q < n grouped by row, list order kept within a row;
 * row r's entries are order[start[r] .. start[r+1]). The order depends on nothing but the keys. */
static int bucket_sort(cpu_step_lists *l, int64_t nkeys, int n, cpu_buckets *b)
{
    if (b->n == n && memcmp(b->key, l->key, (size_t)n * sizeof(int)) == 0)
        return 1;
    if (!room(&b->start, &b->start_cap, (size_t)nkeys + 1) ||
        !room(&b->order, &b->order_cap, (size_t)n + 1) ||
        !room(&l->cursor, &l->cursor_cap, (size_t)nkeys + 1))
        return 0;
    int *st = b->start, *ord = b->order, *cur = l->cursor;
    memset(st, 0, ((size_t)nkeys + 1) * sizeof(int));
    for (int q = 0; q < n; q++)
        st[l->key[q] + 1]++;
    for (int64_t r = 0; r < nkeys; r++)
        st[r + 1] += st[r];
    memcpy(cur, st, (size_t)nkeys * sizeof(int));
    for (int q = 0; q < n; q++)
        ord[cur[l->key[q]]++] = q;
    /* keep these keys: the scratch and b's key array trade places */
    int *k = b->key;
    const size_t cap = b->key_cap;
    b->key = l->key;
    b->key_cap = l->key_cap;
    l->key = k;
    l->key_cap = cap;
    b->n = n;
    return 1;
}

static int inside(const cpu_ctx *c, int i, int j, int k)
{
    return i >= 0 && i < c->d.n[0] && j >= 0 && j < c->d.n[1] && k >= 0 && k < c->d.n[2];
}

/* The rows of n point currents of components lo..hi into l->key; 0 if one lies elsewhere. A
 * TFSF box hands over some 10^5 a step, keyed here while no sweep runs: on every thread. */
static int current_keys(const cpu_ctx *c, cpu_step_lists *l, int n, const yee_point_current *p,
                        int lo, int hi)
{
    if (!room(&l->key, &l->key_cap, (size_t)n + 1))
        return 0;
    int *key = l->key, outside = 0;
#pragma omp parallel for schedule(static) reduction(| : outside) if (n >= 16384)
    for (int q = 0; q < n; q++) {
        if (p[q].comp < lo || p[q].comp > hi || !inside(c, p[q].i, p[q].j, p[q].k))
            outside = 1;
        else
            key[q] = (int)(p[q].j + (int64_t)p[q].k * c->d.n[1]);
    }
    return !outside;
}

int cpu_step_lists_build(const cpu_ctx *c, const yee_step_plan *plan, cpu_step_lists *l)
{
    l->plan = plan;
    const int64_t rows = (int64_t)c->d.n[1] * c->d.n[2];
    const int nm = plan->nm > 0 ? plan->nm : 0, nj = plan->nj > 0 ? plan->nj : 0;
    const int ns = plan->nsamp > 0 ? plan->nsamp : 0;
    /* a kind with no entries needs no buckets: the sweeps test the plan's counts first */
    if (nm && (!current_keys(c, l, nm, plan->m, YEE_HX, YEE_HZ) || !bucket_sort(l, rows, nm, &l->m)))
        return 0;
    if (nj && (!current_keys(c, l, nj, plan->j, YEE_EX, YEE_EZ) || !bucket_sort(l, rows, nj, &l->j)))
        return 0;
    if (ns) {
        if (!room(&l->key, &l->key_cap, (size_t)ns + 1))
            return 0;
        for (int q = 0; q < ns; q++) {
            const yee_sample *p = &plan->samp[q];
            if (p->comp < 0 || p->comp >= YEE_NCOMP || !inside(c, p->i, p->j, p->k))
                return 0;
            l->key[q] = (int)(p->j + (int64_t)p->k * c->d.n[1]);
        }
        if (!bucket_sort(l, rows, ns, &l->s))
            return 0;
    }
    return 1;
}

void cpu_step_lists_free(cpu_step_lists *l)
{
    cpu_buckets *kinds[3] = {&l->m, &l->j, &l->s};
    for (int q = 0; q < 3; q++) {
        free(kinds[q]->start);
        free(kinds[q]->order);
        free(kinds[q]->key);
    }
    free(l->key);
    free(l->cursor);
    memset(l, 0, sizeof *l);
}

void cpu_rows_h_m(const cpu_ctx *c, const cpu_step_lists *l, int k, int j0, int j1)
{
    const int nx = c->d.n[0];
    for (int j = j0; j < j1; j++) {
        cpu_row_h(c, j, k, 0, nx);
        if (l->plan->nm <= 0)
            continue;
        /* M right after the row's H update, before any E update reads it */
        const int64_t r = j + (int64_t)k * c->d.n[1];
        for (int q = l->m.start[r]; q < l->m.start[r + 1]; q++)
            cpu_add_current(c, &l->plan->m[l->m.order[q]]);
    }
}

void cpu_plane_j(const cpu_ctx *c, const cpu_step_lists *l, int k, int j0, int j1)
{
    if (l->plan->nj <= 0)
        return;
    const int64_t row0 = (int64_t)k * c->d.n[1];
    for (int q = l->j.start[row0 + j0]; q < l->j.start[row0 + j1]; q++)
        cpu_add_current(c, &l->plan->j[l->j.order[q]]);
}

void cpu_plane_samples(const cpu_ctx *c, const cpu_step_lists *l, int k, int j0, int j1)
{
    if (l->plan->nsamp <= 0)
        return;
    const int64_t row0 = (int64_t)k * c->d.n[1];
    for (int q = l->s.start[row0 + j0]; q < l->s.start[row0 + j1]; q++) {
        const int at = l->s.order[q];
        const yee_sample *p = &l->plan->samp[at];
        const yee_real *a = yee_component_array(c->f, p->comp);
        /* a component this 2-D run does not store reads as zero, as in cpu_gather */
        l->plan->samp_out[at] = a ? a[yee_idx(c->d, p->i, p->j, p->k)] : YEE_R(0.0);
    }
}
