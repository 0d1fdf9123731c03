/* kernels/cpu/backend_cpu.c -- the OpenMP backend: loops over cells that call the per-cell
 * functions of kernels/yee_cell.h. Loops map indices and nothing else: k and j are shared out
 * to threads, i is the innermost, contiguous (vectorizable) loop. No physics lives here.
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/backend.h"

typedef struct cpu_slab {
    yee_slab box;
    int64_t w[3];       /* slab extents */
    yee_real *psi_e[2]; /* psi_q, psi_r for E (see yee_cpml_e) */
    yee_real *psi_h[2];
} cpu_slab;

#define CPU_COPY_SLOTS 64

typedef struct cpu_dft {
    yee_dft_region r;
    int64_t nodes;
    double *re, *im;    /* nfreq x nodes */
} cpu_dft;

typedef struct cpu_ctx {
    yee_dims d;
    int64_t total;      /* elements per padded array */
    yee_fields f;
    uint8_t *mat[3];
    yee_real ca[YEE_MAX_MATERIALS], cb[YEE_MAX_MATERIALS];
    yee_media media;
    uint8_t *row_mat0;  /* per row (j + k n1): 1 if Ex, Ey, Ez are all material 0 along it */
    yee_ecoef coef0;    /* material 0's (ca, cb) for the three components (see row_e) */
    int h_pending;      /* step_h was called and its sweep deferred (see cpu_step_h) */
    yee_real *line_mem; /* one block for ie, ih and the CPML profiles */
    yee_lines lines;
    yee_cpml_axis pml[3];
    int nslabs;
    cpu_slab slabs[6];
    int pec_low[3];
    size_t bytes;
    int64_t ndisp;       /* dispersive E nodes (kernels/yee_ade.h) */
    yee_disp_node *disp;
    yee_real *pol;       /* their polarizations */
    int64_t npol;        /* values in pol */
    yee_pole_coef *pcoef;
    yee_real inv_dt;
    int ndft;
    cpu_dft *dft;
    yee_real *copy_buf[CPU_COPY_SLOTS]; /* snapshot copies (copy_start / copy_finish) */
    size_t copy_cap[CPU_COPY_SLOTS], copy_len[CPU_COPY_SLOTS];
} cpu_ctx;

static void *alloc_zeroed(size_t bytes, size_t *total)
{
    /* 64-byte alignment so vector loads of a row start on a cache line. */
    size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    /* First touch in parallel, thread t zeroing the t-th contiguous block: the same blocks of
     * planes (k slowest) the sweeps give thread t, so on a multi-socket machine each thread's
     * pages land on its own memory node. */
    if (p) {
#pragma omp parallel
        {
            const size_t lines = rounded / 64, nt = (size_t)omp_get_num_threads();
            const size_t t = (size_t)omp_get_thread_num();
            memset((char *)p + lines * t / nt * 64, 0,
                   (lines * (t + 1) / nt - lines * t / nt) * 64);
        }
    }
    *total += rounded;
    return p;
}

static void cpu_destroy(void *vctx)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    if (!c)
        return;
    for (int a = 0; a < 3; a++) {
        free(c->f.e[a]);
        c->f.e[a] = NULL;
        free(c->f.h[a]);
        c->f.h[a] = NULL;
        free(c->mat[a]);
        c->mat[a] = NULL;
    }
    for (int s = 0; s < c->nslabs; s++)
        for (int q = 0; q < 2; q++) {
            free(c->slabs[s].psi_e[q]);
            c->slabs[s].psi_e[q] = NULL;
            free(c->slabs[s].psi_h[q]);
            c->slabs[s].psi_h[q] = NULL;
        }
    free(c->line_mem);
    c->line_mem = NULL;
    free(c->row_mat0);
    c->row_mat0 = NULL;
    free(c->disp);
    c->disp = NULL;
    free(c->pol);
    c->pol = NULL;
    free(c->pcoef);
    c->pcoef = NULL;
    for (int q = 0; q < c->ndft; q++) {
        free(c->dft[q].re);
        free(c->dft[q].im);
    }
    free(c->dft);
    c->dft = NULL;
    for (int q = 0; q < CPU_COPY_SLOTS; q++)
        free(c->copy_buf[q]);
    free(c);
}

