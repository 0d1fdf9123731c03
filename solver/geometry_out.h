/* solver/geometry_out.h -- write the rasterized permittivity of a subdomain (deck key
 * output.geometry): HDF5 /snapshots/geometry/<Ex|Ey|Ez> (one frame, collective over the run's
 * ranks) and, on a one-rank run, legacy VTK files <out_dir>/<name>_geometry_eps<C>.vtk.
 */
#ifndef YEE_SOLVER_GEOMETRY_OUT_H
#define YEE_SOLVER_GEOMETRY_OUT_H

#include "common/yee_err.h"
#include "model/config.h"
#include "io/h5out.h"
#include "solver/structure.h"

/* Collective on h's communicator. Errors: YEE_ERR_NOMEM, YEE_ERR_IO. */
int yee_geometry_write(yee_h5 *h, const yee_config *cfg, const yee_structure *g, int nranks,
                       yee_err *err);

/* `yee check --geometry DIR`: rasterize the whole grid on this process alone and write
 * DIR/<name>_geometry.h5 (+ .xmf) and the VTK files, without running anything. The directory
 * must exist. Writes the file path into path_out. Errors: YEE_ERR_NOMEM, YEE_ERR_IO. */
int yee_geometry_preview(const yee_config *cfg, const char *dir, char *path_out, size_t cap,
                         yee_err *err);

#endif
