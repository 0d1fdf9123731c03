/* io/h5out.c -- the run's HDF5 file through parallel HDF5 (MPI-IO driver, even on one rank), and
 * the XDMF sidecar that lets ParaView read the snapshots without a plugin.
 *
 * Every entry point is collective: dataset and attribute creation take identical arguments on all
 * ranks, data goes through collective transfers, and a rank without data selects nothing but still
 * takes part. Argument checks are agreed with one MPI_Allreduce before any collective HDF5 call, so
 * a bad block on one rank fails every rank instead of leaving the others waiting in H5Dwrite.
 * This file does not decide what to sample or when; solver/ does.
 */
#define _GNU_SOURCE /* fallocate(2) with FALLOC_FL_KEEP_SIZE (yee_h5_reserve) */
#include "io/h5out.h"
#include "model/nodes.h"
#include "model/resolution.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#ifndef YEE_VERSION
#define YEE_VERSION "0.1.0"
#endif

#ifdef YEE_DOUBLE
#define H5_REAL H5T_NATIVE_DOUBLE
#else
#define H5_REAL H5T_NATIVE_FLOAT
#endif

#define UNITS_TEXT                                                                                 \
    "length: um; time: c-units (1 = um/c = 3.33564 fs); fields: normalized (eps0 = mu0 = c = 1, " \
    "H stored as eta0*H)"

/* Names of the frame-label datasets under /snapshot_labels/<monitor>/<Comp>/. They are datasets,
 * not attributes of the snapshot: attributes live in the object header, whose 64 KiB limit ends
 * at about 8000 frames, and a dataset's elements can be rewritten in place at every flush. */
enum { LAB_STEPS, LAB_TIMES, LAB_TIMES_FS, NLAB };
static const char *const lab_name[NLAB] = {"steps", "times", "times_fs"};

/* Seconds between two flushes after snapshot frames until yee_h5_set_flush_seconds says
 * otherwise (the deck's output.flush_seconds): a flush ends in MPI_File_sync (fsync), which waits
 * for the frame data to reach the disk, so a run writing large frames often would otherwise pay
 * that wait at every frame (docs/output.md). */
#define FLUSH_SECONDS_DEFAULT 5.0

/* Free bytes a file system must have for yee_h5_create to start (see check_space). */
#define YEE_H5_MIN_FREE (128 * 1024)

/* Bytes yee_h5_reserve adds for what HDF5 allocates after the reservation (object headers,
 * heaps, the metadata written at flushes and at close). */
#define YEE_H5_RESERVE_MARGIN (1024.0 * 1024.0)

/* One /snapshots/<monitor>/<Comp> dataset and the frame labels collected for it. The labels are
 * kept in memory (identical on every rank) and copied into the label datasets at every flush and
 * at close: frames [dirty_lo, dirty_hi) changed since the last copy. */
typedef struct snap {
    char monitor[YEE_NAME_LEN];
    int component;
    int64_t shape[3]; /* nx, ny, nz */
    double origin[3];
    double spacing[3];
    int graded;          /* coordinates given on some axis: the XDMF grid is a 3DRectMesh */
    long nframes;
    long frames_written; /* highest written frame + 1 */
    long *steps;         /* [nframes], -1 until written */
    double *times;       /* [nframes], NaN until written */
    hid_t dset;
    hid_t lab[NLAB];     /* /snapshot_labels/<monitor>/<Comp>/{steps,times,times_fs} */
    long dirty_lo, dirty_hi;
    long fw_in_file;     /* the frames_written attribute as last written; -1: not yet */
} snap;

/* A small float64 dataset (node coordinates, mesh lines) created but not yet written: its values
 * go into the file at the next flush (write_pending), after yee_h5_reserve has kept the disk
 * blocks, as frame labels do; a disk too small for the run is then refused before any raw data
 * is written. Identical on every rank. */
typedef struct pending_vec {
    hid_t dset;
    hsize_t n;
    double *v;
} pending_vec;

struct yee_h5 {
    char path[YEE_PATH_LEN];
    MPI_Comm comm;
    int rank;
    hid_t file;
    hid_t dxpl; /* collective transfer list */
    int nsnaps, cap;
    snap *snaps;
    int reopened; /* yee_h5_reopen: snapshot datasets exist already */
    double flush_every; /* seconds between flushes after frames (rank 0's value counts) */
    double last_flush;  /* MPI_Wtime of the last flush; < 0: none after a frame yet */
    int failed;         /* a write or flush of this file failed (yee_h5_shutdown_unsafe) */
    int npend, pend_cap;
    pending_vec *pend;  /* datasets whose values the next flush writes */
};

/* Set once a file whose writes failed has been closed (or could not be): see
 * yee_h5_shutdown_unsafe. */
static int shutdown_unsafe;

int yee_h5_shutdown_unsafe(void)
{
    return shutdown_unsafe;
}

/* ---- small helpers ---- */

/* Innermost HDF5 error description (the one that says what really went wrong). */
static herr_t first_error(unsigned n, const H5E_error2_t *e, void *data)
{
    char *buf = (char *)data;
    if (n == 0 && e->desc)
        snprintf(buf, 512, "%s", e->desc);
    return 0;
}

static const char *h5_reason(char buf[512])
{
    buf[0] = '\0';
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, first_error, buf);
    if (!buf[0])
        snprintf(buf, 512, "HDF5 error");
    return buf;
}

/* YEE_ERR_IO naming the file and the object; `what` says which operation failed. */
#define H5_FAIL(h, err, what, obj)                                                                 \
    do {                                                                                           \
        char why_[512];                                                                            \
        return YEE_FAIL((err), YEE_ERR_IO, "%s '%s%s%s': %s", (what), (h)->path,                  \
                        (obj)[0] ? ":" : "", (obj), h5_reason(why_));                              \
    } while (0)

static int all_ok(MPI_Comm comm, int ok)
{
    int all = 0;
    if (MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return 0;
    return all;
}

/* Write (creating or overwriting) attribute `name` on loc: type `type`, rank 0..2 dims. */
static herr_t set_attr(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *dims,
                       const void *buf)
{
    hid_t space = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims, NULL);
    if (space < 0)
        return -1;
    hid_t a;
    htri_t exists = H5Aexists(loc, name);
    if (exists > 0)
        a = H5Aopen(loc, name, H5P_DEFAULT);
    else if (exists == 0)
        a = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    else
        a = -1;
    herr_t rc = a < 0 ? -1 : H5Awrite(a, type, buf);
    if (a >= 0 && H5Aclose(a) < 0)
        rc = -1;
    H5Sclose(space);
    return rc;
}

/* Strings are variable-length UTF-8: h5py returns them as str, and a long deck does not hit the
 * 64 KiB limit of attributes in the object header (the text lives in the global heap). */
static herr_t set_str_attr(hid_t loc, const char *name, const char *text)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return -1;
    herr_t rc = H5Tset_size(t, H5T_VARIABLE);
    if (rc >= 0)
        rc = H5Tset_cset(t, H5T_CSET_UTF8);
    const char *p = text ? text : "";
    if (rc >= 0)
        rc = set_attr(loc, name, t, 0, NULL, &p);
    H5Tclose(t);
    return rc;
}

static herr_t set_doubles(hid_t loc, const char *name, hsize_t n, const double *v)
{
    return set_attr(loc, name, H5T_NATIVE_DOUBLE, 1, &n, v);
}

/* Open group `name` under loc, creating it when missing. */
static hid_t open_or_create_group(hid_t loc, const char *name)
{
    htri_t exists = H5Lexists(loc, name, H5P_DEFAULT);
    if (exists > 0)
        return H5Gopen2(loc, name, H5P_DEFAULT);
    if (exists == 0)
        return H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    return -1;
}

/* In a reopened file (a restart), a dataset written once more replaces the one a run wrote after
 * its checkpoint (e.g. killed while writing its probes at the end): drop the old link first. */
static void drop_stale(const yee_h5 *h, hid_t g, const char *name)
{
    if (h->reopened && H5Lexists(g, name, H5P_DEFAULT) > 0)
        H5Ldelete(g, name, H5P_DEFAULT);
}

/* Create the groups of an absolute path's parent ("/a/b/c" -> /a, /a/b); returns the innermost
 * group (close it) and points *leaf at the last element. */
static hid_t parent_group(hid_t file, const char *path, char *buf, size_t cap, const char **leaf)
{
    snprintf(buf, cap, "%s", path[0] == '/' ? path + 1 : path);
    hid_t g = H5Gopen2(file, "/", H5P_DEFAULT);
    char *p = buf;
    for (char *slash; g >= 0 && (slash = strchr(p, '/')); p = slash + 1) {
        *slash = '\0';
        hid_t next = open_or_create_group(g, p);
        H5Gclose(g);
        g = next;
    }
    *leaf = p;
    return g;
}

