/* io/h5read.c -- reading a run's HDF5 file back (probe series, snapshot frames; layout in
 * io/h5out.h) and the 3-D datasets of a deck's voxel objects. Serial access with H5P_DEFAULT on
 * the calling process: these files are small next to a run, and every reader is one process. */
#include "io/h5read.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

int yee_probe_column(const yee_probe_series *s, const char *name)
{
    if (!name || !name[0])
        return s->ncomp > 0 ? 0 : -1;
    for (int c = 0; c < s->ncomp; c++)
        if (strcasecmp(s->components[c], name) == 0)
            return c;
    return -1;
}

long yee_probe_first_row(const yee_probe_series *s, int col, double start)
{
    long first = (long)ceil((start - s->t0[col]) / s->dt);
    if (first < 0)
        first = 0;
    if (first > s->nsteps)
        first = s->nsteps;
    return first;
}

/* ---- snapshots ---- */

struct yee_h5_reader {
    hid_t file;
    char path[YEE_PATH_LEN];
};

/* Open read-only, telling a missing file (errno) from a file that is not HDF5. */
static hid_t open_readonly(const char *path, yee_err *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        yee_fail(err, YEE_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    fclose(fp);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        yee_fail(err, YEE_ERR_IO, "cannot open '%s': not an HDF5 file", path);
    return f;
}

int yee_h5_reader_open(const char *path, yee_h5_reader **out, yee_err *err)
{
    *out = NULL;
    yee_h5_reader *r = (yee_h5_reader *)calloc(1, sizeof *r);
    if (!r)
        return yee_fail(err, YEE_ERR_NOMEM, "cannot allocate a reader for '%s'", path);
    r->file = open_readonly(path, err);
    if (r->file < 0) {
        free(r);
        return YEE_ERR_IO;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    *out = r;
    return YEE_OK;
}

void yee_h5_reader_close(yee_h5_reader *r)
{
    if (!r)
        return;
    if (r->file >= 0)
        H5Fclose(r->file);
    free(r);
}

static herr_t append_name(hid_t g, const char *name, const H5L_info_t *info, void *op)
{
    yee_name_list *l = (yee_name_list *)op;
    char(*grown)[YEE_NAME_LEN] =
        (char(*)[YEE_NAME_LEN])realloc(l->name, (size_t)(l->n + 1) * sizeof *l->name);
    if (!grown)
        return -1; /* stops the iteration; the caller reports NOMEM */
    l->name = grown;
    snprintf(l->name[l->n++], YEE_NAME_LEN, "%s", name);
    return 0;
}

/* Members of group `group` of file f (none when the group is missing). */
static int list_group(hid_t f, const char *group, yee_name_list *out, yee_err *err)
{
    out->n = 0;
    out->name = NULL;
    if (strcmp(group, "/") != 0 && H5Lexists(f, group, H5P_DEFAULT) <= 0)
        return YEE_OK;
    hid_t g = H5Gopen2(f, group, H5P_DEFAULT);
    if (g < 0)
        return YEE_OK; /* a dataset, not a group: it has no members */
    herr_t rc = H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, NULL, append_name, out);
    H5Gclose(g);
    if (rc < 0) {
        yee_name_list_free(out);
        return yee_fail(err, YEE_ERR_NOMEM, "cannot list the members of %s", group);
    }
    return YEE_OK;
}

int yee_h5_list(yee_h5_reader *r, const char *group, yee_name_list *out, yee_err *err)
{
    return list_group(r->file, group, out, err);
}

void yee_name_list_free(yee_name_list *l)
{
    free(l->name);
    l->name = NULL;
    l->n = 0;
}

int yee_h5_root_string(yee_h5_reader *r, const char *attr, char *out, size_t cap)
{
    return read_string_attr(r->file, attr, out, cap);
}

int yee_h5_root_doubles(yee_h5_reader *r, const char *attr, double *out, int n)
{
    return read_double_attr(r->file, attr, out, n);
}

static double *read_vector(hid_t g, const char *name, long *len);

int yee_h5_read_field_block(yee_h5_reader *r, const char *dataset, yee_h5_block *out,
                            yee_err *err)
{
    memset(out, 0, sizeof *out);
    hid_t d = H5Lexists(r->file, dataset, H5P_DEFAULT) > 0 ? H5Dopen2(r->file, dataset, H5P_DEFAULT)
                                                           : -1;
    if (d < 0)
        return yee_fail(err, YEE_ERR_IO, "'%s' has no dataset '%s'", r->path, dataset);
    hid_t fs = H5Dget_space(d);
    hsize_t dims[4] = {0, 0, 0, 0};
    int rc = YEE_OK;
    if (fs < 0 || H5Sget_simple_extent_ndims(fs) != 4 ||
        H5Sget_simple_extent_dims(fs, dims, NULL) < 0)
        rc = yee_fail(err, YEE_ERR_IO, "'%s:%s' is not a 4-D dataset (nfreq, nz, ny, nx)",
                      r->path, dataset);
    else if (read_double_attr(d, "origin", out->origin, 3) < 0 ||
             read_double_attr(d, "spacing", out->spacing, 3) < 0)
        rc = yee_fail(err, YEE_ERR_IO, "'%s:%s' lacks its origin and spacing attributes",
                      r->path, dataset);
    if (rc == YEE_OK) {
        out->nfreq = (int64_t)dims[0];
        for (int a = 0; a < 3; a++)
            out->n[a] = (int64_t)dims[3 - a];
        const size_t total = (size_t)dims[0] * dims[1] * dims[2] * dims[3];
        out->data = (double *)malloc((total ? total : 1) * sizeof(double));
        if (!out->data)
            rc = YEE_FAIL(err, YEE_ERR_NOMEM, "'%s:%s': %zu values", r->path, dataset, total);
        else if (total && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                  out->data) < 0)
            rc = yee_fail(err, YEE_ERR_IO, "cannot read '%s:%s'", r->path, dataset);
    }
    for (int a = 0; a < 3 && rc == YEE_OK; a++) {
        char cpath[1024];
        snprintf(cpath, sizeof cpath, "/coordinates%s/%c", dataset, "xyz"[a]);
        long len = 0;
        if (H5Lexists(r->file, "/coordinates", H5P_DEFAULT) > 0)
            H5E_BEGIN_TRY { out->coord[a] = read_vector(r->file, cpath, &len); } H5E_END_TRY;
        if (out->coord[a] && len != out->n[a])
            rc = yee_fail(err, YEE_ERR_IO, "'%s:%s' has %ld coordinates for %lld nodes", r->path,
                          cpath, len, (long long)out->n[a]);
    }
    if (fs >= 0)
        H5Sclose(fs);
    H5Dclose(d);
    return rc;
}

