/* solver/halo.c -- ghost-layer exchange and the boundary/interior split of the updates (halo.h). */
#include "solver/halo.h"

#include <stdlib.h>
#include <string.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_Query_cuda_support */
#endif


struct yee_halo {
    const yee_backend_ops *be;
    void *ctx;
    MPI_Comm cart;
    int n[3];
    int parts;                 /* 1 real fields, 2 complex (both parts in one message) */
    int nbr[3][2];
    int active, overlap, device_buffers;
    void *send[3], *recv[3];   /* per axis, 2 * n_u * n_v values (E and H alike) */
    MPI_Request req[6];
    int nreq;
    int pending;               /* -1, or the yee_field_kind of the exchange in flight */
    int recv_axis[3];          /* axes whose ghosts the pending exchange fills */
    double wait_s, exchange_s, bytes_per_step;
    /* faces linked into the backend's advance (yee_halo_link) */
    int linked;
    int link_axis;             /* the axis they are normal to (z; y in 2-D) */
    int link_nbr[2];           /* low, high neighbour of the linked faces */
    yee_real *link_send[2];    /* per yee_field_kind: the message in flight */
    MPI_Request link_req[2];
};

/* Does the MPI library read device pointers? Asked at run time (Open MPI's extension; a binary
 * built against one Open MPI may run with another) unless the caller says (cuda_aware). */
static int mpi_reads_device_memory(int cuda_aware)
{
    if (cuda_aware)
        return cuda_aware > 0;
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    return MPIX_Query_cuda_support() == 1;
#else
    return 0;
#endif
}

static size_t face_values(const yee_halo *h, int a)
{
    return 2 * (size_t)h->parts * (size_t)h->n[(a + 1) % 3] * (size_t)h->n[(a + 2) % 3];
}

static void free_buffers(yee_halo *h)
{
    for (int a = 0; a < 3; a++) {
        if (h->send[a])
            h->be->halo_free(h->ctx, h->send[a]);
        if (h->recv[a])
            h->be->halo_free(h->ctx, h->recv[a]);
        h->send[a] = h->recv[a] = NULL;
    }
}

/* All six buffers from one kind of memory; 0 if any could not be had (none kept then). */
static int alloc_buffers(yee_halo *h, int device)
{
    for (int a = 0; a < 3; a++) {
        if (h->nbr[a][0] == MPI_PROC_NULL && h->nbr[a][1] == MPI_PROC_NULL)
            continue;
        const size_t bytes = face_values(h, a) * sizeof(yee_real);
        h->send[a] = h->be->halo_alloc(h->ctx, bytes, device);
        h->recv[a] = h->be->halo_alloc(h->ctx, bytes, device);
        if (!h->send[a] || !h->recv[a]) {
            free_buffers(h);
            return 0;
        }
    }
    return 1;
}

int yee_halo_create(const yee_backend_ops *be, void *ctx, MPI_Comm cart, const int n[3],
                    const int nbr_in[3][2], int link_axis, int overlap, int cuda_aware, int parts,
                    yee_halo **out, yee_err *err)
{
    int nbr[3][2];
    memcpy(nbr, nbr_in, sizeof nbr);
    *out = NULL;
    yee_halo *h = (yee_halo *)calloc(1, sizeof *h);
    if (!h)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "halo");
    h->be = be;
    h->ctx = ctx;
    h->cart = cart;
    h->pending = -1;
    h->parts = parts;
    for (int a = 0; a < 3; a++)
        h->n[a] = n[a];
    h->link_req[0] = h->link_req[1] = MPI_REQUEST_NULL;
    const int la = link_axis;
    if (la >= 0 && (nbr[la][0] != MPI_PROC_NULL || nbr[la][1] != MPI_PROC_NULL)) {
        h->linked = 1;
        h->link_axis = la;
        for (int side = 0; side < 2; side++) {
            h->link_nbr[side] = nbr[la][side];
            if (nbr[la][side] != MPI_PROC_NULL)
                h->bytes_per_step += (double)face_values(h, la) * sizeof(yee_real);
            nbr[la][side] = MPI_PROC_NULL; /* not the halo's */
        }
        for (int k = 0; k < 2; k++)
            h->link_send[k] = (yee_real *)malloc(face_values(h, la) * sizeof(yee_real));
        if (!h->link_send[0] || !h->link_send[1]) {
            yee_halo_destroy(h);
            return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the linked face buffers");
        }
    }
    for (int a = 0; a < 3; a++) {
        h->nbr[a][0] = nbr[a][0];
        h->nbr[a][1] = nbr[a][1];
        for (int side = 0; side < 2; side++)
            if (nbr[a][side] != MPI_PROC_NULL) {
                h->active = 1;
                /* each side sends one field's two tangential components per step */
                h->bytes_per_step += (double)face_values(h, a) * sizeof(yee_real);
            }
    }
    h->overlap = overlap;
    if (h->active) {
        int ok = 0;
        if (mpi_reads_device_memory(cuda_aware) && (ok = alloc_buffers(h, 1)))
            h->device_buffers = 1;
        if (!ok && !alloc_buffers(h, 0)) {
            yee_halo_destroy(h);
            return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the halo buffers");
        }
    }
    *out = h;
    return YEE_OK;
}

