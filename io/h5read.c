/* io/h5read.c -- reading probe series back from a run's HDF5 file (see io/h5out.h for layout). */
#include "io/h5read.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

/* Names of the probes in the file, comma-separated, for a helpful error. */
static herr_t collect_name(hid_t g, const char *name, const H5L_info_t *info, void *op)
{
    char *list = (char *)op;
    size_t used = strlen(list);
    snprintf(list + used, 512 - used, "%s%s", used ? ", " : "", name);
    return 0;
}

static int read_double_attr(hid_t obj, const char *name, double *out, int n)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0)
        return -1;
    hid_t sp = H5Aget_space(a);
    hssize_t have = H5Sget_simple_extent_npoints(sp);
    H5Sclose(sp);
    int rc = -1;
    if (have == n)
        rc = H5Aread(a, H5T_NATIVE_DOUBLE, out) < 0 ? -1 : 0;
    H5Aclose(a);
    return rc;
}

static int read_string_attr(hid_t obj, const char *name, char *out, size_t cap)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0)
        return -1;
    hid_t t = H5Aget_type(a);
    int rc = -1;
    if (H5Tget_class(t) == H5T_STRING) {
        if (H5Tis_variable_str(t) > 0) {
            char *s = NULL;
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, H5T_VARIABLE);
            H5Tset_cset(mt, H5Tget_cset(t)); /* a UTF-8 attribute will not convert to ASCII */
            if (H5Aread(a, mt, &s) >= 0 && s) {
                snprintf(out, cap, "%s", s);
                H5free_memory(s);
                rc = 0;
            }
            H5Tclose(mt);
        } else {
            size_t len = H5Tget_size(t);
            char *buf = (char *)calloc(len + 1, 1);
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, len + 1);
            if (buf && H5Aread(a, mt, buf) >= 0) {
                snprintf(out, cap, "%s", buf);
                rc = 0;
            }
            H5Tclose(mt);
            free(buf);
        }
    }
    H5Tclose(t);
    H5Aclose(a);
    return rc;
}

int yee_h5_read_probe(const char *path, const char *probe, yee_probe_series *out, yee_err *err)
{
    memset(out, 0, sizeof *out);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return yee_fail(err, YEE_ERR_IO, "cannot open '%s' as an HDF5 file", path);
    int rc = YEE_OK;
    char where[512];
    snprintf(where, sizeof where, "/probes/%s", probe);
    hid_t d = H5Lexists(f, "/probes", H5P_DEFAULT) > 0 && H5Lexists(f, where, H5P_DEFAULT) > 0
                  ? H5Dopen2(f, where, H5P_DEFAULT)
                  : -1;
    if (d < 0) {
        char names[512] = "";
        hid_t g = H5Gopen2(f, "/probes", H5P_DEFAULT);
        if (g >= 0) {
            H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, NULL, collect_name, names);
            H5Gclose(g);
        }
        rc = yee_fail(err, YEE_ERR_IO, "'%s' has no probe '%s' (probes: %s)", path, probe,
                      names[0] ? names : "none");
        H5Fclose(f);
        return rc;
    }
    hid_t sp = H5Dget_space(d);
    hsize_t dims[2] = {0, 0};
    char comps[64] = "";
    if (H5Sget_simple_extent_ndims(sp) != 2 || H5Sget_simple_extent_dims(sp, dims, NULL) < 0 ||
        dims[1] < 1 || dims[1] > 6 || read_double_attr(d, "dt", &out->dt, 1) < 0 ||
        read_double_attr(d, "t0", out->t0, (int)dims[1]) < 0 ||
        read_string_attr(d, "components", comps, sizeof comps) < 0) {
        rc = yee_fail(err, YEE_ERR_IO, "'%s': %s is not a yee probe dataset", path, where);
    } else {
        out->ncomp = (int)dims[1];
        out->nsteps = (long)dims[0];
        char *save = NULL;
        int c = 0;
        for (char *tok = strtok_r(comps, ",", &save); tok && c < 6; tok = strtok_r(NULL, ",", &save))
            snprintf(out->components[c++], sizeof out->components[0], "%s", tok);
        out->data = (double *)malloc((size_t)(dims[0] * dims[1]) * sizeof(double) + 1);
        if (!out->data)
            rc = yee_fail(err, YEE_ERR_NOMEM, "cannot hold probe '%s'", probe);
        else if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->data) < 0)
            rc = yee_fail(err, YEE_ERR_IO, "'%s': cannot read %s", path, where);
    }
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
    if (rc < 0)
        yee_probe_series_free(out);
    return rc;
}

void yee_probe_series_free(yee_probe_series *s)
{
    free(s->data);
    s->data = NULL;
}