void yee_h5_block_free(yee_h5_block *b)
{
    free(b->data);
    b->data = NULL;
    for (int a = 0; a < 3; a++) {
        free(b->coord[a]);
        b->coord[a] = NULL;
    }
}

/* Open /snapshots/<monitor>/<comp>, or fail naming it. */
static hid_t open_snapshot(yee_h5_reader *r, const char *monitor, const char *comp,
                           char *where, size_t cap, yee_err *err)
{
    snprintf(where, cap, "/snapshots/%s/%s", monitor, comp);
    char group[YEE_NAME_LEN + 16];
    snprintf(group, sizeof group, "/snapshots/%s", monitor);
    hid_t d = H5Lexists(r->file, "/snapshots", H5P_DEFAULT) > 0 &&
                      H5Lexists(r->file, group, H5P_DEFAULT) > 0 &&
                      H5Lexists(r->file, where, H5P_DEFAULT) > 0
                  ? H5Dopen2(r->file, where, H5P_DEFAULT)
                  : -1;
    if (d < 0)
        yee_fail(err, YEE_ERR_IO, "'%s' has no dataset %s", r->path, where);
    return d;
}

/* The n-element 1-D dataset `name` under `group` (an open group) as doubles; -1 when absent or
 * of another size. */
static int read_double_dataset(hid_t group, const char *name, double *out, long n)
{
    if (H5Lexists(group, name, H5P_DEFAULT) <= 0)
        return -1;
    hid_t d = H5Dopen2(group, name, H5P_DEFAULT);
    if (d < 0)
        return -1;
    hid_t sp = H5Dget_space(d);
    int rc = -1;
    if (sp >= 0 && H5Sget_simple_extent_npoints(sp) == (hssize_t)n)
        rc = n == 0 || H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0
                 ? 0 : -1;
    if (sp >= 0)
        H5Sclose(sp);
    H5Dclose(d);
    return rc;
}