/* E ghosts live on the high side (layer n receives the upper neighbour's layer 0), H ghosts on
 * the low side (layer -1 receives the lower neighbour's layer n-1). */
static int receiving(const yee_halo *h, yee_field_kind kind, int a)
{
    return h->nbr[a][kind == YEE_FIELD_E ? 1 : 0] != MPI_PROC_NULL;
}

int yee_halo_start(yee_halo *h, yee_field_kind kind, long step, yee_err *err)
{
    if (!h->active)
        return YEE_OK;
    const double t0 = MPI_Wtime();
    const MPI_Datatype type = sizeof(yee_real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT;
    h->nreq = 0;
    for (int a = 0; a < 3; a++) {
        const int count = (int)face_values(h, a);
        const int to = h->nbr[a][kind == YEE_FIELD_E ? 0 : 1];
        const int from = h->nbr[a][kind == YEE_FIELD_E ? 1 : 0];
        h->recv_axis[a] = from != MPI_PROC_NULL;
        if (from != MPI_PROC_NULL)
            MPI_Irecv(h->recv[a], count, type, from, 2 * a + (int)kind, h->cart,
                      &h->req[h->nreq++]);
        if (to != MPI_PROC_NULL) {
            YEE_TRY(h->be->pack_halo(h->ctx, kind, a, kind == YEE_FIELD_E ? 0 : h->n[a] - 1,
                                     (yee_real *)h->send[a], err));
            MPI_Isend(h->send[a], count, type, to, 2 * a + (int)kind, h->cart,
                      &h->req[h->nreq++]);
        }
    }
    h->pending = (int)kind;
    h->exchange_s += MPI_Wtime() - t0;
    return h->overlap ? YEE_OK : yee_halo_settle(h, step, err);
}

int yee_halo_settle(yee_halo *h, long step, yee_err *err)
{
    if (h->pending < 0)
        return YEE_OK;
    const yee_field_kind kind = (yee_field_kind)h->pending;
    h->pending = -1;
    const double t0 = MPI_Wtime();
    const int rc = h->nreq ? MPI_Waitall(h->nreq, h->req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    const double t1 = MPI_Wtime();
    h->nreq = 0;
    if (rc != MPI_SUCCESS)
        return yee_fail(err, YEE_ERR_MPI, "halo exchange failed at step %ld", step);
    for (int a = 0; a < 3; a++)
        if (h->recv_axis[a])
            YEE_TRY(h->be->unpack_halo(h->ctx, kind, a, kind == YEE_FIELD_E ? h->n[a] : -1,
                                       (const yee_real *)h->recv[a], err));
    h->wait_s += t1 - t0;
    h->exchange_s += MPI_Wtime() - t0;
    return YEE_OK;
}

void yee_halo_split(const yee_halo *h, yee_field_kind kind, yee_halo_split_boxes *out)
{
    memset(out, 0, sizeof *out);
    /* the ghosts this update reads: E ghosts for the H update, H ghosts for the E update */
    const yee_field_kind ghosts = kind == YEE_FIELD_H ? YEE_FIELD_E : YEE_FIELD_H;
    if (!h->active || !h->overlap || h->pending != (int)ghosts) {
        out->whole = 1;
        return;
    }
    /* the cells next to a receiving face: layer n-1 (H, reading E ghosts at n) or 0 (E, reading
     * H ghosts at -1); the interior is the rest */
    yee_box inner = {{0, 0, 0}, {h->n[0], h->n[1], h->n[2]}};
    int recv[3];
    for (int a = 0; a < 3; a++) {
        recv[a] = receiving(h, ghosts, a);
        if (recv[a] && kind == YEE_FIELD_H)
            inner.hi[a] = h->n[a] - 1;
        else if (recv[a])
            inner.lo[a] = 1;
    }
    /* the interior in chunks of planes (z, the slowest axis: each chunk streams contiguous
     * memory), so MPI can be progressed between them */
    const int ax = 2;
    const int len = inner.hi[ax] - inner.lo[ax];
    const int chunks = len < YEE_HALO_CHUNKS ? 1 : YEE_HALO_CHUNKS;
    for (int q = 0; q < chunks && !yee_box_empty(inner); q++) {
        yee_box part = inner;
        part.lo[ax] = inner.lo[ax] + (int)((long)len * q / chunks);
        part.hi[ax] = inner.lo[ax] + (int)((long)len * (q + 1) / chunks);
        out->interior[out->ninterior++] = part;
    }
    /* the boundary layers as disjoint boxes: axis a's layer spans the interior range of the
     * axes before it (their layers are done) and the whole range of the axes after it */
    for (int a = 0; a < 3; a++) {
        if (!recv[a])
            continue;
        yee_box layer = {{0, 0, 0}, {h->n[0], h->n[1], h->n[2]}};
        layer.lo[a] = kind == YEE_FIELD_H ? h->n[a] - 1 : 0;
        layer.hi[a] = layer.lo[a] + 1;
        for (int b = 0; b < a; b++) {
            layer.lo[b] = inner.lo[b];
            layer.hi[b] = inner.hi[b];
        }
        if (!yee_box_empty(layer))
            out->boundary[out->nboundary++] = layer;
    }
}

void yee_halo_progress(yee_halo *h)
{
    int done = 0;
    if (h->nreq)
        MPI_Testall(h->nreq, h->req, &done, MPI_STATUSES_IGNORE);
}

/* ---- linked faces (yee_face_link): H goes up, E goes down, one tag per kind ---- */

enum { LINK_TAG = 16 }; /* the halo's tags are 0..5 */

static MPI_Datatype real_type(void)
{
    return sizeof(yee_real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT;
}

static int link_send(void *user, yee_field_kind kind, const yee_real *buf, yee_err *err)
{
    yee_halo *h = (yee_halo *)user;
    const double t0 = MPI_Wtime();
    const int count = (int)face_values(h, h->link_axis);
    /* the previous message of this kind has left before its buffer is reused */
    int rc = MPI_Wait(&h->link_req[kind], MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) {
        memcpy(h->link_send[kind], buf, (size_t)count * sizeof(yee_real));
        rc = MPI_Isend(h->link_send[kind], count, real_type(),
                       h->link_nbr[kind == YEE_FIELD_H ? 1 : 0], LINK_TAG + (int)kind, h->cart,
                       &h->link_req[kind]);
    }
    h->exchange_s += MPI_Wtime() - t0;
    return rc == MPI_SUCCESS ? YEE_OK
                             : yee_fail(err, YEE_ERR_MPI, "sending a %c face to a neighbour failed",
                                        "xyz"[h->link_axis]);
}

static int link_recv(void *user, yee_field_kind kind, yee_real *buf, yee_err *err)
{
    yee_halo *h = (yee_halo *)user;
    const double t0 = MPI_Wtime();
    const int rc = MPI_Recv(buf, (int)face_values(h, h->link_axis), real_type(),
                            h->link_nbr[kind == YEE_FIELD_H ? 0 : 1], LINK_TAG + (int)kind,
                            h->cart, MPI_STATUS_IGNORE);
    const double dt = MPI_Wtime() - t0;
    h->wait_s += dt;
    h->exchange_s += dt;
    return rc == MPI_SUCCESS
               ? YEE_OK
               : yee_fail(err, YEE_ERR_MPI, "receiving a %c face from a neighbour failed",
                          "xyz"[h->link_axis]);
}

void yee_halo_link(yee_halo *h, yee_face_link *out)
{
    memset(out, 0, sizeof *out);
    if (!h || !h->linked)
        return;
    out->low = h->link_nbr[0] != MPI_PROC_NULL;
    out->high = h->link_nbr[1] != MPI_PROC_NULL;
    out->send = link_send;
    out->recv = link_recv;
    out->user = h;
}

int yee_halo_active(const yee_halo *h)
{
    return h && h->active;
}

void yee_halo_get_stats(const yee_halo *h, yee_halo_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!h)
        return;
    out->active = h->active || h->linked;
    out->overlap = h->active && h->overlap;
    out->linked = h->linked;
    out->device_buffers = h->device_buffers;
    out->wait_s = h->wait_s;
    out->exchange_s = h->exchange_s;
    out->bytes_per_step = h->bytes_per_step;
}

void yee_halo_destroy(yee_halo *h)
{
    if (!h)
        return;
    /* An exchange left in flight by a failure must not write into freed buffers. It completes:
     * a rank failing in the middle of a multi-rank run ends the job (solver/sim.c), so what
     * can be left is a rank's exchange with itself across a periodic axis. */
    if (h->nreq)
        MPI_Waitall(h->nreq, h->req, MPI_STATUSES_IGNORE);
    MPI_Waitall(2, h->link_req, MPI_STATUSES_IGNORE);
    free(h->link_send[0]);
    free(h->link_send[1]);
    free_buffers(h);
    free(h);
}
