/* kernels/cpu/backend_cpu.c -- the reference CPU backend ("cpu-reference"): every op of
 * kernels/backend.h as a plain OpenMP loop over rows that calls the per-cell functions of
 * kernels/yee_cell.h and yee_ade.h, the stages of an update in the order of kernels/stages.h.
 * k and j are shared out to threads, i is the innermost, contiguous (vectorizable) loop. No
 * physics lives here, and no schedule: the tuned "cpu" backend (tuned.c) is these ops plus
 * advance, and every schedule is checked against these loops (tests/unit/cpu_schedules.c).
 */
#define _DEFAULT_SOURCE 1 /* madvise, MADV_HUGEPAGE (glibc; the build sets _XOPEN_SOURCE only) */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/yee_fp.h"
#include "kernels/cpu/cpu.h"
#include "kernels/stages.h"

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

/* Values of one part's linked face message: two components over the face (cpu_halo's layout). */
static size_t link_face_values(const cpu_ctx *c)
{
    const int a = yee_link_axis(c->d);
    return 2 * (size_t)c->d.n[(a + 1) % 3] * (size_t)c->d.n[(a + 2) % 3];
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
    free(c->link_buf);
    c->link_buf = NULL;
    free(c->row_span);
    c->row_span = NULL;
    free(c->layer_cost);
    c->layer_cost = NULL;
    free(c->disp);
    c->disp = NULL;
    free(c->tensor);
    c->tensor = NULL;
    free(c->curl);
    c->curl = NULL;
    free(c->curl_h);
    c->curl_h = NULL;
    free(c->disp_row);
    c->disp_row = NULL;
    free(c->disp_by_row);
    c->disp_by_row = NULL;
    free(c->tensor_row);
    c->tensor_row = NULL;
    free(c->curl_row);
    c->curl_row = NULL;
    free(c->pol);
    c->pol = NULL;
    free(c->pcoef);
    c->pcoef = NULL;
    for (int q = 0; q < c->ndft; q++) {
        free(c->dft[q].re);
        free(c->dft[q].im);
        free(c->dft[q].v);
        free(c->dft[q].ph);
        free(c->dft[q].held);
    }
    free(c->dft);
    c->dft = NULL;
    for (int q = 0; q < CPU_COPY_SLOTS; q++)
        free(c->copy_buf[q]);
    for (int q = 0; q < CPU_SWEEP_MAX; q++)
        cpu_step_lists_free(&c->lists[q]);
    free(c);
}

/* Row r = j + k n1 of cell index `cell`. */
static int64_t cell_row(yee_dims d, int64_t cell)
{
    int i, j, k;
    yee_idx_cell(d, cell, &i, &j, &k);
    return j + (int64_t)k * d.n[1];
}

/* n nodes by row, a counting sort of their cells (cell_of(nodes, q): node q's padded index):
 * *row (nrows + 1 offsets, counted in c->bytes) and *by_row (node numbers, in list order within a
 * row; the caller's to count), row r's nodes being by_row[p] for p in [row[r], row[r + 1]).
 * 0 when memory is short. */
static int index_rows(cpu_ctx *c, int64_t n, const void *nodes,
                      int64_t (*cell_of)(const void *nodes, int64_t q), int64_t **row,
                      int64_t **by_row)
{
    const int64_t nrows = (int64_t)c->d.n[1] * c->d.n[2];
    int64_t *start = (int64_t *)alloc_zeroed(((size_t)nrows + 1) * sizeof(int64_t), &c->bytes);
    int64_t *order = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
    int64_t *next = (int64_t *)malloc((size_t)nrows * sizeof(int64_t));
    *row = start;
    *by_row = order;
    if (!start || !order || !next) {
        free(next);
        return 0;
    }
    for (int64_t q = 0; q < n; q++)
        start[cell_row(c->d, cell_of(nodes, q)) + 1]++;
    for (int64_t r = 0; r < nrows; r++)
        start[r + 1] += start[r];
    memcpy(next, start, (size_t)nrows * sizeof(int64_t));
    for (int64_t q = 0; q < n; q++)
        order[next[cell_row(c->d, cell_of(nodes, q))]++] = q;
    free(next);
    return 1;
}

static int64_t disp_cell(const void *nodes, int64_t q)
{
    return ((const yee_disp_node *)nodes)[q].c;
}

static int64_t tensor_cell(const void *nodes, int64_t q)
{
    return ((const yee_tensor_node *)nodes)[q].c;
}

static int64_t curl_cell(const void *nodes, int64_t q)
{
    return ((const yee_curl_node *)nodes)[q].c;
}

