/* postproc/export_vtk.c -- `yee export-vtk`: snapshot frames of a run's HDF5 file written as
 * legacy VTK through io/vtk.h, named and titled exactly as the run's own `vtk = true` files, so an
 * export of a 1-rank run reproduces those files byte for byte (RECTILINEAR_GRID files on a graded
 * mesh, from the file's node coordinates). Reads through io/h5read.h only
 * (no HDF5 here). Does not resample, combine components or write XML VTK.
 */
#include "postproc/export_vtk.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/yee_num.h"
#include "io/h5read.h"
#include "io/vtk.h"

/* The options and their meaning are in app/commands.c, which prints `yee export-vtk --help`
 * (app/main.c answers -h and --help before calling here). */
static void usage(FILE *out)
{
    fputs("usage: yee export-vtk RUN.h5 [options] (see yee export-vtk --help)\n", out);
}

/* "a, b, c" of a name list, cut to fit. */
static void join_names(const yee_name_list *l, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->n && used + 1 < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", l->name[i]);
        used = w < 0 ? used : used + (size_t)w;
    }
    if (!buf[0])
        snprintf(buf, cap, "none");
}

/* "20, 40, 60" of the written steps (at most 12, then "..."). */
static void join_steps(const yee_snapshot_meta *m, char *buf, size_t cap)
{
    size_t used = 0;
    int shown = 0;
    buf[0] = '\0';
    for (long f = 0; f < m->frames_written && used + 1 < cap; f++) {
        if (m->steps[f] < 0)
            continue;
        int w = shown == 12 ? snprintf(buf + used, cap - used, ", ...")
                            : snprintf(buf + used, cap - used, "%s%ld", shown ? ", " : "",
                                       m->steps[f]);
        used = w < 0 ? used : used + (size_t)w;
        if (++shown > 12)
            break;
    }
    if (!buf[0])
        snprintf(buf, cap, "none");
}

/* The frames of one dataset that the options select, into sel (room for m->frames_written);
 * returns their count, or 0 with a reason in err. */
static long select_frames(const yee_export_vtk_options *o, const char *monitor,
                          const yee_snapshot_meta *m, long *sel, yee_err *err)
{
    long last = -1, nsel = 0;
    for (long f = 0; f < m->frames_written && f < m->nframes; f++)
        if (m->steps[f] >= 0)
            last = f;
    if (last < 0) {
        yee_fail(err, YEE_ERR_IO, "snapshot monitor '%s' has no frame written", monitor);
        return 0;
    }
    char steps[256];
    if (o->all) {
        for (long f = 0; f <= last; f++)
            if (m->steps[f] >= 0)
                sel[nsel++] = f;
    } else if (o->has_step) {
        for (long f = 0; f <= last && nsel == 0; f++)
            if (m->steps[f] == o->step)
                sel[nsel++] = f;
        if (nsel == 0) {
            join_steps(m, steps, sizeof steps);
            yee_fail(err, YEE_ERR_IO, "snapshot monitor '%s' has no frame at step %ld (steps "
                     "written: %s)", monitor, o->step, steps);
        }
    } else if (o->has_frame) {
        const long f = o->frame < 0 ? last + 1 + o->frame : o->frame;
        if (f >= 0 && f <= last && m->steps[f] >= 0)
            sel[nsel++] = f;
        else
            yee_fail(err, YEE_ERR_IO, "snapshot monitor '%s' has no frame %ld (frames 0 to %ld "
                     "written; -1 is the last)", monitor, o->frame, last);
    } else {
        sel[nsel++] = last;
    }
    return nsel;
}

/* The node coordinates of /snapshots/<monitor>/<comp> on its graded axes, from
 * /coordinates/snapshots/<monitor>/<comp>/x|y|z (io/h5out.h), for the coords of io/vtk.h: an axis
 * whose coordinates are exactly origin + i spacing (how the run wrote a uniform axis) stays NULL,
 * so that a uniform snapshot is exported as STRUCTURED_POINTS, as the run's own files are.
 * Files without those datasets (earlier yee versions) leave all NULL. */
static int read_coords(const char *path, yee_h5_reader *r, const char *monitor, const char *comp,
                       const yee_snapshot_meta *m, double *coords[3], yee_err *err)
{
    static const char *const axis[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; a++)
        coords[a] = NULL;
    char group[3 * YEE_NAME_LEN + 32];
    snprintf(group, sizeof group, "/coordinates/snapshots/%s/%s", monitor, comp);
    yee_name_list have = {0, NULL};
    YEE_TRY(yee_h5_list(r, group, &have, err));
    const int present = have.n > 0;
    yee_name_list_free(&have);
    int rc = YEE_OK;
    for (int a = 0; a < 3 && present && rc == YEE_OK; a++) {
        char dset[sizeof group + 4];
        snprintf(dset, sizeof dset, "%s/%s", group, axis[a]);
        double *v = NULL;
        int64_t n = 0;
        rc = yee_h5_read_vector(path, dset, &v, &n, err);
        if (rc == YEE_OK && n != m->n[a])
            rc = yee_fail(err, YEE_ERR_IO, "'%s:%s' has %lld values for %lld nodes", path, dset,
                          (long long)n, (long long)m->n[a]);
        int uniform = rc == YEE_OK;
        for (int64_t i = 0; uniform && i < n; i++)
            uniform = v[i] == m->origin[a] + (double)i * m->spacing[a];
        if (rc == YEE_OK && !uniform)
            coords[a] = v;
        else
            free(v);
    }
    if (rc != YEE_OK)
        for (int a = 0; a < 3; a++) {
            free(coords[a]);
            coords[a] = NULL;
        }
    return rc;
}