/* Steps and times (fs) of the n frames of snapshot d: the datasets under
 * /snapshot_labels/<monitor>/<comp>, or in files of earlier yee versions the attributes of d. */
static int read_labels(yee_h5_reader *r, const char *monitor, const char *comp, hid_t d,
                       double *steps, double *times_fs, long n)
{
    char group[2 * YEE_NAME_LEN + 24];
    snprintf(group, sizeof group, "/snapshot_labels/%s/%s", monitor, comp);
    char mon[YEE_NAME_LEN + 24];
    snprintf(mon, sizeof mon, "/snapshot_labels/%s", monitor);
    if (H5Lexists(r->file, "/snapshot_labels", H5P_DEFAULT) > 0 &&
        H5Lexists(r->file, mon, H5P_DEFAULT) > 0 && H5Lexists(r->file, group, H5P_DEFAULT) > 0) {
        hid_t g = H5Gopen2(r->file, group, H5P_DEFAULT);
        if (g < 0)
            return -1;
        int rc = read_double_dataset(g, "steps", steps, n) < 0 ||
                         read_double_dataset(g, "times_fs", times_fs, n) < 0
                     ? -1 : 0;
        H5Gclose(g);
        return rc;
    }
    return read_double_attr(d, "steps", steps, (int)n) < 0 ||
                   read_double_attr(d, "times_fs", times_fs, (int)n) < 0
               ? -1 : 0;
}

int yee_h5_snapshot_meta(yee_h5_reader *r, const char *monitor, const char *comp,
                         yee_snapshot_meta *out, yee_err *err)
{
    memset(out, 0, sizeof *out);
    char where[2 * YEE_NAME_LEN + 16];
    hid_t d = open_snapshot(r, monitor, comp, where, sizeof where, err);
    if (d < 0)
        return YEE_ERR_IO;
    int rc = YEE_OK;
    hid_t sp = H5Dget_space(d), t = H5Dget_type(d);
    hsize_t dims[4] = {0, 0, 0, 0};
    if (H5Sget_simple_extent_ndims(sp) != 4 || H5Sget_simple_extent_dims(sp, dims, NULL) < 0 ||
        H5Tget_class(t) != H5T_FLOAT || read_double_attr(d, "origin", out->origin, 3) < 0 ||
        read_double_attr(d, "spacing", out->spacing, 3) < 0) {
        rc = yee_fail(err, YEE_ERR_IO, "'%s': %s is not a yee snapshot dataset (want 4-D float "
                      "(nframes, nz, ny, nx) with origin and spacing attributes)", r->path, where);
        goto done;
    }
    out->is_double = H5Tget_size(t) == 8;
    out->nframes = (long)dims[0];
    for (int a = 0; a < 3; a++)
        out->n[a] = (int64_t)dims[3 - a];
    const size_t nf = dims[0] ? (size_t)dims[0] : 1;
    double *steps = (double *)malloc(nf * sizeof *steps);
    out->steps = (long *)malloc(nf * sizeof *out->steps);
    out->times_fs = (double *)malloc(nf * sizeof *out->times_fs);
    if (!steps || !out->steps || !out->times_fs) {
        free(steps);
        rc = yee_fail(err, YEE_ERR_NOMEM, "cannot hold the frame labels of %s", where);
        goto done;
    }
    /* frames_written is absent from files of older yee versions: then every labelled frame */
    double fw = -1;
    if (read_labels(r, monitor, comp, d, steps, out->times_fs, (long)dims[0]) < 0) {
        free(steps);
        rc = yee_fail(err, YEE_ERR_IO, "'%s': %s has no frame labels (steps, times_fs) of %ld "
                      "frames", r->path, where, out->nframes);
        goto done;
    }
    read_double_attr(d, "frames_written", &fw, 1);
    long written = 0;
    for (long f = 0; f < out->nframes; f++) {
        out->steps[f] = (long)steps[f];
        if (out->steps[f] >= 0)
            written = f + 1;
    }
    out->frames_written = fw >= 0 ? (long)fw : written;
    free(steps);
done:
    H5Tclose(t);
    H5Sclose(sp);
    H5Dclose(d);
    if (rc < 0)
        yee_snapshot_meta_free(out);
    return rc;
}

