/* kernels/cuda/backend_cuda.cu -- the CUDA backend: one thread per cell (x fastest, so a warp
 * reads contiguous memory) calling the same per-cell functions as the CPU backend
 * (kernels/yee_cell.h). Kernels only map thread indices to cells; no physics lives here.
 * Fields stay on the device for the whole run; only probe samples, snapshot boxes, halo faces
 * and norms come back. Every launch is followed by cudaGetLastError(); YEE_DEBUG_SYNC=1 in the
 * environment synchronizes after each one so a fault is reported at the kernel that caused it.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/yee_fp.h"
#include "kernels/backend.h"
#include "kernels/cuda/launch_shape.h"
#include "kernels/stages.h"

#define CUDA_TRY(err, call)                                                                    \
    do {                                                                                       \
        cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess)                                                                 \
            return yee_fail_at((err), YEE_ERR_CUDA, __FILE__, __LINE__, "%s: %s", #call,       \
                               cudaGetErrorString(e_));                                        \
    } while (0)

enum { HALO_BUFS = 16 }; /* send + receive buffer per axis and field, with room to spare */

struct cuda_slab {
    yee_slab box;
    int64_t w[3];
    yee_real *d_psi_e[2];
    yee_real *d_psi_h[2];
};

/* A CPML slab as the update kernels read it, from device memory (cuda_ctx.d_slabs): its cells,
 * its axis's profiles and its psi arrays (NULL: a half a 2-D run of one polarization does not
 * keep). */
struct cuda_slab_dev {
    yee_slab box;
    yee_cpml_axis pa;
    yee_real *psi_e[2];
    yee_real *psi_h[2];
};

struct cuda_dft {
    yee_dft_region r;
    int64_t nodes;
    double *d_re, *d_im; /* nfreq x nodes */
};

/* A slot of the upload ring: per-step host data (source currents, DFT phasors) goes through
 * pinned memory and an asynchronous copy on the default stream, so the host does not wait for
 * the GPU each step; the slot's event says when its previous copy has been consumed. */
#define UPLOAD_SLOTS 4
struct upload_slot {
    void *host;           /* pinned */
    void *dev;
    size_t cap;
    cudaEvent_t done;
    int has_event;
};

/* A snapshot slot: the box is gathered into dev on the default stream (ordered with the field
 * kernels), then copied to pinned host memory on copy_stream, which overlaps the next step. */
#define COPY_SLOTS 64
struct copy_slot {
    yee_real *dev;
    yee_real *host;       /* pinned */
    size_t cap, len;
    cudaEvent_t gathered, copied;
    int has_events;
};

struct cuda_ctx {
    yee_dims d;
    int64_t total;
    yee_fields f;          /* device pointers */
    uint8_t *d_mat[3];
    yee_real *d_coef;      /* ca[nmat] then cb[nmat] */
    int *d_row_span;       /* per row its span of other materials than 0 (yee_row_spans) */
    yee_ecoef coef0;       /* material 0's (ca, cb), the constants outside the spans */
    yee_media media;       /* device pointers */
    yee_real *d_lines;
    yee_lines lines;
    yee_cpml_axis pml[3];
    int nslabs;
    cuda_slab slabs[6];
    cuda_slab_dev *d_slabs; /* the nslabs slabs for the kernels (NULL: none) */
    int pec_low[3];
    int pmc_low[3];
    yee_sample *d_samples;
    yee_real *d_values;
    int sample_cap;
    yee_real *d_stage;     /* download / halo staging */
    size_t stage_cap;
    double *d_norm;        /* e2, h2 */
    unsigned long long *d_bad; /* first non-finite: linear index * 8 + component, or ~0 */
    size_t bytes;
    int debug_sync;
    int64_t ndisp;           /* dispersive E nodes (kernels/yee_ade.h) */
    yee_disp_node *d_disp;
    yee_real *d_pol;
    int64_t npol;            /* values in d_pol */
    yee_pole_coef *d_pcoef;
    yee_real inv_dt;
    int64_t ntensor;         /* off-diagonal permittivity nodes (kernels/yee_tensor.h) */
    yee_tensor_node *d_tensor;
    int64_t ncurl;           /* their neighbours, and this step's curl H there */
    yee_curl_node *d_curl;
    yee_real *d_curl_h;
    int ndft;
    cuda_dft *dft;
    upload_slot upload[UPLOAD_SLOTS];
    int upload_next;
    cudaStream_t copy_stream; /* snapshot copies (0 until the first one) */
    void *halo_dev[HALO_BUFS];   /* halo_alloc'd device buffers (CUDA-aware MPI), NULL: free */
    copy_slot copies[COPY_SLOTS];
    yee_state_layout state;   /* the checkpoint parts (device pointers) */
    int pol2d;                /* setup.pol2d in a 2-D run, else YEE_POL_BOTH: the components
                               * kept (the others are NULL in f, read as zero, never written) */
};

/* ---- kernels: index maps only ---- */

/* Cell kernels cover a box b of cells, one thread per cell (blocks from box_shape). The cell of
 * this thread; false for a thread past the box's end (the last blocks of each axis). */
__device__ bool box_cell(const yee_box &b, int &i, int &j, int &k)
{
    i = b.lo[0] + (int)(blockIdx.x * blockDim.x + threadIdx.x);
    j = b.lo[1] + (int)(blockIdx.y * blockDim.y + threadIdx.y);
    k = b.lo[2] + (int)(blockIdx.z * blockDim.z + threadIdx.z);
    return i < b.hi[0] && j < b.hi[1] && k < b.hi[2];
}

/* The cells of slab s; psi is indexed over the whole slab. */
__device__ bool in_slab(const yee_slab &s, int i, int j, int k)
{
    return i >= s.lo[0] && i < s.hi[0] && j >= s.lo[1] && j < s.hi[1] && k >= s.lo[2] &&
           k < s.hi[2];
}

__device__ int64_t slab_index(const yee_slab &s, int i, int j, int k)
{
    return ((int64_t)(k - s.lo[2]) * (s.hi[1] - s.lo[1]) + (j - s.lo[1])) * (s.hi[0] - s.lo[0]) +
           (i - s.lo[0]);
}

/* The update kernels do a cell's bulk update and then the CPML corrections of every slab that
 * holds it, in slab order: per cell the order of the reference, which runs the bulk over the box
 * and then each slab over its part (a correction reads the other field and its own psi only, so
 * cells do not depend on each other within a stage). One launch per stage instead of one per
 * slab more, and a slab cell's field read and written once: the CPML is where small 2-D runs
 * spend their launches. */

