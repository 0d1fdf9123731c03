/* model/config.c -- helpers on the plain yee_config description (names, time step, freeing). */
#include "config.h"
#include "model/nodes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const component_names[YEE_NCOMP] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};

const char *yee_component_name(int c)
{
    return (c >= 0 && c < YEE_NCOMP) ? component_names[c] : NULL;
}

int yee_component_parse(const char *s)
{
    for (int c = 0; s && c < YEE_NCOMP; c++)
        if (strcasecmp(s, component_names[c]) == 0)
            return c;
    return -1;
}

double yee_courant_dt(const double dx[3], double courant)
{
    double inv2 = 0;
    for (int a = 0; a < 3; a++)
        inv2 += 1.0 / (dx[a] * dx[a]);
    return courant / sqrt(inv2);
}

double yee_config_courant_dt(const yee_config *cfg, double courant)
{
    /* a graded mesh: the narrowest cell of each axis, the usual bound for a tensor-product
     * mesh (Taflove & Hagness, 3rd ed., sec. 4.7, the nonuniform case) */
    const double dx[3] = {yee_min_width(cfg, 0), yee_min_width(cfg, 1),
                          cfg->two_d ? INFINITY : yee_min_width(cfg, 2)};
    return yee_courant_dt(dx, courant);
}

double yee_profile_fmax(const yee_profile *p)
{
    switch (p->kind) {
    case YEE_PROFILE_GAUSSIAN: return p->frequency + 3.0 * p->fwidth;
    case YEE_PROFILE_RICKER: return 3.0 * p->frequency;
    case YEE_PROFILE_CW: return p->frequency;
    case YEE_PROFILE_TABLE: return 0.0;
    }
    return p->frequency;
}

void yee_config_free(yee_config *cfg)
{
    if (!cfg)
        return;
    for (int i = 0; i < cfg->nsources && cfg->sources; i++)
        free(cfg->sources[i].profile.table);
    free(cfg->sources);
    cfg->sources = NULL;
    free(cfg->monitors);
    cfg->monitors = NULL;
    for (int a = 0; a < 3; a++) {
        free(cfg->mesh[a]);
        cfg->mesh[a] = NULL;
    }
    free(cfg->materials);
    cfg->materials = NULL;
    for (int i = 0; i < cfg->nshapes && cfg->shapes; i++) {
        free(cfg->shapes[i].vert);
        free(cfg->shapes[i].vox);
    }
    free(cfg->shapes);
    cfg->shapes = NULL;
    memset(cfg, 0, sizeof *cfg);
}

void yee_shape_bbox(const yee_shape_cfg *s, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++) {
        double h = 0;
        switch (s->kind) {
        case YEE_SHAPE_BOX:
        case YEE_SHAPE_VOXELS:
        case YEE_SHAPE_ELLIPSOID: h = 0.5 * s->size[a]; break;
        case YEE_SHAPE_SPHERE: h = s->radius; break;
        case YEE_SHAPE_CYLINDER:
        case YEE_SHAPE_CONE: {
            double r = fmax(s->radius, s->kind == YEE_SHAPE_CONE ? s->radius2 : 0);
            h = fabs(s->axis[a]) * 0.5 * s->height + r * sqrt(fmax(0, 1 - s->axis[a] * s->axis[a]));
            break;
        }
        case YEE_SHAPE_PRISM: break;
        }
        lo[a] = s->center[a] - h;
        hi[a] = s->center[a] + h;
    }
    if (s->kind == YEE_SHAPE_PRISM && s->nvert > 0) {
        int ax = s->axis[0] != 0 ? 0 : s->axis[1] != 0 ? 1 : 2;
        int u = (ax + 1) % 3, v = (ax + 2) % 3;
        lo[ax] = s->center[ax] - 0.5 * s->height;
        hi[ax] = s->center[ax] + 0.5 * s->height;
        lo[u] = hi[u] = s->center[u] + s->vert[0];
        lo[v] = hi[v] = s->center[v] + s->vert[1];
        for (int i = 1; i < s->nvert; i++) {
            lo[u] = fmin(lo[u], s->center[u] + s->vert[2 * i]);
            hi[u] = fmax(hi[u], s->center[u] + s->vert[2 * i]);
            lo[v] = fmin(lo[v], s->center[v] + s->vert[2 * i + 1]);
            hi[v] = fmax(hi[v], s->center[v] + s->vert[2 * i + 1]);
        }
    }
}

double yee_config_shape_copies(const yee_config *cfg)
{
    double total = 0;
    for (int i = 0; i < cfg->nshapes; i++) {
        double n = 1;
        for (int a = 0; a < 3; a++)
            n *= cfg->shapes[i].counts[a] > 0 ? cfg->shapes[i].counts[a] : 1;
        total += n;
    }
    return total;
}
