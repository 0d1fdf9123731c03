/* solver/geometry_out.c -- the rasterized permittivity of a run, for looking at the geometry
 * before (or alongside) a long run: one 1-frame dataset per E component in the run's HDF5 file,
 * /snapshots/geometry/Ex|Ey|Ez (so the XDMF sidecar shows it in ParaView), and on one rank also
 * legacy VTK files <dir>/<name>_geometry_eps<C>.vtk. Values: the relative permittivity each E
 * node's update uses (subpixel-averaged at interfaces, eps_inf for dispersive media, 0 in PEC).
 * Does not rasterize (solver/grid.c and geometry/ did) and writes nothing else.
 */
#include "solver/geometry_out.h"

#include <stdio.h>
#include <stdlib.h>

#include "io/vtk.h"
#include "model/nodes.h"

int yee_geometry_write(yee_h5 *h, const yee_config *cfg, const yee_structure *g, int nranks,
                       yee_err *err)
{
    static const char *const names[3] = {"Ex", "Ey", "Ez"};
    const size_t nloc = (size_t)g->n[0] * g->n[1] * g->n[2];
    const size_t nglob = (size_t)cfg->n[0] * cfg->n[1] * cfg->n[2];
    yee_real *buf = (yee_real *)malloc((nloc ? nloc : 1) * sizeof(yee_real));
    if (!buf)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate the geometry output buffer");
    int rc = YEE_OK;
    double *coords[3] = {NULL, NULL, NULL};
    for (int c = 0; c < 3 && rc == YEE_OK; c++) { /* c: YEE_EX, YEE_EY, YEE_EZ */
        const int64_t shape[3] = {cfg->n[0], cfg->n[1], cfg->n[2]};
        const int glo[3] = {0, 0, 0};
        double origin[3];
        for (int a = 0; a < 3; a++) /* node (0,0,0) of component c */
            origin[a] = cfg->mesh[a] ? yee_node_position(cfg, c, a, 0)
                                     : cfg->origin[a] + (a == c ? 0.5 : 0.0) * cfg->dx[a];
        yee_h5_coords_free(coords);
        /* graded axes: every node's position (component c's staggering), else NULL */
        rc = yee_h5_node_coords(cfg, c, glo, cfg->n, coords, err);
        if (rc < 0)
            break;
        int id = -1;
        rc = yee_h5_snapshot_define(h, "geometry", c, shape, origin, cfg->dx,
                                    (const double *const *)coords, 1, &id, err);
        if (rc < 0)
            break;
        const int zero[3] = {0, 0, 0};
        yee_structure_eps(g, c, zero, g->n, buf);
        const int64_t start[3] = {g->offset[0], g->offset[1], g->offset[2]};
        const int64_t count[3] = {g->n[0], g->n[1], g->n[2]};
        rc = yee_h5_snapshot_write(h, id, 0, 0, 0.0, start, count, buf, err);
        if (rc < 0 || nranks != 1 || nloc != nglob)
            continue;
        char path[YEE_PATH_LEN + YEE_NAME_LEN + 32], title[128];
        snprintf(path, sizeof path, "%s/%s_geometry_eps%s.vtk", cfg->out_dir, cfg->name,
                 names[c]);
        snprintf(title, sizeof title, "yee %s relative permittivity seen by %s", cfg->name,
                 names[c]);
        char field[8];
        snprintf(field, sizeof field, "eps%s", names[c]);
        rc = yee_vtk_write_points(path, title, field, shape, origin, cfg->dx,
                                  (const double *const *)coords, buf, err);
    }
    yee_h5_coords_free(coords);
    free(buf);
    return rc;
}

int yee_geometry_preview(const yee_config *cfg, const char *dir, char *path_out, size_t cap,
                         yee_err *err)
{
    yee_config c = *cfg; /* shallow: only out_dir changes, for the VTK file names */
    snprintf(c.out_dir, sizeof c.out_dir, "%s", dir);
    snprintf(path_out, cap, "%s/%s_geometry.h5", dir, cfg->name);
    const int zero[3] = {0, 0, 0};
    yee_structure g;
    YEE_TRY(yee_structure_build(&c, c.n, zero, &g, err));
    yee_h5 *h = NULL;
    int rc = yee_h5_create(path_out, MPI_COMM_SELF, &c, NULL, &h, err);
    if (rc == YEE_OK)
        rc = yee_geometry_write(h, &c, &g, 1, err);
    if (h) {
        yee_err close_err;
        const int rc_close = yee_h5_close(h, rc == YEE_OK ? err : &close_err);
        if (rc == YEE_OK)
            rc = rc_close;
    }
    yee_structure_free(&g);
    return rc;
}