/* pol: YEE_POL_BOTH the 3-D update; a 2-D run of one polarization its three components. */
__global__ void h_kernel(yee_fields f, yee_dims d, yee_lines L, yee_real ch, yee_box b, int pol,
                         const cuda_slab_dev *slabs, int nslabs)
{
    int i, j, k;
    if (!box_cell(b, i, j, k)) /* guard */
        return;
    if (pol == YEE_POL_TM)
        yee_update_h_tm2d(f, d, L, ch, i, j, k);
    else if (pol == YEE_POL_TE)
        yee_update_hz(f, d, L, ch, i, j, k);
    else
        yee_update_h(f, d, L, ch, i, j, k);
    for (int s = 0; s < nslabs; s++) {
        const cuda_slab_dev &sl = slabs[s];
        if (!in_slab(sl.box, i, j, k))
            continue;
        const int64_t l = slab_index(sl.box, i, j, k);
        /* a 2-D run of one polarization keeps one half of the slab (yee_cpml_h_half) */
        if (sl.psi_h[0] && sl.psi_h[1])
            yee_cpml_h(f, d, ch, sl.pa, sl.box.axis, sl.psi_h[0], sl.psi_h[1], l, i, j, k);
        else if (sl.psi_h[0])
            yee_cpml_h_half(f, d, ch, sl.pa, sl.box.axis, 0, sl.psi_h[0], l, i, j, k);
        else if (sl.psi_h[1])
            yee_cpml_h_half(f, d, ch, sl.pa, sl.box.axis, 1, sl.psi_h[1], l, i, j, k);
    }
}

/* The E coefficients of cell (i, j, k): material 0's, q0, outside its row's span of other
 * materials (yee_row_spans), else its own. The same values as the lookup everywhere, but a row
 * of material 0, or its ends, reads one span (the same two ints for a whole warp) instead of
 * three index bytes per cell and a gather of the coefficients. */
__device__ yee_ecoef cell_ecoef(const yee_media &m, const int *span, const yee_ecoef &q0,
                                const yee_dims &d, int i, int j, int k)
{
    const int64_t r = j + (int64_t)k * d.n[1];
    if (i < span[2 * r] || i >= span[2 * r + 1])
        return q0;
    return yee_media_ecoef(m, yee_idx(d, i, j, k));
}

__global__ void e_kernel(yee_fields f, yee_dims d, yee_lines L, yee_media m, const int *span,
                         yee_ecoef q0, yee_box b, int pol, const cuda_slab_dev *slabs, int nslabs)
{
    int i, j, k;
    if (!box_cell(b, i, j, k))
        return;
    const yee_ecoef q = cell_ecoef(m, span, q0, d, i, j, k);
    if (pol == YEE_POL_TM)
        yee_update_ez_coef(f, d, L, q, i, j, k);
    else if (pol == YEE_POL_TE)
        yee_update_e_te2d_coef(f, d, L, q, i, j, k);
    else
        yee_update_e_coef(f, d, L, q, i, j, k);
    for (int s = 0; s < nslabs; s++) {
        const cuda_slab_dev &sl = slabs[s];
        if (!in_slab(sl.box, i, j, k))
            continue;
        const int64_t l = slab_index(sl.box, i, j, k);
        const int axis = sl.box.axis;
        const yee_real cb_q = q.cb[(axis + 1) % 3], cb_r = q.cb[(axis + 2) % 3];
        if (sl.psi_e[0] && sl.psi_e[1])
            yee_cpml_e_coef(f, d, cb_q, cb_r, sl.pa, axis, sl.psi_e[0], sl.psi_e[1], l, i, j, k);
        else if (sl.psi_e[0])
            yee_cpml_e_half(f, d, cb_q, sl.pa, axis, 0, sl.psi_e[0], l, i, j, k);
        else if (sl.psi_e[1])
            yee_cpml_e_half(f, d, cb_r, sl.pa, axis, 1, sl.psi_e[1], l, i, j, k);
    }
}

/* One thread per dispersive node (those in box b): P^{n+1} from E^n (before e_kernel). */
__global__ void ade_polarize_kernel(yee_fields f, yee_dims d, yee_box b, int64_t n,
                                    const yee_disp_node *nodes, const yee_pole_coef *coef,
                                    yee_real *pol)
{
    const int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= n || !yee_box_has_index(d, b, nodes[q].c)) /* guard */
        return;
    yee_ade_polarize(f, nodes[q], coef, pol);
}

/* One thread per node of the tensor nodes' curl list: this step's curl H there. */
__global__ void curl_kernel(yee_fields f, yee_dims d, yee_lines L, int64_t n,
                            const yee_curl_node *nodes, yee_real *curl_h)
{
    const int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= n)
        return;
    curl_h[q] = yee_curl_h_of(f, d, L, nodes[q]);
}

/* One thread per tensor node in b: its off-diagonal terms from curl_kernel's list (after
 * e_kernel; each node writes only its own E). */
__global__ void tensor_kernel(yee_fields f, yee_box b, int64_t n, const yee_tensor_node *nodes,
                              const yee_real *curl_h)
{
    const int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= n || !yee_tensor_in_box(nodes[q], b))
        return;
    yee_tensor_e(f, nodes[q], curl_h);
}

/* One thread per dispersive node in b: the polarization current (after e_kernel and the CPML). */
__global__ void ade_current_kernel(yee_fields f, yee_dims d, yee_box b, yee_media m, int64_t n,
                                   const yee_disp_node *nodes, const yee_pole_coef *coef,
                                   yee_real inv_dt, yee_real *pol)
{
    const int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= n || !yee_box_has_index(d, b, nodes[q].c))
        return;
    yee_ade_current(f, m, nodes[q], coef, inv_dt, pol);
}

/* The node plane 0 of `axis`: face is the box's cells on it (face.lo[axis] = 0, hi = 1); a PEC
 * wall's zeros, or (magnetic) a PMC wall's mirror images. */
__global__ void wall_low_kernel(yee_fields f, yee_dims d, int axis, yee_box face, int magnetic)
{
    int i, j, k;
    if (!box_cell(face, i, j, k))
        return;
    if (magnetic)
        yee_pmc_low(f, d, axis, i, j, k);
    else
        yee_pec_low(f, d, axis, i, j, k);
}

__global__ void sources_kernel(yee_fields f, yee_dims d, yee_media m, int n,
                               const yee_point_current *src)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= n)
        return;
    const int64_t c = yee_idx(d, src[s].i, src[s].j, src[s].k);
    const int comp = src[s].comp;
    if (!yee_component_array(f, comp))
        return; /* not in this 2-D run (io/deck.c refuses such sources; TFSF leaves them out) */
    /* atomic: two entries may hit one cell (overlapping sources); the arithmetic is yee_cell.h's */
    if (comp < 3)
        atomicAdd(&f.e[comp][c], yee_current_delta(m, comp, c, src[s].j_value));
    else
        atomicAdd(&f.h[comp - 3][c], -m.ch * src[s].j_value);
}