/* Create the 1-D float64 dataset `name` of n >= 1 values under loc, replacing one of that name
 * (a restarted run's), and queue its values for the next flush (pending_vec). Collective. */
static herr_t create_small_vector(yee_h5 *h, hid_t loc, const char *name, hsize_t n,
                                  const double *data)
{
    double *copy = (double *)malloc((size_t)n * sizeof *copy);
    if (h->npend == h->pend_cap && copy) {
        int cap = h->pend_cap ? 2 * h->pend_cap : 16;
        pending_vec *p = (pending_vec *)realloc(h->pend, (size_t)cap * sizeof *p);
        if (p) {
            h->pend = p;
            h->pend_cap = cap;
        }
    }
    /* agreed: a rank that cannot allocate must not leave the others in a collective call */
    if (!all_ok(h->comm, copy && h->npend < h->pend_cap)) {
        free(copy);
        return -1;
    }
    memcpy(copy, data, (size_t)n * sizeof *copy);
    htri_t exists = H5Lexists(loc, name, H5P_DEFAULT);
    if (exists < 0 || (exists > 0 && H5Ldelete(loc, name, H5P_DEFAULT) < 0)) {
        free(copy);
        return -1;
    }
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t dset = space < 0 ? -1
                           : H5Dcreate2(loc, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                                        H5P_DEFAULT, H5P_DEFAULT);
    if (space >= 0)
        H5Sclose(space);
    if (dset < 0) {
        free(copy);
        return -1;
    }
    h->pend[h->npend].dset = dset;
    h->pend[h->npend].n = n;
    h->pend[h->npend].v = copy;
    h->npend++;
    return 0;
}

/* Write and close the queued datasets: rank 0 writes the values (the same on every rank), the
 * others select none, as a collective transfer needs. Every one is closed and freed, also after
 * a failure (a file cannot close with datasets open). Collective. */
static herr_t write_pending(yee_h5 *h)
{
    herr_t rc = 0;
    for (int i = 0; i < h->npend; i++) {
        pending_vec *p = &h->pend[i];
        hid_t fspace = rc < 0 ? -1 : H5Dget_space(p->dset);
        hid_t mspace = rc < 0 ? -1 : H5Screate_simple(1, &p->n, NULL);
        if (rc >= 0 && (fspace < 0 || mspace < 0))
            rc = -1;
        if (rc >= 0 && h->rank != 0)
            rc = H5Sselect_none(fspace) < 0 || H5Sselect_none(mspace) < 0 ? -1 : 0;
        if (rc >= 0)
            rc = H5Dwrite(p->dset, H5T_NATIVE_DOUBLE, mspace, fspace, h->dxpl, p->v);
        if (mspace >= 0)
            H5Sclose(mspace);
        if (fspace >= 0)
            H5Sclose(fspace);
        if (H5Dclose(p->dset) < 0)
            rc = -1;
        free(p->v);
    }
    h->npend = 0;
    return rc;
}

/* Forget the queued datasets without writing them: a file that failed to open, or one left as
 * its last flush wrote it (no HDF5 call is safe then: close_handles 0). */
static void drop_pending(yee_h5 *h, int close_handles)
{
    for (int i = 0; i < h->npend; i++) {
        if (close_handles)
            H5Dclose(h->pend[i].dset);
        free(h->pend[i].v);
    }
    h->npend = 0;
}

/* /coordinates<dpath>/x|y|z: the shape[a] node coordinates of dataset dpath along each axis,
 * coords[a] or, on a uniform axis (NULL), origin[a] + i spacing[a] (values written at the next
 * flush); and the string attribute `coordinates` of dset naming that group. Written for uniform
 * axes too, so that readers have one way to find where nodes are. Collective; the arguments are
 * the same on every rank. */
static herr_t write_coords(yee_h5 *h, hid_t dset, const char *dpath, const int64_t shape[3],
                           const double origin[3], const double spacing[3],
                           const double *const coords[3])
{
    static const char *const axis_name[3] = {"x", "y", "z"};
    char group[4 * YEE_NAME_LEN + 32], vpath[4 * YEE_NAME_LEN + 40], buf[4 * YEE_NAME_LEN + 40];
    snprintf(group, sizeof group, "/coordinates%s%s", dpath[0] == '/' ? "" : "/", dpath);
    snprintf(vpath, sizeof vpath, "%s/x", group);
    int64_t most = 1;
    for (int a = 0; a < 3; a++)
        most = shape[a] > most ? shape[a] : most;
    double *line = (double *)malloc((size_t)most * sizeof *line);
    /* agreed: a rank that cannot allocate must not leave the others in a collective call */
    if (!all_ok(h->comm, line != NULL)) {
        free(line);
        return -1;
    }
    const char *leaf;
    hid_t g = parent_group(h->file, vpath, buf, sizeof buf, &leaf);
    herr_t rc = g < 0 ? -1 : 0;
    for (int a = 0; a < 3 && rc >= 0; a++) {
        const double *v = coords ? coords[a] : NULL;
        if (!v) {
            for (int64_t i = 0; i < shape[a]; i++)
                line[i] = origin[a] + (double)i * spacing[a];
            v = line;
        }
        rc = create_small_vector(h, g, axis_name[a], (hsize_t)shape[a], v);
    }
    if (rc >= 0)
        rc = set_str_attr(dset, "coordinates", group);
    if (g >= 0)
        H5Gclose(g);
    free(line);
    return rc;
}

int yee_h5_node_coords(const yee_config *cfg, int comp, const int glo[3], const int count[3],
                       double *coords[3], yee_err *err)
{
    for (int a = 0; a < 3; a++)
        coords[a] = NULL;
    for (int a = 0; a < 3; a++) {
        if (!cfg->mesh[a] || (a == 2 && cfg->two_d))
            continue;
        coords[a] = (double *)malloc((size_t)(count[a] > 0 ? count[a] : 1) * sizeof(double));
        if (!coords[a]) {
            yee_h5_coords_free(coords);
            return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate %d node coordinates", count[a]);
        }
        int uniform = 1;
        for (int i = 0; i < count[a]; i++) {
            coords[a][i] = yee_node_position(cfg, comp, a, glo[a] + i);
            uniform &= coords[a][i] == coords[a][0] + (double)i * cfg->dx[a];
        }
        /* nodes exactly where origin and spacing put them (a plane's one node): no list, so that
         * files name the same grid type as postproc/export_vtk.c decides from the file alone */
        if (uniform) {
            free(coords[a]);
            coords[a] = NULL;
        }
    }
    return YEE_OK;
}

void yee_h5_coords_free(double *coords[3])
{
    for (int a = 0; a < 3; a++) {
        free(coords[a]);
        coords[a] = NULL;
    }
}

/* A monitor name becomes one path element: no '/', not empty, not "." or "..". */
static int valid_name(const char *s)
{
    return s && s[0] && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0 &&
           strlen(s) < YEE_NAME_LEN;
}

/* ---- create ---- */

static int write_root_attrs(yee_h5 *h, const yee_config *cfg, const char *deck_text,
                            yee_err *err)
{
    hid_t root = h->file;
    hsize_t three = 3, six = 6;
    double dt_fs = cfg->dt * YEE_TIME_UNIT_FS;
    int64_t steps = cfg->steps;
    const int dimensions = cfg->two_d ? 2 : 3; /* 2: fields independent of z, per um of z */
    yee_resolution res; /* model/resolution.h: the figures `yee check` prints */
    yee_resolution_of(cfg, &res);
    /* x_low, x_high, y_low, y_high, z_low, z_high; 0 on faces that are not CPML */
    /* the medium a far-field transform radiates into (postproc/farfield.c): the background's
     * relative permittivity when it is one real, isotropic number, else NaN (the user says) */
    double background_eps = cfg->sigma == 0.0 ? cfg->eps_r : NAN;
    if (cfg->background_material >= 0 && cfg->background_material < cfg->nmaterials) {
        const yee_material_cfg *m = &cfg->materials[cfg->background_material];
        background_eps = m->npoles == 0 && m->sigma == 0.0 && !m->pec && m->eps[0] == m->eps[1] &&
                                 m->eps[1] == m->eps[2]
                             ? m->eps[0]
                             : NAN;
    }
    int pml_cells[6];
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++)
            pml_cells[2 * a + side] = cfg->pml_cells[a][side];
    if (set_str_attr(root, "yee_version", YEE_VERSION) < 0 ||
        set_str_attr(root, "name", cfg->name) < 0 || set_str_attr(root, "deck", deck_text) < 0 ||
        set_attr(root, "n", H5T_NATIVE_INT, 1, &three, cfg->n) < 0 ||
        set_attr(root, "dimensions", H5T_NATIVE_INT, 0, NULL, &dimensions) < 0 ||
        set_attr(root, "cells_per_wavelength", H5T_NATIVE_DOUBLE, 0, NULL, &res.cells) < 0 ||
        set_attr(root, "densest_index", H5T_NATIVE_DOUBLE, 0, NULL, &res.index) < 0 ||
        set_attr(root, "cells_per_skin_depth", H5T_NATIVE_DOUBLE, 0, NULL, &res.skin_cells) < 0 ||
        set_attr(root, "pml_cells", H5T_NATIVE_INT, 1, &six, pml_cells) < 0 ||
        set_doubles(root, "dx", 3, cfg->dx) < 0 ||
        set_attr(root, "background_epsilon", H5T_NATIVE_DOUBLE, 0, NULL, &background_eps) < 0 ||
        set_doubles(root, "bloch", 3, cfg->bloch) < 0 ||
        set_attr(root, "complex_fields", H5T_NATIVE_INT, 0, NULL, &cfg->complex_fields) < 0 ||
        set_doubles(root, "origin", 3, cfg->origin) < 0 ||
        set_attr(root, "dt", H5T_NATIVE_DOUBLE, 0, NULL, &cfg->dt) < 0 ||
        set_attr(root, "dt_fs", H5T_NATIVE_DOUBLE, 0, NULL, &dt_fs) < 0 ||
        set_attr(root, "steps", H5T_NATIVE_INT64, 0, NULL, &steps) < 0 ||
        set_str_attr(root, "precision", YEE_REAL_NAME) < 0 ||
        set_str_attr(root, "units", UNITS_TEXT) < 0)
        H5_FAIL(h, err, "cannot write run attributes to", "/");
    return YEE_OK;
}

