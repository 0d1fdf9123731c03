/* io/h5read.h -- read back what a run wrote (post-processing tools and tests), and the 3-D
 * datasets a deck's voxel objects name. Serial HDF5 access on the calling process; the file must
 * be closed by the writer. No HDF5 type crosses this header.
 */
#ifndef YEE_IO_H5READ_H
#define YEE_IO_H5READ_H

#include <stddef.h>
#include <stdint.h>

#include "common/yee_err.h"
#include "common/yee_real.h"
#include "model/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A probe's time series, converted to double. */
typedef struct yee_probe_series {
    int ncomp;
    char components[6][4];  /* "Ex", ... */
    long nsteps;
    double dt;              /* c-units between rows */
    double t0[6];           /* c-units, time of row 0 per component */
    double *data;           /* nsteps x ncomp, row-major; owned */
} yee_probe_series;

/* Read /probes/<probe> of the file at path. Errors: YEE_ERR_IO naming file and probe (and the
 * probes the file does have when the name is wrong). */
int yee_h5_read_probe(const char *path, const char *probe, yee_probe_series *out, yee_err *err);

void yee_probe_series_free(yee_probe_series *s);

/* The column of component `name` ("Ez", case-insensitive; NULL or "": the first), -1 if the
 * probe does not record it. */
int yee_probe_column(const yee_probe_series *s, const char *name);

/* The first row of column col at or after time start (c-units), within [0, nsteps]. */
long yee_probe_first_row(const yee_probe_series *s, int col, double start);

/* ---- snapshots of a run file (layout: io/h5out.h, docs/output.md) ---- */

/* A run file opened for reading; opaque. */
typedef struct yee_h5_reader yee_h5_reader;

/* Open path read-only. Errors: YEE_ERR_IO "cannot open 'path': no such file" or "... is not an
 * HDF5 file". Close with yee_h5_reader_close (NULL is fine). */
int yee_h5_reader_open(const char *path, yee_h5_reader **out, yee_err *err);
void yee_h5_reader_close(yee_h5_reader *r);

/* Member names of one group, sorted (HDF5 name order). */
typedef struct yee_name_list {
    int n;
    char (*name)[YEE_NAME_LEN]; /* n names; owned */
} yee_name_list;

/* Members of `group` ("/snapshots", "/snapshots/xy"); a missing group gives n = 0, not an error.
 * Errors: YEE_ERR_NOMEM. Free with yee_name_list_free. */
int yee_h5_list(yee_h5_reader *r, const char *group, yee_name_list *out, yee_err *err);
void yee_name_list_free(yee_name_list *l);

/* String attribute `attr` of the root group (e.g. "name"); -1 when absent or not a string. */
int yee_h5_root_string(yee_h5_reader *r, const char *attr, char *out, size_t cap);

/* n doubles of root attribute `attr` (e.g. "dx", 3); -1 when absent or of another length. */
int yee_h5_root_doubles(yee_h5_reader *r, const char *attr, double *out, int n);

/* A whole 4-D float64 dataset (nfreq, nz, ny, nx) of frequency-domain fields (a DFT monitor's, a
 * flux face's; solver/dft.c) with its attributes origin[3] (um, node [f, 0, 0, 0]) and
 * spacing[3] (um). */
typedef struct yee_h5_block {
    int64_t nfreq;
    int64_t n[3];          /* nx, ny, nz */
    double origin[3], spacing[3];
    double *coord[3];      /* the nodes' coordinates per axis (um, n[a] each) from
                            * /coordinates/<dataset> (io/h5out.h), owned; NULL in files
                            * written before yee kept them (then origin + i spacing) */
    double *data;          /* nfreq * nz * ny * nx, x fastest; owned */
} yee_h5_block;

/* Read `dataset` (absolute path) of r. Errors: YEE_ERR_IO naming the file and dataset (missing,
 * not 4-D, no origin/spacing), YEE_ERR_NOMEM. Free with yee_h5_block_free (also after failure). */
int yee_h5_read_field_block(yee_h5_reader *r, const char *dataset, yee_h5_block *out,
                            yee_err *err);
void yee_h5_block_free(yee_h5_block *b);

