/* kernels/backend_complex.c -- complex fields as two instances of a real backend (backend.h
 * "Complex fields").
 *
 * Maxwell's equations with real coefficients never mix the real and imaginary parts of a field:
 * every update, CPML recursion, ADE pole and PEC/PMC wall acts on each part alone, so the two
 * parts are two ordinary real runs of the same setup. They meet in two places only: a current
 * with a complex amplitude (its real part drives one run, its imaginary part the other), and a
 * ghost layer across a Bloch-periodic face, where the neighbour's field arrives multiplied by
 * exp(i phi): (re, im) -> (c re - s im, s re + c im) with c = cos phi, s = sin phi. The solver
 * states phi per face (yee_backend_complex_set_phase); everything else forwards to both parts.
 *
 * What is read out: probes, snapshots and downloads give the real part (a physical field);
 * DFT sums give the transform of the complex field, F = F_re + i F_im; norms the sum of both.
 */
#include "kernels/backend.h"

#include <stdlib.h>
#include <string.h>

typedef struct complex_ctx {
    const yee_backend_ops *be;
    void *part[2];               /* real, imaginary */
    yee_dims dims;
    double phase[2][3][2];       /* [kind][axis] = {cos, sin} of the ghost layer's factor */
    yee_real *mixed;             /* one halo message, phase applied (4 n_u n_v values) */
    size_t mixed_len;
    yee_point_current *cur[2];   /* apply_sources: the list split into its two parts */
    int cur_cap;
    yee_step_plan *plans[2];     /* advance: each part's plans, their currents in steps[p] */
    int plans_cap;
    yee_point_current *steps[2];
    int steps_cap;
    size_t *region_len;          /* per DFT id: nfreq x nodes */
    int nregions;
} complex_ctx;

static int no_create(const yee_setup *s, void **ctx, yee_err *err)
{
    (void)s;
    *ctx = NULL;
    return YEE_FAIL(err, YEE_ERR_UNSUPPORTED,
                    "complex fields are created by yee_backend_complex_create");
}

static void complex_destroy(void *vctx)
{
    complex_ctx *c = (complex_ctx *)vctx;
    if (!c)
        return;
    for (int p = 0; p < 2; p++) {
        if (c->part[p])
            c->be->destroy(c->part[p]);
        free(c->cur[p]);
        free(c->plans[p]);
        free(c->steps[p]);
    }
    free(c->mixed);
    free(c->region_len);
    free(c);
}

static size_t face_len(yee_dims d, int axis)
{
    return 2 * (size_t)d.n[(axis + 1) % 3] * (size_t)d.n[(axis + 2) % 3];
}

int yee_backend_complex_create(const yee_backend_ops *inner, const yee_setup *s, void **out,
                               yee_err *err)
{
    *out = NULL;
    complex_ctx *c = (complex_ctx *)calloc(1, sizeof *c);
    if (!c)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "complex fields");
    c->be = inner;
    c->dims = s->dims;
    for (int k = 0; k < 2; k++)
        for (int a = 0; a < 3; a++)
            c->phase[k][a][0] = 1.0;
    for (int a = 0; a < 3; a++)
        if (2 * face_len(s->dims, a) > c->mixed_len)
            c->mixed_len = 2 * face_len(s->dims, a);
    c->mixed = (yee_real *)malloc(c->mixed_len * sizeof(yee_real));
    int rc = c->mixed ? YEE_OK : YEE_FAIL(err, YEE_ERR_NOMEM, "complex fields: halo buffer");
    for (int p = 0; p < 2 && rc == YEE_OK; p++)
        rc = inner->create(s, &c->part[p], err);
    if (rc != YEE_OK) {
        complex_destroy(c);
        return rc;
    }
    *out = c;
    return YEE_OK;
}

void yee_backend_complex_set_phase(void *vctx, yee_field_kind kind, int axis, double cos_phi,
                                   double sin_phi)
{
    complex_ctx *c = (complex_ctx *)vctx;
    c->phase[kind][axis][0] = cos_phi;
    c->phase[kind][axis][1] = sin_phi;
}

static int complex_step_h(void *vctx, const yee_box *cells, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    for (int p = 0; p < 2; p++)
        YEE_TRY(c->be->step_h(c->part[p], cells, err));
    return YEE_OK;
}