/* One thread per node of a DFT region (the box of its nodes): x fastest, as the field arrays. */
__global__ void dft_kernel(yee_fields f, yee_dims d, yee_dft_region r, yee_box nodes_box,
                           int64_t nodes, double *re, double *im, const double *ph)
{
    int i, j, k;
    if (!box_cell(nodes_box, i, j, k))
        return;
    const double v = yee_dft_sample(f, d, r.comp, r.avg_axis, r.avg_hi, i, j, k);
    const int64_t node =
        (i - r.lo[0]) + (int64_t)r.count[0] * ((j - r.lo[1]) + (int64_t)r.count[1] * (k - r.lo[2]));
    yee_dft_add(re, im, node, nodes, r.nfreq, ph, v);
}

/* Face layer of `axis` at `layer`; fa < sa are the other axes, fa fastest (see cpu_halo). The
 * threads cover the box {n_fa, n_sa, 2}: position s along fa, t along sa, and which of the two
 * tangential components q. */
__global__ void halo_kernel(yee_fields f, yee_dims d, int kind, int axis, int layer, int fa,
                            int sa, yee_box face, yee_real *buf, int pack)
{
    int s, t, q;
    if (!box_cell(face, s, t, q))
        return;
    const int comp = (axis + 1 + q) % 3; /* tangential pair */
    const int nf = d.n[fa], ns = d.n[sa];
    int ijk[3];
    ijk[axis] = layer;
    ijk[fa] = s;
    ijk[sa] = t;
    yee_real *a = kind == YEE_FIELD_E ? f.e[comp] : f.h[comp];
    const int64_t idx = yee_idx(d, ijk[0], ijk[1], ijk[2]);
    const int64_t o = (int64_t)q * nf * ns + (int64_t)t * nf + s;
    if (pack)
        buf[o] = a ? a[idx] : YEE_R(0.0); /* NULL: not in this 2-D run, a zero field */
    else if (a)
        a[idx] = buf[o];
}

__global__ void gather_kernel(yee_fields f, yee_dims d, int n, const yee_sample *pts,
                              yee_real *out)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= n)
        return;
    const yee_real *a = yee_component_array(f, pts[s].comp);
    out[s] = a ? a[yee_idx(d, pts[s].i, pts[s].j, pts[s].k)] : YEE_R(0.0);
}

/* Component comp on box b into out (x fastest, relative to b.lo). */
__global__ void box_kernel(yee_fields f, yee_dims d, int comp, yee_box b, yee_real *out)
{
    int i, j, k;
    if (!box_cell(b, i, j, k))
        return;
    const int64_t c0 = b.hi[0] - b.lo[0], c1 = b.hi[1] - b.lo[1];
    const yee_real *a = yee_component_array(f, comp);
    out[((int64_t)(k - b.lo[2]) * c1 + (j - b.lo[1])) * c0 + (i - b.lo[0])] =
        a ? a[yee_idx(d, i, j, k)] : YEE_R(0.0);
}

/* Sums of squares over the interior, one thread per cell in linear order (blocks of whole warps:
 * every lane of a warp takes part in the shuffles, threads past the end add zero). */
enum { NORMS_BLOCK = 256 };
__global__ void norms_kernel(yee_fields f, yee_dims d, int64_t cells, double *sums,
                             unsigned long long *bad)
{
    const int64_t lin = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    double e2 = 0.0, h2 = 0.0;
    if (lin < cells) {
        const int i = (int)(lin % d.n[0]), j = (int)(lin / d.n[0] % d.n[1]);
        const int k = (int)(lin / ((int64_t)d.n[0] * d.n[1]));
        const int64_t c = yee_idx(d, i, j, k);
        for (int q = 0; q < 3; q++) {
            /* NULL: not in this 2-D run, a zero field */
            const double ev = f.e[q] ? f.e[q][c] : 0.0, hv = f.h[q] ? f.h[q][c] : 0.0;
            e2 += ev * ev;
            h2 += hv * hv;
            if (!isfinite(ev) || !isfinite(hv))
                atomicMin(bad, (unsigned long long)lin * 8ull +
                                   (unsigned long long)(isfinite(ev) ? q + 3 : q));
        }
    }
    /* warp reduction, then one atomic per warp */
    for (int off = 16; off > 0; off /= 2) {
        e2 += __shfl_down_sync(0xffffffffu, e2, off);
        h2 += __shfl_down_sync(0xffffffffu, h2, off);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&sums[0], e2);
        atomicAdd(&sums[1], h2);
    }
}

/* ---- host side ---- */

static int launched(cuda_ctx *c, yee_err *err, const char *what)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess && c->debug_sync)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        return yee_fail(err, YEE_ERR_CUDA, "CUDA kernel %s failed: %s", what,
                        cudaGetErrorString(e));
    return YEE_OK;
}

/* Grid and blocks of a launch. */
struct launch_dims {
    dim3 grid, block;
};

/* One thread per cell of box b (kernels/cuda/launch_shape.h; box_cell in the kernel). */
static launch_dims box_shape(yee_box b)
{
    const int count[3] = {b.hi[0] - b.lo[0], b.hi[1] - b.lo[1], b.hi[2] - b.lo[2]};
    const yee_launch_shape s = yee_launch_shape_for(count);
    launch_dims l;
    l.grid = dim3(s.grid[0], s.grid[1], s.grid[2]);
    l.block = dim3(s.block[0], s.block[1], s.block[2]);
    return l;
}

/* The box [lo, lo + count). */
static yee_box box_at(const int lo[3], const int count[3])
{
    yee_box b;
    for (int a = 0; a < 3; a++) {
        b.lo[a] = lo[a];
        b.hi[a] = lo[a] + count[a];
    }
    return b;
}

/* One thread per list entry (sources, samples, dispersive nodes), blocks of `block`. */
enum { LIST_BLOCK = 128 };
static unsigned list_blocks_of(int64_t n, int block)
{
    return (unsigned)((n + block - 1) / block);
}
static unsigned list_blocks(int64_t n)
{
    return list_blocks_of(n, LIST_BLOCK);
}

/* The cells of box `cells` (NULL: the whole subdomain) as a box. */
static yee_box cells_box(const cuda_ctx *c, const yee_box *cells)
{
    yee_box b = {{0, 0, 0}, {c->d.n[0], c->d.n[1], c->d.n[2]}};
    return cells ? *cells : b;
}

static int dev_alloc(cuda_ctx *c, void **p, size_t bytes, yee_err *err)
{
    cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        *p = NULL;
        return yee_fail(err, YEE_ERR_NOMEM, "cannot allocate %.1f MiB on the GPU: %s",
                        bytes / 1048576.0, cudaGetErrorString(e));
    }
    c->bytes += bytes;
    return cudaMemset(*p, 0, bytes) == cudaSuccess ? YEE_OK
                                                   : yee_fail(err, YEE_ERR_CUDA, "cudaMemset failed");
}

