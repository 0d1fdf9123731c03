/* io/vtk.h -- legacy VTK writer (binary STRUCTURED_POINTS or RECTILINEAR_GRID, big-endian as the
 * format requires).
 * Used for snapshots whose deck asks for `vtk = true` and for geometry previews. Host only.
 */
#ifndef YEE_IO_VTK_H
#define YEE_IO_VTK_H

#include <stdint.h>

#include "common/yee_err.h"
#include "common/yee_real.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write one scalar field `field_name` on n[0] x n[1] x n[2] points (x fastest in data) with the
 * given origin and spacing (um) to path. coords (may be NULL) gives per axis the n[a] point
 * coordinates (um) of a graded axis, NULL for a uniform one: with any axis given the file is a
 * RECTILINEAR_GRID (X|Y|Z_COORDINATES as float64, origin + i spacing on the uniform axes), else
 * STRUCTURED_POINTS with ORIGIN and SPACING. Values are written as float32 (or float64 in a
 * double build). Returns YEE_OK or YEE_ERR_IO with the path and errno text. */
int yee_vtk_write_points(const char *path, const char *title, const char *field_name,
                         const int64_t n[3], const double origin[3], const double spacing[3],
                         const double *const coords[3], const yee_real *data, yee_err *err);

#ifdef __cplusplus
}
#endif

#endif