static int cpu_create(const yee_setup *s, void **out, yee_err *err)
{
    *out = NULL;
    if (s->nmat < 1 || s->nmat > YEE_MAX_MATERIALS)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "%d materials (at most %d)", s->nmat,
                        YEE_MAX_MATERIALS);
    /* refuse before allocating rather than be killed by the OOM killer half-way */
    const size_t need = yee_backend_bytes_needed(s->dims, s->nslabs, s->slabs);
    const size_t avail = yee_host_memory_available();
    if (avail > 0 && need > avail)
        return yee_fail(err, YEE_ERR_NOMEM,
                        "the grid needs %.2f GiB of host memory on this rank but only %.2f GiB "
                        "are available (MemAvailable); use more ranks or a coarser grid",
                        need / 1073741824.0, avail / 1073741824.0);
    cpu_ctx *c = (cpu_ctx *)calloc(1, sizeof *c);
    if (!c)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the CPU backend");
    c->d = s->dims;
    c->total = (int64_t)(s->dims.n[0] + 2 * YEE_HALO) * (s->dims.n[1] + 2 * YEE_HALO) *
               (s->dims.n[2] + 2 * YEE_HALO);
    const size_t fbytes = (size_t)c->total * sizeof(yee_real);
    for (int a = 0; a < 3; a++) {
        c->f.e[a] = (yee_real *)alloc_zeroed(fbytes, &c->bytes);
        c->f.h[a] = (yee_real *)alloc_zeroed(fbytes, &c->bytes);
        c->mat[a] = (uint8_t *)alloc_zeroed((size_t)c->total, &c->bytes);
        if (!c->f.e[a] || !c->f.h[a] || !c->mat[a])
            goto nomem;
        if (s->mat[a])
            memcpy(c->mat[a], s->mat[a], (size_t)c->total);
    }
    for (int m = 0; m < s->nmat; m++) {
        c->ca[m] = s->ca[m];
        c->cb[m] = s->cb[m];
    }
    c->media.mat[0] = c->mat[0];
    c->media.mat[1] = c->mat[1];
    c->media.mat[2] = c->mat[2];
    c->media.ca = c->ca;
    c->media.cb = c->cb;
    c->media.ch = s->ch;
    /* Rows made of material 0 only (all of them in vacuum or a deck without geometry; most of
     * them around small objects): their E update takes material 0's coefficients as loop
     * constants and skips the index bytes (row_e). */
    const int64_t nrows = (int64_t)s->dims.n[1] * s->dims.n[2];
    c->row_mat0 = (uint8_t *)alloc_zeroed((size_t)nrows, &c->bytes);
    if (!c->row_mat0)
        goto nomem;
    for (int k = 0; k < s->dims.n[2]; k++)
        for (int j = 0; j < s->dims.n[1]; j++) {
            const int64_t row = yee_idx(s->dims, 0, j, k);
            int any = 0;
            for (int a = 0; a < 3; a++)
                for (int i = 0; i < s->dims.n[0] && s->mat[a]; i++)
                    any |= s->mat[a][row + i];
            c->row_mat0[j + (int64_t)k * s->dims.n[1]] = !any;
        }
    for (int a = 0; a < 3; a++) {
        c->coef0.ca[a] = c->ca[0];
        c->coef0.cb[a] = c->cb[0];
    }

    /* Lines: per axis ie, be, ae (n+1 entries) then ih, bh, ah (n entries). */
    size_t nline = 0;
    for (int a = 0; a < 3; a++)
        nline += 3 * (size_t)(s->dims.n[a] + 1) + 3 * (size_t)s->dims.n[a];
    c->line_mem = (yee_real *)alloc_zeroed(nline * sizeof(yee_real), &c->bytes);
    if (!c->line_mem)
        goto nomem;
    yee_real *p = c->line_mem;
    for (int a = 0; a < 3; a++) {
        const size_t ne = (size_t)s->dims.n[a] + 1, nh = (size_t)s->dims.n[a];
        const yee_real *src[6] = {s->ie[a], s->be[a], s->ae[a], s->ih[a], s->bh[a], s->ah[a]};
        yee_real *dst[6];
        for (int q = 0; q < 6; q++) {
            const size_t len = q < 3 ? ne : nh;
            dst[q] = p;
            memcpy(p, src[q], len * sizeof(yee_real));
            p += len;
        }
        c->lines.ie[a] = dst[0];
        c->pml[a].be = dst[1];
        c->pml[a].ae = dst[2];
        c->lines.ih[a] = dst[3];
        c->pml[a].bh = dst[4];
        c->pml[a].ah = dst[5];
    }

    c->nslabs = s->nslabs;
    for (int k = 0; k < s->nslabs; k++) {
        cpu_slab *sl = &c->slabs[k];
        sl->box = s->slabs[k];
        int64_t cells = 1;
        for (int a = 0; a < 3; a++) {
            sl->w[a] = sl->box.hi[a] - sl->box.lo[a];
            cells *= sl->w[a];
        }
        for (int q = 0; q < 2; q++) {
            sl->psi_e[q] = (yee_real *)alloc_zeroed((size_t)cells * sizeof(yee_real), &c->bytes);
            sl->psi_h[q] = (yee_real *)alloc_zeroed((size_t)cells * sizeof(yee_real), &c->bytes);
            if (!sl->psi_e[q] || !sl->psi_h[q])
                goto nomem;
        }
    }
    for (int a = 0; a < 3; a++)
        c->pec_low[a] = s->pec_low[a];
    if (s->ndisp > 0) {
        c->ndisp = s->ndisp;
        c->npol = s->npol;
        c->inv_dt = s->inv_dt;
        c->disp = (yee_disp_node *)alloc_zeroed((size_t)s->ndisp * sizeof *c->disp, &c->bytes);
        c->pol = (yee_real *)alloc_zeroed((size_t)s->npol * sizeof(yee_real), &c->bytes);
        c->pcoef = (yee_pole_coef *)alloc_zeroed((size_t)s->npcoef * sizeof *c->pcoef, &c->bytes);
        if (!c->disp || !c->pol || !c->pcoef)
            goto nomem;
        memcpy(c->disp, s->disp, (size_t)s->ndisp * sizeof *c->disp);
        memcpy(c->pcoef, s->pcoef, (size_t)s->npcoef * sizeof *c->pcoef);
    }
    *out = c;
    return YEE_OK;