static void cuda_destroy(void *vctx)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    if (!c)
        return;
    for (int q = 0; q < HALO_BUFS; q++) /* any the solver did not free */
        cudaFree(c->halo_dev[q]);
    for (int a = 0; a < 3; a++) {
        cudaFree(c->f.e[a]);
        c->f.e[a] = NULL;
        cudaFree(c->f.h[a]);
        c->f.h[a] = NULL;
        cudaFree(c->d_mat[a]);
        c->d_mat[a] = NULL;
    }
    for (int s = 0; s < c->nslabs; s++)
        for (int q = 0; q < 2; q++) {
            cudaFree(c->slabs[s].d_psi_e[q]);
            cudaFree(c->slabs[s].d_psi_h[q]);
        }
    cudaFree(c->d_coef);
    cudaFree(c->d_row_span);
    cudaFree(c->d_slabs);
    cudaFree(c->d_lines);
    cudaFree(c->d_samples);
    cudaFree(c->d_values);
    cudaFree(c->d_stage);
    cudaFree(c->d_norm);
    cudaFree(c->d_bad);
    cudaFree(c->d_disp);
    cudaFree(c->d_tensor);
    cudaFree(c->d_curl);
    cudaFree(c->d_curl_h);
    cudaFree(c->d_pol);
    cudaFree(c->d_pcoef);
    for (int q = 0; q < c->ndft; q++) {
        cudaFree(c->dft[q].d_re);
        cudaFree(c->dft[q].d_im);
    }
    free(c->dft);
    for (int q = 0; q < COPY_SLOTS; q++) {
        copy_slot *k = &c->copies[q];
        cudaFree(k->dev);
        cudaFreeHost(k->host);
        if (k->has_events) {
            cudaEventDestroy(k->gathered);
            cudaEventDestroy(k->copied);
        }
    }
    if (c->copy_stream)
        cudaStreamDestroy(c->copy_stream);
    for (int q = 0; q < UPLOAD_SLOTS; q++) {
        cudaFreeHost(c->upload[q].host);
        cudaFree(c->upload[q].dev);
        if (c->upload[q].has_event)
            cudaEventDestroy(c->upload[q].done);
    }
    free(c);
}

/* One GPU per MPI rank on a node: the rank's place among the node's ranks picks the device. */
static int select_device(int node_rank, yee_err *err)
{
    int ndev = 0;
    CUDA_TRY(err, cudaGetDeviceCount(&ndev));
    if (ndev < 1)
        return yee_fail(err, YEE_ERR_UNSUPPORTED, "backend 'cuda': no CUDA device found");
    CUDA_TRY(err, cudaSetDevice(node_rank % ndev));
    return YEE_OK;
}

static int cuda_create_into(cuda_ctx *c, const yee_setup *s, yee_err *err)
{
    YEE_TRY(select_device(s->node_rank, err));
    const size_t need = yee_backend_bytes_needed(s->dims, s->pol2d, s->nslabs, s->slabs);
    size_t free_b = 0, total_b = 0;
    CUDA_TRY(err, cudaMemGetInfo(&free_b, &total_b));
    if (need > free_b)
        return yee_fail(err, YEE_ERR_NOMEM,
                        "the grid needs %.2f GiB of GPU memory but only %.2f GiB of %.2f GiB "
                        "are free",
                        need / 1073741824.0, free_b / 1073741824.0, total_b / 1073741824.0);
    c->d = s->dims;
    c->total = yee_dims_cells(s->dims);
    const size_t fbytes = (size_t)c->total * sizeof(yee_real);
    c->pol2d = s->dims.stride[2] == 0 ? s->pol2d : YEE_POL_BOTH;
    for (int a = 0; a < 3; a++) {
        /* a component not in this 2-D run's polarization stays NULL */
        if (yee_pol_has(c->pol2d, a))
            YEE_TRY(dev_alloc(c, (void **)&c->f.e[a], fbytes, err));
        if (yee_pol_has(c->pol2d, 3 + a))
            YEE_TRY(dev_alloc(c, (void **)&c->f.h[a], fbytes, err));
        YEE_TRY(dev_alloc(c, (void **)&c->d_mat[a], (size_t)c->total, err));
        if (s->mat[a])
            CUDA_TRY(err, cudaMemcpy(c->d_mat[a], s->mat[a], (size_t)c->total,
                                     cudaMemcpyHostToDevice));
        c->media.mat[a] = c->d_mat[a];
    }
    YEE_TRY(dev_alloc(c, (void **)&c->d_coef, 2 * (size_t)s->nmat * sizeof(yee_real), err));
    CUDA_TRY(err, cudaMemcpy(c->d_coef, s->ca, (size_t)s->nmat * sizeof(yee_real),
                             cudaMemcpyHostToDevice));
    CUDA_TRY(err, cudaMemcpy(c->d_coef + s->nmat, s->cb, (size_t)s->nmat * sizeof(yee_real),
                             cudaMemcpyHostToDevice));
    c->media.ca = c->d_coef;
    c->media.cb = c->d_coef + s->nmat;
    c->media.ch = s->ch;
    for (int a = 0; a < 3; a++) {
        c->coef0.ca[a] = s->ca[0];
        c->coef0.cb[a] = s->cb[0];
    }
    const size_t span_bytes = 2 * (size_t)s->dims.n[1] * (size_t)s->dims.n[2] * sizeof(int);
    YEE_TRY(dev_alloc(c, (void **)&c->d_row_span, span_bytes, err));
    int *host_span = (int *)malloc(span_bytes);
    if (!host_span)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "row spans");
    yee_row_spans(s, host_span);
    const cudaError_t spans_copied =
        cudaMemcpy(c->d_row_span, host_span, span_bytes, cudaMemcpyHostToDevice);
    free(host_span);
    if (spans_copied != cudaSuccess)
        return yee_fail(err, YEE_ERR_CUDA, "copying the row spans: %s",
                        cudaGetErrorString(spans_copied));

    /* the lines in the layout both backends share, staged through one host block */
    const size_t nline = yee_lines_length(s->dims);
    YEE_TRY(dev_alloc(c, (void **)&c->d_lines, nline * sizeof(yee_real), err));
    yee_real *host_lines = (yee_real *)malloc(nline * sizeof(yee_real));
    if (!host_lines)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "line staging");
    yee_lines_pack(s, host_lines);
    const cudaError_t copied =
        cudaMemcpy(c->d_lines, host_lines, nline * sizeof(yee_real), cudaMemcpyHostToDevice);
    free(host_lines);
    if (copied != cudaSuccess)
        return yee_fail(err, YEE_ERR_CUDA, "copying the lines: %s", cudaGetErrorString(copied));
    yee_lines_point(s->dims, c->d_lines, &c->lines, c->pml);
    c->nslabs = s->nslabs;
    yee_real *psi[6][4];
    int64_t slab_cells[6];
    for (int k = 0; k < s->nslabs; k++) {
        cuda_slab *sl = &c->slabs[k];
        sl->box = s->slabs[k];
        slab_cells[k] = yee_slab_cells(&sl->box, sl->w);
        const size_t bytes = (size_t)slab_cells[k] * sizeof(yee_real);
        for (int q = 0; q < 2; q++) {
            /* half q writes component axis + 1 + q: kept only with that component */
            const int comp = (sl->box.axis + 1 + q) % 3;
            if (c->f.e[comp])
                YEE_TRY(dev_alloc(c, (void **)&sl->d_psi_e[q], bytes, err));
            if (c->f.h[comp])
                YEE_TRY(dev_alloc(c, (void **)&sl->d_psi_h[q], bytes, err));
            psi[k][q] = sl->d_psi_e[q];
            psi[k][2 + q] = sl->d_psi_h[q];
        }
    }
    if (s->nslabs > 0) {
        cuda_slab_dev host_slabs[6];
        for (int k = 0; k < s->nslabs; k++) {
            const cuda_slab *sl = &c->slabs[k];
            host_slabs[k].box = sl->box;
            host_slabs[k].pa = c->pml[sl->box.axis];
            for (int q = 0; q < 2; q++) {
                host_slabs[k].psi_e[q] = sl->d_psi_e[q];
                host_slabs[k].psi_h[q] = sl->d_psi_h[q];
            }
        }
        const size_t bytes = (size_t)s->nslabs * sizeof(cuda_slab_dev);
        YEE_TRY(dev_alloc(c, (void **)&c->d_slabs, bytes, err));
        CUDA_TRY(err, cudaMemcpy(c->d_slabs, host_slabs, bytes, cudaMemcpyHostToDevice));
    }
    for (int a = 0; a < 3; a++) {
        c->pec_low[a] = s->pec_low[a];
        c->pmc_low[a] = s->pmc_low[a];
    }
    if (s->ndisp > 0) {
        c->ndisp = s->ndisp;
        c->npol = s->npol;
        c->inv_dt = s->inv_dt;
        YEE_TRY(dev_alloc(c, (void **)&c->d_disp, (size_t)s->ndisp * sizeof(yee_disp_node), err));
        YEE_TRY(dev_alloc(c, (void **)&c->d_pol, (size_t)s->npol * sizeof(yee_real), err));
        YEE_TRY(dev_alloc(c, (void **)&c->d_pcoef, (size_t)s->npcoef * sizeof(yee_pole_coef),
                          err));
        CUDA_TRY(err, cudaMemcpy(c->d_disp, s->disp, (size_t)s->ndisp * sizeof(yee_disp_node),
                                 cudaMemcpyHostToDevice));
        CUDA_TRY(err, cudaMemcpy(c->d_pcoef, s->pcoef, (size_t)s->npcoef * sizeof(yee_pole_coef),
                                 cudaMemcpyHostToDevice));
    }
    if (s->ntensor > 0) {
        c->ntensor = s->ntensor;
        const size_t bytes = (size_t)s->ntensor * sizeof(yee_tensor_node);
        YEE_TRY(dev_alloc(c, (void **)&c->d_tensor, bytes, err));
        CUDA_TRY(err, cudaMemcpy(c->d_tensor, s->tensor, bytes, cudaMemcpyHostToDevice));
        c->ncurl = s->ncurl;
        const size_t cbytes = (size_t)s->ncurl * sizeof(yee_curl_node);
        YEE_TRY(dev_alloc(c, (void **)&c->d_curl, cbytes, err));
        YEE_TRY(dev_alloc(c, (void **)&c->d_curl_h, (size_t)s->ncurl * sizeof(yee_real), err));
        CUDA_TRY(err, cudaMemcpy(c->d_curl, s->curl, cbytes, cudaMemcpyHostToDevice));
    }
    YEE_TRY(dev_alloc(c, (void **)&c->d_norm, 2 * sizeof(double), err));
    YEE_TRY(dev_alloc(c, (void **)&c->d_bad, sizeof(unsigned long long), err));
    c->debug_sync = s->tuning.sync_each_launch;
    yee_state_layout_build(&c->state, c->f, c->total, c->nslabs, psi, slab_cells, c->d_pol,
                           c->ndisp > 0 ? c->npol : 0);
    return YEE_OK;
}

