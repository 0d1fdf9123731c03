/* postproc/export_vtk.h -- `yee export-vtk RUN.h5 [...]`: snapshot frames of a finished run's
 * HDF5 file as legacy VTK files, the same files a run writes with a monitor's `vtk = true`
 * (name <run>_<monitor>_<Comp>_<step, 6 digits>.vtk, same header and values). For runs on many
 * ranks, where the run itself writes no VTK, or runs made without `vtk = true`.
 * Reads the file; never runs a simulation and never touches MPI (the caller runs it on one rank).
 */
#ifndef YEE_POSTPROC_EXPORT_VTK_H
#define YEE_POSTPROC_EXPORT_VTK_H

#include "common/yee_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which frames of which datasets to export. */
typedef struct yee_export_vtk_options {
    const char *path;      /* the run's HDF5 file */
    const char *monitor;   /* one snapshot monitor, or NULL: every monitor of the file */
    const char *component; /* one component ("Ez", case-insensitive), or NULL: every one */
    long frame;            /* frame index (0-based; negative counts from the last written) */
    long step;             /* time step of the frame, used when has_step */
    int has_frame, has_step, all; /* at most one; none: the last written frame */
    const char *out_dir;   /* NULL: the folder of path */
    int quiet;             /* do not list the files written */
} yee_export_vtk_options;

/* Export the selected frames; prints "wrote PATH" per file to stdout unless quiet. Errors
 * (YEE_ERR_IO unless said): the file cannot be opened; no snapshot monitor of that name, or no
 * component of that name (the message lists the ones the file has); no frame of that index or
 * step (it lists the steps written); a monitor with no frame written; a VTK file that cannot be
 * written; YEE_ERR_NOMEM. The export stops at the first error. */
int yee_export_vtk(const yee_export_vtk_options *o, int *nfiles, yee_err *err);

/* The subcommand: argv[0] is "export-vtk", the options follow (`yee export-vtk --help`,
 * from app/commands.c).
 * Returns the exit status: 0, 1 (an error above, printed as "yee export-vtk: error: ..."), 2 (bad
 * command line). */
int yee_export_vtk_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