/* The tensor nodes and the curl list in row order (c->tensor_row, c->curl_row: nrows + 1
 * offsets each), each node's curl[][] renumbered to match: the wavefront computes the curls of
 * a row right after its H update (cpu_curl_rows) and adds a row's terms right after its E
 * update (cpu_tensor_row), each over a contiguous run. The reference's order of either is free:
 * a curl is a value of its own, and each node writes its own E. 0 when memory is short. */
static int tensor_by_rows(cpu_ctx *c)
{
    const size_t nt = (size_t)c->ntensor, nc = (size_t)c->ncurl;
    int64_t *tord = NULL, *cord = NULL;
    int64_t *renum = (int64_t *)malloc((nc + 1) * sizeof *renum);
    yee_tensor_node *t = (yee_tensor_node *)malloc(nt * sizeof *t);
    yee_curl_node *cn = (yee_curl_node *)malloc((nc + 1) * sizeof *cn);
    const int ok = renum && t && cn &&
                   index_rows(c, c->ntensor, c->tensor, tensor_cell, &c->tensor_row, &tord) &&
                   index_rows(c, c->ncurl, c->curl, curl_cell, &c->curl_row, &cord);
    if (ok) {
        for (size_t q = 0; q < nc; q++) {
            cn[q] = c->curl[cord[q]];
            renum[cord[q]] = (int64_t)q;
        }
        for (size_t q = 0; q < nt; q++) {
            t[q] = c->tensor[tord[q]];
            for (int slot = 0; slot < 8; slot++) {
                int *at = &t[q].curl[slot / 4][slot % 4];
                *at = *at < 0 ? -1 : (int)renum[*at];
            }
        }
        memcpy(c->tensor, t, nt * sizeof *t);
        memcpy(c->curl, cn, nc * sizeof *cn);
    }
    free(renum);
    free(t);
    free(cn);
    free(tord);
    free(cord);
    return ok;
}

static int cpu_create(const yee_setup *s, void **out, yee_err *err)
{
    *out = NULL;
    if (s->nmat < 1 || s->nmat > YEE_MAX_MATERIALS)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "%d materials (at most %d)", s->nmat,
                        YEE_MAX_MATERIALS);
    YEE_TRY(yee_backend_check_host_memory(
        yee_backend_bytes_needed(s->dims, s->pol2d, s->nslabs, s->slabs), err));
    cpu_ctx *c = (cpu_ctx *)calloc(1, sizeof *c);
    if (!c)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the CPU backend");
    /* subnormals flushed in this thread and in every thread of the pool (common/yee_fp.h) */
    yee_fp_flush_subnormals();
