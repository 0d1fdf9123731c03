/* kernels/cpu/backend_cpu.c -- the OpenMP backend: loops over cells that call the per-cell
 * functions of kernels/yee_cell.h. Loops map indices and nothing else: k and j are shared out
 * to threads, i is the innermost, contiguous (vectorizable) loop. No physics lives here.
 */
#define _DEFAULT_SOURCE 1 /* madvise, MADV_HUGEPAGE (glibc; the build sets _XOPEN_SOURCE only) */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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
    yee_fields f;       /* Ex..Hz: each CPU_SKEW bytes further into its fblock (see there) */
    void *fblock[6];    /* the field allocations (Ex Ey Ez Hx Hy Hz) */
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

/* Blocks from 2 MiB up are 2 MiB aligned and asked for transparent huge pages: a sweep streams
 * six or more arrays (a wavefront: three planes of each at once), a new 4 KiB page every few
 * rows of each, and under a hypervisor every TLB miss is a two-level page walk. (Linux only; a
 * no-op where THP is off. docs/performance.md has the measurements.) */
#define CPU_HUGE ((size_t)2 << 20)

/* Field array a (0..5: Ex Ey Ez Hx Hy Hz) starts a * CPU_SKEW bytes into its block. With all
 * blocks aligned alike, cell c of the six arrays would map to one set of the 8-way L1 (sets
 * repeat every 4 KiB), and so would c +- one plane for the common sizes (a padded 256^2 plane is
 * 258^2 * 4 B = 65 pages + 16 B): the H and E loops stream 8-10 lines of one set at a time and
 * evict each other. 11 lines apart spread the arrays over the 4 KiB (and the 128 KiB of an L2
 * way). Measured at 256^3: +18% for sweep_he, +23% for step_pair (docs/performance.md). */
#define CPU_SKEW ((size_t)11 * 64)