void yee_snapshot_meta_free(yee_snapshot_meta *m)
{
    free(m->steps);
    m->steps = NULL;
    free(m->times_fs);
    m->times_fs = NULL;
}

int yee_h5_snapshot_frame(yee_h5_reader *r, const char *monitor, const char *comp, long frame,
                          yee_real *data, yee_err *err)
{
    char where[2 * YEE_NAME_LEN + 16];
    hid_t d = open_snapshot(r, monitor, comp, where, sizeof where, err);
    if (d < 0)
        return YEE_ERR_IO;
    int rc = YEE_OK;
    hid_t fs = H5Dget_space(d), ms = -1;
    hsize_t dims[4] = {0, 0, 0, 0};
    if (H5Sget_simple_extent_ndims(fs) != 4 || H5Sget_simple_extent_dims(fs, dims, NULL) < 0 ||
        frame < 0 || (hsize_t)frame >= dims[0]) {
        rc = yee_fail(err, YEE_ERR_IO, "'%s': %s has no frame %ld", r->path, where, frame);
    } else {
        hsize_t off[4] = {(hsize_t)frame, 0, 0, 0}, cnt[4] = {1, dims[1], dims[2], dims[3]};
        ms = H5Screate_simple(3, dims + 1, NULL);
        const hid_t mt = sizeof(yee_real) == 8 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
        if (ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL) < 0 ||
            H5Dread(d, mt, ms, fs, H5P_DEFAULT, data) < 0)
            rc = yee_fail(err, YEE_ERR_IO, "'%s': cannot read frame %ld of %s", r->path, frame,
                          where);
    }
    if (ms >= 0)
        H5Sclose(ms);
    H5Sclose(fs);
    H5Dclose(d);
    return rc;
}

/* ---- voxel datasets ---- */