/* Write the selected frames of /snapshots/<monitor>/<comp>; counts files in *nfiles. A selection
 * that matches no frame returns 1 with the reason in err (the caller decides if that is fatal). */
static int export_dataset(const yee_export_vtk_options *o, yee_h5_reader *r, const char *run,
                          const char *dir, const char *monitor, const char *comp, int *nfiles,
                          yee_err *err)
{
    yee_snapshot_meta m;
    YEE_TRY(yee_h5_snapshot_meta(r, monitor, comp, &m, err));
    long *sel = (long *)malloc(((size_t)m.nframes + 1) * sizeof *sel);
    const size_t count = (size_t)m.n[0] * (size_t)m.n[1] * (size_t)m.n[2];
    yee_real *data = (yee_real *)malloc((count ? count : 1) * sizeof *data);
    double *coords[3] = {NULL, NULL, NULL}; /* graded axes (read_coords) */
    int rc = read_coords(o->path, r, monitor, comp, &m, coords, err);
    if (rc != YEE_OK)
        goto done;
    if (!sel || !data) {
        rc = yee_fail(err, YEE_ERR_NOMEM, "cannot hold a frame of /snapshots/%s/%s (%zu values)",
                      monitor, comp, count);
        goto done;
    }
    const long nsel = select_frames(o, monitor, &m, sel, err);
    if (nsel == 0) {
        rc = 1;
        goto done;
    }
    /* a file of the other precision converts (float -> double exactly, double -> float rounded) */
    if (m.is_double != (sizeof(yee_real) == 8) && !o->quiet)
        fprintf(stderr, "yee export-vtk: warning: /snapshots/%s/%s is %s; this %s build writes "
                "it as %s\n", monitor, comp, m.is_double ? "double" : "float", YEE_REAL_NAME,
                YEE_REAL_NAME);
    for (long q = 0; q < nsel && rc == YEE_OK; q++) {
        const long f = sel[q];
        rc = yee_h5_snapshot_frame(r, monitor, comp, f, data, err);
        if (rc < 0)
            break;
        char path[YEE_PATH_LEN + 3 * YEE_NAME_LEN + 32];
        snprintf(path, sizeof path, "%s/%s_%s_%s_%06ld.vtk", dir, run, monitor, comp,
                 m.steps[f]);
        /* the title a run gives its own VTK files (solver/sim.c write_vtk) */
        char title[256];
        snprintf(title, sizeof title, "yee %s %s %s step %ld time %.6g fs", run, monitor, comp,
                 m.steps[f], m.times_fs[f]);
        rc = yee_vtk_write_points(path, title, comp, m.n, m.origin, m.spacing,
                                  (const double *const *)coords, data, err);
        if (rc == YEE_OK) {
            (*nfiles)++;
            if (!o->quiet)
                printf("wrote %s\n", path);
        }
    }
done:
    for (int a = 0; a < 3; a++)
        free(coords[a]);
    free(sel);
    free(data);
    yee_snapshot_meta_free(&m);
    return rc;
}

/* Index of name in l, case-insensitive; -1 when absent. */
static int find_name(const yee_name_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcasecmp(l->name[i], name) == 0)
            return i;
    return -1;
}