static int cuda_create(const yee_setup *s, void **out, yee_err *err)
{
    *out = NULL;
    if (s->nmat < 1 || s->nmat > YEE_MAX_MATERIALS)
        return yee_fail(err, YEE_ERR_UNSUPPORTED, "%d materials (at most %d)", s->nmat,
                        YEE_MAX_MATERIALS);
    cuda_ctx *c = (cuda_ctx *)calloc(1, sizeof *c);
    if (!c)
        return yee_fail(err, YEE_ERR_NOMEM, "cannot allocate the CUDA backend");
    /* the host's share of the work (and the emulated build's kernels) flush subnormals like
     * the device does under nvcc -ftz=true (common/yee_fp.h) */
    yee_fp_flush_subnormals();
    int rc = cuda_create_into(c, s, err);
    if (rc < 0) {
        cuda_destroy(c);
        return rc;
    }
    *out = c;
    return YEE_OK;
}

/* ---- the stages of an update (kernels/stages.h), as kernel launches over box b ---- */

static int stage_h_curl(void *vctx, yee_box b, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    launch_dims sh = box_shape(b);
    h_kernel<<<sh.grid, sh.block>>>(c->f, c->d, c->lines, c->media.ch, b, c->pol2d, c->d_slabs,
                                    c->nslabs);
    return launched(c, err, "h_kernel");
}

static int stage_e_polarize(void *vctx, yee_box b, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    if (!c->ndisp)
        return YEE_OK;
    ade_polarize_kernel<<<list_blocks(c->ndisp), LIST_BLOCK>>>(c->f, c->d, b, c->ndisp,
                                                               c->d_disp, c->d_pcoef, c->d_pol);
    return launched(c, err, "ade_polarize_kernel");
}

static int stage_e_curl(void *vctx, yee_box b, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    launch_dims sh = box_shape(b);
    e_kernel<<<sh.grid, sh.block>>>(c->f, c->d, c->lines, c->media, c->d_row_span, c->coef0, b,
                                    c->pol2d, c->d_slabs, c->nslabs);
    return launched(c, err, "e_kernel");
}

static int stage_e_tensor(void *vctx, yee_box b, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    if (!c->ntensor)
        return YEE_OK;
    curl_kernel<<<list_blocks(c->ncurl), LIST_BLOCK>>>(c->f, c->d, c->lines, c->ncurl, c->d_curl,
                                                       c->d_curl_h);
    YEE_TRY(launched(c, err, "curl_kernel"));
    tensor_kernel<<<list_blocks(c->ntensor), LIST_BLOCK>>>(c->f, b, c->ntensor, c->d_tensor,
                                                           c->d_curl_h);
    return launched(c, err, "tensor_kernel");
}

static int stage_e_polarization_current(void *vctx, yee_box b, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    if (!c->ndisp)
        return YEE_OK;
    ade_current_kernel<<<list_blocks(c->ndisp), LIST_BLOCK>>>(
        c->f, c->d, b, c->media, c->ndisp, c->d_disp, c->d_pcoef, c->inv_dt, c->d_pol);
    return launched(c, err, "ade_current_kernel");
}