#pragma omp parallel
    yee_fp_flush_subnormals(); /* each thread of the pool, also one made before */
    c->d = s->dims;
    c->total = yee_dims_cells(s->dims);
    const size_t fbytes = (size_t)c->total * sizeof(yee_real);
    c->pol2d = s->dims.stride[2] == 0 ? s->pol2d : YEE_POL_BOTH;
    for (int a = 0; a < 6; a++) {
        if (!yee_pol_has(c->pol2d, a))
            continue; /* not in this 2-D run's polarization: NULL, never read or written */
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
    /* Each row's span of cells not of material 0 (none in vacuum or a deck without geometry;
     * a few cells of most rows around small objects): outside it the E update takes material
     * 0's coefficients as loop constants and skips the index bytes (cpu_row_e). */
    const int64_t nrows = (int64_t)s->dims.n[1] * s->dims.n[2];
    c->row_span = (int *)alloc_zeroed(2 * (size_t)nrows * sizeof(int), &c->bytes);
    if (!c->row_span)
        goto nomem;
    yee_row_spans(s, c->row_span);
    for (int a = 0; a < 3; a++) {
        c->coef0.ca[a] = c->ca[0];
        c->coef0.cb[a] = c->cb[0];
    }

    c->line_mem = (yee_real *)alloc_zeroed(yee_lines_length(s->dims) * sizeof(yee_real),
                                           &c->bytes);
    if (!c->line_mem)
        goto nomem;
    yee_lines_pack(s, c->line_mem);
    yee_lines_point(s->dims, c->line_mem, &c->lines, c->pml);

    c->nslabs = s->nslabs;
    yee_real *psi[6][4];
    int64_t slab_cells[6];
    for (int k = 0; k < s->nslabs; k++) {
        cpu_slab *sl = &c->slabs[k];
        sl->box = s->slabs[k];
        slab_cells[k] = yee_slab_cells(&sl->box, sl->w);
        for (int q = 0; q < 2; q++) {
            /* half q of the slab's CPML writes E (and H) component axis + 1 + q: a 2-D run of
             * one polarization keeps only the halves of its components (yee_cpml_e_half) */
            const int comp = (sl->box.axis + 1 + q) % 3;
            const size_t bytes = (size_t)slab_cells[k] * sizeof(yee_real);
            sl->psi_e[q] = NULL;
            sl->psi_h[q] = NULL;
            if (c->f.e[comp] && !(sl->psi_e[q] = (yee_real *)alloc_zeroed(bytes, &c->bytes)))
                goto nomem;
            if (c->f.h[comp] && !(sl->psi_h[q] = (yee_real *)alloc_zeroed(bytes, &c->bytes)))
                goto nomem;
            psi[k][q] = sl->psi_e[q];
            psi[k][2 + q] = sl->psi_h[q];
        }
    }
    for (int a = 0; a < 3; a++) {
        c->pec_low[a] = s->pec_low[a];
        c->pmc_low[a] = s->pmc_low[a];
        c->wrap[a] = s->wrap[a] && (a < 2 || c->d.stride[2] != 0); /* 2-D: no z faces */
    }
    c->pair_rows = s->tuning.cpu_band_rows;
    c->sweep_steps = s->tuning.cpu_sweep_steps;
    c->unmeasured = s->tuning.cpu_unmeasured;
    if (s->link) {
        c->link = s->link;
        /* room for both parts of a complex field's face (a twin's rides in the same message) */
        c->link_buf = (yee_real *)alloc_zeroed(2 * link_face_values(c) * sizeof(yee_real),
                                               &c->bytes);
        if (!c->link_buf) {
            cpu_destroy(c);
            return YEE_FAIL(err, YEE_ERR_NOMEM, "linked face buffer");
        }
    }
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
        if (!index_rows(c, c->ndisp, c->disp, disp_cell, &c->disp_row, &c->disp_by_row))
            goto nomem;
        c->bytes += (size_t)c->ndisp * sizeof(int64_t);
    }
    if (s->ntensor > 0) {
        c->ntensor = s->ntensor;
        c->tensor = (yee_tensor_node *)alloc_zeroed((size_t)s->ntensor * sizeof *c->tensor,
                                                    &c->bytes);
        c->ncurl = s->ncurl;
        c->curl = (yee_curl_node *)alloc_zeroed((size_t)s->ncurl * sizeof *c->curl, &c->bytes);
        c->curl_h = (yee_real *)alloc_zeroed((size_t)s->ncurl * sizeof *c->curl_h, &c->bytes);
        if (!c->tensor || !c->curl || !c->curl_h)
            goto nomem;
        memcpy(c->tensor, s->tensor, (size_t)s->ntensor * sizeof *c->tensor);
        memcpy(c->curl, s->curl, (size_t)s->ncurl * sizeof *c->curl);
        if (!tensor_by_rows(c))
            goto nomem;
    }
    if (!cpu_layer_costs_build(c))
        goto nomem;
    yee_state_layout_build(&c->state, c->f, c->total, c->nslabs, psi, slab_cells, c->pol,
                           c->ndisp > 0 ? c->npol : 0);
    *out = c;
    return YEE_OK;
nomem: {
    size_t want = yee_backend_bytes_needed(s->dims, s->pol2d, s->nslabs, s->slabs);
    cpu_destroy(c);
    return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %.1f MiB of host memory for the fields",
                    (double)want / 1048576.0);
}
}

yee_box cpu_all_cells(const cpu_ctx *c)
{
    yee_box b = {{0, 0, 0}, {c->d.n[0], c->d.n[1], c->d.n[2]}};
    return b;
}

/* ---- the stages of an update (kernels/stages.h) over a box ---- */

/* Rows are shared out in contiguous blocks (k slowest), so each thread streams its own planes and
 * finds plane k+1 (read by the H stencil) in cache when it moves on to it. */
static int stage_h_curl(void *vctx, yee_box b, yee_err *err)
{
    const cpu_ctx *c = (const cpu_ctx *)vctx;
    (void)err;
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = b.lo[2]; k < b.hi[2]; k++)
        for (int j = b.lo[1]; j < b.hi[1]; j++)
            cpu_row_h(c, j, k, b.lo[0], b.hi[0]);
    return YEE_OK;
}

static int stage_e_curl(void *vctx, yee_box b, yee_err *err)
{
    const cpu_ctx *c = (const cpu_ctx *)vctx;
    (void)err;
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = b.lo[2]; k < b.hi[2]; k++)
        for (int j = b.lo[1]; j < b.hi[1]; j++)
            cpu_row_e(c, j, k, b.lo[0], b.hi[0]);
    return YEE_OK;
}

/* Each node writes only its own E and reads H: any order, any thread. */
void cpu_tensor(const cpu_ctx *c, yee_box b)
{
    const yee_fields f = c->f;
    yee_real *curl_h = c->curl_h;
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int64_t q = 0; q < c->ncurl; q++)
            curl_h[q] = yee_curl_h_of(f, c->d, c->lines, c->curl[q]);