/* /mesh/x|y|z: the n[a] + 1 cell edges of each axis (model/nodes.h), uniform or graded, so that
 * a reader needs neither the deck nor the grading rule to know the grid. Collective; the values
 * are written at the first flush. */
static int write_mesh(yee_h5 *h, const yee_config *cfg, yee_err *err)
{
    static const char *const axis_name[3] = {"x", "y", "z"};
    int most = 1;
    for (int a = 0; a < 3; a++)
        most = cfg->n[a] + 1 > most ? cfg->n[a] + 1 : most;
    double *line = (double *)malloc((size_t)most * sizeof *line);
    if (!all_ok(h->comm, line != NULL)) {
        free(line);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the mesh lines of '%s'", h->path);
    }
    hid_t g = open_or_create_group(h->file, "mesh");
    herr_t rc = g < 0 ? -1 : 0;
    for (int a = 0; a < 3 && rc >= 0; a++) {
        for (int i = 0; i <= cfg->n[a]; i++)
            line[i] = yee_mesh_line(cfg, a, i);
        rc = create_small_vector(h, g, axis_name[a], (hsize_t)cfg->n[a] + 1, line);
    }
    if (g >= 0 && H5Gclose(g) < 0)
        rc = -1;
    free(line);
    if (rc < 0)
        H5_FAIL(h, err, "cannot write the mesh lines to", "/mesh");
    return YEE_OK;
}

/* Bytes free to this user on the file system of the file at path (its folder); HUGE_VAL when
 * unknown, so that the checks below leave the decision to HDF5. */
static double free_bytes(const char *path)
{
    char dir[YEE_PATH_LEN];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    struct statvfs st;
    if (statvfs(dir, &st) != 0)
        return HUGE_VAL;
    return (double)st.f_bavail * (double)st.f_frsize;
}

/* Fail cleanly, before HDF5 holds anything of the file, when its file system has almost no room:
 * HDF5 1.10 cannot recover from a failed H5Fclose (the file's metadata not written for lack of
 * space): the library then crashes in its own shutdown at MPI_Finalize. Frame data that does not
 * fit later fails in H5Dwrite, which is recoverable (io/h5out.h, "Write errors"). */
static int check_space(const char *path, MPI_Comm comm, int rank, yee_err *err)
{
    double avail = rank == 0 ? free_bytes(path) : 0.0;
    MPI_Bcast(&avail, 1, MPI_DOUBLE, 0, comm);
    if (avail < YEE_H5_MIN_FREE)
        return YEE_FAIL(err, YEE_ERR_IO, "cannot create '%s': only %.0f KiB free on its file "
                        "system (the run file needs at least %d KiB for its metadata)", path,
                        avail / 1024.0, YEE_H5_MIN_FREE / 1024);
    return YEE_OK;
}

/* " (no space left on the file system)" when rank 0 finds less than `need` bytes free next to
 * the file: MPI-IO reports a full disk to HDF5 only as "file write failed". Collective. */
static const char *space_hint(const yee_h5 *h, double need)
{
    int full = h->rank == 0 && free_bytes(h->path) < need;
    MPI_Bcast(&full, 1, MPI_INT, 0, h->comm);
    return full ? " (no space left on the file system)" : "";
}

/* Create (cfg != NULL) or reopen read-write (cfg == NULL) the file at path. */
static int h5_open(const char *path, MPI_Comm comm, const yee_config *cfg, const char *deck_text,
                   yee_h5 **out, yee_err *err)
{
    *out = NULL;
    /* yee reports HDF5 failures itself, once, naming the file; HDF5's stack dump is noise. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);

    yee_h5 *h = (yee_h5 *)calloc(1, sizeof *h);
    if (!h)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the HDF5 writer for '%s'", path);
    snprintf(h->path, sizeof h->path, "%s", path);
    h->comm = comm;
    h->file = h->dxpl = -1;
    MPI_Comm_rank(comm, &h->rank);
    h->last_flush = -1.0;
    h->flush_every = FLUSH_SECONDS_DEFAULT;

    int rc = cfg ? check_space(path, comm, h->rank, err) : YEE_OK;
    if (rc != YEE_OK) {
        free(h);
        return rc;
    }
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL) < 0) {
        char why[512];
        rc = YEE_FAIL(err, YEE_ERR_IO, "cannot set up parallel HDF5 for '%s': %s", path,
                      h5_reason(why));
    } else {
        h->reopened = cfg == NULL;
        h->file = cfg ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
                      : H5Fopen(path, H5F_ACC_RDWR, fapl);
        if (h->file < 0) {
            char why[512];
            rc = YEE_FAIL(err, YEE_ERR_IO, "cannot %s '%s': %s", cfg ? "create" : "reopen", path,
                          h5_reason(why));
        }
    }
    if (fapl >= 0)
        H5Pclose(fapl);

    if (rc == YEE_OK) {
        h->dxpl = H5Pcreate(H5P_DATASET_XFER);
        if (h->dxpl < 0 || H5Pset_dxpl_mpio(h->dxpl, H5FD_MPIO_COLLECTIVE) < 0) {
            char why[512];
            rc = YEE_FAIL(err, YEE_ERR_IO, "cannot set up collective transfers for '%s': %s",
                          path, h5_reason(why));
        }
    }
    if (rc == YEE_OK && cfg)
        rc = write_root_attrs(h, cfg, deck_text, err);
    if (rc == YEE_OK && cfg)
        rc = write_mesh(h, cfg, err);
    if (rc != YEE_OK) {
        drop_pending(h, 1);
        free(h->pend);
        if (h->dxpl >= 0)
            H5Pclose(h->dxpl);
        if (h->file >= 0)
            H5Fclose(h->file);
        free(h);
        return rc;
    }
    *out = h;
    return YEE_OK;
}

int yee_h5_create(const char *path, MPI_Comm comm, const yee_config *cfg, const char *deck_text,
                  yee_h5 **out, yee_err *err)
{
    *out = NULL;
    if (!path || !cfg)
        return YEE_FAIL(err, YEE_ERR_IO, "yee_h5_create: no path or config");
    return h5_open(path, comm, cfg, deck_text, out, err);
}

int yee_h5_reopen(const char *path, MPI_Comm comm, yee_h5 **out, yee_err *err)
{
    *out = NULL;
    if (!path)
        return YEE_FAIL(err, YEE_ERR_IO, "yee_h5_reopen: no path");
    return h5_open(path, comm, NULL, NULL, out, err);
}

/* ---- frame labels and flushing ---- */

/* Copy frames [dirty_lo, dirty_hi) of the labels of s into its label datasets (rank 0 writes,
 * every rank joins the collective write) and frames_written into its attribute. Labels go first:
 * a file cut short between the two holds frames_written of the older, smaller count. */
static herr_t write_labels(yee_h5 *h, snap *s)
{
    herr_t rc = 0;
    if (s->dirty_hi > s->dirty_lo) {
        const hsize_t lo = (hsize_t)s->dirty_lo, n = (hsize_t)(s->dirty_hi - s->dirty_lo);
        int64_t *steps = (int64_t *)malloc(n * sizeof *steps);
        double *fs = (double *)malloc(n * sizeof *fs);
        if (!steps || !fs)
            rc = -1;
        for (hsize_t f = 0; rc >= 0 && f < n; f++) {
            steps[f] = s->steps[lo + f];
            fs[f] = s->times[lo + f] * YEE_TIME_UNIT_FS;
        }
        const void *buf[NLAB] = {steps, s->times + lo, fs};
        const hid_t type[NLAB] = {H5T_NATIVE_INT64, H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE};
        for (int l = 0; l < NLAB && rc >= 0; l++) {
            hid_t fspace = H5Dget_space(s->lab[l]);
            hid_t mspace = H5Screate_simple(1, &n, NULL);
            rc = fspace < 0 || mspace < 0 ? -1 : 0;
            if (rc >= 0 && h->rank == 0)
                rc = H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &lo, NULL, &n, NULL);
            else if (rc >= 0)
                rc = H5Sselect_none(fspace) < 0 || H5Sselect_none(mspace) < 0 ? -1 : 0;
            if (rc >= 0)
                rc = H5Dwrite(s->lab[l], type[l], mspace, fspace, h->dxpl, buf[l]);
            if (mspace >= 0)
                H5Sclose(mspace);
            if (fspace >= 0)
                H5Sclose(fspace);
        }
        free(steps);
        free(fs);
        if (rc >= 0)
            s->dirty_lo = s->dirty_hi = 0;
    }
    if (rc >= 0 && s->fw_in_file != s->frames_written) {
        int64_t fw = s->frames_written;
        rc = set_attr(s->dset, "frames_written", H5T_NATIVE_INT64, 0, NULL, &fw);
        if (rc >= 0)
            s->fw_in_file = s->frames_written;
    }
    return rc;
}