/* wall_low_kernel on the node plane 0 of each axis with on[axis] that box b touches. */
static int low_walls(cuda_ctx *c, yee_box b, const int on[3], int magnetic, yee_err *err)
{
    for (int a = 0; a < 3; a++) {
        if (!on[a] || b.lo[a] > 0 || b.hi[a] <= 0)
            continue;
        yee_box face = b;
        face.lo[a] = 0;
        face.hi[a] = 1;
        const launch_dims sh = box_shape(face);
        wall_low_kernel<<<sh.grid, sh.block>>>(c->f, c->d, a, face, magnetic);
        YEE_TRY(launched(c, err, "wall_low_kernel"));
    }
    return YEE_OK;
}

static int stage_e_pec(void *vctx, yee_box b, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    return low_walls(c, b, c->pec_low, 0, err);
}

static int stage_e_pmc(void *vctx, yee_box b, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    return low_walls(c, b, c->pmc_low, 1, err);
}

static const yee_update_stages cuda_stages = {stage_h_curl, stage_e_pmc, stage_e_polarize,
                                              stage_e_curl, stage_e_tensor,
                                              stage_e_polarization_current,
                                              stage_e_pec};

static int cuda_step_h(void *vctx, const yee_box *cells, yee_err *err)
{
    const yee_box b = cells_box((cuda_ctx *)vctx, cells);
    /* an empty box would be a launch with a grid dimension of 0: an error */
    return yee_box_empty(b) ? YEE_OK : yee_update_h_stages(&cuda_stages, vctx, b, err);
}

static int cuda_step_e(void *vctx, const yee_box *cells, yee_err *err)
{
    const yee_box b = cells_box((cuda_ctx *)vctx, cells);
    return yee_box_empty(b) ? YEE_OK : yee_update_e_stages(&cuda_stages, vctx, b, err);
}

static int ensure(cuda_ctx *c, void **p, size_t *cap, size_t bytes, yee_err *err)
{
    if (*cap >= bytes)
        return YEE_OK;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    YEE_TRY(dev_alloc(c, p, bytes, err));
    *cap = bytes;
    return YEE_OK;
}

/* Copies bytes of host data to the device through the next slot of the upload ring and returns
 * the device copy in *dev, valid for kernels launched on the default stream before the caller's
 * upload_done(). */
static int upload(cuda_ctx *c, const void *host, size_t bytes, void **dev, yee_err *err)
{
    upload_slot *u = &c->upload[c->upload_next];
    if (u->has_event) /* the kernel that read this slot last time has run */
        CUDA_TRY(err, cudaEventSynchronize(u->done));
    else {
        CUDA_TRY(err, cudaEventCreateWithFlags(&u->done, cudaEventDisableTiming));
        u->has_event = 1;
    }
    if (bytes > u->cap) {
        cudaFreeHost(u->host);
        cudaFree(u->dev);
        u->host = u->dev = NULL;
        u->cap = 0;
        const size_t cap = bytes * 2;
        CUDA_TRY(err, cudaMallocHost(&u->host, cap));
        CUDA_TRY(err, cudaMalloc(&u->dev, cap));
        u->cap = cap;
    }
    memcpy(u->host, host, bytes);
    CUDA_TRY(err, cudaMemcpyAsync(u->dev, u->host, bytes, cudaMemcpyHostToDevice, 0));
    *dev = u->dev;
    return YEE_OK;
}

/* Marks the current upload slot as in use by the kernels launched since upload(). */
static int upload_done(cuda_ctx *c, yee_err *err)
{
    CUDA_TRY(err, cudaEventRecord(c->upload[c->upload_next].done, 0));
    c->upload_next = (c->upload_next + 1) % UPLOAD_SLOTS;
    return YEE_OK;
}

static int cuda_apply_sources(void *vctx, int n, const yee_point_current *src, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    void *d_src;
    YEE_TRY(upload(c, src, (size_t)n * sizeof *src, &d_src, err));
    sources_kernel<<<list_blocks(n), LIST_BLOCK>>>(c->f, c->d, c->media, n,
                                                   (const yee_point_current *)d_src);
    YEE_TRY(launched(c, err, "sources_kernel"));
    return upload_done(c, err);
}

static int cuda_dft_create(void *vctx, const yee_dft_region *r, int *id, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    cuda_dft *grown = (cuda_dft *)realloc(c->dft, (size_t)(c->ndft + 1) * sizeof *c->dft);
    if (!grown)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "DFT region table");
    c->dft = grown;
    cuda_dft *q = &c->dft[c->ndft++];
    memset(q, 0, sizeof *q);
    q->r = *r;
    q->nodes = (int64_t)r->count[0] * r->count[1] * r->count[2];
    const size_t bytes = (size_t)q->nodes * (size_t)r->nfreq * sizeof(double);
    YEE_TRY(dev_alloc(c, (void **)&q->d_re, bytes, err));
    YEE_TRY(dev_alloc(c, (void **)&q->d_im, bytes, err));
    *id = c->ndft - 1;
    return YEE_OK;
}

static int cuda_dft_accumulate(void *vctx, int id, const double *ph, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    cuda_dft *q = &c->dft[id];
    if (!yee_component_array(c->f, q->r.comp))
        return YEE_OK; /* not in this 2-D run: the sums of a zero field stay zero */
    void *d_ph;
    YEE_TRY(upload(c, ph, 2 * (size_t)q->r.nfreq * sizeof(double), &d_ph, err));
    const yee_box nodes_box = box_at(q->r.lo, q->r.count);
    const launch_dims sh = box_shape(nodes_box);
    dft_kernel<<<sh.grid, sh.block>>>(c->f, c->d, q->r, nodes_box, q->nodes, q->d_re, q->d_im,
                                      (const double *)d_ph);
    YEE_TRY(launched(c, err, "dft_kernel"));
    return upload_done(c, err);
}

static int cuda_dft_transfer(void *vctx, int id, double *re, double *im, int set, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    cuda_dft *q = &c->dft[id];
    const size_t bytes = (size_t)q->nodes * (size_t)q->r.nfreq * sizeof(double);
    if (set) {
        CUDA_TRY(err, cudaMemcpy(q->d_re, re, bytes, cudaMemcpyHostToDevice));
        CUDA_TRY(err, cudaMemcpy(q->d_im, im, bytes, cudaMemcpyHostToDevice));
    } else {
        CUDA_TRY(err, cudaMemcpy(re, q->d_re, bytes, cudaMemcpyDeviceToHost));
        CUDA_TRY(err, cudaMemcpy(im, q->d_im, bytes, cudaMemcpyDeviceToHost));
    }
    return YEE_OK;
}