/* What /snapshots/<monitor>/<comp> holds. */
typedef struct yee_snapshot_meta {
    int64_t n[3];          /* nodes along x, y, z (the dataset is (nframes, n[2], n[1], n[0])) */
    long nframes;          /* frames the dataset has room for */
    long frames_written;   /* frames actually written (a run stopped early writes fewer) */
    double origin[3];      /* um, node [f, 0, 0, 0] */
    double spacing[3];     /* um */
    int is_double;         /* stored as float64 (a double build), else float32 */
    long *steps;           /* nframes time steps, -1 for a frame never written; owned */
    double *times_fs;      /* nframes times, fs (NaN never written); owned */
} yee_snapshot_meta;

/* Read the shape and attributes of /snapshots/<monitor>/<comp>. Errors: YEE_ERR_IO naming the
 * file and dataset when it is missing or lacks a yee attribute; YEE_ERR_NOMEM. Free with
 * yee_snapshot_meta_free. */
int yee_h5_snapshot_meta(yee_h5_reader *r, const char *monitor, const char *comp,
                         yee_snapshot_meta *out, yee_err *err);
void yee_snapshot_meta_free(yee_snapshot_meta *m);

/* Read frame `frame` of /snapshots/<monitor>/<comp> into data (n[0]*n[1]*n[2] values, x
 * fastest), converted to yee_real by HDF5 (exact when the file's precision is this build's).
 * Errors: YEE_ERR_IO (missing dataset, frame out of range, read failure). */
int yee_h5_snapshot_frame(yee_h5_reader *r, const char *monitor, const char *comp, long frame,
                          yee_real *data, yee_err *err);

/* ---- voxel data of a deck's geometry (io/deck_voxels.c) ---- */

/* A whole 3-D dataset, stored (nz, ny, nx) with x fastest as every yee array. */
typedef struct yee_h5_array3 {
    int64_t n[3];          /* nx, ny, nz (the dataset's dims reversed) */
    int is_integer;        /* the file's datatype is an integer type */
    int file_opened;       /* 1 once the file opened: a failure after it is the dataset's */
    double *data;          /* n[0]*n[1]*n[2] values, x fastest; owned */
} yee_h5_array3;

/* Read dataset `name` of the HDF5 file at path, converted to double. Errors (YEE_ERR_IO, message
 * without location, for the deck reader to prefix with file:line): a missing or unreadable file,
 * a missing dataset (the message lists the datasets the root has), a rank other than 3, an empty
 * extent, a type that is neither integer nor float; YEE_ERR_NOMEM. Free with
 * yee_h5_array3_free. */
int yee_h5_read_array3(const char *path, const char *name, yee_h5_array3 *out, yee_err *err);
void yee_h5_array3_free(yee_h5_array3 *a);

/* ---- flux spectra: /flux/<monitor> with frequency (c/um), flux and, after a run with a
 * reference, normalized (docs/output.md). Used by `yee sweep` results. ---- */

typedef struct yee_flux_spectrum {
    long nfreq;
    int normalized; /* value holds /flux/<monitor>/normalized, else .../flux */
    double *freq;   /* nfreq frequencies, c/um; owned */
    double *value;  /* nfreq values; owned */
} yee_flux_spectrum;

/* Read /flux/<monitor> of the file at path (normalized when present, else flux). Errors:
 * YEE_ERR_IO naming the file and monitor (listing the flux monitors the file has), a missing
 * dataset or datasets of different lengths; YEE_ERR_NOMEM. Free with yee_flux_spectrum_free. */
int yee_h5_read_flux_spectrum(const char *path, const char *monitor, yee_flux_spectrum *out,
                              yee_err *err);
void yee_flux_spectrum_free(yee_flux_spectrum *s);

/* ---- frequency-domain data of an earlier run (flux references, solver/dft.c) ---- */

/* Read the 1-D dataset `dataset` (absolute path) of the file at path as doubles; *data is
 * allocated (free it). Errors: YEE_ERR_IO naming file and dataset, YEE_ERR_NOMEM. */
int yee_h5_read_vector(const char *path, const char *dataset, double **data, int64_t *n,
                       yee_err *err);

/* Read nodes [start, start+count) of every frequency of the 4-D dataset (nfreq, nz, ny, nx)
 * `dataset` into data (nfreq, count[2], count[1], count[0]); the dataset's shape must be
 * (nfreq, shape[2], shape[1], shape[0]). Errors: YEE_ERR_IO (missing, other shape). */
int yee_h5_read_block(const char *path, const char *dataset, int nfreq, const int64_t shape[3],
                      const int64_t start[3], const int64_t count[3], double *data, yee_err *err);

#ifdef __cplusplus
}
#endif

#endif
