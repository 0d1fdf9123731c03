/* kernels/backend.c -- the registry of built-in backends and the memory model they share. */
#include "kernels/backend.h"

#include <stdio.h>
#include <string.h>

size_t yee_host_memory_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return (size_t)kib * 1024u;
}

int yee_backend_check_host_memory(size_t need, yee_err *err)
{
    const size_t avail = yee_host_memory_available();
    if (avail > 0 && need > avail)
        return yee_fail(err, YEE_ERR_NOMEM,
                        "the grid needs at least %.2f GiB of host memory on this rank but only "
                        "%.2f GiB are available (MemAvailable); use more ranks or a coarser grid",
                        need / 1073741824.0, avail / 1073741824.0);
    return YEE_OK;
}

const yee_backend_ops *yee_backend_find(const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, "cpu") == 0)
        return &yee_backend_cpu;
    if (strcmp(name, "cpu-reference") == 0)
        return &yee_backend_cpu_reference;
#ifdef YEE_HAVE_CUDA
    if (strcmp(name, "cuda") == 0)
        return &yee_backend_cuda;
#endif
    return NULL;
}

int yee_backend_cuda_emulated(void)
{
#ifdef YEE_CUDA_EMULATED
    return 1;
#else
    return 0;
#endif
}

#ifndef YEE_HAVE_CUDA
int yee_backend_cuda_devices(void)
{
    return 0;
}

int yee_backend_cuda_device_info(int dev, char *name, size_t cap, size_t *total,
                                 size_t *free_bytes)
{
    (void)dev;
    if (cap)
        name[0] = '\0';
    *total = *free_bytes = 0;
    return YEE_ERR_CUDA;
}
#endif

void yee_state_layout_build(yee_state_layout *L, yee_fields f, int64_t total, int nslabs,
                            yee_real *const psi[][4], const int64_t *cells, yee_real *pol,
                            int64_t npol)
{
    int p = 0;
    /* an array a 2-D run of one polarization does not have (NULL) is a part of length 0 */
    for (int c = 0; c < 3; c++) { /* Ex Ey Ez, then Hx Hy Hz */
        L->part[c] = f.e[c];
        L->part[3 + c] = f.h[c];
        L->len[c] = f.e[c] ? total : 0;
        L->len[3 + c] = f.h[c] ? total : 0;
    }
    p = 6;
    for (int s = 0; s < nslabs; s++)
        for (int q = 0; q < 4; q++) {
            L->part[p] = psi[s][q];
            L->len[p++] = psi[s][q] ? cells[s] : 0;
        }
    if (npol > 0) {
        L->part[p] = pol;
        L->len[p++] = npol;
    }
    L->nparts = p;
}

void yee_row_spans(const yee_setup *s, int *span)
{
    const int n0 = s->dims.n[0];
    for (int k = 0; k < s->dims.n[2]; k++)
        for (int j = 0; j < s->dims.n[1]; j++) {
            const int64_t row = yee_idx(s->dims, 0, j, k), r = j + (int64_t)k * s->dims.n[1];
            int lo = n0, hi = n0;
            for (int i = 0; i < n0; i++)
                for (int a = 0; a < 3 && s->mat[a]; a++)
                    if (s->mat[a][row + i]) {
                        if (lo == n0)
                            lo = i;
                        hi = i + 1;
                    }
            span[2 * r] = lo;
            span[2 * r + 1] = hi;
        }
}

size_t yee_lines_length(yee_dims d)
{
    size_t n = 0;
    for (int a = 0; a < 3; a++)
        n += 3 * (size_t)(d.n[a] + 1) + 3 * (size_t)d.n[a];
    return n;
}

/* The six lines of axis a in block order, with their lengths. */
static void axis_lines(const yee_setup *s, int a, const yee_real *src[6], size_t len[6])
{
    const yee_real *from[6] = {s->ie[a], s->be[a], s->ae[a], s->ih[a], s->bh[a], s->ah[a]};
    for (int q = 0; q < 6; q++) {
        src[q] = from[q];
        len[q] = q < 3 ? (size_t)s->dims.n[a] + 1 : (size_t)s->dims.n[a];
    }
}

void yee_lines_pack(const yee_setup *s, yee_real *block)
{
    for (int a = 0; a < 3; a++) {
        const yee_real *src[6];
        size_t len[6];
        axis_lines(s, a, src, len);
        for (int q = 0; q < 6; q++) {
            memcpy(block, src[q], len[q] * sizeof(yee_real));
            block += len[q];
        }
    }
}

void yee_lines_point(yee_dims d, yee_real *base, yee_lines *lines, yee_cpml_axis pml[3])
{
    for (int a = 0; a < 3; a++) {
        const size_t ne = (size_t)d.n[a] + 1, nh = (size_t)d.n[a];
        lines->ie[a] = base;
        pml[a].be = base + ne;
        pml[a].ae = base + 2 * ne;
        lines->ih[a] = base + 3 * ne;
        pml[a].bh = base + 3 * ne + nh;
        pml[a].ah = base + 3 * ne + 2 * nh;
        base += 3 * ne + 3 * nh;
    }
}

int64_t yee_slab_cells(const yee_slab *s, int64_t w[3])
{
    int64_t cells = 1;
    for (int a = 0; a < 3; a++) {
        w[a] = s->hi[a] - s->lo[a];
        cells *= w[a];
    }
    return cells;
}

size_t yee_backend_bytes_needed(yee_dims d, int pol2d, int nslabs, const yee_slab *slabs)
{
    const size_t cells = (size_t)yee_dims_cells(d);
    /* a 2-D run of one polarization keeps three components and one CPML half per slab */
    const size_t ncomp = d.stride[2] == 0 && pol2d != YEE_POL_BOTH ? 3 : 6;
    /* the field components plus one material byte per E component */
    size_t bytes = cells * (ncomp * sizeof(yee_real) + 3 * sizeof(uint8_t));
    bytes += 2 * sizeof(int) * (size_t)d.n[1] * (size_t)d.n[2]; /* yee_row_spans */
    for (int s = 0; s < nslabs; s++) {
        int64_t w[3];
        /* psi: 2 E, 2 H (one of each in a one-polarization 2-D run) */
        bytes += 2 * ncomp / 3 * (size_t)yee_slab_cells(&slabs[s], w) * sizeof(yee_real);
    }
    return bytes;
}

int yee_dft_batch(int nfreq)
{
    /* the sums stream 16 nfreq bytes per node and sample; held samples cost 8 bytes per node */
    const int b = nfreq / 4;
    return b < 1 ? 1 : b > YEE_DFT_BATCH_MAX ? YEE_DFT_BATCH_MAX : b;
}