static int cuda_copy_start(void *vctx, int comp, const int lo[3], const int count[3], int slot,
                           yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    if (slot < 0 || slot >= COPY_SLOTS)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "copy slot %d", slot);
    copy_slot *k = &c->copies[slot];
    if (!c->copy_stream)
        CUDA_TRY(err, cudaStreamCreateWithFlags(&c->copy_stream, cudaStreamNonBlocking));
    if (!k->has_events) {
        CUDA_TRY(err, cudaEventCreateWithFlags(&k->gathered, cudaEventDisableTiming));
        CUDA_TRY(err, cudaEventCreateWithFlags(&k->copied, cudaEventDisableTiming));
        k->has_events = 1;
    }
    const size_t n = (size_t)count[0] * count[1] * count[2];
    if (n > k->cap) {
        CUDA_TRY(err, cudaEventSynchronize(k->copied));
        cudaFree(k->dev);
        cudaFreeHost(k->host);
        k->dev = NULL;
        k->host = NULL;
        k->cap = 0;
        YEE_TRY(dev_alloc(c, (void **)&k->dev, n * sizeof(yee_real), err));
        CUDA_TRY(err, cudaMallocHost((void **)&k->host, n * sizeof(yee_real)));
        k->cap = n;
    }
    k->len = n;
    const yee_box b = box_at(lo, count);
    const launch_dims sh = box_shape(b);
    box_kernel<<<sh.grid, sh.block>>>(c->f, c->d, comp, b, k->dev);
    YEE_TRY(launched(c, err, "box_kernel"));
    CUDA_TRY(err, cudaEventRecord(k->gathered, 0));
    CUDA_TRY(err, cudaStreamWaitEvent(c->copy_stream, k->gathered, 0));
    CUDA_TRY(err, cudaMemcpyAsync(k->host, k->dev, n * sizeof(yee_real), cudaMemcpyDeviceToHost,
                                  c->copy_stream));
    CUDA_TRY(err, cudaEventRecord(k->copied, c->copy_stream));
    return YEE_OK;
}

static int cuda_copy_finish(void *vctx, int slot, yee_real *out, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    if (slot < 0 || slot >= COPY_SLOTS || !c->copies[slot].has_events)
        return YEE_FAIL(err, YEE_ERR_UNSUPPORTED, "copy slot %d was not started", slot);
    copy_slot *k = &c->copies[slot];
    CUDA_TRY(err, cudaEventSynchronize(k->copied));
    memcpy(out, k->host, k->len * sizeof(yee_real));
    return YEE_OK;
}

/* 1 if buf is one of this context's device halo buffers. */
static int is_device_halo(const cuda_ctx *c, const void *buf)
{
    for (int q = 0; q < HALO_BUFS; q++)
        if (buf && c->halo_dev[q] == buf)
            return 1;
    return 0;
}

/* Packs into / unpacks from buf. A device buffer (CUDA-aware MPI reads it where it is) is the
 * kernel's own; a host buffer (pinned by halo_alloc, or any host memory) goes through the
 * staging buffer and one copy. The pack's copy returns when the face is on the host, ready for
 * MPI_Isend; a device buffer is made ready by synchronizing before MPI reads it. */
static int cuda_halo(cuda_ctx *c, yee_field_kind kind, int axis, int layer, yee_real *buf,
                     int pack, yee_err *err)
{
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const int fa = u < v ? u : v, sa = u < v ? v : u;
    const size_t count = 2 * (size_t)c->d.n[fa] * (size_t)c->d.n[sa];
    const int direct = is_device_halo(c, buf);
    yee_real *dev = buf;
    if (!direct) {
        YEE_TRY(ensure(c, (void **)&c->d_stage, &c->stage_cap, count * sizeof(yee_real), err));
        dev = c->d_stage;
    }
    if (!pack && !direct)
        CUDA_TRY(err, cudaMemcpy(dev, buf, count * sizeof(yee_real), cudaMemcpyHostToDevice));
    const int zero[3] = {0, 0, 0}, n_face[3] = {c->d.n[fa], c->d.n[sa], 2};
    const yee_box face = box_at(zero, n_face);
    const launch_dims sh = box_shape(face);
    halo_kernel<<<sh.grid, sh.block>>>(c->f, c->d, (int)kind, axis, layer, fa, sa, face, dev,
                                       pack);
    YEE_TRY(launched(c, err, "halo_kernel"));
    if (pack && !direct)
        CUDA_TRY(err, cudaMemcpy(buf, dev, count * sizeof(yee_real), cudaMemcpyDeviceToHost));
    else if (direct) /* MPI reads a packed buffer next; an unpacked one receives the next message */
        CUDA_TRY(err, cudaStreamSynchronize(0));
    return YEE_OK;
}

static void *cuda_halo_alloc(void *vctx, size_t bytes, int device)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    void *p = NULL;
    if (!device)
        return cudaMallocHost(&p, bytes ? bytes : 1) == cudaSuccess ? p : NULL;
    for (int q = 0; q < HALO_BUFS; q++)
        if (!c->halo_dev[q]) {
            if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess)
                return NULL;
            c->halo_dev[q] = p;
            return p;
        }
    return NULL;
}

static void cuda_halo_free(void *vctx, void *buf)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    if (!buf)
        return;
    for (int q = 0; q < HALO_BUFS; q++)
        if (c->halo_dev[q] == buf) {
            cudaFree(buf);
            c->halo_dev[q] = NULL;
            return;
        }
    cudaFreeHost(buf);
}

static int cuda_pack_halo(void *vctx, yee_field_kind kind, int axis, int layer, yee_real *buf,
                          yee_err *err)
{
    return cuda_halo((cuda_ctx *)vctx, kind, axis, layer, buf, 1, err);
}

static int cuda_unpack_halo(void *vctx, yee_field_kind kind, int axis, int layer,
                            const yee_real *buf, yee_err *err)
{
    return cuda_halo((cuda_ctx *)vctx, kind, axis, layer, (yee_real *)buf, 0, err);
}

static int cuda_gather(void *vctx, int n, const yee_sample *pts, yee_real *out, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    if (n > c->sample_cap) {
        cudaFree(c->d_samples);
        cudaFree(c->d_values);
        c->d_samples = NULL;
        c->d_values = NULL;
        YEE_TRY(dev_alloc(c, (void **)&c->d_samples, (size_t)n * sizeof *pts, err));
        YEE_TRY(dev_alloc(c, (void **)&c->d_values, (size_t)n * sizeof *out, err));
        c->sample_cap = n;
    }
    CUDA_TRY(err, cudaMemcpy(c->d_samples, pts, (size_t)n * sizeof *pts, cudaMemcpyHostToDevice));
    gather_kernel<<<list_blocks(n), LIST_BLOCK>>>(c->f, c->d, n, c->d_samples, c->d_values);
    YEE_TRY(launched(c, err, "gather_kernel"));
    CUDA_TRY(err, cudaMemcpy(out, c->d_values, (size_t)n * sizeof *out, cudaMemcpyDeviceToHost));
    return YEE_OK;
}