static void *alloc_zeroed(size_t bytes, size_t *total)
{
    /* 64-byte alignment so vector loads of a row start on a cache line. */
    size_t rounded = (bytes + 63) / 64 * 64;
    const size_t align = rounded >= CPU_HUGE ? CPU_HUGE : 64;
    void *p = aligned_alloc(align, rounded ? (rounded + align - 1) / align * align : 64);
#ifdef MADV_HUGEPAGE
    if (p && align == CPU_HUGE)
        (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice only: ignore a refusal */
#endif
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
    for (int a = 0; a < 6; a++) {
        free(c->fblock[a]);
        c->fblock[a] = NULL;
    }
    for (int a = 0; a < 3; a++) {
        c->f.e[a] = NULL;
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
    for (int a = 0; a < 6; a++) {
        const size_t skew = (size_t)a * CPU_SKEW;
        c->fblock[a] = alloc_zeroed(fbytes + skew, &c->bytes);
        if (!c->fblock[a])
            goto nomem;
        yee_real *arr = (yee_real *)((char *)c->fblock[a] + skew);
        if (a < 3)
            c->f.e[a] = arr;
        else
            c->f.h[a - 3] = arr;
    }
    for (int a = 0; a < 3; a++) {
        c->mat[a] = (uint8_t *)alloc_zeroed((size_t)c->total, &c->bytes);
        if (!c->mat[a])
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

/* The currents of src of one kind (magnetic: comp 3..5; else 0..2), or of both (kind < 0). */
static void apply_kind(cpu_ctx *c, int n, const yee_point_current *src, int kind)
{
    /* serial: sources touch few cells, and two entries may share a cell (sheet edges) */
    for (int s = 0; s < n; s++) {
        const int magnetic = src[s].comp >= 3;
        if (kind >= 0 && magnetic != kind)
            continue;
        flush_h(c); /* (a no-op after the first) */
        const int64_t at = yee_idx(c->d, src[s].i, src[s].j, src[s].k);
        if (!magnetic)
            yee_add_current(c->f, c->media, src[s].comp, at, src[s].j_value);
        else
            yee_add_mcurrent(c->f, c->media.ch, src[s].comp - 3, at, src[s].j_value);
    }
}

static int cpu_apply_sources(void *vctx, int n, const yee_point_current *src, yee_err *err)
{
    (void)err;
    apply_kind((cpu_ctx *)vctx, n, src, -1);
    return YEE_OK;
}

/* ---- Two steps in one sweep (step_pair) ------------------------------------------------------
 * Temporal blocking: H1, E1 (step 1) and H2, E2 (step 2) in one wavefront over the planes k, so
 * each field value comes from memory and goes back once per two steps: 12 values per cell per
 * two steps, against 12 per step for sweep_he (docs/performance.md).
 *
 * Write A(k), B(k) for H1, E1 of plane k and C(k), D(k) for H2, E2; every E stage includes the
 * PEC nodes of its rows and then the currents of that step in its rows, in list order. The
 * wavefront visits, for it = 0..nz, A(it), B(it) and then C(it-1), D(it-1), which is exact:
 *   A(k) reads E0(k), E0(k+1): B(k) comes after it, B(k+1) in the next iteration.
 *   B(k) reads H1(k), H1(k-1) and its own E0(k): C(k-1) (H2) comes after it.
 *   C(k-1) reads E1(k-1), E1(k) with J1 added: B(k) came first, D(k-1) comes after, D(k) in
 *     the next iteration.
 *   D(k-1) reads H2(k-1), H2(k-2), E1(k-1): C(k-1) came first, C(k-2) in the last iteration.
 * Within a plane the same holds row by row (H reads E at j+1, E reads H at j-1), so the rows
 * are cut into bands [ja, jb) swept one after another, each through all its planes, with the
 * step 2 rows of a band moved down by one, [ja-1, jb-1) (clipped to [0, ny) at the ends): then
 * C(k-1, j) finds E1(k-1|k, j+1) done (it is in this band or the one before, which is
 * finished) and not yet E2 (row jb-1 is D'ed by the next band, after its C). A band's live data
 * (E at planes k-1..k+1, H at k-2..k: 18 row arrays of its rows) stays in L2 between
 * iterations instead of a whole plane's in L3. Each row's PEC nodes are zeroed right after its
 * E update and the currents added after that, before any H update reads them: per cell the
 * order of cpu_step_e + cpu_apply_sources. Per cell the arithmetic is row_h/row_e's on the same
 * operands, and each CPML psi is updated by step 1 then step 2, so the result is that of
 * step_h, step_e, apply_sources twice over, bit for bit (tests/unit/step_pair.c).
 *
 * Threads own contiguous blocks of planes [k0, k1) (those they first touched, alloc_zeroed),
 * each swept as above. Across a block boundary four stages read the neighbour's planes, and
 * they move out of the sweep, between OpenMP barriers:
 *   1. A(k1-1): it reads E0(k1), which the next thread's B(k1) overwrites in phase 2.
 *   2. The sweep of the block, without A(k1-1), C(k1-1), D(k1-1), D(k0).
 *   3. C(k1-1) (reads E1(k1), the next thread's B of phase 2), then D(k1-1).
 *   4. D(k0): it reads H2(k0-1), the previous thread's C of phase 3 (and C(k0-1) read E1(k0)).
 * (A block of one plane does C(k0) in 3 and D(k0) in 4.) Three barriers per two steps, so
 * OMP_WAIT_POLICY=passive costs nothing measurable; the planes of phases 1, 3 and 4 are read a
 * second time, 3 of nz/nthreads per pair. An earlier version gave bands to threads round-robin,
 * each band following the one before at one plane through a release/acquire counter: it
 * matched this at 256^3 but was about 20% slower at 48^3 (there a band's rows are few, and
 * the follower reads the leader's freshly written edge rows from the other core), see
 * docs/performance.md.
 * YEE_CPU_PAIR_ROWS=n forces bands of about n rows (tests and tuning). */

#define PAIR_BAND_BYTES ((int64_t)512 * 1024) /* live band data aimed at: half an L2 */

/* The PEC wall nodes (cpu_step_e) in row (j, k). */
static void pec_row(const cpu_ctx *c, int j, int k)
{
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    if (c->pec_low[0])
        yee_pec_low(f, d, 0, 0, j, k);
    if (c->pec_low[1] && j == 0)
        for (int i = 0; i < d.n[0]; i++)
            yee_pec_low(f, d, 1, i, 0, k);
    if (c->pec_low[2] && k == 0)
        for (int i = 0; i < d.n[0]; i++)
            yee_pec_low(f, d, 2, i, j, 0);
}

/* One step's currents bucketed by plane: order[start[k] .. start[k+1]) are the indices into
 * src of those in plane k, in list order (so each cell gets its additions in list order). */
typedef struct pair_src {
    const yee_point_current *src;
    int *start; /* nz + 1: electric currents by plane */
    int *order; /* n */
    int *mstart; /* nz * ny + 1: magnetic currents by row (added right after the row's H) */
    int *morder; /* n */
    /* first step only: the samples read between the steps, bucketed by plane like the
     * currents (NULL: none) */
    const yee_sample *samp;
    int *samp_start; /* nz + 1 */
    int *samp_order;
    yee_real *samp_out;
} pair_src;

/* 1 if every current of the list lies inside the subdomain (else step_pair runs the six ops). */
static int pair_src_ok(const cpu_ctx *c, int n, const yee_point_current *s)
{
    for (int q = 0; q < n; q++)
        if (s[q].comp < 0 || s[q].comp > 5 || s[q].i < 0 || s[q].i >= c->d.n[0] || s[q].j < 0 ||
            s[q].j >= c->d.n[1] || s[q].k < 0 || s[q].k >= c->d.n[2])
            return 0;
    return 1;
}

/* Counting sort: order[] lists the q with key[q] >= 0 grouped by key (0 .. nkeys-1), list
 * order kept within a key; key k's entries are order[start[k] .. start[k+1]). cursor: nkeys
 * ints of scratch. */
static void bucket_sort(int64_t nkeys, int n, const int *key, int *start, int *order, int *cursor)
{
    memset(start, 0, (size_t)(nkeys + 1) * sizeof(int));
    for (int q = 0; q < n; q++)
        if (key[q] >= 0)
            start[key[q] + 1]++;
    for (int64_t r = 0; r < nkeys; r++)
        start[r + 1] += start[r];
    memcpy(cursor, start, (size_t)nkeys * sizeof(int));
    for (int q = 0; q < n; q++)
        if (key[q] >= 0)
            order[cursor[key[q]]++] = q;
}

/* The list's electric currents by plane (into b->start, b->order) and, if it has magnetic ones,
 * those by row j + k ny (into b->mstart, b->morder, allocated here; 0 when they cannot be).
 * key, cursor: scratch of n and ny nz ints. */
static int pair_bucket(int ny, int nz, int n, const yee_point_current *s, pair_src *b, int *key,
                       int *cursor)
{
    b->src = s;
    int nm = 0;
    for (int q = 0; q < n; q++) {
        key[q] = s[q].comp < 3 ? s[q].k : -1;
        nm += s[q].comp >= 3;
    }
    bucket_sort(nz, n, key, b->start, b->order, cursor);
    if (nm == 0)
        return 1;
    const int64_t rows = (int64_t)ny * nz;
    b->mstart = (int *)malloc(((size_t)rows + 1) * sizeof(int));
    b->morder = (int *)malloc((size_t)nm * sizeof(int));
    if (!b->mstart || !b->morder)
        return 0;
    for (int q = 0; q < n; q++)
        key[q] = s[q].comp >= 3 ? (int)(s[q].j + (int64_t)s[q].k * ny) : -1;
    bucket_sort(rows, n, key, b->mstart, b->morder, cursor);
    return 1;
}

enum { PAIR_H = 1, PAIR_E = 2 };

/* Rows [j0, j1) of plane k, one step: `what` PAIR_H the H rows; PAIR_E the E rows, each with
 * its PEC nodes, then the step's currents in these rows of the plane (list order,
 * yee_add_current as cpu_apply_sources); both: H then E row by row. */
static void pair_rows(const cpu_ctx *c, const pair_src *b, int k, int j0, int j1, int what)
{
    const int nx = c->d.n[0];
    for (int j = j0; j < j1; j++) {
        if (what & PAIR_H) {
            row_h(c, j, k, 0, nx);
            if (b->mstart) { /* M after the row's H update, before any E update reads it */
                const int64_t r = j + (int64_t)k * c->d.n[1];
                for (int q = b->mstart[r]; q < b->mstart[r + 1]; q++) {
                    const yee_point_current *p = &b->src[b->morder[q]];
                    yee_add_mcurrent(c->f, c->media.ch, p->comp - 3,
                                     yee_idx(c->d, p->i, p->j, p->k), p->j_value);
                }
            }
        }
        if (what & PAIR_E) {
            row_e(c, j, k, 0, nx);
            pec_row(c, j, k);
        }
    }
    if (!(what & PAIR_E))
        return;
    for (int q = b->start[k]; q < b->start[k + 1]; q++) {
        const yee_point_current *p = &b->src[b->order[q]];
        if (p->j >= j0 && p->j < j1)
            yee_add_current(c->f, c->media, p->comp, yee_idx(c->d, p->i, p->j, p->k),
                            p->j_value);
    }
    /* Samples between the steps: these rows' E has its first step and currents, and their H
     * its first step (the second step's H of a row, C, always runs after its first E, B). */
    for (int q = b->samp ? b->samp_start[k] : 0; b->samp && q < b->samp_start[k + 1]; q++) {
        const yee_sample *p = &b->samp[b->samp_order[q]];
        if (p->j >= j0 && p->j < j1) {
            const yee_real *a = yee_component_array(c->f, p->comp);
            b->samp_out[b->samp_order[q]] = a[yee_idx(c->d, p->i, p->j, p->k)];
        }
    }
}

/* Bands per block: about PAIR_BAND_BYTES of live rows each (or YEE_CPU_PAIR_ROWS rows). */
static int pair_bands(const cpu_ctx *c)
{
    const int nx = c->d.n[0], ny = c->d.n[1];
    const int64_t row_bytes = 18 * (int64_t)(nx + 2 * YEE_HALO) * (int64_t)sizeof(yee_real);
    int64_t rows = PAIR_BAND_BYTES / row_bytes;
    const char *force = getenv("YEE_CPU_PAIR_ROWS");
    if (force && atoi(force) > 0)
        rows = atoi(force);
    if (rows < 2)
        rows = 2;
    const int64_t nb = (ny + rows - 1) / rows;
    return nb < 1 ? 1 : (int)nb;
}

static int cpu_gather(void *vctx, int n, const yee_sample *pts, yee_real *out, yee_err *err);

static int cpu_step_pair(void *vctx, int n1, const yee_point_current *j1, int n2,
                         const yee_point_current *j2, int nsamp, const yee_sample *mid,
                         yee_real *mid_out, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    flush_h(c);
    const int ny = c->d.n[1], nz = c->d.n[2];
    const int n1c = n1 > 0 ? n1 : 0, n2c = n2 > 0 ? n2 : 0;
    int *ints = NULL;
    const int ns = nsamp > 0 ? nsamp : 0;
    pair_src s1, s2;
    memset(&s1, 0, sizeof s1);
    memset(&s2, 0, sizeof s2);
    int ok = c->ndisp == 0 && pair_src_ok(c, n1c, j1) && pair_src_ok(c, n2c, j2);
    int *scratch = NULL;
    if (ok) {
        const int nmax = n1c > n2c ? (n1c > ns ? n1c : ns) : (n2c > ns ? n2c : ns);
        ints = (int *)malloc((size_t)(3 * (nz + 1) + n1c + n2c + ns) * sizeof(int));
        scratch = (int *)malloc(((size_t)nmax + (size_t)ny * nz) * sizeof(int));
        ok = ints && scratch;
        if (ok) {
            int *key = scratch, *cursor = scratch + nmax;
            s1.start = ints;
            s2.start = s1.start + nz + 1;
            s1.order = s2.start + nz + 1;
            s2.order = s1.order + n1c;
            s1.samp_start = s2.order + n2c;
            s1.samp_order = s1.samp_start + nz + 1;
            ok = pair_bucket(ny, nz, n1c, j1, &s1, key, cursor) &&
                 pair_bucket(ny, nz, n2c, j2, &s2, key, cursor);
            if (ok && ns) { /* the samples by plane, as the electric currents */
                for (int q = 0; q < ns; q++)
                    key[q] = mid[q].k;
                bucket_sort(nz, ns, key, s1.samp_start, s1.samp_order, cursor);
                s1.samp = mid;
                s1.samp_out = mid_out;
            }
        }
    }
    free(scratch);
    if (!ok) {
        /* dispersive nodes (the ADE stages across the wavefront are not worth it),
         * out-of-range currents, or no memory for the buckets: the ops one by one, same bytes */
        free(ints);
        free(s1.mstart);
        free(s1.morder);
        free(s2.mstart);
        free(s2.morder);
        for (int st = 0; st < 2; st++) {
            const int n = st ? n2c : n1c;
            const yee_point_current *list = st ? j2 : j1;
            YEE_TRY(cpu_step_h(vctx, NULL, err));
            apply_kind(c, n, list, 1);
            YEE_TRY(cpu_step_e(vctx, NULL, err));
            apply_kind(c, n, list, 0);
            if (st == 0 && ns)
                YEE_TRY(cpu_gather(vctx, ns, mid, mid_out, err));
        }
        return YEE_OK;
    }
    const int nb = pair_bands(c);
#pragma omp parallel
    {
        const int nt = omp_get_num_threads(), t = omp_get_thread_num();
        const int k0 = (int)((int64_t)nz * t / nt), k1 = (int)((int64_t)nz * (t + 1) / nt);
        if (k1 > k0) /* 1. A(k1-1) */
            pair_rows(c, &s1, k1 - 1, 0, ny, PAIR_H);
#pragma omp barrier
        for (int b = 0; b < nb && k1 > k0; b++) { /* 2. the block, band by band */
            const int ja = (int)((int64_t)ny * b / nb), jb = (int)((int64_t)ny * (b + 1) / nb);
            const int ja2 = b == 0 ? 0 : ja - 1, jb2 = b == nb - 1 ? ny : jb - 1;
            for (int it = k0; it <= k1; it++) {
                if (it < k1) /* A(it) (done in 1 for k1-1), B(it) */
                    pair_rows(c, &s1, it, ja, jb, it == k1 - 1 ? PAIR_E : PAIR_H | PAIR_E);
                const int k = it - 1;
                if (k >= k0 && k <= k1 - 2) /* C(k), D(k) (for k0 in 4) */
                    pair_rows(c, &s2, k, ja2, jb2, k == k0 ? PAIR_H : PAIR_H | PAIR_E);
            }
        }
#pragma omp barrier
        if (k1 > k0) { /* 3. C(k1-1), then D(k1-1) unless that is D(k0) */
            pair_rows(c, &s2, k1 - 1, 0, ny, PAIR_H);
            if (k1 - 1 > k0)
                pair_rows(c, &s2, k1 - 1, 0, ny, PAIR_E);
        }
#pragma omp barrier
        if (k1 > k0) /* 4. D(k0) */
            pair_rows(c, &s2, k0, 0, ny, PAIR_E);
    }
    free(ints);
    free(s1.mstart);
    free(s1.morder);
    free(s2.mstart);
    free(s2.morder);
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

static int cpu_gather(void *vctx, int n, const yee_sample *pts, yee_real *out, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    flush_h(c);
    for (int s = 0; s < n; s++)
        out[s] = yee_component_array(c->f, pts[s].comp)[yee_idx(c->d, pts[s].i, pts[s].j, pts[s].k)];
    return YEE_OK;
}

static int cpu_download(void *vctx, int comp, const int lo[3], const int count[3],
                        yee_real *out, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    flush_h(c);
    const yee_real *a = yee_component_array(c->f, comp);
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
                        if (!isfinite(yee_component_array(c->f, comp)[yee_idx(d, i, j, k)])) {
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
    "cpu",        cpu_create,   cpu_step_h, cpu_step_e, cpu_step_pair, cpu_apply_sources,
    cpu_dft_create,
    cpu_dft_accumulate, cpu_dft_transfer, cpu_copy_start, cpu_copy_finish, cpu_pack_halo,
    cpu_unpack_halo, cpu_halo_alloc, cpu_halo_free, cpu_gather, cpu_download, cpu_norms, cpu_bytes, cpu_destroy,
    cpu_copy_bandwidth, yee_backend_bytes_needed, cpu_state_parts, cpu_state_part_bytes,
    cpu_state_transfer,
};
