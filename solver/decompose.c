/* solver/decompose.c -- the split of the grid over the ranks (solver/decompose.h). */
#include "solver/decompose.h"

#include <stdlib.h>

/* Split n cells of axis a into p contiguous blocks of near-equal cost, where a cell inside the
 * axis' own CPML costs 1.5 (it also updates four psi values). Block q gets [start[q], start[q+1]). */
static void split_axis(const yee_config *cfg, int a, int p, int *start)
{
    const int n = cfg->n[a];
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += (i < cfg->pml_cells[a][0] || i >= n - cfg->pml_cells[a][1]) ? 1.5 : 1.0;
    double acc = 0.0;
    int q = 1;
    start[0] = 0;
    for (int i = 0; i < n && q < p; i++) {
        acc += (i < cfg->pml_cells[a][0] || i >= n - cfg->pml_cells[a][1]) ? 1.5 : 1.0;
        /* close block q-1 once it holds its share, leaving >= 1 cell for each block after it */
        if (acc >= total * q / p && n - (i + 1) >= p - q)
            start[q++] = i + 1;
    }
    while (q < p) { /* tiny axes: one cell per remaining block */
        start[q] = start[q - 1] + 1;
        q++;
    }
    start[p] = n;
}

/* The rank grid px py pz = p that fits the grid (at most one rank per cell along each axis)
 * with the least cut area, sum (p_a - 1) * (cells of a plane normal to a): the least halo
 * traffic. Among equal cuts the most ranks go to z, then y: a cut across z leaves every rank
 * whole rows and contiguous faces to pack (2x1x1 ran at 0.62x the speed of 1x1x2 on two CPU
 * ranks, 96^3). Unlike MPI_Dims_create, it never puts ranks on an axis too short for them: six
 * ranks on a 1 x 1 x 400 column become 1 x 1 x 6. 0 when no split fits. */
static int choose_dims(const int n[3], int p, int dims[3])
{
    double best = -1.0;
    for (int px = 1; px <= p && px <= n[0]; px++) {
        if (p % px)
            continue;
        for (int py = 1; py <= p / px && py <= n[1]; py++) {
            if ((p / px) % py)
                continue;
            const int pz = p / px / py;
            if (pz > n[2])
                continue;
            const double cut = (px - 1) * (double)n[1] * n[2] + (py - 1) * (double)n[0] * n[2] +
                               (pz - 1) * (double)n[0] * n[1];
            /* ties: prefer more ranks on z, then on y (later candidates have larger pz) */
            if (best < 0.0 || cut < best - 0.5 ||
                (cut <= best + 0.5 && (pz > dims[2] || (pz == dims[2] && py > dims[1])))) {
                best = cut;
                dims[0] = px;
                dims[1] = py;
                dims[2] = pz;
            }
        }
    }
    return best >= 0.0;
}

/* Layers (planes; rows in 2-D) per rank, on average, below which slabs are not preferred: 2K
 * for the wavefront's default K = 4 (kernels/cpu/tuned.c), so each rank's face seams fit. */
#define SLAB_LAYERS 8

int yee_decompose(const yee_config *cfg, int nranks, int rank, const int ranks[3],
                  int slab_axis, yee_decomposition *out, yee_err *err)
{
    yee_decomposition *s = out;
    s->cart = MPI_COMM_NULL;
    int dims[3] = {ranks[0], ranks[1], ranks[2]};
    if (dims[0] > 0 || dims[1] > 0 || dims[2] > 0) {
        if (dims[0] * dims[1] * dims[2] != nranks)
            return yee_fail(err, YEE_ERR_USAGE, "--ranks %dx%dx%d is %d ranks, but %d are running",
                            dims[0], dims[1], dims[2], dims[0] * dims[1] * dims[2], nranks);
    } else if (slab_axis >= 0 && nranks > 1 && cfg->n[slab_axis] >= SLAB_LAYERS * nranks) {
        dims[0] = dims[1] = dims[2] = 1;
        dims[slab_axis] = nranks;
    } else if (!choose_dims(cfg->n, nranks, dims)) {
        return yee_fail(err, YEE_ERR_USAGE, "%d ranks cannot split a %d x %d x %d grid (each "
                        "rank needs at least one cell along every axis)", nranks, cfg->n[0],
                        cfg->n[1], cfg->n[2]);
    }
    for (int a = 0; a < 3; a++)
        if (dims[a] > cfg->n[a])
            return yee_fail(err, YEE_ERR_USAGE, "%d ranks along %c but only %d cells", dims[a],
                            "xyz"[a], cfg->n[a]);
    int periods[3];
    for (int a = 0; a < 3; a++) {
        periods[a] = cfg->boundary[a][0] == YEE_BC_PERIODIC;
        s->dims[a] = dims[a];
    }
    /* no reordering: rank r of the world is rank r of the grid, so rank 0 stays the reporter */
    if (MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &s->cart) != MPI_SUCCESS)
        return yee_fail(err, YEE_ERR_MPI, "MPI_Cart_create failed");
    int coords[3];
    MPI_Cart_coords(s->cart, rank, 3, coords);
    for (int a = 0; a < 3; a++) {
        int *start = (int *)malloc((size_t)(dims[a] + 1) * sizeof(int));
        if (!start)
            return YEE_FAIL(err, YEE_ERR_NOMEM, "decomposition");
        split_axis(cfg, a, dims[a], start);
        s->offset[a] = start[coords[a]];
        s->n[a] = start[coords[a] + 1] - start[coords[a]];
        s->fewest[a] = s->n[a];
        for (int q = 0; q < dims[a]; q++)
            if (start[q + 1] - start[q] < s->fewest[a])
                s->fewest[a] = start[q + 1] - start[q];
        free(start);
        MPI_Cart_shift(s->cart, a, 1, &s->nbr[a][0], &s->nbr[a][1]);
    }
    return YEE_OK;
}

void yee_decomposition_free(yee_decomposition *d)
{
    if (d->cart != MPI_COMM_NULL)
        MPI_Comm_free(&d->cart);
    d->cart = MPI_COMM_NULL;
}