static int cuda_download(void *vctx, int comp, const int lo[3], const int count[3],
                         yee_real *out, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    const size_t n = (size_t)count[0] * count[1] * count[2];
    YEE_TRY(ensure(c, (void **)&c->d_stage, &c->stage_cap, n * sizeof(yee_real), err));
    const yee_box b = box_at(lo, count);
    const launch_dims sh = box_shape(b);
    box_kernel<<<sh.grid, sh.block>>>(c->f, c->d, comp, b, c->d_stage);
    YEE_TRY(launched(c, err, "box_kernel"));
    CUDA_TRY(err, cudaMemcpy(out, c->d_stage, n * sizeof(yee_real), cudaMemcpyDeviceToHost));
    return YEE_OK;
}

static int cuda_norms(void *vctx, yee_norms *out, yee_err *err)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    CUDA_TRY(err, cudaMemset(c->d_norm, 0, 2 * sizeof(double)));
    CUDA_TRY(err, cudaMemset(c->d_bad, 0xff, sizeof(unsigned long long)));
    const int64_t cells = (int64_t)c->d.n[0] * c->d.n[1] * c->d.n[2];
    norms_kernel<<<list_blocks_of(cells, NORMS_BLOCK), NORMS_BLOCK>>>(c->f, c->d, cells,
                                                                       c->d_norm, c->d_bad);
    YEE_TRY(launched(c, err, "norms_kernel"));
    double sums[2];
    unsigned long long bad;
    CUDA_TRY(err, cudaMemcpy(sums, c->d_norm, sizeof sums, cudaMemcpyDeviceToHost));
    CUDA_TRY(err, cudaMemcpy(&bad, c->d_bad, sizeof bad, cudaMemcpyDeviceToHost));
    memset(out, 0, sizeof *out);
    out->e2 = sums[0];
    out->h2 = sums[1];
    if (bad != ~0ull) {
        const unsigned long long lin = bad / 8;
        out->nonfinite = 1;
        out->bad_comp = (int)(bad % 8);
        out->bad_i = (int)(lin % (unsigned long long)c->d.n[0]);
        out->bad_j = (int)(lin / (unsigned long long)c->d.n[0] % (unsigned long long)c->d.n[1]);
        out->bad_k = (int)(lin / ((unsigned long long)c->d.n[0] * c->d.n[1]));
    }
    return YEE_OK;
}

static size_t cuda_bytes(void *vctx)
{
    return ((cuda_ctx *)vctx)->bytes;
}

extern "C" int yee_backend_cuda_devices(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess)
        return 0;
    return n;
}

extern "C" int yee_backend_cuda_device_info(int dev, char *name, size_t cap, size_t *total,
                                            size_t *free_bytes)
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess)
        return YEE_ERR_CUDA;
    snprintf(name, cap, "%s (sm_%d%d)", p.name, p.major, p.minor);
    *total = p.totalGlobalMem;
    *free_bytes = 0;
    int cur = 0;
    if (cudaGetDevice(&cur) == cudaSuccess && cur == dev) {
        size_t f = 0, t = 0;
        if (cudaMemGetInfo(&f, &t) == cudaSuccess)
            *free_bytes = f;
    }
    return YEE_OK;
}

/* cudaMemcpy device-to-device of 1 GiB (read + write counted), best of 5, timed with events. */
static int cuda_copy_bandwidth(double *bytes_per_s, yee_err *err)
{
    const size_t bytes = (size_t)1 << 30;
    void *a = NULL, *b = NULL;
    CUDA_TRY(err, cudaMalloc(&a, bytes));
    cudaError_t e = cudaMalloc(&b, bytes);
    if (e != cudaSuccess) {
        cudaFree(a);
        return yee_fail(err, YEE_ERR_CUDA, "cudaMalloc: %s", cudaGetErrorString(e));
    }
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaMemset(a, 1, bytes);
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); /* warm-up */
    float best = 1e30f;
    for (int rep = 0; rep < 5; rep++) {
        cudaEventRecord(t0);
        cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(t1);
        cudaEventSynchronize(t1);
        float ms = 0.0f;
        cudaEventElapsedTime(&ms, t0, t1);
        if (ms < best)
            best = ms;
    }
    e = cudaGetLastError();
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    cudaFree(a);
    cudaFree(b);
    if (e != cudaSuccess)
        return yee_fail(err, YEE_ERR_CUDA, "bandwidth test: %s", cudaGetErrorString(e));
    *bytes_per_s = 2.0 * (double)bytes / (best * 1e-3);
    return YEE_OK;
}

/* Fields live on the device; the host keeps only staging buffers allocated on demand. */
static size_t cuda_host_bytes(yee_dims d, int pol2d, int nslabs, const yee_slab *slabs)
{
    (void)d;
    (void)pol2d;
    (void)nslabs;
    (void)slabs;
    return 0;
}

/* Checkpoint parts (backend.h): the layout every backend shares (yee_state_layout), so a
 * checkpoint written on one backend restarts on another; copied through host memory with
 * cudaMemcpy, which waits for the kernels of the step before it (default stream). */
static int cuda_state_parts(void *vctx)
{
    return ((const cuda_ctx *)vctx)->state.nparts;
}

static size_t cuda_state_part_bytes(void *vctx, int p)
{
    const yee_state_layout *L = &((const cuda_ctx *)vctx)->state;
    return p >= 0 && p < L->nparts ? (size_t)L->len[p] * sizeof(yee_real) : 0;
}

static int cuda_state_transfer(void *vctx, int p, void *buf, int set, yee_err *err)
{
    const yee_state_layout *L = &((const cuda_ctx *)vctx)->state;
    if (p < 0 || p >= L->nparts)
        return yee_fail(err, YEE_ERR_UNSUPPORTED, "no checkpoint part %d (backend has %d)", p,
                        L->nparts);
    const size_t bytes = (size_t)L->len[p] * sizeof(yee_real);
    if (bytes == 0) /* a part a 2-D run of one polarization does not have */
        return YEE_OK;
    if (set)
        CUDA_TRY(err, cudaMemcpy(L->part[p], buf, bytes, cudaMemcpyHostToDevice));
    else
        CUDA_TRY(err, cudaMemcpy(buf, L->part[p], bytes, cudaMemcpyDeviceToHost));
    return YEE_OK;
}

extern "C" const yee_backend_ops yee_backend_cuda = {
    "cuda",           cuda_create, cuda_step_h,   cuda_step_e, NULL /* advance */, cuda_apply_sources,
    cuda_dft_create,  cuda_dft_accumulate, cuda_dft_transfer, cuda_copy_start, cuda_copy_finish,
    cuda_pack_halo,   cuda_unpack_halo, cuda_halo_alloc, cuda_halo_free, cuda_gather,
    cuda_download,    cuda_norms,       cuda_bytes,      cuda_destroy,
    cuda_copy_bandwidth, cuda_host_bytes, cuda_state_parts, cuda_state_part_bytes,
    cuda_state_transfer, 0 /* advance_wraps: no advance; the halo wraps periodic faces */,
    0 /* advance_links */, NULL /* advance_complex */, 0 /* advance_dft */,
};