nomem: {
    size_t want = yee_backend_bytes_needed(s->dims, s->nslabs, s->slabs);
    cpu_destroy(c);
    return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %.1f MiB of host memory for the fields",
                    (double)want / 1048576.0);
}
}

/* One row is the cells i = i0..i1-1 at fixed (j, k) (the whole row 0..n0-1 but in the boxes
 * of an MPI rank's boundary/interior split, solver/halo.h). A step visits each row once: the bulk update
 * of the whole row, then the CPML corrections of every slab the row crosses, while the row is
 * still in L1 (fusing the slab passes into the bulk pass; a separate pass would stream the slab
 * fields from memory a second time). Per cell the order is the one of separate sweeps (bulk,
 * then slabs s = 0, 1, ...), so the results do not depend on the fusion. The i loops are
 * `omp simd`: cells of a row are independent (H reads only E, E reads only H), and without the
 * pragma the compiler must assume the field arrays alias and leaves the loop scalar.
 * The slab axis is a constant inside each i loop (switch outside), so the CPML profile index
 * is i, j or k at compile time. */

/* psi index of row (j, k) of slab sl, at i = lo[0]; -1 if the row does not cross the slab. */
static int64_t slab_row(const cpu_slab *sl, int j, int k)
{
    const yee_slab *b = &sl->box;
    if (j < b->lo[1] || j >= b->hi[1] || k < b->lo[2] || k >= b->hi[2])
        return -1;
    return ((int64_t)(k - b->lo[2]) * sl->w[1] + (j - b->lo[1])) * sl->w[0];
}

