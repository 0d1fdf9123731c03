/* io/h5read.h -- read back what a run wrote (post-processing tools and tests).
 * Serial HDF5 access on the calling process; the file must be closed by the writer.
 */
#ifndef YEE_IO_H5READ_H
#define YEE_IO_H5READ_H

#include "common/yee_err.h"

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

#ifdef __cplusplus
}
#endif

#endif