#pragma omp for schedule(static)
        for (int64_t q = 0; q < c->ntensor; q++)
            if (yee_tensor_in_box(c->tensor[q], b))
                yee_tensor_e(f, c->tensor[q], curl_h);
    }
}

static int stage_e_tensor(void *vctx, yee_box b, yee_err *err)
{
    (void)err;
    cpu_tensor((const cpu_ctx *)vctx, b);
    return YEE_OK;
}

void cpu_polarize(const cpu_ctx *c, yee_box b)
{
    const yee_fields f = c->f;
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < c->ndisp; q++)
        if (yee_box_has_index(c->d, b, c->disp[q].c))
            yee_ade_polarize(f, c->disp[q], c->pcoef, c->pol);
}

void cpu_polarization_current(const cpu_ctx *c, yee_box b)
{
    const yee_fields f = c->f;
    const yee_media m = c->media;
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < c->ndisp; q++)
        if (yee_box_has_index(c->d, b, c->disp[q].c))
            yee_ade_current(f, m, c->disp[q], c->pcoef, c->inv_dt, c->pol);
}

/* node(axis, i, j, k) on the node plane 0 of each axis with on[axis], over box b's cells of the
 * other two axes (where b touches that plane). */
static void low_walls(const cpu_ctx *c, yee_box b, const int on[3], cpu_wall_node_fn node)
{
    const yee_dims d = c->d;
    const yee_fields f = c->f;
    for (int a = 0; a < 3; a++) {
        if (!on[a] || b.lo[a] > 0 || b.hi[a] <= 0)
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
                node(f, d, a, ijk[0], ijk[1], ijk[2]);
            }
    }
}

void cpu_pec(const cpu_ctx *c, yee_box b)
{
    low_walls(c, b, c->pec_low, yee_pec_low);
}

void cpu_pmc(const cpu_ctx *c, yee_box b)
{
    low_walls(c, b, c->pmc_low, yee_pmc_low);
}

static int stage_e_pmc(void *vctx, yee_box b, yee_err *err)
{
    (void)err;
    cpu_pmc((const cpu_ctx *)vctx, b);
    return YEE_OK;
}

static int stage_e_polarize(void *vctx, yee_box b, yee_err *err)
{
    (void)err;
    cpu_polarize((const cpu_ctx *)vctx, b);
    return YEE_OK;
}

static int stage_e_polarization_current(void *vctx, yee_box b, yee_err *err)
{
    (void)err;
    cpu_polarization_current((const cpu_ctx *)vctx, b);
    return YEE_OK;
}

static int stage_e_pec(void *vctx, yee_box b, yee_err *err)
{
    (void)err;
    cpu_pec((const cpu_ctx *)vctx, b);
    return YEE_OK;
}

static const yee_update_stages cpu_stages = {stage_h_curl, stage_e_pmc, stage_e_polarize,
                                             stage_e_curl, stage_e_tensor,
                                             stage_e_polarization_current,
                                             stage_e_pec};

int cpu_step_h(void *vctx, const yee_box *cells, yee_err *err)
{
    const cpu_ctx *c = (const cpu_ctx *)vctx;
    const yee_box b = cells ? *cells : cpu_all_cells(c);
    return yee_box_empty(b) ? YEE_OK : yee_update_h_stages(&cpu_stages, vctx, b, err);
}

int cpu_step_e(void *vctx, const yee_box *cells, yee_err *err)
{
    const cpu_ctx *c = (const cpu_ctx *)vctx;
    const yee_box b = cells ? *cells : cpu_all_cells(c);
    return yee_box_empty(b) ? YEE_OK : yee_update_e_stages(&cpu_stages, vctx, b, err);
}

/* Serial: sources touch few cells, and two entries may share a cell (sheet edges), which then
 * get their additions in list order. */
int cpu_apply_sources(void *vctx, int n, const yee_point_current *src, yee_err *err)
{
    (void)err;
    for (int s = 0; s < n; s++)
        cpu_add_current((const cpu_ctx *)vctx, &src[s]);
    return YEE_OK;
}