static void row_h(const cpu_ctx *c, int j, int k, int i0, int i1)
{
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    const yee_lines L = c->lines;
    const yee_real ch = c->media.ch;
#pragma omp simd
    for (int i = i0; i < i1; i++)
        yee_update_h(f, d, L, ch, i, j, k);
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

/* As row_h for E. A row of material 0 only (c->row_mat0) takes material 0's coefficients as
 * loop constants (yee_update_e_coef, yee_cpml_e_coef): the same arithmetic on the same values
 * as the per-cell lookup, 3 bytes per cell less to read and no gathers (with the lookup on
 * every row a vacuum step ran at 0.56x the speed, docs/performance.md). */
static void row_e(const cpu_ctx *c, int j, int k, int i0, int i1)
{
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    const yee_lines L = c->lines;
    const yee_media m = c->media;
    const int mat0 = c->row_mat0[j + (int64_t)k * d.n[1]];
    if (mat0) {
        const yee_ecoef q0 = c->coef0;
#pragma omp simd
        for (int i = i0; i < i1; i++)
            yee_update_e_coef(f, d, L, q0, i, j, k);
    } else {
#pragma omp simd
        for (int i = i0; i < i1; i++)
            yee_update_e(f, d, L, m, i, j, k);
    }
    const yee_real cb0 = c->coef0.cb[0];
    for (int s = 0; s < c->nslabs; s++) {
        const cpu_slab *sl = &c->slabs[s];
        int64_t row = slab_row(sl, j, k);
        if (row < 0)
            continue;
        const yee_cpml_axis pa = c->pml[sl->box.axis];
        yee_real *YEE_RESTRICT pq = sl->psi_e[0];
        yee_real *YEE_RESTRICT pr = sl->psi_e[1];
        const int lo = sl->box.lo[0] > i0 ? sl->box.lo[0] : i0;
        const int hi = sl->box.hi[0] < i1 ? sl->box.hi[0] : i1;
        row -= sl->box.lo[0];
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
}

/* The whole subdomain as a box. */
static yee_box all_cells(const cpu_ctx *c)
{
    yee_box b = {{0, 0, 0}, {c->d.n[0], c->d.n[1], c->d.n[2]}};
    return b;
}

/* The H or E sweep over box b. Rows are shared out in contiguous blocks (k slowest), so each
 * thread streams its own planes and finds plane k+1 (read by the H stencil) in cache when it
 * moves on to it. */
static void sweep_box(const cpu_ctx *c, yee_box b, int e_field)
{
    const int j0 = b.lo[1], j1 = b.hi[1], k0 = b.lo[2], k1 = b.hi[2];
    const int i0 = b.lo[0], i1 = b.hi[0];
    if (i1 <= i0)
        return;
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = k0; k < k1; k++)
        for (int j = j0; j < j1; j++) {
            if (e_field)
                row_e(c, j, k, i0, i1);
            else
                row_h(c, j, k, i0, i1);
        }
}

/* H and E in one sweep (when step_e finds step_h deferred): plane by plane, H(k) then E(k), so
 * E(k) finds H(k), H(k-1) and E(k) in cache, and a step moves each field once: 12 values per
 * cell instead of 18 (docs/performance.md). The per-cell arithmetic and its inputs are those of
 * two sweeps: H(k) reads E(k), E(k+1) before E(k+1) is updated (next plane), E(k) reads H(k),
 * H(k-1) after both are. Each thread owns planes [k0, k1); its last H plane reads E(k1), the
 * next thread's first plane, so every thread updates its last H plane before a barrier. */
static void sweep_he(const cpu_ctx *c)
{
    const int nx = c->d.n[0], ny = c->d.n[1], nz = c->d.n[2];
#pragma omp parallel
    {
        const int nt = omp_get_num_threads(), t = omp_get_thread_num();
        const int k0 = (int)((int64_t)nz * t / nt), k1 = (int)((int64_t)nz * (t + 1) / nt);
        if (k1 > k0)
            for (int j = 0; j < ny; j++)
                row_h(c, j, k1 - 1, 0, nx);
#pragma omp barrier
        for (int k = k0; k < k1; k++) {
            if (k < k1 - 1)
                for (int j = 0; j < ny; j++)
                    row_h(c, j, k, 0, nx);
            for (int j = 0; j < ny; j++)
                row_e(c, j, k, 0, nx);
        }
    }
}

/* Runs a deferred H sweep now. Every op that reads or writes fields, except step_e, starts
 * here, so no op can tell that the sweep was deferred. */
static void flush_h(cpu_ctx *c)
{
    if (c->h_pending) {
        c->h_pending = 0;
        sweep_box(c, all_cells(c), 0);
    }
}

/* step_h on the whole subdomain defers its sweep: if the next op is step_e on the whole
 * subdomain (no H halo to exchange in between: one rank and no periodic axis, the common case),
 * step_e runs H and E in one sweep (sweep_he); any other op first runs the H sweep alone
 * (flush_h). Same results either way, bit for bit. A box is swept at once. */
static int cpu_step_h(void *vctx, const yee_box *cells, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    (void)err;
    flush_h(c);
    if (cells)
        sweep_box(c, *cells, 0);
    else
        c->h_pending = 1;
    return YEE_OK;
}

/* Dispersive nodes in b (NULL: all), before the E update: P^{n+1} from E^n (yee_ade.h). */
static void ade_polarize(cpu_ctx *c, const yee_box *b)
{
    const yee_fields f = c->f;
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < c->ndisp; q++)
        if (!b || yee_box_has_index(c->d, *b, c->disp[q].c))
            yee_ade_polarize(f, c->disp[q], c->pcoef, c->pol);
}