static void mark_dirty(snap *s, long lo, long hi)
{
    if (s->dirty_hi <= s->dirty_lo) {
        s->dirty_lo = lo;
        s->dirty_hi = hi;
        return;
    }
    if (lo < s->dirty_lo)
        s->dirty_lo = lo;
    if (hi > s->dirty_hi)
        s->dirty_hi = hi;
}

/* Every snapshot's labels into the file; the first failure is reported in err. */
static int write_all_labels(yee_h5 *h, yee_err *err)
{
    char why[512];
    for (int i = 0; i < h->nsnaps; i++) {
        snap *s = &h->snaps[i];
        if (s->dset >= 0 && write_labels(h, s) < 0)
            return YEE_FAIL(err, YEE_ERR_IO, "cannot write frame labels of '%s:/snapshots/%s/%s': "
                            "%s", h->path, s->monitor, yee_component_name(s->component),
                            h5_reason(why));
    }
    return YEE_OK;
}

/* The queued coordinate and mesh datasets into the file (write_pending), reported in err. */
static int write_all_pending(yee_h5 *h, yee_err *err)
{
    char why[512];
    if (h->npend > 0 && write_pending(h) < 0)
        return YEE_FAIL(err, YEE_ERR_IO, "cannot write the node coordinates to '%s': %s",
                        h->path, h5_reason(why));
    return YEE_OK;
}

int yee_h5_flush(yee_h5 *h, yee_err *err)
{
    char why[512];
    int rc = write_all_pending(h, err);
    if (rc == YEE_OK)
        rc = write_all_labels(h, err);
    if (rc == YEE_OK && H5Fflush(h->file, H5F_SCOPE_GLOBAL) < 0)
        rc = YEE_FAIL(err, YEE_ERR_IO, "cannot flush '%s': %s", h->path, h5_reason(why));
    /* every rank returns the same status, so that none waits alone in the next collective */
    if (!all_ok(h->comm, rc == YEE_OK)) {
        h->failed = 1;
        if (rc == YEE_OK)
            rc = YEE_FAIL(err, YEE_ERR_IO, "cannot flush '%s': failed on another rank", h->path);
        return rc;
    }
    return YEE_OK;
}

void yee_h5_set_flush_seconds(yee_h5 *h, double seconds)
{
    h->flush_every = seconds > 0.0 ? seconds : 0.0;
}

/* Give back the blocks yee_h5_reserve kept past the end of the closed file: a file that grows
 * by a byte and shrinks back loses every block past its end (ext4, XFS, tmpfs). */
static void release_reserve(const char *path)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && ftruncate(fd, st.st_size + 1) == 0 &&
        ftruncate(fd, st.st_size) != 0)
        fprintf(stderr, "yee: warning: '%s' may have grown by a byte: %s\n", path,
                strerror(errno));
    close(fd);
}

/* Human-readable bytes for messages. */
static const char *bytes_text(double b, char *buf, size_t n)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024.0 && u < 4) {
        b /= 1024.0;
        u++;
    }
    snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
    return buf;
}

int yee_h5_reserve(yee_h5 *h, double more_bytes, yee_err *err)
{
    /* Rank 0 reserves for the whole shared file. FALLOC_FL_KEEP_SIZE leaves the file's length to
     * HDF5 (which trims it to what it used at close); a file system that cannot reserve (NFS,
     * some parallel file systems) is left to the write errors of the run. */
    int code = 0; /* 0: reserved or not possible here; else errno of a refusal (ENOSPC, EDQUOT) */
    double want = 0.0;
    if (h->rank == 0) {
        /* The end of the allocated space (datasets are allocated at definition). Not
         * H5Fget_filesize: after raw data writes (the coordinate datasets) the MPI-IO driver
         * forgets the file's end until the next flush, and that call then fails. */
        haddr_t eoa = 0;
        hsize_t size = 0;
        if (H5Fget_eoa(h->file, &eoa) >= 0 && eoa != HADDR_UNDEF)
            size = (hsize_t)eoa;
        else if (H5Fget_filesize(h->file, &size) < 0)
            size = 0;
        if (size > 0) {
            want = (double)size + (more_bytes > 0.0 ? more_bytes : 0.0) + YEE_H5_RESERVE_MARGIN;
            int fd = open(h->path, O_WRONLY | O_CLOEXEC);
            if (fd >= 0) {
                if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)want) != 0 &&
                    (errno == ENOSPC || errno == EDQUOT || errno == EFBIG))
                    code = errno;
                close(fd);
            }
        }
    }
    int msg[1] = {code};
    MPI_Bcast(msg, 1, MPI_INT, 0, h->comm);
    MPI_Bcast(&want, 1, MPI_DOUBLE, 0, h->comm);
    if (msg[0] == 0)
        return YEE_OK;
    char need[32], have[32];
    const double avail = h->rank == 0 ? free_bytes(h->path) : 0.0;
    return YEE_FAIL(err, YEE_ERR_IO, "not enough room for the output '%s': it needs %s on its "
                    "file system (%s)%s%s", h->path, bytes_text(want, need, sizeof need),
                    strerror(msg[0]), h->rank == 0 && avail < HUGE_VAL ? ", free: " : "",
                    h->rank == 0 && avail < HUGE_VAL ? bytes_text(avail, have, sizeof have) : "");
}

int yee_h5_frames_done(yee_h5 *h, yee_err *err)
{
    /* rank 0's clock decides, so that every rank enters the collective flush or none does */
    int due = h->rank == 0 && (h->last_flush < 0 || MPI_Wtime() - h->last_flush >= h->flush_every);
    MPI_Bcast(&due, 1, MPI_INT, 0, h->comm);
    if (!due)
        return YEE_OK;
    YEE_TRY(yee_h5_flush(h, err));
    h->last_flush = MPI_Wtime();
    return YEE_OK;
}

/* ---- snapshots ---- */

/* Open (a restarted run's file) or create the label datasets of s, (nframes) each: steps int64,
 * times and times_fs float64. New ones are written whole (-1, NaN) at the next flush. */
