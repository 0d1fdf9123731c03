/* solver/decompose.h -- the split of the global grid into one block of cells per MPI rank.
 *
 * Ranks form a Cartesian grid: explicit (--ranks), or the split with the least cut area that
 * fits the grid (every rank at least one cell along every axis), ties going to z then y (a cut
 * across z leaves every rank whole rows and contiguous faces to pack). Each axis is cut into
 * blocks of near-equal cost, a cell inside that axis' own CPML counting 1.5 (it also updates
 * four psi values). Periodic axes wrap.
 */
#ifndef YEE_SOLVER_DECOMPOSE_H
#define YEE_SOLVER_DECOMPOSE_H

#include <mpi.h>

#include "common/yee_err.h"
#include "model/config.h"

typedef struct yee_decomposition {
    MPI_Comm cart;    /* Cartesian communicator of the ranks (MPI_COMM_NULL until made) */
    int dims[3];      /* ranks per axis */
    int n[3];         /* this rank's cells */
    int fewest[3];    /* the fewest cells any rank has along each axis */
    int offset[3];    /* global index of its cell 0 */
    int nbr[3][2];    /* neighbour rank below / above per axis (MPI_PROC_NULL at walls) */
} yee_decomposition;

/* Decomposes cfg's grid over the nranks of MPI_COMM_WORLD (ranks: per axis as --ranks gives them,
 * all 0 to choose) and finds this rank's block. Chosen, the split is the one with the least cut
 * area, unless slab_axis >= 0 (the backend keeps the fast schedules on slabs along that axis,
 * the link axis, z or y in a 2-D run: its advance_links, and advance_complex for complex
 * fields) and that axis has at least 8 layers per rank: then nranks along it and 1 along the
 * others, whose ranks step about twice as fast as the halo's one step at a time
 * (docs/performance.md). Collective.
 * YEE_ERR_USAGE (ranks that do not fit the grid), YEE_ERR_MPI. */
int yee_decompose(const yee_config *cfg, int nranks, int rank, const int ranks[3],
                  int slab_axis, yee_decomposition *out, yee_err *err);

/* Frees the communicator. */
void yee_decomposition_free(yee_decomposition *d);

#endif