/* Dispersive nodes in b (NULL: all), after the E update: the polarization current. */
static void ade_current(cpu_ctx *c, const yee_box *b)
{
    const yee_fields f = c->f;
    const yee_media m = c->media;
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < c->ndisp; q++)
        if (!b || yee_box_has_index(c->d, *b, c->disp[q].c))
            yee_ade_current(f, m, c->disp[q], c->inv_dt, c->pol);
}

static int cpu_step_e(void *vctx, const yee_box *cells, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    (void)err;
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    const int fused = c->h_pending && !cells;
    if (!fused)
        flush_h(c); /* a pending H sweep of the whole subdomain goes first */
    const yee_box b = cells ? *cells : all_cells(c);
    if (c->ndisp)
        ade_polarize(c, cells); /* reads E^n, writes P only: before or after the H sweep alike */
    if (fused) {
        c->h_pending = 0;
        sweep_he(c);
    } else
        sweep_box(c, b, 1);
    if (c->ndisp)
        ade_current(c, cells);
    for (int a = 0; a < 3; a++) {
        if (!c->pec_low[a] || b.lo[a] > 0 || b.hi[a] <= 0)
            continue;
        /* the node plane 0 of axis a, the box's cells of the other two axes */
        const int u = (a + 1) % 3, v = (a + 2) % 3;
#pragma omp parallel for schedule(static)
        for (int jv = b.lo[v]; jv < b.hi[v]; jv++)
            for (int ju = b.lo[u]; ju < b.hi[u]; ju++) {
                int ijk[3];
                ijk[a] = 0;
                ijk[u] = ju;
                ijk[v] = jv;
                yee_pec_low(f, d, a, ijk[0], ijk[1], ijk[2]);
            }
    }
    return YEE_OK;
}

static int cpu_apply_sources(void *vctx, int n, const yee_point_current *src, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    flush_h(c);
    (void)err;
    /* serial: sources touch few cells, and two entries may share a cell (sheet edges) */
    for (int s = 0; s < n; s++) {
        const int64_t at = yee_idx(c->d, src[s].i, src[s].j, src[s].k);
        if (src[s].comp < 3)
            yee_add_current(c->f, c->media, src[s].comp, at, src[s].j_value);
        else
            yee_add_mcurrent(c->f, c->media.ch, src[s].comp - 3, at, src[s].j_value);
    }
    return YEE_OK;
}

