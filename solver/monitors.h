/* solver/monitors.h -- the probes and snapshots of a run on one rank (flux and DFT monitors are
 * solver/dft.h): where they sample, when they are due, and their output.
 *
 * A "completed step" s = n + 1 labels output: E at time s dt, H at (s - 1/2) dt.
 *   Probes sample every completed step s <= steps into row s - 1 of their series; the samples of
 *   all owned probes form one list (yee_monitors_probe_samples), so a step's plan can read them
 *   inside the backend (kernels/backend.h yee_step_plan) and yee_monitors_store_probes files
 *   them into the series.
 *   Snapshots leave the backend in two halves, so that a GPU copies frame s while it computes
 *   step s+1 (backend.h copy_start/copy_finish): yee_monitors_start_frames queues the copies of
 *   the frames due at s, yee_monitors_write_frames writes them once the next step's H update is
 *   under way (or at the end of the run). Every rank takes part in each HDF5 write.
 */
#ifndef YEE_SOLVER_MONITORS_H
#define YEE_SOLVER_MONITORS_H

#include <mpi.h>
#include <stddef.h>

#include "common/yee_err.h"
#include "io/h5out.h"
#include "kernels/backend.h"
#include "model/config.h"

typedef struct yee_monitors yee_monitors;

/* The probes and snapshots of cfg on the subdomain of n cells at global offset, read through
 * backend be (ctx). Errors: YEE_ERR_NOMEM, YEE_ERR_UNSUPPORTED (more than 64 snapshot
 * components). */
int yee_monitors_create(const yee_config *cfg, const int n[3], const int offset[3],
                        const yee_backend_ops *be, void *ctx, yee_monitors **out, yee_err *err);

/* The samples of every probe this rank owns, in one list (count returned, *pts valid as long as
 * the monitors). */
int yee_monitors_probe_samples(const yee_monitors *m, const yee_sample **pts);
/* Files the values of that list read after completed step s into the series (nothing past the
 * deck's last step). */
void yee_monitors_store_probes(yee_monitors *m, long s, const yee_real *values);
/* 1 if a snapshot frame is due after completed step s. */
int yee_monitors_frames_due(const yee_monitors *m, long s);
/* Queues the copies of the frames due after completed step s (backend copy_start). */
int yee_monitors_start_frames(yee_monitors *m, long s, yee_err *err);
/* Writes the frames queued by the last start_frames into h5 (and legacy VTK where asked, on a
 * single rank). Collective. */
int yee_monitors_write_frames(yee_monitors *m, yee_h5 *h5, int nranks, yee_err *err);

/* Defines the snapshot datasets in h5; a restarted run (frames already counted) gets the labels
 * of the frames its predecessor wrote. Collective. */
int yee_monitors_define_output(yee_monitors *m, yee_h5 *h5, int restarted, yee_err *err);
/* Writes every probe's series up to completed step s: the columns meet on rank 0 of comm, which
 * writes them. Collective. */
int yee_monitors_write_probes(const yee_monitors *m, yee_h5 *h5, long s, MPI_Comm comm,
                              yee_err *err);

/* The state a checkpoint keeps: each owned probe's rows so far and each snapshot's frame
 * counter, handed to fn one record at a time (save: fn reads data; restore: fn fills it). */
typedef int (*yee_record_fn)(void *arg, const char *tag, void *data, size_t bytes, yee_err *err);
int yee_monitors_records(yee_monitors *m, long rows, yee_record_fn fn, void *arg, yee_err *err);

/* Bytes the probe series of cfg take on one rank at most. */
size_t yee_monitors_bytes_estimate(const yee_config *cfg);

void yee_monitors_destroy(yee_monitors *m);

#endif