static int complex_step_e(void *vctx, const yee_box *cells, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    for (int p = 0; p < 2; p++)
        YEE_TRY(c->be->step_e(c->part[p], cells, err));
    return YEE_OK;
}

/* Splits the list src into the two parts' lists out[0], out[1] (room for n each), counting
 * them in count: each part gets the currents whose amplitude has a nonzero share in it, in list
 * order. */
static void split_currents(int n, const yee_point_current *src, yee_point_current *const out[2],
                           int count[2])
{
    count[0] = count[1] = 0;
    for (int q = 0; q < n; q++) {
        const yee_real v[2] = {src[q].j_value, src[q].j_imag};
        for (int p = 0; p < 2; p++)
            if (v[p] != 0) {
                yee_point_current *d = &out[p][count[p]++];
                *d = src[q];
                d->j_value = v[p];
                d->j_imag = 0;
            }
    }
}

/* Room for n currents in each of the two parts' lists (cap: what they hold now). */
static int grow_currents(yee_point_current *list[2], int *cap, int n, yee_err *err)
{
    if (n <= *cap)
        return YEE_OK;
    for (int p = 0; p < 2; p++) {
        yee_point_current *g = (yee_point_current *)realloc(list[p], (size_t)n * sizeof *g);
        if (!g)
            return YEE_FAIL(err, YEE_ERR_NOMEM, "complex currents");
        list[p] = g;
    }
    *cap = n;
    return YEE_OK;
}

static int complex_apply_sources(void *vctx, int n, const yee_point_current *src, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    YEE_TRY(grow_currents(c->cur, &c->cur_cap, n, err));
    int count[2];
    split_currents(n, src, c->cur, count);
    for (int p = 0; p < 2; p++)
        if (count[p])
            YEE_TRY(c->be->apply_sources(c->part[p], count[p], c->cur[p], err));
    return YEE_OK;
}

/* Whole steps: each plan split into the two parts' plans (currents as apply_sources splits
 * them; the samples, which read the real part, in the real part's plan), then the inner
 * backend's advance_complex; without one, the ops above step by step (the solver asks for
 * several steps only where no halo is exchanged, and wraps only with advance_complex). */
static int complex_advance(void *vctx, int nsteps, const yee_step_plan *plan, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    if (!c->be->advance_complex) {
        for (int s = 0; s < nsteps; s++) {
            const yee_step_plan *p = &plan[s];
            YEE_TRY(complex_step_h(c, NULL, err));
            YEE_TRY(complex_apply_sources(c, p->nm, p->m, err));
            YEE_TRY(complex_step_e(c, NULL, err));
            YEE_TRY(complex_apply_sources(c, p->nj, p->j, err));
            YEE_TRY(c->be->gather(c->part[0], p->nsamp, p->samp, p->samp_out, err));
        }
        return YEE_OK;
    }
    int total = 0;
    for (int s = 0; s < nsteps; s++)
        total += plan[s].nm + plan[s].nj;
    YEE_TRY(grow_currents(c->steps, &c->steps_cap, total, err));
    if (nsteps > c->plans_cap) {
        for (int p = 0; p < 2; p++) {
            yee_step_plan *g = (yee_step_plan *)realloc(c->plans[p], (size_t)nsteps * sizeof *g);
            if (!g)
                return YEE_FAIL(err, YEE_ERR_NOMEM, "complex fields: step plans");
            c->plans[p] = g;
        }
        c->plans_cap = nsteps;
    }
    int used[2] = {0, 0};
    for (int s = 0; s < nsteps; s++) {
        yee_step_plan *pp[2] = {&c->plans[0][s], &c->plans[1][s]};
        yee_point_current *at[2] = {c->steps[0] + used[0], c->steps[1] + used[1]};
        int count[2];
        split_currents(plan[s].nm, plan[s].m, at, count);
        for (int p = 0; p < 2; p++) {
            *pp[p] = plan[s];
            pp[p]->m = at[p];
            pp[p]->nm = count[p];
            used[p] += count[p];
            at[p] += count[p];
        }
        split_currents(plan[s].nj, plan[s].j, at, count);
        for (int p = 0; p < 2; p++) {
            pp[p]->j = at[p];
            pp[p]->nj = count[p];
            used[p] += count[p];
        }
        pp[1]->nsamp = 0;
    }
    return c->be->advance_complex(c->part[0], c->part[1], (const double(*)[3][2])c->phase,
                                  nsteps, c->plans[0], c->plans[1], err);
}