static int cpu_dft_create(void *vctx, const yee_dft_region *r, int *id, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    cpu_dft *grown = (cpu_dft *)realloc(c->dft, (size_t)(c->ndft + 1) * sizeof *c->dft);
    if (!grown)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "DFT region table");
    c->dft = grown;
    cpu_dft *q = &c->dft[c->ndft];
    memset(q, 0, sizeof *q);
    q->r = *r;
    q->nodes = (int64_t)r->count[0] * r->count[1] * r->count[2];
    const size_t bytes = (size_t)q->nodes * (size_t)r->nfreq * sizeof(double);
    q->re = (double *)alloc_zeroed(bytes, &c->bytes);
    q->im = (double *)alloc_zeroed(bytes, &c->bytes);
    if (!q->re || !q->im) {
        free(q->re);
        free(q->im);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %.1f MiB of DFT sums",
                        2.0 * bytes / 1048576.0);
    }
    *id = c->ndft++;
    return YEE_OK;
}

static int cpu_dft_accumulate(void *vctx, int id, const double *ph, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    (void)err;
    flush_h(c);
    const cpu_dft *q = &c->dft[id];
    const yee_dft_region r = q->r;
    const int64_t nx = r.count[0], ny = r.count[1];
    double *re = q->re, *im = q->im;
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = 0; k < r.count[2]; k++)
        for (int j = 0; j < r.count[1]; j++)
            for (int i = 0; i < r.count[0]; i++) {
                const double v = yee_dft_sample(c->f, c->d, r.comp, r.avg_axis, r.lo[0] + i,
                                                r.lo[1] + j, r.lo[2] + k);
                yee_dft_add(re, im, i + nx * (j + ny * k), q->nodes, r.nfreq, ph, v);
            }
    return YEE_OK;
}

static int cpu_download(void *vctx, int comp, const int lo[3], const int count[3],
                        yee_real *out, yee_err *err);

/* The CPU copies at once: the "asynchronous" snapshot is a copy into the slot's buffer. */
static int cpu_copy_start(void *vctx, int comp, const int lo[3], const int count[3], int slot,
                          yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    if (slot < 0 || slot >= CPU_COPY_SLOTS)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "copy slot %d", slot);
    const size_t n = (size_t)count[0] * count[1] * count[2];
    if (n > c->copy_cap[slot]) {
        yee_real *b = (yee_real *)realloc(c->copy_buf[slot], n * sizeof(yee_real));
        if (!b)
            return YEE_FAIL(err, YEE_ERR_NOMEM, "snapshot buffer of %zu values", n);
        c->copy_buf[slot] = b;
        c->copy_cap[slot] = n;
    }
    c->copy_len[slot] = n;
    return cpu_download(vctx, comp, lo, count, c->copy_buf[slot], err);
}

static int cpu_copy_finish(void *vctx, int slot, yee_real *out, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    if (slot < 0 || slot >= CPU_COPY_SLOTS)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "copy slot %d", slot);
    memcpy(out, c->copy_buf[slot], c->copy_len[slot] * sizeof(yee_real));
    return YEE_OK;
}

static int cpu_dft_transfer(void *vctx, int id, double *re, double *im, int set, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    (void)err;
    const cpu_dft *q = &c->dft[id];
    const size_t bytes = (size_t)q->nodes * (size_t)q->r.nfreq * sizeof(double);
    memcpy(set ? q->re : re, set ? re : q->re, bytes);
    memcpy(set ? q->im : im, set ? im : q->im, bytes);
    return YEE_OK;
}

/* Visit a layer of axis a: the two other axes u = a+1, v = a+2 in that order, u fastest when
 * u < v. Buffer offsets: component-major, then the lower of u/v fastest. */
static void layer_axes(int a, int *lo_axis, int *hi_axis)
{
    const int u = (a + 1) % 3, v = (a + 2) % 3;
    *lo_axis = u < v ? u : v;
    *hi_axis = u < v ? v : u;
}

