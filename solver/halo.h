/* solver/halo.h -- the ghost-layer exchange between MPI ranks (and across periodic faces), and the
 * split of each field update that lets the exchange run while the interior is updated.
 *
 * The H update reads E ghosts (layer n, from the upper neighbour's layer 0), the E update reads
 * H ghosts (layer -1, from the lower neighbour's layer n-1), and each is needed only by the one
 * layer of cells next to its face (docs/design.md "Halo"). So a step runs
 *   [E faces in flight] H interior -> wait, unpack E ghosts -> H boundary layers -> M currents
 *   -> pack H faces, send -> E interior -> wait, unpack H ghosts -> E boundary layers
 *   -> J currents -> pack E faces, send [in flight into the next step]
 * and every cell still gets the same arithmetic on the same values as in a run without the split
 * (so fields stay bit-identical to one rank). Between interior chunks the exchange is progressed
 * (MPI_Testall), since most MPI libraries move a large message only inside MPI calls.
 *
 * Messages go through buffers from the backend's halo_alloc: pinned host memory on a GPU, or the
 * device's own memory when the MPI library reads device pointers (CUDA-aware, asked at run time
 * with MPIX_Query_cuda_support, or forced with YEE_CUDA_AWARE_MPI=0|1). YEE_HALO_OVERLAP=0 turns
 * the split off (exchange, then update), for measurements.
 */
#ifndef YEE_SOLVER_HALO_H
#define YEE_SOLVER_HALO_H

#include <mpi.h>

#include "common/yee_err.h"
#include "kernels/backend.h"

typedef struct yee_halo yee_halo;

typedef struct yee_halo_stats {
    int active;          /* 1 if this rank exchanges any face (neighbours or a periodic axis) */
    int overlap;         /* 1 if updates are split to overlap the exchange */
    int device_buffers;  /* 1 if MPI reads device memory directly (CUDA-aware) */
    double wait_s;       /* time spent waiting for messages (the exposed exchange) */
    double exchange_s;   /* time in packing, posting, waiting and unpacking together */
    double bytes_per_step; /* bytes this rank sends per full step (E and H faces) */
} yee_halo_stats;

/* Sets up the exchange of a subdomain of n cells with neighbours nbr[axis][0 low, 1 high]
 * (MPI_PROC_NULL: none) on communicator cart, allocating its buffers from the backend.
 * YEE_ERR_NOMEM when a buffer cannot be had. */
int yee_halo_create(const yee_backend_ops *be, void *ctx, MPI_Comm cart, const int n[3],
                    const int nbr[3][2], yee_halo **out, yee_err *err);

/* The backend's step_h (kind H) or step_e (kind E) over the whole subdomain, completing on the
 * way the exchange of the other field started by yee_halo_start (if one is in flight). */
int yee_halo_update(yee_halo *h, yee_field_kind kind, long step, yee_err *err);

/* Packs and sends this rank's faces of `kind` (after its update and currents) and posts the
 * receives of its ghosts; without overlap it also waits and unpacks. */
int yee_halo_start(yee_halo *h, yee_field_kind kind, long step, yee_err *err);

/* Completes an exchange in flight, so every ghost layer holds its neighbour's values (before a
 * checkpoint, and at the end of an advance). */
int yee_halo_settle(yee_halo *h, long step, yee_err *err);

void yee_halo_get_stats(const yee_halo *h, yee_halo_stats *out);

/* Frees the buffers (through the backend, which must still exist). NULL is a no-op. */
void yee_halo_destroy(yee_halo *h);

#endif