/* A DFT region is one region in each part with the same id (both create in the same order). */
static int complex_dft_create(void *vctx, const yee_dft_region *r, int *id, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    int id_im;
    YEE_TRY(c->be->dft_create(c->part[0], r, id, err));
    YEE_TRY(c->be->dft_create(c->part[1], r, &id_im, err));
    if (id_im != *id || *id < 0)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "complex fields: DFT ids differ");
    if (*id >= c->nregions) {
        size_t *g = (size_t *)realloc(c->region_len, (size_t)(*id + 1) * sizeof *g);
        if (!g)
            return YEE_FAIL(err, YEE_ERR_NOMEM, "complex fields: DFT regions");
        c->region_len = g;
        c->nregions = *id + 1;
    }
    c->region_len[*id] = (size_t)r->nfreq * (size_t)r->count[0] * (size_t)r->count[1] *
                         (size_t)r->count[2];
    return YEE_OK;
}

static int complex_dft_accumulate(void *vctx, int id, const double *ph, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    for (int p = 0; p < 2; p++)
        YEE_TRY(c->be->dft_accumulate(c->part[p], id, ph, err));
    return YEE_OK;
}

/* The transform is linear: sum(f_re + i f_im) = S_re + i S_im, with S_re = a + ib and S_im =
 * c + id giving (a - d) + i (b + c). That combination cannot be split again, so a checkpoint
 * keeps both parts' own sums as state parts (complex_state_transfer) and set is a no-op here:
 * a restart then continues every sum from its own bits, as an uninterrupted run would. */
static int complex_dft_transfer(void *vctx, int id, double *re, double *im, int set, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    if (id < 0 || id >= c->nregions)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "complex fields: no DFT region %d", id);
    const size_t n = c->region_len[id];
    double *zre = (double *)calloc(n ? 2 * n : 2, sizeof(double));
    if (!zre)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "complex fields: DFT transfer");
    double *zim = zre + n;
    if (set) {
        free(zre);
        return YEE_OK;
    }
    int rc = c->be->dft_transfer(c->part[0], id, re, im, 0, err);
    if (rc == YEE_OK)
        rc = c->be->dft_transfer(c->part[1], id, zre, zim, 0, err);
    if (rc == YEE_OK)
        for (size_t q = 0; q < n; q++) {
            const double a = re[q], b = im[q];
            re[q] = a - zim[q];
            im[q] = b + zre[q];
        }
    free(zre);
    return rc;
}

static int complex_copy_start(void *vctx, int comp, const int lo[3], const int count[3],
                              int slot, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    return c->be->copy_start(c->part[0], comp, lo, count, slot, err);
}

static int complex_copy_finish(void *vctx, int slot, yee_real *out, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    return c->be->copy_finish(c->part[0], slot, out, err);
}

/* A message carries the real part's two components, then the imaginary part's. */
static int complex_pack_halo(void *vctx, yee_field_kind kind, int axis, int layer, yee_real *buf,
                             yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    const size_t half = face_len(c->dims, axis);
    YEE_TRY(c->be->pack_halo(c->part[0], kind, axis, layer, buf, err));
    return c->be->pack_halo(c->part[1], kind, axis, layer, buf + half, err);
}

static int complex_unpack_halo(void *vctx, yee_field_kind kind, int axis, int layer,
                               const yee_real *buf, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    const size_t half = face_len(c->dims, axis);
    const double cs = c->phase[kind][axis][0], sn = c->phase[kind][axis][1];
    const yee_real *src = buf;
    if (cs != 1.0 || sn != 0.0) {
        for (size_t q = 0; q < half; q++)
            yee_bloch_rotate(cs, sn, buf[q], buf[half + q], &c->mixed[q], &c->mixed[half + q]);
        src = c->mixed;
    }
    YEE_TRY(c->be->unpack_halo(c->part[0], kind, axis, layer, src, err));
    return c->be->unpack_halo(c->part[1], kind, axis, layer, src + half, err);
}