int cpu_reference_step(cpu_ctx *c, const yee_step_plan *plan, const yee_step_plan *plan_im,
                       yee_err *err)
{
    for (cpu_ctx *p = c; p; p = p->twin) {
        const yee_step_plan *pl = p == c ? plan : plan_im;
        YEE_TRY(cpu_step_h(p, NULL, err));
        YEE_TRY(cpu_apply_sources(p, pl->nm, pl->m, err));
    }
    cpu_wrap_all(c, YEE_FIELD_H);
    YEE_TRY(cpu_link_send(c, YEE_FIELD_H, err));
    YEE_TRY(cpu_link_recv(c, YEE_FIELD_H, err));
    for (cpu_ctx *p = c; p; p = p->twin) {
        const yee_step_plan *pl = p == c ? plan : plan_im;
        YEE_TRY(cpu_step_e(p, NULL, err));
        YEE_TRY(cpu_apply_sources(p, pl->nj, pl->j, err));
    }
    cpu_wrap_all(c, YEE_FIELD_E);
    YEE_TRY(cpu_link_send(c, YEE_FIELD_E, err));
    YEE_TRY(cpu_link_recv(c, YEE_FIELD_E, err));
    for (cpu_ctx *p = c; p; p = p->twin) {
        const yee_step_plan *pl = p == c ? plan : plan_im;
        YEE_TRY(cpu_gather(p, pl->nsamp, pl->samp, pl->samp_out, err));
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
    q->batch = yee_dft_batch(r->nfreq);
    q->re = (double *)alloc_zeroed(bytes, &c->bytes);
    q->im = (double *)alloc_zeroed(bytes, &c->bytes);
    q->v = (double *)alloc_zeroed((size_t)q->batch * (size_t)q->nodes * sizeof(double), &c->bytes);
    q->ph = (double *)malloc((size_t)q->batch * 2 * (size_t)r->nfreq * sizeof(double));
    if (!q->re || !q->im || !q->v || !q->ph) {
        free(q->re);
        free(q->im);
        free(q->v);
        free(q->ph);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %.1f MiB of DFT sums",
                        2.0 * bytes / 1048576.0);
    }
    /* the held box: the region, and the layer below it along avg_axis that a sample reads
     * (none where the axis has stride 0: a 2-D run's z neighbour is the node itself) */
    q->hnodes = 1;
    int inside = 1;
    for (int a = 0; a < 3; a++) {
        const int below = r->avg_axis == a && c->d.stride[a] != 0;
        q->hlo[a] = r->lo[a] - below;
        q->hcount[a] = r->count[a] + below;
        q->hnodes *= q->hcount[a];
        inside &= q->hlo[a] >= 0 && q->hlo[a] + q->hcount[a] <= c->d.n[a];
    }
    /* a component this run does not store (a 2-D run's other polarization) is never held: its
     * samples are zeros (cpu_dft_hold_rows, cpu_dft_hold_all), wherever its box lies */
    if (!yee_component_array(c->f, r->comp))
        inside = 1;
    c->dft_inside = (c->ndft == 0 || c->dft_inside) && inside;
    *id = c->ndft++;
    return YEE_OK;
}

int cpu_dft_hold_begin(cpu_ctx *c, int steps, yee_err *err)
{
    c->dft_held = steps;
    for (int id = 0; id < c->ndft; id++) {
        cpu_dft *q = &c->dft[id];
        q->taken = 0;
        if (steps <= q->held_slots)
            continue;
        const size_t bytes = (size_t)steps * (size_t)q->hnodes * sizeof(yee_real);
        yee_real *grown = (yee_real *)realloc(q->held, bytes);
        if (!grown) {
            c->dft_held = 0;
            return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %.1f MiB of DFT fields",
                            bytes / 1048576.0);
        }
        c->bytes += (size_t)(steps - q->held_slots) * (size_t)q->hnodes * sizeof(yee_real);
        q->held = grown;
        q->held_slots = steps;
    }
    return YEE_OK;
}

/* Row j of plane k of region q's held box (inside it) into slot `slot`. */
static void hold_row(const cpu_ctx *c, const cpu_dft *q, const yee_real *a, int slot, int j, int k)
{
    const int64_t at = (int64_t)(j - q->hlo[1]) + (int64_t)q->hcount[1] * (k - q->hlo[2]);
    memcpy(q->held + (int64_t)slot * q->hnodes + at * q->hcount[0],
           a + yee_idx(c->d, q->hlo[0], j, k), (size_t)q->hcount[0] * sizeof(yee_real));
}

void cpu_dft_hold_rows(const cpu_ctx *c, const cpu_step_lists *l, int k, int j0, int j1)
{
    const int slot = l->plan->dft - 1;
    if (slot < 0 || !c->dft_inside)
        return;
    for (int id = 0; id < c->ndft; id++) {
        const cpu_dft *q = &c->dft[id];
        const yee_real *a = yee_component_array(c->f, q->r.comp);
        if (!a || k < q->hlo[2] || k >= q->hlo[2] + q->hcount[2])
            continue;
        const int ja = j0 > q->hlo[1] ? j0 : q->hlo[1];
        const int jb = j1 < q->hlo[1] + q->hcount[1] ? j1 : q->hlo[1] + q->hcount[1];
        for (int j = ja; j < jb; j++)
            hold_row(c, q, a, slot, j, k);
    }
}