static herr_t define_labels(yee_h5 *h, snap *s, const char *cname)
{
    hid_t g[3] = {-1, -1, -1}, space = -1, dcpl = -1;
    const hid_t type[NLAB] = {H5T_NATIVE_INT64, H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE};
    hsize_t n = (hsize_t)s->nframes;
    herr_t rc = -1;
    int created = 0;
    do {
        if ((g[0] = open_or_create_group(h->file, "snapshot_labels")) < 0 ||
            (g[1] = open_or_create_group(g[0], s->monitor)) < 0 ||
            (g[2] = open_or_create_group(g[1], cname)) < 0)
            break;
        if ((space = H5Screate_simple(1, &n, NULL)) < 0 ||
            (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
            H5Pset_layout(dcpl, H5D_CONTIGUOUS) < 0 ||
            H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY) < 0 ||
            H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0)
            break;
        int l = 0;
        for (; l < NLAB; l++) {
            if (h->reopened && H5Lexists(g[2], lab_name[l], H5P_DEFAULT) > 0) {
                s->lab[l] = H5Dopen2(g[2], lab_name[l], H5P_DEFAULT);
                hid_t have = s->lab[l] < 0 ? -1 : H5Dget_space(s->lab[l]);
                hssize_t np = have < 0 ? -1 : H5Sget_simple_extent_npoints(have);
                if (have >= 0)
                    H5Sclose(have);
                if (np != (hssize_t)n)
                    break;
            } else {
                s->lab[l] = H5Dcreate2(g[2], lab_name[l], type[l], space, H5P_DEFAULT, dcpl,
                                       H5P_DEFAULT);
                if (s->lab[l] < 0)
                    break;
                created = 1;
            }
        }
        if (l == NLAB)
            rc = 0;
    } while (0);
    if (created)
        mark_dirty(s, 0, s->nframes);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    for (int i = 2; i >= 0; i--)
        if (g[i] >= 0)
            H5Gclose(g[i]);
    return rc;
}

int yee_h5_snapshot_define(yee_h5 *h, const char *monitor, int component, const int64_t shape[3],
                           const double origin[3], const double spacing[3],
                           const double *const coords[3], long nframes, int *out_id,
                           yee_err *err)
{
    const char *cname = yee_component_name(component);
    if (!valid_name(monitor))
        return YEE_FAIL(err, YEE_ERR_IO, "%s: invalid snapshot monitor name '%s'", h->path,
                        monitor ? monitor : "(null)");
    if (!cname)
        return YEE_FAIL(err, YEE_ERR_IO, "%s: snapshot '%s': invalid component %d", h->path,
                        monitor, component);
    if (shape[0] < 1 || shape[1] < 1 || shape[2] < 1 || nframes < 0)
        return YEE_FAIL(err, YEE_ERR_IO,
                        "%s: snapshot '%s/%s': bad shape %lld x %lld x %lld or %ld frames",
                        h->path, monitor, cname, (long long)shape[0], (long long)shape[1],
                        (long long)shape[2], nframes);
    for (int s = 0; s < h->nsnaps; s++)
        if (h->snaps[s].component == component && strcmp(h->snaps[s].monitor, monitor) == 0)
            return YEE_FAIL(err, YEE_ERR_IO, "%s: snapshot '%s/%s' defined twice", h->path,
                            monitor, cname);

    if (h->nsnaps == h->cap) {
        int cap = h->cap ? 2 * h->cap : 8;
        snap *s = (snap *)realloc(h->snaps, (size_t)cap * sizeof *s);
        if (!s)
            return YEE_FAIL(err, YEE_ERR_NOMEM, "%s: cannot grow the snapshot table", h->path);
        h->snaps = s;
        h->cap = cap;
    }
    snap *s = &h->snaps[h->nsnaps];
    memset(s, 0, sizeof *s);
    s->dset = -1;
    for (int l = 0; l < NLAB; l++)
        s->lab[l] = -1;
    s->fw_in_file = -1;
    snprintf(s->monitor, sizeof s->monitor, "%s", monitor);
    s->component = component;
    s->nframes = nframes;
    for (int a = 0; a < 3; a++) {
        s->shape[a] = shape[a];
        s->origin[a] = origin[a];
        s->spacing[a] = spacing[a];
        s->graded |= coords && coords[a];
    }
    size_t nf = nframes > 0 ? (size_t)nframes : 1;
    s->steps = (long *)malloc(nf * sizeof *s->steps);
    s->times = (double *)malloc(nf * sizeof *s->times);
    if (!s->steps || !s->times) {
        free(s->steps);
        free(s->times);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "%s: cannot allocate frame labels of '%s/%s'",
                        h->path, monitor, cname);
    }
    for (long f = 0; f < nframes; f++) {
        s->steps[f] = -1;
        s->times[f] = NAN;
    }

    char obj[2 * YEE_NAME_LEN + 16];
    snprintf(obj, sizeof obj, "/snapshots/%s/%s", monitor, cname);
    hid_t g_snap = -1, g_mon = -1, space = -1, dcpl = -1;
    int ok = 0, other_shape = 0;
    do {
        if ((g_snap = open_or_create_group(h->file, "snapshots")) < 0)
            break;
        if ((g_mon = open_or_create_group(g_snap, monitor)) < 0)
            break;
        hsize_t dims[4] = {(hsize_t)nframes, (hsize_t)shape[2], (hsize_t)shape[1],
                           (hsize_t)shape[0]};
        if (h->reopened && H5Lexists(g_mon, cname, H5P_DEFAULT) > 0) {
            /* a restarted run: the frames before the checkpoint are in this dataset already */
            hsize_t have[4] = {0, 0, 0, 0};
            if ((s->dset = H5Dopen2(g_mon, cname, H5P_DEFAULT)) < 0 ||
                (space = H5Dget_space(s->dset)) < 0)
                break;
            other_shape = H5Sget_simple_extent_ndims(space) != 4 ||
                          H5Sget_simple_extent_dims(space, have, NULL) < 0 ||
                          memcmp(have, dims, sizeof dims) != 0;
            ok = !other_shape;
            break;
        }
        if ((space = H5Screate_simple(4, dims, NULL)) < 0)
            break;
        /* Contiguous, allocated up front (parallel HDF5 needs that anyway), never pre-filled:
         * filling would write the whole dataset once more for nothing. */
        if ((dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 || H5Pset_layout(dcpl, H5D_CONTIGUOUS) < 0 ||
            H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY) < 0 ||
            H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0)
            break;
        s->dset = H5Dcreate2(g_mon, cname, H5_REAL, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        if (s->dset < 0)
            break;
        char lpath[2 * YEE_NAME_LEN + 24];
        snprintf(lpath, sizeof lpath, "/snapshot_labels/%s/%s", monitor, cname);
        if (set_doubles(s->dset, "origin", 3, s->origin) < 0 ||
            set_doubles(s->dset, "spacing", 3, s->spacing) < 0 ||
            set_str_attr(s->dset, "labels", lpath) < 0)
            break;
        ok = 1;
    } while (0);
    if (ok && define_labels(h, s, cname) < 0) {
        ok = 0;
        other_shape = 0;
    }
    /* also in a restarted run's file: its coordinates are rewritten, the same values */
    if (ok && write_coords(h, s->dset, obj, shape, origin, spacing, coords) < 0)
        ok = 0;
    char why[512];
    if (other_shape)
        snprintf(why, sizeof why, "the dataset in the file has another shape than this run's "
                                  "(%ld frames of %lld x %lld x %lld nodes)", nframes,
                 (long long)shape[0], (long long)shape[1], (long long)shape[2]);
    else if (!ok)
        h5_reason(why);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    if (g_mon >= 0)
        H5Gclose(g_mon);
    if (g_snap >= 0)
        H5Gclose(g_snap);
    if (!ok) {
        for (int l = 0; l < NLAB; l++)
            if (s->lab[l] >= 0)
                H5Dclose(s->lab[l]);
        if (s->dset >= 0)
            H5Dclose(s->dset);
        free(s->steps);
        free(s->times);
        return YEE_FAIL(err, YEE_ERR_IO, "cannot %s '%s:%s': %s",
                        h->reopened ? "reopen" : "create", h->path, obj, why);
    }
    *out_id = h->nsnaps++;
    return YEE_OK;
}

int yee_h5_snapshot_label(yee_h5 *h, int id, long frame, long step, double time, yee_err *err)
{
    if (id < 0 || id >= h->nsnaps || frame < 0 || frame >= h->snaps[id].nframes)
        return YEE_FAIL(err, YEE_ERR_IO, "%s: no frame %ld of snapshot %d to label", h->path,
                        frame, id);
    snap *s = &h->snaps[id];
    s->steps[frame] = step;
    s->times[frame] = time;
    if (frame + 1 > s->frames_written)
        s->frames_written = frame + 1;
    mark_dirty(s, frame, frame + 1);
    return YEE_OK;
}

