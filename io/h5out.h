/* io/h5out.h -- the run's HDF5 file (parallel HDF5, one file per run) and its XDMF sidecar.
 *
 * Every call is collective over the communicator given to yee_h5_create, even on one rank; a rank
 * with no data for a write passes a zero count. Layout of the file (docs/output.md):
 *   /                      attributes: yee_version, name, deck (text), n[3], dx[3] (um),
 *                          origin[3] (um, lower corner of the domain), dt (c-units), dt_fs,
 *                          steps, precision, units, bloch[3] (1/um), complex_fields (1: the
 *                          fields are complex; snapshots and probes hold their real part)
 *   /mesh/x|y|z            (n[a] + 1) float64: the cell edges of each axis (um), graded or not
 *   /snapshots/<monitor>/<Comp>   (nframes, nz, ny, nx) of yee_real, x fastest; attributes
 *                          origin[3] (um, position of element [f,0,0,0] of this staggered
 *                          component, x y z order), spacing[3] (um; the base spacing, nominal on
 *                          a graded axis), frames_written (int64: frames [0, frames_written) are
 *                          whole in the file), labels (the path below) and coordinates (below)
 *   /coordinates/<path of a dataset>/x|y|z   (nx), (ny), (nz) float64: the node coordinates (um)
 *                          of every snapshot, DFT and flux-face dataset, graded axis or not, named
 *                          by the dataset's string attribute `coordinates`. Datasets, not
 *                          attributes, so that any grid fits (attributes stop at 64 KiB).
 *   /snapshot_labels/<monitor>/<Comp>/steps|times|times_fs   (nframes) int64, float64 (c-units),
 *                          float64 (fs): each frame's step and time; -1 / NaN for a frame not
 *                          written. Datasets, not attributes, so that any number of frames fits
 *                          (files of earlier yee versions have them as attributes of the snapshot).
 * Crash safety: the file is flushed at yee_h5_flush, by yee_h5_frames_done at most every
 * yee_h5_set_flush_seconds (default 5 s; the first frame always), and at close. Between flushes only
 * raw frame data is written (datasets are allocated at definition), so a process killed at any
 * point leaves a file that opens and whose frames_written/labels describe whole frames. The values
 * of /mesh and /coordinates, like the labels, go into the file at the next flush, after
 * yee_h5_reserve has kept the blocks of the whole file.
 *   /probes/<monitor>      (nsteps, ncomp) of yee_real; attributes components ("Ex,Ez"),
 *                          position[ncomp][3] (um, the grid node sampled per component),
 *                          t0[ncomp] (c-units, time of row 0 per component), dt (c-units)
 *   /flux/<monitor>/...    frequency (c/um), frequency_thz, flux, [reference, normalized], and
 *                          face<f>/<Comp>_re|_im DFT fields (solver/dft.h says which)
 *   /dft/<monitor>/<Comp>_re|_im  (nfreq, nz, ny, nx) float64, attrs origin, spacing,
 *                          coordinates; frequency
 * yee_h5_close writes <file without .h5>.xmf so ParaView opens the snapshots directly: a
 * 3DCoRectMesh (origin and spacing) for a snapshot on uniform axes, a 3DRectMesh (VXVYVZ, the
 * /coordinates datasets) for one on a graded axis.
 * This module is the only includer of hdf5.h; its header exposes none of it.
 */
#ifndef YEE_IO_H5OUT_H
#define YEE_IO_H5OUT_H

#include <mpi.h>
#include <stdint.h>

#include "common/yee_err.h"
#include "common/yee_real.h"
#include "model/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yee_h5 yee_h5;

/* Create (truncate) the file at path and write the run attributes and /mesh (the cell edges,
 * model/nodes.h yee_mesh_line). deck_text may be NULL. */
int yee_h5_create(const char *path, MPI_Comm comm, const yee_config *cfg, const char *deck_text,
                  yee_h5 **out, yee_err *err);

/* Reopen the file a run wrote up to a checkpoint (read-write, collective) to continue it after
 * `yee run --restart`: snapshot_define then opens the existing datasets (their shape must be the
 * one the run defines) and later frames are written into them; root attributes and the
 * geometry are left as they are. Fails with YEE_ERR_IO naming the file when it is missing. */
int yee_h5_reopen(const char *path, MPI_Comm comm, yee_h5 **out, yee_err *err);

/* Write every buffered change to the file (collective): the file on disk then holds all frames
 * written so far and opens cleanly, even if the process is killed before yee_h5_close. */
int yee_h5_flush(yee_h5 *h, yee_err *err);

/* 1 once this process closed a file whose writes failed (a full disk, an I/O error), on every
 * rank alike. HDF5 1.10 keeps such a file in a state its own shutdown (at MPI_Finalize or exit)
 * crashes on, so the application ends the process without that shutdown (app/main.c). */
int yee_h5_shutdown_unsafe(void);

/* Reserve disk blocks for the whole file (collective): its datasets as defined so far (snapshot
 * frames are allocated at definition), more_bytes for what is written at close (probes,
 * spectra) and a margin for metadata. A file system without room fails here, before the run
 * takes a step, with the size needed ("not enough room for the output ..."); one that cannot
 * reserve blocks (fallocate unsupported) is not an error. With the blocks reserved, later writes
 * into the file do not meet a full disk. */
int yee_h5_reserve(yee_h5 *h, double more_bytes, yee_err *err);

/* Most seconds between the flushes yee_h5_frames_done makes (the deck's output.flush_seconds;
 * default 5; 0: after every frame). Only rank 0's value counts. */
void yee_h5_set_flush_seconds(yee_h5 *h, double seconds);