/* Host buffers only: the phase is applied on the host between the message and the unpack. */
static void *complex_halo_alloc(void *vctx, size_t bytes, int device)
{
    complex_ctx *c = (complex_ctx *)vctx;
    return device ? NULL : c->be->halo_alloc(c->part[0], bytes, 0);
}

static void complex_halo_free(void *vctx, void *buf)
{
    complex_ctx *c = (complex_ctx *)vctx;
    c->be->halo_free(c->part[0], buf);
}

static int complex_gather(void *vctx, int n, const yee_sample *pts, yee_real *out, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    return c->be->gather(c->part[0], n, pts, out, err);
}

static int complex_download(void *vctx, int comp, const int lo[3], const int count[3],
                            yee_real *out, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    return c->be->download(c->part[0], comp, lo, count, out, err);
}

static int complex_norms(void *vctx, yee_norms *out, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    yee_norms im;
    YEE_TRY(c->be->norms(c->part[0], out, err));
    YEE_TRY(c->be->norms(c->part[1], &im, err));
    out->e2 += im.e2;
    out->h2 += im.h2;
    if (!out->nonfinite && im.nonfinite) {
        out->nonfinite = 1;
        out->bad_comp = im.bad_comp;
        out->bad_i = im.bad_i;
        out->bad_j = im.bad_j;
        out->bad_k = im.bad_k;
    }
    return YEE_OK;
}

static size_t complex_bytes(void *vctx)
{
    complex_ctx *c = (complex_ctx *)vctx;
    return c->be->bytes(c->part[0]) + c->be->bytes(c->part[1]) + c->mixed_len * sizeof(yee_real);
}

/* The real part's parts, then the imaginary part's, in the inner backend's order; then per DFT
 * region the real part's sums and the imaginary part's (re then im, doubles), which a restart
 * needs to continue each sum bit for bit (complex_dft_transfer). */
static int complex_state_parts(void *vctx)
{
    complex_ctx *c = (complex_ctx *)vctx;
    return 2 * c->be->state_parts(c->part[0]) + 2 * c->nregions;
}

static size_t complex_state_part_bytes(void *vctx, int p)
{
    complex_ctx *c = (complex_ctx *)vctx;
    const int n = c->be->state_parts(c->part[0]);
    if (p < 2 * n)
        return c->be->state_part_bytes(c->part[p / n], p % n);
    return 2 * c->region_len[(p - 2 * n) / 2] * sizeof(double);
}

static int complex_state_transfer(void *vctx, int p, void *buf, int set, yee_err *err)
{
    complex_ctx *c = (complex_ctx *)vctx;
    const int n = c->be->state_parts(c->part[0]);
    if (p < 2 * n)
        return c->be->state_transfer(c->part[p / n], p % n, buf, set, err);
    const int id = (p - 2 * n) / 2;
    double *re = (double *)buf;
    return c->be->dft_transfer(c->part[(p - 2 * n) % 2], id, re, re + c->region_len[id], set,
                               err);
}

static int no_bandwidth(double *bytes_per_s, yee_err *err)
{
    *bytes_per_s = 0;
    return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "complex fields: ask the inner backend");
}

static size_t no_host_bytes(yee_dims d, int pol2d, int nslabs, const yee_slab *slabs)
{
    (void)d, (void)pol2d, (void)nslabs, (void)slabs;
    return 0;
}

const yee_backend_ops yee_backend_complex = {
    .name = "complex",
    .create = no_create,
    .step_h = complex_step_h,
    .step_e = complex_step_e,
    .advance = complex_advance,
    .apply_sources = complex_apply_sources,
    .dft_create = complex_dft_create,
    .dft_accumulate = complex_dft_accumulate,
    .dft_transfer = complex_dft_transfer,
    .copy_start = complex_copy_start,
    .copy_finish = complex_copy_finish,
    .pack_halo = complex_pack_halo,
    .unpack_halo = complex_unpack_halo,
    .halo_alloc = complex_halo_alloc,
    .halo_free = complex_halo_free,
    .gather = complex_gather,
    .download = complex_download,
    .norms = complex_norms,
    .bytes = complex_bytes,
    .destroy = complex_destroy,
    .copy_bandwidth = no_bandwidth,
    .host_bytes = no_host_bytes,
    .state_parts = complex_state_parts,
    .state_part_bytes = complex_state_part_bytes,
    .state_transfer = complex_state_transfer,
};