int yee_h5_snapshot_write(yee_h5 *h, int id, long frame, long step, double time,
                          const int64_t start[3], const int64_t count[3], const yee_real *data,
                          yee_err *err)
{
    /* Check locally, then agree: every rank must enter the collective write or none. */
    int ok = id >= 0 && id < h->nsnaps;
    snap *s = ok ? &h->snaps[id] : NULL;
    int empty = 0;
    if (ok) {
        ok = frame >= 0 && frame < s->nframes;
        for (int a = 0; a < 3; a++)
            empty |= count[a] == 0;
        /* an empty block's start says nothing (the rank joins the collective write with none) */
        for (int a = 0; a < 3 && ok && !empty; a++)
            ok = start[a] >= 0 && count[a] >= 0 && start[a] + count[a] <= s->shape[a];
        if (ok && !empty && !data)
            ok = 0;
    }
    if (!ok) {
        if (!s)
            YEE_FAIL(err, YEE_ERR_IO, "%s: invalid snapshot id %d", h->path, id);
        else
            YEE_FAIL(err, YEE_ERR_IO,
                     "%s:/snapshots/%s/%s: frame %ld (of %ld) block start (%lld,%lld,%lld) count "
                     "(%lld,%lld,%lld) outside %lld x %lld x %lld or no data",
                     h->path, s->monitor, yee_component_name(s->component), frame, s->nframes,
                     (long long)start[0], (long long)start[1], (long long)start[2],
                     (long long)count[0], (long long)count[1], (long long)count[2],
                     (long long)s->shape[0], (long long)s->shape[1], (long long)s->shape[2]);
    }
    if (!all_ok(h->comm, ok)) {
        if (ok)
            YEE_FAIL(err, YEE_ERR_IO, "%s: snapshot write refused on another rank", h->path);
        return YEE_ERR_IO;
    }

    char obj[2 * YEE_NAME_LEN + 16];
    snprintf(obj, sizeof obj, "/snapshots/%s/%s", s->monitor, yee_component_name(s->component));
    hid_t fspace = H5Dget_space(s->dset);
    hsize_t mdims[3] = {empty ? 1 : (hsize_t)count[2], empty ? 1 : (hsize_t)count[1],
                        empty ? 1 : (hsize_t)count[0]};
    hid_t mspace = H5Screate_simple(3, mdims, NULL);
    herr_t rc = fspace < 0 || mspace < 0 ? -1 : 0;
    if (rc >= 0 && empty) {
        rc = H5Sselect_none(fspace);
        if (rc >= 0)
            rc = H5Sselect_none(mspace);
    } else if (rc >= 0) {
        hsize_t off[4] = {(hsize_t)frame, (hsize_t)start[2], (hsize_t)start[1],
                          (hsize_t)start[0]};
        hsize_t cnt[4] = {1, (hsize_t)count[2], (hsize_t)count[1], (hsize_t)count[0]};
        rc = H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, cnt, NULL);
    }
    /* A rank with nothing to write still joins the collective call with an empty selection. */
    static const yee_real dummy = 0;
    if (rc >= 0)
        rc = H5Dwrite(s->dset, H5_REAL, mspace, fspace, h->dxpl, empty ? &dummy : data);
    char why[512];
    if (rc < 0)
        h5_reason(why);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    /* MPI-IO may report a failed write (a full disk) on the aggregating ranks only: agree, so
     * that every rank stops here and no frame counts that is not whole in the file */
    if (!all_ok(h->comm, rc >= 0)) {
        h->failed = 1;
        const double frame_bytes = (double)sizeof(yee_real) * (double)s->shape[0] *
                                   (double)s->shape[1] * (double)s->shape[2];
        const char *hint = space_hint(h, frame_bytes + 4096.0);
        if (rc >= 0)
            return YEE_FAIL(err, YEE_ERR_IO, "cannot write frame %ld of '%s:%s': failed on another "
                            "rank%s", frame, h->path, obj, hint);
        return YEE_FAIL(err, YEE_ERR_IO, "cannot write frame %ld of '%s:%s': %s%s", frame,
                        h->path, obj, why, hint);
    }
    s->steps[frame] = step;
    s->times[frame] = time;
    if (frame + 1 > s->frames_written)
        s->frames_written = frame + 1;
    mark_dirty(s, frame, frame + 1);
    return YEE_OK;
}

/* Closes the handles of a dataset write (any may be -1) and reports rc < 0 as YEE_ERR_IO naming
 * the object, with HDF5's innermost reason (read before the handles are closed). */
static int end_write(yee_h5 *h, herr_t rc, hid_t mspace, hid_t fspace, hid_t dset, hid_t g,
                     const char *obj, yee_err *err)
{
    char why[512];
    if (rc < 0)
        h5_reason(why);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    if (dset >= 0)
        H5Dclose(dset);
    if (g >= 0)
        H5Gclose(g);
    if (rc < 0) {
        h->failed = 1;
        return YEE_FAIL(err, YEE_ERR_IO, "cannot write '%s:%s': %s", h->path, obj, why);
    }
    return YEE_OK;
}

/* ---- probes ---- */

int yee_h5_probe_write(yee_h5 *h, const char *monitor, int ncomp, const int *comps,
                       const double *positions, const double *t0, double dt, long nsteps,
                       const yee_real *data, yee_err *err)
{
    int ok = valid_name(monitor) && ncomp >= 1 && ncomp <= YEE_NCOMP && nsteps >= 0;
    for (int c = 0; ok && c < ncomp; c++)
        ok = yee_component_name(comps[c]) != NULL;
    if (!ok)
        YEE_FAIL(err, YEE_ERR_IO, "%s: probe '%s': invalid name, %d components or %ld steps",
                 h->path, monitor ? monitor : "(null)", ncomp, nsteps);
    /* Exactly one rank owns the probe's rows; count the owners while agreeing on the checks. */
    int mine[2] = {ok ? 0 : 1, data ? 1 : 0}, sum[2] = {1, 0};
    if (MPI_Allreduce(mine, sum, 2, MPI_INT, MPI_SUM, h->comm) != MPI_SUCCESS)
        return YEE_FAIL(err, YEE_ERR_MPI, "%s: probe '%s': MPI_Allreduce failed", h->path,
                        monitor ? monitor : "(null)");
    if (sum[0] > 0) {
        if (ok)
            YEE_FAIL(err, YEE_ERR_IO, "%s: probe write refused on another rank", h->path);
        return YEE_ERR_IO;
    }
    if (sum[1] != 1)
        return YEE_FAIL(err, YEE_ERR_IO, "%s: probe '%s' has %d owning ranks (need exactly 1)",
                        h->path, monitor, sum[1]);

    /* "Ex,Ez" */
    char names[YEE_NCOMP * 4];
    names[0] = '\0';
    for (int c = 0; c < ncomp; c++) {
        if (c)
            strcat(names, ",");
        strcat(names, yee_component_name(comps[c]));
    }

    char obj[YEE_NAME_LEN + 16];
    snprintf(obj, sizeof obj, "/probes/%s", monitor);
    hid_t g = -1, fspace = -1, mspace = -1, dset = -1;
    herr_t rc = -1;
    do {
        if ((g = open_or_create_group(h->file, "probes")) < 0)
            break;
        hsize_t dims[2] = {(hsize_t)nsteps, (hsize_t)ncomp};
        if ((fspace = H5Screate_simple(2, dims, NULL)) < 0)
            break;
        drop_stale(h, g, monitor);
        if ((dset = H5Dcreate2(g, monitor, H5_REAL, fspace, H5P_DEFAULT, H5P_DEFAULT,
                               H5P_DEFAULT)) < 0)
            break;
        hsize_t mdims[2] = {nsteps > 0 ? (hsize_t)nsteps : 1, (hsize_t)ncomp};
        if ((mspace = H5Screate_simple(2, mdims, NULL)) < 0)
            break;
        if (!data || nsteps == 0) {
            if (H5Sselect_none(fspace) < 0 || H5Sselect_none(mspace) < 0)
                break;
        }
        static const yee_real dummy = 0;
        if (H5Dwrite(dset, H5_REAL, mspace, fspace, h->dxpl,
                     (data && nsteps > 0) ? data : &dummy) < 0)
            break;
        hsize_t pdims[2] = {(hsize_t)ncomp, 3};
        if (set_str_attr(dset, "components", names) < 0 ||
            set_attr(dset, "position", H5T_NATIVE_DOUBLE, 2, pdims, positions) < 0 ||
            set_doubles(dset, "t0", (hsize_t)ncomp, t0) < 0 ||
            set_attr(dset, "dt", H5T_NATIVE_DOUBLE, 0, NULL, &dt) < 0)
            break;
        rc = 0;
    } while (0);
    return end_write(h, rc, mspace, fspace, dset, g, obj, err);
}

/* ---- frequency-domain data ---- */