/* Call after the components of a snapshot frame are written (collective): flushes (labels,
 * frames_written, H5Fflush) when the last flush is at least the flush interval old by rank 0's
 * clock, or none was made after a frame yet. */
int yee_h5_frames_done(yee_h5 *h, yee_err *err);

/* Node coordinates (um) of component comp's global nodes glo[a] .. glo[a] + count[a] - 1 on each
 * graded axis a of cfg (cfg->mesh[a]), for the `coords` arguments below and of io/vtk.h:
 * coords[a] is allocated there and NULL on a uniform axis (described by the first node and
 * cfg->dx), also on a graded axis whose nodes are exactly first + i dx[a] (a plane's one node).
 * Errors: YEE_ERR_NOMEM (coords all NULL). Free with yee_h5_coords_free (NULLs are fine). */
int yee_h5_node_coords(const yee_config *cfg, int comp, const int glo[3], const int count[3],
                       double *coords[3], yee_err *err);
void yee_h5_coords_free(double *coords[3]);

/* Define /snapshots/<monitor>/<component name>, shape (nframes, shape[2], shape[1], shape[0]).
 * shape is (nx, ny, nz) of the sampled nodes; origin/spacing in um. coords[a], when not NULL,
 * holds the shape[a] node coordinates (um) of a graded axis a; NULL: origin[a] + i spacing[a].
 * Writes /coordinates/snapshots/<monitor>/<Comp>/x|y|z either way (replacing those of a
 * restarted run's file). The same on every rank. Returns an id in *out_id. */
int yee_h5_snapshot_define(yee_h5 *h, const char *monitor, int component, const int64_t shape[3],
                           const double origin[3], const double spacing[3],
                           const double *const coords[3], long nframes, int *out_id,
                           yee_err *err);

/* Write frame `frame` (0-based) of snapshot `id`: this rank's block starting at start[3] (x,y,z
 * node offsets inside the snapshot) of count[3] nodes, data x fastest. step/time label the frame. */
int yee_h5_snapshot_write(yee_h5 *h, int id, long frame, long step, double time,
                          const int64_t start[3], const int64_t count[3], const yee_real *data,
                          yee_err *err);

/* Record the label of frame `frame` of snapshot id without writing data: a frame the run wrote
 * before the checkpoint a restarted run continues from, so that the labels written at flush and
 * close and the XDMF are complete. Same on every rank; not collective. */
int yee_h5_snapshot_label(yee_h5 *h, int id, long frame, long step, double time, yee_err *err);

/* Write /probes/<monitor>: nsteps rows of ncomp values (row-major). Only the owning rank passes
 * data (others NULL); positions[3*c] is the node sampled for component comps[c], t0[c] the time
 * of row 0 for it (c-units) and dt the row spacing. */
int yee_h5_probe_write(yee_h5 *h, const char *monitor, int ncomp, const int *comps,
                       const double *positions, const double *t0, double dt, long nsteps,
                       const yee_real *data, yee_err *err);

/* Write the 1-D float64 dataset `path` ("/flux/trans/flux": groups are created) of n values.
 * Collective; every rank passes the same data (rank 0's is written). attr_name/attr_text, when
 * not NULL, add one string attribute to it (units, a description). */
int yee_h5_vector_write(yee_h5 *h, const char *path, int64_t n, const double *data,
                        const char *attr_name, const char *attr_text, yee_err *err);

/* Write the float64 dataset `path` of shape (nfreq, shape[2], shape[1], shape[0]) (frequency-
 * domain fields: a DFT monitor's real or imaginary part) with this rank's block at start[3] of
 * count[3] nodes, data (nfreq, count[2], count[1], count[0]); a rank without nodes passes
 * count 0. Attributes origin[3] and spacing[3] (um) and node coordinates /coordinates<path>/x|y|z
 * from coords (global, the same on every rank) as for snapshots. Collective. */
int yee_h5_block_write(yee_h5 *h, const char *path, int nfreq, const int64_t shape[3],
                       const int64_t start[3], const int64_t count[3], const double *data,
                       const double origin[3], const double spacing[3],
                       const double *const coords[3], yee_err *err);

/* ---- a small table file (not a run file): `yee bands` writes bands.h5 with it ---- */

/* One float64 column: the 1-D dataset `path` ("/modes/freq": groups are created) of n values,
 * with the string attribute "units" when units is not NULL. */
typedef struct yee_h5_column {
    const char *path;
    int64_t n;
    const double *data;
    const char *units;
} yee_h5_column;

/* Create (truncate) the file at path on the calling process alone (not collective), write the
 * columns and the root string attributes attr_names[i] = attr_values[i], and close it. Errors:
 * YEE_ERR_IO naming the file and the object. */
int yee_h5_write_table(const char *path, const yee_h5_column *cols, int ncols,
                       const char *const *attr_names, const char *const *attr_values, int nattrs,
                       yee_err *err);

/* One float64 array: the 3-D dataset `path` of shape (shape[2], shape[1], shape[0]), data x
 * fastest, with the string attribute "units" when units is not NULL. */
typedef struct yee_h5_array {
    const char *path;
    const double *data;
    const char *units;
    int64_t shape[3];
} yee_h5_array;

/* yee_h5_write_table with 3-D arrays besides the columns (`yee modes`' profiles). */
int yee_h5_write_arrays(const char *path, const yee_h5_column *cols, int ncols,
                        const yee_h5_array *arrays, int narrays, const char *const *attr_names,
                        const char *const *attr_values, int nattrs, yee_err *err);

/* Flush and close the file; rank 0 writes the XDMF sidecar. Frees h (also on failure). */
int yee_h5_close(yee_h5 *h, yee_err *err);

#ifdef __cplusplus
}
#endif

#endif