int yee_h5_read_array3(const char *path, const char *name, yee_h5_array3 *out, yee_err *err)
{
    memset(out, 0, sizeof *out);
    hid_t f = open_readonly(path, err);
    if (f < 0)
        return YEE_ERR_IO;
    out->file_opened = 1;
    int rc = YEE_OK;
    hid_t d = H5Lexists(f, name, H5P_DEFAULT) > 0 ? H5Dopen2(f, name, H5P_DEFAULT) : -1;
    if (d < 0) {
        yee_name_list l;
        char names[512] = "";
        size_t used = 0;
        if (list_group(f, "/", &l, err) == YEE_OK) {
            for (int i = 0; i < l.n && used < sizeof names - 1; i++)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                         i ? ", " : "", l.name[i]);
            yee_name_list_free(&l);
        }
        rc = yee_fail(err, YEE_ERR_IO, "'%s' has no dataset '%s' (it has: %s)", path, name,
                      names[0] ? names : "nothing");
        H5Fclose(f);
        return rc;
    }
    hid_t sp = H5Dget_space(d), t = H5Dget_type(d);
    const H5T_class_t cls = H5Tget_class(t);
    const int rank = H5Sget_simple_extent_ndims(sp);
    hsize_t dims[H5S_MAX_RANK];
    if (rank < 0 || H5Sget_simple_extent_dims(sp, dims, NULL) < 0) {
        rc = yee_fail(err, YEE_ERR_IO, "'%s': cannot read the shape of '%s'", path, name);
    } else if (rank != 3) {
        char shape[128] = "";
        size_t used = 0;
        for (int a = 0; a < rank && used < sizeof shape - 1; a++)
            used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%llu", a ? " x " : "",
                                     (unsigned long long)dims[a]);
        rc = yee_fail(err, YEE_ERR_IO, "'%s:%s' must be a 3-D array (nz, ny, nx) (got %d-D%s%s)",
                      path, name, rank, rank ? ", " : "", shape);
    } else if (dims[0] == 0 || dims[1] == 0 || dims[2] == 0) {
        rc = yee_fail(err, YEE_ERR_IO, "'%s:%s' is empty (got %llu x %llu x %llu)", path, name,
                      (unsigned long long)dims[0], (unsigned long long)dims[1],
                      (unsigned long long)dims[2]);
    } else if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
        rc = yee_fail(err, YEE_ERR_IO, "'%s:%s' must hold numbers (integers or floats)", path,
                      name);
    } else {
        for (int a = 0; a < 3; a++)
            out->n[a] = (int64_t)dims[2 - a];
        out->is_integer = cls == H5T_INTEGER;
        const size_t total = (size_t)dims[0] * dims[1] * dims[2];
        out->data = (double *)malloc(total * sizeof(double));
        if (!out->data)
            rc = yee_fail(err, YEE_ERR_NOMEM, "cannot hold '%s:%s' (%zu values)", path, name,
                          total);
        else if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->data) < 0)
            rc = yee_fail(err, YEE_ERR_IO, "'%s': cannot read '%s'", path, name);
    }
    H5Tclose(t);
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
    if (rc < 0) {
        yee_h5_array3_free(out);
        out->file_opened = 1;
    }
    return rc;
}

void yee_h5_array3_free(yee_h5_array3 *a)
{
    free(a->data);
    a->data = NULL;
}

/* ---- flux spectra (see h5read.h) ---- */

/* The 1-D dataset g/name (or an absolute path from the file) as doubles in a new array, its
 * length in *len; NULL when missing or not 1-D. */
static double *read_vector(hid_t g, const char *name, long *len)
{
    if (H5Lexists(g, name, H5P_DEFAULT) <= 0)
        return NULL;
    hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
    if (d < 0)
        return NULL;
    hid_t sp = H5Dget_space(d);
    hsize_t dims[1] = {0};
    double *v = NULL;
    if (H5Sget_simple_extent_ndims(sp) == 1 && H5Sget_simple_extent_dims(sp, dims, NULL) == 1) {
        v = (double *)malloc((size_t)dims[0] * sizeof *v + 1);
        if (v && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0) {
            free(v);
            v = NULL;
        }
        *len = (long)dims[0];
    }
    H5Sclose(sp);
    H5Dclose(d);
    return v;
}