int yee_h5_vector_write(yee_h5 *h, const char *path, int64_t n, const double *data,
                        const char *attr_name, const char *attr_text, yee_err *err)
{
    if (!all_ok(h->comm, n >= 0 && (n == 0 || data)))
        return YEE_FAIL(err, YEE_ERR_IO, "%s: '%s': bad vector (%lld values)", h->path, path,
                        (long long)n);
    char buf[4 * YEE_NAME_LEN];
    const char *leaf;
    hid_t g = parent_group(h->file, path, buf, sizeof buf, &leaf);
    hid_t space = -1, dset = -1, mspace = -1;
    herr_t rc = -1;
    do {
        if (g < 0)
            break;
        hsize_t dims[1] = {(hsize_t)n};
        if ((space = H5Screate_simple(1, dims, NULL)) < 0)
            break;
        drop_stale(h, g, leaf);
        if ((dset = H5Dcreate2(g, leaf, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                               H5P_DEFAULT)) < 0)
            break;
        hsize_t mdims[1] = {n > 0 ? (hsize_t)n : 1};
        if ((mspace = H5Screate_simple(1, mdims, NULL)) < 0)
            break;
        if ((h->rank != 0 || n == 0) && (H5Sselect_none(space) < 0 || H5Sselect_none(mspace) < 0))
            break;
        static const double dummy = 0;
        if (H5Dwrite(dset, H5T_NATIVE_DOUBLE, mspace, space, h->dxpl,
                     (h->rank == 0 && n > 0) ? data : &dummy) < 0)
            break;
        if (attr_name && set_str_attr(dset, attr_name, attr_text) < 0)
            break;
        rc = 0;
    } while (0);
    return end_write(h, rc, mspace, space, dset, g, path, err);
}

int yee_h5_write_table(const char *path, const yee_h5_column *cols, int ncols,
                       const char *const *attr_names, const char *const *attr_values, int nattrs,
                       yee_err *err)
{
    return yee_h5_write_arrays(path, cols, ncols, NULL, 0, attr_names, attr_values, nattrs, err);
}

int yee_h5_write_arrays(const char *path, const yee_h5_column *cols, int ncols,
                        const yee_h5_array *arrays, int narrays, const char *const *attr_names,
                        const char *const *attr_values, int nattrs, yee_err *err)
{
    char why[512];
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0)
        return YEE_FAIL(err, YEE_ERR_IO, "cannot create '%s': %s", path, h5_reason(why));
    const char *failed = "";
    for (int a = 0; a < nattrs && !failed[0]; a++)
        if (set_str_attr(file, attr_names[a], attr_values[a]) < 0)
            failed = attr_names[a];
    for (int c = 0; c < ncols + narrays && !failed[0]; c++) {
        const int is_col = c < ncols;
        const yee_h5_array *arr = is_col ? NULL : &arrays[c - ncols];
        const char *dpath = is_col ? cols[c].path : arr->path;
        const double *data = is_col ? cols[c].data : arr->data;
        const char *units = is_col ? cols[c].units : arr->units;
        hsize_t dims[3] = {(hsize_t)(is_col ? cols[c].n : arr->shape[2]), 0, 0};
        if (!is_col) {
            dims[1] = (hsize_t)arr->shape[1];
            dims[2] = (hsize_t)arr->shape[0];
        }
        const int empty = dims[0] * (is_col ? 1 : dims[1] * dims[2]) == 0;
        char buf[4 * YEE_NAME_LEN];
        const char *leaf;
        hid_t g = parent_group(file, dpath, buf, sizeof buf, &leaf);
        hid_t space = g < 0 ? -1 : H5Screate_simple(is_col ? 1 : 3, dims, NULL);
        hid_t dset = space < 0 ? -1
                               : H5Dcreate2(g, leaf, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                                            H5P_DEFAULT, H5P_DEFAULT);
        if (dset < 0 ||
            (!empty &&
             H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) ||
            (units && set_str_attr(dset, "units", units) < 0))
            failed = dpath;
        if (dset >= 0)
            H5Dclose(dset);
        if (space >= 0)
            H5Sclose(space);
        if (g >= 0)
            H5Gclose(g);
    }
    if (failed[0]) {
        int rc = YEE_FAIL(err, YEE_ERR_IO, "cannot write '%s:%s': %s", path, failed,
                          h5_reason(why));
        H5Fclose(file);
        return rc;
    }
    if (H5Fclose(file) < 0)
        return YEE_FAIL(err, YEE_ERR_IO, "cannot close '%s': %s", path, h5_reason(why));
    return YEE_OK;
}

int yee_h5_block_write(yee_h5 *h, const char *path, int nfreq, const int64_t shape[3],
                       const int64_t start[3], const int64_t count[3], const double *data,
                       const double origin[3], const double spacing[3],
                       const double *const coords[3], yee_err *err)
{
    int ok = nfreq >= 1, empty = 0;
    for (int a = 0; a < 3 && ok; a++) {
        empty |= count[a] == 0;
        ok = shape[a] >= 1 && start[a] >= 0 && count[a] >= 0 && start[a] + count[a] <= shape[a];
    }
    if (!all_ok(h->comm, ok && (empty || data)))
        return YEE_FAIL(err, YEE_ERR_IO, "%s: '%s': block outside %lld x %lld x %lld", h->path,
                        path, (long long)shape[0], (long long)shape[1], (long long)shape[2]);
    char buf[4 * YEE_NAME_LEN];
    const char *leaf;
    hid_t g = parent_group(h->file, path, buf, sizeof buf, &leaf);
    hid_t fspace = -1, mspace = -1, dset = -1;
    herr_t rc = -1;
    do {
        if (g < 0)
            break;
        hsize_t dims[4] = {(hsize_t)nfreq, (hsize_t)shape[2], (hsize_t)shape[1],
                           (hsize_t)shape[0]};
        if ((fspace = H5Screate_simple(4, dims, NULL)) < 0)
            break;
        drop_stale(h, g, leaf);
        if ((dset = H5Dcreate2(g, leaf, H5T_NATIVE_DOUBLE, fspace, H5P_DEFAULT, H5P_DEFAULT,
                               H5P_DEFAULT)) < 0)
            break;
        hsize_t mdims[4] = {(hsize_t)nfreq, empty ? 1 : (hsize_t)count[2],
                            empty ? 1 : (hsize_t)count[1], empty ? 1 : (hsize_t)count[0]};
        if ((mspace = H5Screate_simple(4, mdims, NULL)) < 0)
            break;
        if (empty) {
            if (H5Sselect_none(fspace) < 0 || H5Sselect_none(mspace) < 0)
                break;
        } else {
            hsize_t off[4] = {0, (hsize_t)start[2], (hsize_t)start[1], (hsize_t)start[0]};
            if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, mdims, NULL) < 0)
                break;
        }
        static const double dummy = 0;
        if (H5Dwrite(dset, H5T_NATIVE_DOUBLE, mspace, fspace, h->dxpl, empty ? &dummy : data) < 0)
            break;
        if (set_doubles(dset, "origin", 3, origin) < 0 || set_doubles(dset, "spacing", 3, spacing) < 0)
            break;
        if (write_coords(h, dset, path, shape, origin, spacing, coords) < 0)
            break;
        rc = 0;
    } while (0);
    return end_write(h, rc, mspace, fspace, dset, g, path, err);
}

/* ---- XDMF sidecar ---- */

/* Print s with the five XML special characters escaped. */
static void xml_puts(FILE *fp, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        case '\'': fputs("&apos;", fp); break;
        default: fputc(*s, fp);
        }
    }
}