static int cpu_halo(cpu_ctx *c, yee_field_kind kind, int axis, int layer, yee_real *buf,
                    int pack)
{
    int fa, sa;
    flush_h(c);
    layer_axes(axis, &fa, &sa);
    const int nf = c->d.n[fa], ns = c->d.n[sa];
    yee_real *const *arr = kind == YEE_FIELD_E ? c->f.e : c->f.h;
    /* only the two components tangential to the face are read across it (yee_cell.h) */
    for (int q = 0; q < 2; q++) {
        yee_real *a = arr[(axis + 1 + q) % 3];
        yee_real *b = buf + (int64_t)q * nf * ns;
#pragma omp parallel for schedule(static)
        for (int t = 0; t < ns; t++)
            for (int s = 0; s < nf; s++) {
                int ijk[3];
                ijk[axis] = layer;
                ijk[fa] = s;
                ijk[sa] = t;
                const int64_t idx = yee_idx(c->d, ijk[0], ijk[1], ijk[2]);
                if (pack)
                    b[(int64_t)t * nf + s] = a[idx];
                else
                    a[idx] = b[(int64_t)t * nf + s];
            }
    }
    return YEE_OK;
}

static int cpu_pack_halo(void *vctx, yee_field_kind kind, int axis, int layer, yee_real *buf,
                         yee_err *err)
{
    return cpu_halo((cpu_ctx *)vctx, kind, axis, layer, buf, 1);
}

static int cpu_unpack_halo(void *vctx, yee_field_kind kind, int axis, int layer,
                           const yee_real *buf, yee_err *err)
{
    return cpu_halo((cpu_ctx *)vctx, kind, axis, layer, (yee_real *)buf, 0);
}

/* Host memory is what MPI reads best here; there is no device memory to offer. */
static void *cpu_halo_alloc(void *vctx, size_t bytes, int device)
{
    (void)vctx;
    return device ? NULL : aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static void cpu_halo_free(void *vctx, void *buf)
{
    (void)vctx;
    free(buf);
}

static const yee_real *component_array(const cpu_ctx *c, int comp)
{
    return comp < 3 ? c->f.e[comp] : c->f.h[comp - 3];
}

static int cpu_gather(void *vctx, int n, const yee_sample *pts, yee_real *out, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    flush_h(c);
    for (int s = 0; s < n; s++)
        out[s] = component_array(c, pts[s].comp)[yee_idx(c->d, pts[s].i, pts[s].j, pts[s].k)];
    return YEE_OK;
}

static int cpu_download(void *vctx, int comp, const int lo[3], const int count[3],
                        yee_real *out, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    flush_h(c);
    const yee_real *a = component_array(c, comp);
    for (int k = 0; k < count[2]; k++)
        for (int j = 0; j < count[1]; j++)
            memcpy(out + ((int64_t)k * count[1] + j) * count[0],
                   a + yee_idx(c->d, lo[0], lo[1] + j, lo[2] + k),
                   (size_t)count[0] * sizeof(yee_real));
    return YEE_OK;
}

static int cpu_norms(void *vctx, yee_norms *out, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    flush_h(c);
    const yee_dims d = c->d;
    double e2 = 0.0, h2 = 0.0;
#pragma omp parallel for collapse(2) reduction(+ : e2, h2) schedule(static)
    for (int k = 0; k < d.n[2]; k++)
        for (int j = 0; j < d.n[1]; j++) {
            const int64_t row = yee_idx(d, 0, j, k);
            for (int comp = 0; comp < 3; comp++)
                for (int i = 0; i < d.n[0]; i++) {
                    const double ev = c->f.e[comp][row + i], hv = c->f.h[comp][row + i];
                    e2 += ev * ev;
                    h2 += hv * hv;
                }
        }
    /* NaN/Inf propagate into the sums; only then search for the first bad cell. */
    const int bad = !isfinite(e2) || !isfinite(h2);
    memset(out, 0, sizeof *out);
    out->e2 = e2;
    out->h2 = h2;
    if (bad) {
        out->nonfinite = 1;
        for (int k = 0; k < d.n[2]; k++)
            for (int j = 0; j < d.n[1]; j++)
                for (int i = 0; i < d.n[0]; i++)
                    for (int comp = 0; comp < 6; comp++)
                        if (!isfinite(component_array(c, comp)[yee_idx(d, i, j, k)])) {
                            out->bad_comp = comp;
                            out->bad_i = i;
                            out->bad_j = j;
                            out->bad_k = k;
                            return YEE_OK;
                        }
    }
    return YEE_OK;
}

static size_t cpu_bytes(void *vctx)
{
    return ((cpu_ctx *)vctx)->bytes;
}

/* STREAM-style copy over 2 x 256 MiB with the same threads as the updates; best of 5. */
static int cpu_copy_bandwidth(double *bytes_per_s, yee_err *err)
{
    const size_t n = (size_t)64 << 20; /* floats per array */
    float *a = (float *)aligned_alloc(64, n * sizeof(float));
    float *b = (float *)aligned_alloc(64, n * sizeof(float));
    if (!a || !b) {
        free(a);
        free(b);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the bandwidth test arrays");
    }
#pragma omp parallel for schedule(static)
    for (size_t q = 0; q < n; q++) {
        a[q] = (float)q;
        b[q] = 0.0f;
    }
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        const double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (size_t q = 0; q < n; q++)
            b[q] = a[q];
        const double t = omp_get_wtime() - t0;
        if (t < best)
            best = t;
    }
    /* keep the copy observable so it is not optimized away */
    volatile float sink = b[n / 2];
    (void)sink;
    free(a);
    free(b);
    *bytes_per_s = 2.0 * (double)n * sizeof(float) / best;
    return YEE_OK;
}