int yee_h5_read_flux_spectrum(const char *path, const char *monitor, yee_flux_spectrum *out,
                              yee_err *err)
{
    memset(out, 0, sizeof *out);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return yee_fail(err, YEE_ERR_IO, "cannot open '%s' as an HDF5 file", path);
    char where[512];
    snprintf(where, sizeof where, "/flux/%s", monitor);
    hid_t g = H5Lexists(f, "/flux", H5P_DEFAULT) > 0 && H5Lexists(f, where, H5P_DEFAULT) > 0
                  ? H5Gopen2(f, where, H5P_DEFAULT)
                  : -1;
    if (g < 0) {
        char names[512] = "";
        hid_t all = H5Gopen2(f, "/flux", H5P_DEFAULT);
        if (all >= 0) {
            H5Literate(all, H5_INDEX_NAME, H5_ITER_INC, NULL, collect_name, names);
            H5Gclose(all);
        }
        H5Fclose(f);
        return yee_fail(err, YEE_ERR_IO, "'%s' has no flux monitor '%s' (flux monitors: %s)",
                        path, monitor, names[0] ? names : "none");
    }
    long nf = -1, nv = -1;
    out->freq = read_vector(g, "frequency", &nf);
    out->normalized = H5Lexists(g, "normalized", H5P_DEFAULT) > 0;
    out->value = read_vector(g, out->normalized ? "normalized" : "flux", &nv);
    H5Gclose(g);
    H5Fclose(f);
    if (!out->freq || !out->value || nf != nv || nf < 1) {
        yee_flux_spectrum_free(out);
        return yee_fail(err, YEE_ERR_IO, "'%s': %s needs 1-D datasets frequency and %s of one "
                        "length", path, where, out->normalized ? "normalized" : "flux");
    }
    out->nfreq = nf;
    return YEE_OK;
}

void yee_flux_spectrum_free(yee_flux_spectrum *s)
{
    free(s->freq);
    free(s->value);
    s->freq = NULL;
    s->value = NULL;
}

/* ---- frequency-domain data of a reference run (solver/dft.c) ---- */

int yee_h5_read_vector(const char *path, const char *dataset, double **data, int64_t *n,
                       yee_err *err)
{
    *data = NULL;
    *n = 0;
    hid_t f = open_readonly(path, err);
    if (f < 0)
        return YEE_ERR_IO;
    long len = 0;
    double *v = read_vector(f, dataset, &len); /* an absolute path opens from the file */
    H5Fclose(f);
    if (!v)
        return yee_fail(err, YEE_ERR_IO, "'%s' has no 1-D dataset '%s'", path, dataset);
    *data = v;
    *n = len;
    return YEE_OK;
}

int yee_h5_read_block(const char *path, const char *dataset, int nfreq, const int64_t shape[3],
                      const int64_t start[3], const int64_t count[3], double *data, yee_err *err)
{
    hid_t f = open_readonly(path, err), d = -1, fs = -1, ms = -1;
    if (f < 0)
        return YEE_ERR_IO;
    d = H5Dopen2(f, dataset, H5P_DEFAULT);
    int rc = YEE_OK;
    if (d < 0)
        rc = yee_fail(err, YEE_ERR_IO, "'%s' has no dataset '%s'", path, dataset);
    hsize_t dims[4] = {0, 0, 0, 0};
    if (rc == YEE_OK) {
        fs = H5Dget_space(d);
        if (H5Sget_simple_extent_ndims(fs) != 4 || H5Sget_simple_extent_dims(fs, dims, NULL) < 0 ||
            dims[0] != (hsize_t)nfreq || dims[1] != (hsize_t)shape[2] ||
            dims[2] != (hsize_t)shape[1] || dims[3] != (hsize_t)shape[0])
            rc = yee_fail(err, YEE_ERR_IO,
                          "'%s:%s' has shape (%llu, %llu, %llu, %llu), expected (%d, %lld, %lld, "
                          "%lld)", path, dataset, (unsigned long long)dims[0],
                          (unsigned long long)dims[1], (unsigned long long)dims[2],
                          (unsigned long long)dims[3], nfreq, (long long)shape[2],
                          (long long)shape[1], (long long)shape[0]);
    }
    if (rc == YEE_OK) {
        hsize_t off[4] = {0, (hsize_t)start[2], (hsize_t)start[1], (hsize_t)start[0]};
        hsize_t cnt[4] = {(hsize_t)nfreq, (hsize_t)count[2], (hsize_t)count[1],
                          (hsize_t)count[0]};
        ms = H5Screate_simple(4, cnt, NULL);
        if (H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL) < 0 ||
            H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, data) < 0)
            rc = yee_fail(err, YEE_ERR_IO, "cannot read '%s:%s'", path, dataset);
    }
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    if (d >= 0)
        H5Dclose(d);
    if (f >= 0)
        H5Fclose(f);
    return rc;
}