/* Regions of no more nodes than this are copied or sampled by one thread: a parallel region
 * costs the threads a fork and a join (microseconds), more than the copy of a small region's
 * values, and a flux box's faces sample every step or every second one (docs/performance.md,
 * "The sums in registers, and small regions on one thread"). */
#define CPU_DFT_PARALLEL_NODES 4096

void cpu_dft_hold_all(const cpu_ctx *c, const yee_step_plan *plan)
{
    const int slot = plan->dft - 1;
    if (slot < 0)
        return;
    for (int id = 0; id < c->ndft; id++) {
        const cpu_dft *q = &c->dft[id];
        const yee_real *a = yee_component_array(c->f, q->r.comp);
        if (!a)
            continue;
#pragma omp parallel for collapse(2) schedule(static) if (q->hnodes > CPU_DFT_PARALLEL_NODES)
        for (int k = q->hlo[2]; k < q->hlo[2] + q->hcount[2]; k++)
            for (int j = q->hlo[1]; j < q->hlo[1] + q->hcount[1]; j++)
                hold_row(c, q, a, slot, j, k);
    }
}

#define CPU_DFT_CHUNK 256 /* nodes per block of the flush: their held samples stay in L1-L2 */
#define DFT_LANES 16      /* nodes whose sums the flush keeps in registers at once */

/* Adds region q's held samples to its sums. Per node and frequency the same products, added in
 * the order the samples came, as yee_dft_add one sample at a time (no fused multiply-add in
 * this C11 build): the bytes do not depend on the batch. Each sum is read once, takes every held
 * sample in a register and is written once, so the sums cross memory once per batch, not per
 * sample; a block of nodes' samples stays in L1 while every frequency takes them
 * (docs/performance.md, "What sources and monitors cost"). */
static void dft_flush(cpu_dft *q)
{
    const int nh = q->pending, nfreq = q->r.nfreq;
    if (nh == 0)
        return;
    q->pending = 0;
    const int64_t nodes = q->nodes, nblocks = (nodes + CPU_DFT_CHUNK - 1) / CPU_DFT_CHUNK;
    const double *v = q->v, *ph = q->ph;
    double *re = q->re, *im = q->im;
    /* blocks and frequencies shared out together: a face of a few hundred nodes is one or two
     * blocks, which alone would leave a thread idle */
#pragma omp parallel for collapse(2) schedule(static) if (nodes * nfreq * nh > 16384)
    for (int64_t b = 0; b < nblocks; b++)
        for (int f = 0; f < nfreq; f++) {
            const int64_t n0 = b * CPU_DFT_CHUNK;
            const int len = (int)(nodes - n0 < CPU_DFT_CHUNK ? nodes - n0 : CPU_DFT_CHUNK);
            double cs[YEE_DFT_BATCH_MAX], sn[YEE_DFT_BATCH_MAX];
            for (int t = 0; t < nh; t++) {
                cs[t] = ph[2 * (t * nfreq + f)];
                sn[t] = ph[2 * (t * nfreq + f) + 1];
            }
            double *YEE_RESTRICT fre = re + (int64_t)f * nodes + n0;
            double *YEE_RESTRICT fim = im + (int64_t)f * nodes + n0;
            const double *YEE_RESTRICT vb = v + n0;
            int n = 0;
            for (; n + DFT_LANES <= len; n += DFT_LANES) {
                _Alignas(64) double sum_re[DFT_LANES];
                _Alignas(64) double sum_im[DFT_LANES];
#pragma omp simd
                for (int l = 0; l < DFT_LANES; l++) {
                    sum_re[l] = fre[n + l];
                    sum_im[l] = fim[n + l];
                }
                for (int t = 0; t < nh; t++) {
                    const double *YEE_RESTRICT vt = vb + (int64_t)t * nodes + n;
                    const double c_ = cs[t], s_ = sn[t];
#pragma omp simd
                    for (int l = 0; l < DFT_LANES; l++) {
                        sum_re[l] += vt[l] * c_;
                        sum_im[l] += vt[l] * s_;
                    }
                }
#pragma omp simd
                for (int l = 0; l < DFT_LANES; l++) {
                    fre[n + l] = sum_re[l];
                    fim[n + l] = sum_im[l];
                }
            }
            for (; n < len; n++)
                for (int t = 0; t < nh; t++) {
                    fre[n] += vb[(int64_t)t * nodes + n] * cs[t];
                    fim[n] += vb[(int64_t)t * nodes + n] * sn[t];
                }
        }
}

/* Holds this step's samples of region id (and its phasors); adds the held ones when the batch
 * is full. dft_transfer adds what is held first. */
