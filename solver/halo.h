/* solver/halo.h -- the ghost-layer exchange between MPI ranks (and across periodic faces): it
 * moves faces and nothing else; the step script (solver/step.c) does the updates around it.
 *
 * The H update reads E ghosts (layer n, from the upper neighbour's layer 0), the E update reads
 * H ghosts (layer -1, from the lower neighbour's layer n-1), and each is needed only by the one
 * layer of cells next to its face (docs/design.md "Halo"). So while the faces of one field
 * travel, the update of the other can run on every cell but those layers: yee_halo_split says
 * which boxes those are (the interior in chunks, with yee_halo_progress between them, since most
 * MPI libraries move a large message only inside MPI calls; then the boundary layers once
 * yee_halo_settle has received the ghosts). Every cell gets the same arithmetic on the same
 * values as in a run without the split, so fields stay bit-identical to one rank.
 *
 * Messages go through buffers from the backend's halo_alloc: pinned host memory on a GPU, or the
 * device's own memory when the MPI library reads device pointers (CUDA-aware: asked at run time
 * with MPIX_Query_cuda_support, or told by the caller).
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
    int linked;          /* 1 if the linked faces go through the backend's advance (yee_halo_link) */
    int device_buffers;  /* 1 if MPI reads device memory directly (CUDA-aware) */
    double wait_s;       /* time spent waiting for messages (the exposed exchange) */
    double exchange_s;   /* time in packing, posting, waiting and unpacking together */
    double bytes_per_step; /* bytes this rank sends per full step (E and H faces) */
} yee_halo_stats;

/* Sets up the exchange of a subdomain of n cells with neighbours nbr[axis][0 low, 1 high]
 * (MPI_PROC_NULL: none) on communicator cart, allocating its buffers from the backend.
 * link_axis: -1, or the axis whose faces are the backend's to exchange inside its advance
 * (yee_link_axis: z, y in 2-D), through yee_halo_link, and the halo's steps leave them alone
 * (the backend must have advance_links). overlap:
 * split the updates around the exchange (0: exchange, then update, for measurements);
 * cuda_aware: 0 ask the MPI library whether it reads device memory, 1 it does, -1 it does not.
 * parts: 1 for real fields, 2 for complex ones (a message carries both parts, backend.h).
 * YEE_ERR_NOMEM when a buffer cannot be had. */
int yee_halo_create(const yee_backend_ops *be, void *ctx, MPI_Comm cart, const int n[3],
                    const int nbr[3][2], int link_axis, int overlap, int cuda_aware, int parts,
                    yee_halo **out, yee_err *err);

/* The link of the faces of link_axis (above) for setup.link: blocking receives and
 * non-blocking sends on cart, a tag per field kind, the waits counted in the stats. All zero
 * (no faces) without link_axis or without neighbours along it. */
void yee_halo_link(yee_halo *h, yee_face_link *out);

/* 1 if this rank exchanges any face between the steps (neighbours, or itself across a periodic
 * axis); linked faces do not count, their exchange is inside the backend's advance. */
int yee_halo_active(const yee_halo *h);

/* Packs and sends this rank's faces of `kind` (after its update and currents) and posts the
 * receives of its ghosts; without overlap it also waits and unpacks. */
int yee_halo_start(yee_halo *h, yee_field_kind kind, long step, yee_err *err);

/* Completes the exchange in flight (if any): waits, then unpacks the ghosts. */
int yee_halo_settle(yee_halo *h, long step, yee_err *err);

/* Lets MPI move the exchange in flight along (MPI_Testall). */
void yee_halo_progress(yee_halo *h);

/* The cells of the update of field `kind` (the one that reads the other field's ghosts), split
 * around the exchange in flight: `interior` boxes read no ghost of it (update them, progressing
 * the exchange between them), `boundary` boxes do (update them after yee_halo_settle). whole: no
 * such exchange is in flight (or the split is off): settle, then update every cell at once. */
enum { YEE_HALO_CHUNKS = 4 };
typedef struct yee_halo_split_boxes {
    int whole;
    int ninterior;
    yee_box interior[YEE_HALO_CHUNKS];
    int nboundary;
    yee_box boundary[3];
} yee_halo_split_boxes;
void yee_halo_split(const yee_halo *h, yee_field_kind kind, yee_halo_split_boxes *out);

void yee_halo_get_stats(const yee_halo *h, yee_halo_stats *out);

/* Frees the buffers (through the backend, which must still exist). NULL is a no-op. */
void yee_halo_destroy(yee_halo *h);

#endif
