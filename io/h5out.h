/* io/h5out.h -- the run's HDF5 file (parallel HDF5, one file per run) and its XDMF sidecar.
 *
 * Every call is collective over the communicator given to yee_h5_create, even on one rank; a rank
 * with no data for a write passes a zero count. Layout of the file (docs/output.md):
 *   /                      attributes: yee_version, name, deck (text), n[3], dx[3] (um),
 *                          origin[3] (um, lower corner of the domain), dt (c-units), dt_fs,
 *                          steps, precision, units
 *   /snapshots/<monitor>/<Comp>   (nframes, nz, ny, nx) of yee_real, x fastest; attributes
 *                          origin[3] (um, position of element [f,0,0,0] of this staggered
 *                          component, x y z order), spacing[3] (um), steps[nframes], times[nframes]
 *                          (c-units) and times_fs[nframes]
 *   /probes/<monitor>      (nsteps, ncomp) of yee_real; attributes components ("Ex,Ez"),
 *                          position[ncomp][3] (um, the grid node sampled per component),
 *                          t0[ncomp] (c-units, time of row 0 per component), dt (c-units)
 * yee_h5_close writes <file without .h5>.xmf so ParaView opens the snapshots directly.
 * This module is the only includer of hdf5.h; its header exposes none of it.
 */
#ifndef YEE_IO_H5OUT_H
#define YEE_IO_H5OUT_H

#include <mpi.h>
#include <stdint.h>

#include "common/yee_err.h"
#include "common/yee_real.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yee_h5 yee_h5;

/* Create (truncate) the file at path and write the run attributes. deck_text may be NULL. */
int yee_h5_create(const char *path, MPI_Comm comm, const yee_config *cfg, const char *deck_text,
                  yee_h5 **out, yee_err *err);

/* Define /snapshots/<monitor>/<component name>, shape (nframes, shape[2], shape[1], shape[0]).
 * shape is (nx, ny, nz) of the sampled nodes; origin/spacing in um. Returns an id in *out_id. */
int yee_h5_snapshot_define(yee_h5 *h, const char *monitor, int component, const int64_t shape[3],
                           const double origin[3], const double spacing[3], long nframes,
                           int *out_id, yee_err *err);

/* Write frame `frame` (0-based) of snapshot `id`: this rank's block starting at start[3] (x,y,z
 * node offsets inside the snapshot) of count[3] nodes, data x fastest. step/time label the frame. */
int yee_h5_snapshot_write(yee_h5 *h, int id, long frame, long step, double time,
                          const int64_t start[3], const int64_t count[3], const yee_real *data,
                          yee_err *err);

/* Write /probes/<monitor>: nsteps rows of ncomp values (row-major). Only the owning rank passes
 * data (others NULL); positions[3*c] is the node sampled for component comps[c], t0[c] the time
 * of row 0 for it (c-units) and dt the row spacing. */
int yee_h5_probe_write(yee_h5 *h, const char *monitor, int ncomp, const int *comps,
                       const double *positions, const double *t0, double dt, long nsteps,
                       const yee_real *data, yee_err *err);

/* Flush and close the file; rank 0 writes the XDMF sidecar. Frees h (also on failure). */
int yee_h5_close(yee_h5 *h, yee_err *err);

#ifdef __cplusplus
}
#endif

#endif