/* Checkpoint parts (backend.h): 6 fields, 4 psi arrays per slab, the polarizations. */
static int cpu_state_parts(void *vctx)
{
    const cpu_ctx *c = (const cpu_ctx *)vctx;
    return 6 + 4 * c->nslabs + (c->ndisp > 0);
}

/* Part p's array and its length in values; NULL for an invalid p. */
static yee_real *state_part(const cpu_ctx *c, int p, int64_t *len)
{
    if (p >= 0 && p < 6) {
        *len = c->total;
        return p < 3 ? c->f.e[p] : c->f.h[p - 3];
    }
    p -= 6;
    if (p >= 0 && p < 4 * c->nslabs) {
        const cpu_slab *sl = &c->slabs[p / 4];
        *len = sl->w[0] * sl->w[1] * sl->w[2];
        return p % 4 < 2 ? sl->psi_e[p % 4] : sl->psi_h[p % 4 - 2];
    }
    if (p == 4 * c->nslabs && c->ndisp > 0) {
        *len = c->npol;
        return c->pol;
    }
    *len = 0;
    return NULL;
}

static size_t cpu_state_part_bytes(void *vctx, int p)
{
    int64_t len;
    return state_part((const cpu_ctx *)vctx, p, &len) ? (size_t)len * sizeof(yee_real) : 0;
}

static int cpu_state_transfer(void *vctx, int p, void *buf, int set, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    flush_h(c); /* the state between steps is the one after a complete H sweep */
    int64_t len;
    yee_real *a = state_part(c, p, &len);
    if (!a)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "no checkpoint part %d (backend has %d)", p,
                        cpu_state_parts(c));
    const size_t bytes = (size_t)len * sizeof(yee_real);
    if (set)
        memcpy(a, buf, bytes);
    else
        memcpy(buf, a, bytes);
    return YEE_OK;
}

const yee_backend_ops yee_backend_cpu = {
    "cpu",        cpu_create,   cpu_step_h, cpu_step_e, cpu_apply_sources, cpu_dft_create,
    cpu_dft_accumulate, cpu_dft_transfer, cpu_copy_start, cpu_copy_finish, cpu_pack_halo,
    cpu_unpack_halo, cpu_halo_alloc, cpu_halo_free, cpu_gather, cpu_download, cpu_norms, cpu_bytes, cpu_destroy,
    cpu_copy_bandwidth, yee_backend_bytes_needed, cpu_state_parts, cpu_state_part_bytes,
    cpu_state_transfer,
};