int yee_export_vtk(const yee_export_vtk_options *o, int *nfiles, yee_err *err)
{
    *nfiles = 0;
    yee_h5_reader *r = NULL;
    YEE_TRY(yee_h5_reader_open(o->path, &r, err));
    yee_name_list mons = {0, NULL}, comps = {0, NULL};
    int rc = yee_h5_list(r, "/snapshots", &mons, err);
    if (rc < 0)
        goto done;

    /* The run name as the run used it for its own files; the file's base name for old files. */
    char run[YEE_NAME_LEN];
    if (yee_h5_root_string(r, "name", run, sizeof run) < 0 || !run[0]) {
        const char *base = strrchr(o->path, '/');
        snprintf(run, sizeof run, "%s", base ? base + 1 : o->path);
        char *dot = strrchr(run, '.');
        if (dot && dot != run)
            *dot = '\0';
    }
    char dir[YEE_PATH_LEN];
    if (o->out_dir) {
        snprintf(dir, sizeof dir, "%s", o->out_dir);
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            rc = yee_fail(err, YEE_ERR_IO, "cannot create the folder '%s': %s", dir,
                          strerror(errno));
            goto done;
        }
    } else {
        snprintf(dir, sizeof dir, "%s", o->path);
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir ? 1 : 0] = '\0';
        else
            snprintf(dir, sizeof dir, ".");
    }

    char names[512];
    join_names(&mons, names, sizeof names);
    if (mons.n == 0) {
        rc = yee_fail(err, YEE_ERR_IO, "'%s' has no snapshot monitors", o->path);
        goto done;
    }
    int first = 0, last = mons.n - 1;
    if (o->monitor) {
        first = last = find_name(&mons, o->monitor);
        if (first < 0) {
            rc = yee_fail(err, YEE_ERR_IO, "'%s' has no snapshot monitor '%s' (monitors: %s)",
                          o->path, o->monitor, names);
            goto done;
        }
    }
    /* Without --monitor, a monitor that lacks the component or frame asked for is skipped; it
     * is an error only when no monitor has it. The first reason is kept for that message. */
    yee_err miss;
    miss.msg[0] = '\0';
    int have_comp = 0;
    for (int mi = first; mi <= last && rc == YEE_OK; mi++) {
        char group[YEE_NAME_LEN + 16];
        snprintf(group, sizeof group, "/snapshots/%s", mons.name[mi]);
        yee_name_list_free(&comps);
        if ((rc = yee_h5_list(r, group, &comps, err)) < 0)
            break;
        int c0 = 0, c1 = comps.n - 1;
        if (o->component) {
            c0 = c1 = find_name(&comps, o->component);
            if (c0 < 0) {
                if (o->monitor) {
                    join_names(&comps, names, sizeof names);
                    rc = yee_fail(err, YEE_ERR_IO, "snapshot monitor '%s' has no component '%s' "
                                  "(components: %s)", mons.name[mi], o->component, names);
                }
                continue;
            }
        }
        have_comp = 1;
        for (int ci = c0; ci <= c1 && rc == YEE_OK; ci++) {
            yee_err why;
            why.msg[0] = '\0';
            rc = export_dataset(o, r, run, dir, mons.name[mi], comps.name[ci], nfiles, &why);
            if (rc == 1 && !o->monitor) { /* nothing selected here: skip, keep the reason */
                if (!miss.msg[0])
                    miss = why;
                rc = YEE_OK;
            } else if (rc != YEE_OK) {
                *err = why;
                rc = rc < 0 ? rc : YEE_ERR_IO;
            }
        }
    }
    if (rc == YEE_OK && *nfiles == 0) {
        if (o->component && !have_comp)
            rc = yee_fail(err, YEE_ERR_IO, "no snapshot monitor of '%s' has component '%s'",
                          o->path, o->component);
        else
            rc = yee_fail(err, YEE_ERR_IO, "no snapshot monitor of '%s' has the frame asked for "
                          "(%s)", o->path, miss.msg[0] ? miss.msg : "nothing written");
    }
done:
    yee_name_list_free(&mons);
    yee_name_list_free(&comps);
    yee_h5_reader_close(r);
    return rc;
}

int yee_export_vtk_main(int argc, char **argv)
{
    yee_export_vtk_options o;
    memset(&o, 0, sizeof o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        if (strcmp(a, "--monitor") == 0 && more) {
            o.monitor = argv[++i];
        } else if (strcmp(a, "--component") == 0 && more) {
            o.component = argv[++i];
        } else if ((strcmp(a, "--frame") == 0 || strcmp(a, "--step") == 0) && more) {
            const int step = a[2] == 's';
            yee_err bad;
            /* --frame counts from the end when negative (-1 the last); --step is a time step */
            if (yee_parse_long(a, argv[++i], step ? 0 : LONG_MIN, LONG_MAX,
                               step ? &o.step : &o.frame, &bad) < 0) {
                fprintf(stderr, "yee export-vtk: %s\n", bad.msg);
                return 2;
            }
            if (step)
                o.has_step = 1;
            else
                o.has_frame = 1;
        } else if (strcmp(a, "--all") == 0) {
            o.all = 1;
        } else if (strcmp(a, "--out") == 0 && more) {
            o.out_dir = argv[++i];
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o.quiet = 1;
        } else if ((a[0] != '-' || !a[1]) && !o.path) {
            o.path = a;
        } else {
            fprintf(stderr, "yee export-vtk: unexpected or incomplete argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!o.path) {
        fprintf(stderr, "yee export-vtk: no run file given\n");
        usage(stderr);
        return 2;
    }
    if (o.has_frame + o.has_step + o.all > 1) {
        fprintf(stderr, "yee export-vtk: give at most one of --frame, --step, --all\n");
        return 2;
    }
    yee_err err;
    err.msg[0] = '\0';
    int nfiles = 0;
    if (yee_export_vtk(&o, &nfiles, &err) < 0) {
        fprintf(stderr, "yee export-vtk: error: %s\n", err.msg);
        return 1;
    }
    if (!o.quiet)
        printf("exported %d frame%s from %s\n", nfiles, nfiles == 1 ? "" : "s", o.path);
    return 0;
}