static int cpu_dft_accumulate(void *vctx, int id, const double *ph, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    (void)err;
    cpu_dft *q = &c->dft[id];
    const yee_dft_region r = q->r;
    const int64_t nx = r.count[0], ny = r.count[1];
    if (!yee_component_array(c->f, r.comp))
        return YEE_OK; /* not in this 2-D run: the sums of a zero field stay zero */
    double *v = q->v + (int64_t)q->pending * q->nodes;
    if (q->taken < c->dft_held) {
        /* the fields the advance call held at the end of its next step that samples: node
         * (i, j, k) of the region is (i, j, k) + off of the held box, the one below it `below`
         * values before */
        const yee_real *h = q->held + (int64_t)q->taken++ * q->hnodes;
        const int64_t hx = q->hcount[0], hy = q->hcount[1], stride[3] = {1, hx, hx * hy};
        int off[3];
        for (int a = 0; a < 3; a++)
            off[a] = r.lo[a] - q->hlo[a];
        const int64_t below = r.avg_axis < 0 ? 0 : off[r.avg_axis] * stride[r.avg_axis];
#pragma omp parallel for collapse(2) schedule(static) if (q->nodes > CPU_DFT_PARALLEL_NODES)
        for (int k = 0; k < r.count[2]; k++)
            for (int j = 0; j < r.count[1]; j++) {
                const yee_real *row = h + off[0] + hx * ((j + off[1]) + hy * (k + off[2]));
                for (int i = 0; i < r.count[0]; i++)
                    v[i + nx * (j + ny * k)] =
                        yee_dft_value(r.avg_axis, r.avg_hi, row[i], row[i - below]);
            }
    } else {
#pragma omp parallel for collapse(2) schedule(static) if (q->nodes > CPU_DFT_PARALLEL_NODES)
        for (int k = 0; k < r.count[2]; k++)
            for (int j = 0; j < r.count[1]; j++)
                for (int i = 0; i < r.count[0]; i++)
                    v[i + nx * (j + ny * k)] =
                        yee_dft_sample(c->f, c->d, r.comp, r.avg_axis, r.avg_hi, r.lo[0] + i,
                                       r.lo[1] + j, r.lo[2] + k);
    }
    memcpy(q->ph + (size_t)q->pending * 2 * (size_t)r.nfreq, ph,
           2 * (size_t)r.nfreq * sizeof(double));
    if (++q->pending == q->batch)
        dft_flush(q);
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
    cpu_dft *q = &c->dft[id];
    dft_flush(q); /* (set: the held samples were taken before the sums it replaces) */
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
    layer_axes(axis, &fa, &sa);
    const int nf = c->d.n[fa], ns = c->d.n[sa];
    yee_real *const *arr = kind == YEE_FIELD_E ? c->f.e : c->f.h;
    /* only the two components tangential to the face are read across it (yee_cell.h) */
    for (int q = 0; q < 2; q++) {
        yee_real *a = arr[(axis + 1 + q) % 3];
        yee_real *b = buf + (int64_t)q * nf * ns;
        if (!a) { /* not in this 2-D run: zeros out, nothing in */
            if (pack)
                memset(b, 0, (size_t)nf * (size_t)ns * sizeof(yee_real));
            continue;
        }
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

/* A face message is the two components of each part (a twin's after the real part's), as the
 * complex backend's pack_halo lays them out. */
int cpu_link_send(const cpu_ctx *c, yee_field_kind kind, yee_err *err)
{
    const int h = kind == YEE_FIELD_H;
    if (!c->link || !(h ? c->link->high : c->link->low))
        return YEE_OK;
    const int a = yee_link_axis(c->d);
    const int layer = h ? c->d.n[a] - 1 : 0;
    cpu_halo((cpu_ctx *)c, kind, a, layer, c->link_buf, 1);
    if (c->twin)
        cpu_halo(c->twin, kind, a, layer, c->link_buf + link_face_values(c), 1);
    return c->link->send(c->link->user, kind, c->link_buf, err);
}

/* With a twin, the pair takes the Bloch factor of this face (1 but at the domain's faces), with
 * the arithmetic of the complex backend's unpack_halo. */
int cpu_link_recv(const cpu_ctx *c, yee_field_kind kind, yee_err *err)
{
    const int h = kind == YEE_FIELD_H;
    if (!c->link || !(h ? c->link->low : c->link->high))
        return YEE_OK;
    YEE_TRY(c->link->recv(c->link->user, kind, c->link_buf, err));
    const int a = yee_link_axis(c->d);
    const int ghost = h ? -1 : c->d.n[a];
    if (c->twin) {
        const size_t half = link_face_values(c);
        const double cs = c->wrap_phase[kind][a][0], sn = c->wrap_phase[kind][a][1];
        yee_real *re = c->link_buf, *im = c->link_buf + half;
        if (cs != 1.0 || sn != 0.0)
            for (size_t q = 0; q < half; q++)
                yee_bloch_rotate(cs, sn, re[q], im[q], &re[q], &im[q]);
        cpu_halo(c->twin, kind, a, ghost, im, 0);
    }
    cpu_halo((cpu_ctx *)c, kind, a, ghost, c->link_buf, 0);
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

int cpu_gather(void *vctx, int n, const yee_sample *pts, yee_real *out, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    for (int s = 0; s < n; s++) {
        const yee_real *a = yee_component_array(c->f, pts[s].comp);
        out[s] = a ? a[yee_idx(c->d, pts[s].i, pts[s].j, pts[s].k)] : YEE_R(0.0);
    }
    return YEE_OK;
}

static int cpu_download(void *vctx, int comp, const int lo[3], const int count[3],
                        yee_real *out, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)vctx;
    const yee_real *a = yee_component_array(c->f, comp);
    if (!a) { /* not in this 2-D run: a zero field */
        memset(out, 0, (size_t)count[0] * count[1] * count[2] * sizeof(yee_real));
        return YEE_OK;
    }
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
    const yee_dims d = c->d;
    double e2 = 0.0, h2 = 0.0;
#pragma omp parallel for collapse(2) reduction(+ : e2, h2) schedule(static)
    for (int k = 0; k < d.n[2]; k++)
        for (int j = 0; j < d.n[1]; j++) {
            const int64_t row = yee_idx(d, 0, j, k);
            for (int comp = 0; comp < 3; comp++) {
                const yee_real *ea = c->f.e[comp], *ha = c->f.h[comp]; /* NULL: not in 2-D */
                for (int i = 0; ea && i < d.n[0]; i++) {
                    const double ev = ea[row + i];
                    e2 += ev * ev;
                }
                for (int i = 0; ha && i < d.n[0]; i++) {
                    const double hv = ha[row + i];
                    h2 += hv * hv;
                }
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
                        if (yee_component_array(c->f, comp) &&
                            !isfinite(yee_component_array(c->f, comp)[yee_idx(d, i, j, k)])) {
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

/* Checkpoint parts (backend.h): the layout every backend shares (yee_state_layout). */
static int cpu_state_parts(void *vctx)
{
    return ((const cpu_ctx *)vctx)->state.nparts;
}

static size_t cpu_state_part_bytes(void *vctx, int p)
{
    const yee_state_layout *L = &((const cpu_ctx *)vctx)->state;
    return p >= 0 && p < L->nparts ? (size_t)L->len[p] * sizeof(yee_real) : 0;
}

static int cpu_state_transfer(void *vctx, int p, void *buf, int set, yee_err *err)
{
    const yee_state_layout *L = &((const cpu_ctx *)vctx)->state;
    if (p < 0 || p >= L->nparts)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "no checkpoint part %d (backend has %d)", p,
                        L->nparts);
    const size_t bytes = (size_t)L->len[p] * sizeof(yee_real);
    if (bytes == 0) /* a part a 2-D run of one polarization does not have */
        return YEE_OK;
    if (set)
        memcpy(L->part[p], buf, bytes);
    else
        memcpy(buf, L->part[p], bytes);
    return YEE_OK;
}

/* One table for both CPU backends: the reference has no advance, so the solver runs each step
 * through the ops above; the tuned one advances whole steps by the schedules (tuned.c), keeping
 * wrapped and linked faces itself and holding the DFT samples of its steps (wraps: advance_wraps,
 * advance_links and advance_dft). */
#define CPU_OPS(name, advance, wraps, advance_complex)                                          \
    {                                                                                            \
        name, cpu_create, cpu_step_h, cpu_step_e, advance, cpu_apply_sources, cpu_dft_create,   \
            cpu_dft_accumulate, cpu_dft_transfer, cpu_copy_start, cpu_copy_finish,              \
            cpu_pack_halo, cpu_unpack_halo, cpu_halo_alloc, cpu_halo_free, cpu_gather,          \
            cpu_download, cpu_norms, cpu_bytes, cpu_destroy, cpu_copy_bandwidth,                \
            yee_backend_bytes_needed, cpu_state_parts, cpu_state_part_bytes, cpu_state_transfer, \
            wraps, wraps, advance_complex, wraps                                                 \
    }

const yee_backend_ops yee_backend_cpu_reference = CPU_OPS("cpu-reference", NULL, 0, NULL);
const yee_backend_ops yee_backend_cpu = CPU_OPS("cpu", cpu_advance, 1, cpu_advance_complex);