/* Shortest %g text that reads back as exactly v (0.1 rather than 0.10000000000000001). */
static const char *fmt_g(char buf[32], double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

/* The geometry of a graded component: 3DRectMesh whose VXVYVZ items are the node coordinates
 * along x, y, z in that order (one array per axis, unlike ORIGIN_DXDYDZ), from the file's
 * /coordinates datasets (write_coords). */
static void xmf_rect_geometry(FILE *fp, const snap *s, const char *h5name)
{
    static const char *const axis[3] = {"x", "y", "z"};
    const char *cname = yee_component_name(s->component);
    fprintf(fp,
            "          <Topology TopologyType=\"3DRectMesh\" Dimensions=\"%lld %lld %lld\"/>\n",
            (long long)s->shape[2], (long long)s->shape[1], (long long)s->shape[0]);
    fprintf(fp, "          <Geometry GeometryType=\"VXVYVZ\">\n");
    for (int a = 0; a < 3; a++) {
        fprintf(fp,
                "            <DataItem Name=\"%c\" Dimensions=\"%lld\" NumberType=\"Float\" "
                "Precision=\"8\" Format=\"HDF\">",
                "XYZ"[a], (long long)s->shape[a]);
        xml_puts(fp, h5name);
        fputs(":/coordinates/snapshots/", fp);
        xml_puts(fp, s->monitor);
        fprintf(fp, "/%s/%s</DataItem>\n", cname, axis[a]);
    }
    fprintf(fp, "          </Geometry>\n");
}

/* One grid for component s at frame f: on uniform axes a 3DCoRectMesh whose ORIGIN_DXDYDZ
 * values are in z y x order (XDMF's slowest-first convention), on a graded one a 3DRectMesh
 * (xmf_rect_geometry); and a hyperslab of frame f of the dataset. */
static void xmf_grid(FILE *fp, const snap *s, long f, const char *h5name)
{
    const char *cname = yee_component_name(s->component);
    long long nx = (long long)s->shape[0], ny = (long long)s->shape[1];
    long long nz = (long long)s->shape[2];
    fprintf(fp, "        <Grid Name=\"%s\" GridType=\"Uniform\">\n", cname);
    if (s->graded) {
        xmf_rect_geometry(fp, s, h5name);
    } else {
        fprintf(fp,
                "          <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"%lld %lld "
                "%lld\"/>\n",
                nz, ny, nx);
        fprintf(fp, "          <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n");
        char a[32], b[32], c[32];
        fprintf(fp,
                "            <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" "
                "Precision=\"8\" Format=\"XML\">%s %s %s</DataItem>\n",
                fmt_g(a, s->origin[2]), fmt_g(b, s->origin[1]), fmt_g(c, s->origin[0]));
        fprintf(fp,
                "            <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" "
                "Precision=\"8\" Format=\"XML\">%s %s %s</DataItem>\n",
                fmt_g(a, s->spacing[2]), fmt_g(b, s->spacing[1]), fmt_g(c, s->spacing[0]));
        fprintf(fp, "          </Geometry>\n");
    }
    fprintf(fp, "          <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Node\">\n",
            cname);
    fprintf(fp,
            "            <DataItem ItemType=\"HyperSlab\" Dimensions=\"%lld %lld %lld\" "
            "Type=\"HyperSlab\">\n",
            nz, ny, nx);
    /* rows: start, stride, count over (frame, z, y, x) */
    fprintf(fp,
            "              <DataItem Dimensions=\"3 4\" Format=\"XML\">%ld 0 0 0 1 1 1 1 1 %lld "
            "%lld %lld</DataItem>\n",
            f, nz, ny, nx);
    fprintf(fp,
            "              <DataItem Dimensions=\"%ld %lld %lld %lld\" NumberType=\"Float\" "
            "Precision=\"%d\" Format=\"HDF\">",
            s->nframes, nz, ny, nx, (int)sizeof(yee_real));
    xml_puts(fp, h5name);
    fputs(":/snapshots/", fp);
    xml_puts(fp, s->monitor);
    fprintf(fp, "/%s</DataItem>\n", cname);
    fprintf(fp, "            </DataItem>\n          </Attribute>\n        </Grid>\n");
}

/* <path without .h5>.xmf: per snapshot monitor a temporal collection of its written frames, each
 * frame a spatial collection with one grid per component (components are staggered, so each has
 * its own origin). References use the .h5 base name so the pair can be moved together. */
static int write_xmf(const yee_h5 *h, yee_err *err)
{
    char xpath[YEE_PATH_LEN + 8];
    size_t len = strlen(h->path);
    if (len > 3 && strcmp(h->path + len - 3, ".h5") == 0)
        len -= 3;
    snprintf(xpath, sizeof xpath, "%.*s.xmf", (int)len, h->path);
    const char *h5name = strrchr(h->path, '/');
    h5name = h5name ? h5name + 1 : h->path;

    FILE *fp = fopen(xpath, "w");
    if (!fp)
        return YEE_FAIL(err, YEE_ERR_IO, "cannot create '%s': %s", xpath, strerror(errno));
    fprintf(fp, "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n");
    fprintf(fp, "<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n");
    fprintf(fp, "  <Domain>\n");
    for (int m = 0; m < h->nsnaps; m++) {
        const snap *first = &h->snaps[m];
        int seen = 0; /* monitors appear once, at their first component */
        for (int p = 0; p < m && !seen; p++)
            seen = strcmp(h->snaps[p].monitor, first->monitor) == 0;
        if (seen)
            continue;
        long nf = 0;
        for (int c = m; c < h->nsnaps; c++)
            if (strcmp(h->snaps[c].monitor, first->monitor) == 0 && h->snaps[c].frames_written > nf)
                nf = h->snaps[c].frames_written;
        if (nf == 0)
            continue; /* an empty collection only confuses readers */
        fputs("    <Grid Name=\"", fp);
        xml_puts(fp, first->monitor);
        fputs("\" GridType=\"Collection\" CollectionType=\"Temporal\">\n", fp);
        for (long f = 0; f < nf; f++) {
            /* the frame's time: from any component that wrote it; skip frames nobody wrote */
            double t = NAN;
            long step = -1;
            for (int c = m; c < h->nsnaps && step < 0; c++)
                if (strcmp(h->snaps[c].monitor, first->monitor) == 0 &&
                    f < h->snaps[c].frames_written && h->snaps[c].steps[f] >= 0)
                    step = h->snaps[c].steps[f], t = h->snaps[c].times[f];
            if (step < 0)
                continue;
            fputs("      <Grid Name=\"", fp);
            xml_puts(fp, first->monitor);
            fprintf(fp, "_%ld\" GridType=\"Collection\" CollectionType=\"Spatial\">\n", f);
            char tb[32];
            fprintf(fp, "        <Time Value=\"%s\"/>\n", fmt_g(tb, t));
            for (int c = m; c < h->nsnaps; c++) {
                const snap *s = &h->snaps[c];
                if (strcmp(s->monitor, first->monitor) == 0 && f < s->frames_written &&
                    s->steps[f] >= 0)
                    xmf_grid(fp, s, f, h5name);
            }
            fputs("      </Grid>\n", fp);
        }
        fputs("    </Grid>\n", fp);
    }
    fprintf(fp, "  </Domain>\n</Xdmf>\n");
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad)
        return YEE_FAIL(err, YEE_ERR_IO, "cannot write '%s': %s", xpath, strerror(errno));
    return YEE_OK;
}

/* ---- close ---- */

static void free_writer(yee_h5 *h)
{
    drop_pending(h, 0);
    free(h->pend);
    for (int i = 0; i < h->nsnaps; i++) {
        free(h->snaps[i].steps);
        free(h->snaps[i].times);
    }
    free(h->snaps);
    free(h);
}

int yee_h5_close(yee_h5 *h, yee_err *err)
{
    if (!h)
        return YEE_OK;
    char why[512];
    if (!all_ok(h->comm, !h->failed)) {
        /* After a failed write HDF5 1.10 cannot close the file: H5Fclose fails part way on the
         * ranks that meet the error and the others wait for them in its collectives, and its
         * shutdown then crashes. The file keeps what the last flush wrote (whole frames and true
         * labels); the process ends without HDF5's shutdown (yee_h5_shutdown_unsafe). */
        shutdown_unsafe = 1;
        YEE_FAIL(err, YEE_ERR_IO, "'%s' was left as its last flush wrote it, after a failed write",
                 h->path);
        free_writer(h);
        return YEE_ERR_IO;
    }
    /* The coordinates and the labels of the frames written since the last flush. */
    int rc = write_all_pending(h, err);
    if (rc == YEE_OK)
        rc = write_all_labels(h, err);
    for (int i = 0; i < h->nsnaps; i++) {
        snap *s = &h->snaps[i];
        for (int l = 0; l < NLAB; l++)
            if (s->lab[l] >= 0 && H5Dclose(s->lab[l]) < 0 && rc == YEE_OK)
                rc = YEE_FAIL(err, YEE_ERR_IO, "cannot close the frame labels of "
                              "'%s:/snapshots/%s/%s': %s", h->path, s->monitor,
                              yee_component_name(s->component), h5_reason(why));
        if (s->dset >= 0 && H5Dclose(s->dset) < 0 && rc == YEE_OK)
            rc = YEE_FAIL(err, YEE_ERR_IO, "cannot close '%s:/snapshots/%s/%s': %s", h->path,
                          s->monitor, yee_component_name(s->component), h5_reason(why));
        s->dset = -1;
    }
    if (h->dxpl >= 0)
        H5Pclose(h->dxpl);
    if (h->file >= 0 && H5Fclose(h->file) < 0 && rc == YEE_OK)
        rc = YEE_FAIL(err, YEE_ERR_IO, "cannot close '%s': %s", h->path, h5_reason(why));
    if (!all_ok(h->comm, rc == YEE_OK))
        shutdown_unsafe = 1;
    else if (h->rank == 0)
        release_reserve(h->path);
    /* Only rank 0 writes the sidecar; share its outcome so close fails or succeeds everywhere. */
    int xmf_rc = YEE_OK;
    if (h->rank == 0 && rc == YEE_OK)
        xmf_rc = write_xmf(h, err);
    MPI_Bcast(&xmf_rc, 1, MPI_INT, 0, h->comm);
    if (xmf_rc != YEE_OK && rc == YEE_OK) {
        if (h->rank != 0)
            YEE_FAIL(err, YEE_ERR_IO, "rank 0 could not write the XDMF sidecar of '%s'", h->path);
        rc = xmf_rc;
    }
    free_writer(h);
    return rc;
}
