/* model/nodes.c -- where each component's nodes sit (model/nodes.h). */
#include "model/nodes.h"

#include <math.h>

double yee_stagger(int c, int a)
{
    if (c < 3)
        return c == a ? 0.5 : 0.0;
    return (c - 3) == a ? 0.0 : 0.5;
}

double yee_mesh_line(const yee_config *cfg, int a, int i)
{
    const double *x = cfg->mesh[a];
    const int n = cfg->n[a];
    if (!x)
        return cfg->origin[a] + i * cfg->dx[a];
    if (i < 0)
        return x[0] - (cfg->boundary[a][0] == YEE_BC_PERIODIC ? x[n] - x[n - 1] : x[1] - x[0]);
    if (i > n)
        return x[n] + (cfg->boundary[a][0] == YEE_BC_PERIODIC ? x[1] - x[0] : x[n] - x[n - 1]);
    return x[i];
}

double yee_cell_width(const yee_config *cfg, int a, int i)
{
    if (!cfg->mesh[a])
        return cfg->dx[a];
    return yee_mesh_line(cfg, a, i + 1) - yee_mesh_line(cfg, a, i);
}

double yee_dual_width(const yee_config *cfg, int a, int i)
{
    if (!cfg->mesh[a])
        return cfg->dx[a];
    return 0.5 * (yee_cell_width(cfg, a, i - 1) + yee_cell_width(cfg, a, i));
}

double yee_node_width(const yee_config *cfg, int c, int a, int i)
{
    return yee_stagger(c, a) > 0 ? yee_cell_width(cfg, a, i) : yee_dual_width(cfg, a, i);
}

void yee_node_cell(const yee_config *cfg, int c, int a, int i, double *lo, double *hi)
{
    const double x = yee_node_position(cfg, c, a, i);
    if (yee_stagger(c, a) > 0) {
        *lo = x - 0.5 * yee_cell_width(cfg, a, i);
        *hi = x + 0.5 * yee_cell_width(cfg, a, i);
    } else {
        *lo = x - 0.5 * yee_cell_width(cfg, a, i - 1);
        *hi = x + 0.5 * yee_cell_width(cfg, a, i);
    }
}

double yee_min_width(const yee_config *cfg, int a)
{
    if (!cfg->mesh[a])
        return cfg->dx[a];
    double w = INFINITY;
    for (int i = 0; i < cfg->n[a]; i++)
        w = fmin(w, cfg->mesh[a][i + 1] - cfg->mesh[a][i]);
    return w;
}

double yee_domain_end(const yee_config *cfg, int a)
{
    return yee_mesh_line(cfg, a, cfg->n[a]);
}

int yee_graded(const yee_config *cfg)
{
    return cfg->mesh[0] || cfg->mesh[1] || cfg->mesh[2];
}

double yee_node_position(const yee_config *cfg, int c, int a, int i)
{
    if (a == 2 && cfg->two_d) /* every component in the plane z = centre */
        return cfg->origin[2] + 0.5 * cfg->dx[2];
    if (!cfg->mesh[a])
        return cfg->origin[a] + (i + yee_stagger(c, a)) * cfg->dx[a];
    const double x = yee_mesh_line(cfg, a, i);
    return yee_stagger(c, a) > 0 ? x + 0.5 * (yee_mesh_line(cfg, a, i + 1) - x) : x;
}

int yee_nearest_node(const yee_config *cfg, int c, int a, double x)
{
    long i;
    if (!cfg->mesh[a] || (a == 2 && cfg->two_d)) {
        i = lround((x - cfg->origin[a]) / cfg->dx[a] - yee_stagger(c, a));
    } else { /* the last node at or below x, then whichever of it and the next is nearer */
        int l = 0, h = cfg->n[a] - 1;
        while (l < h) {
            const int m = (l + h + 1) / 2;
            if (yee_node_position(cfg, c, a, m) <= x)
                l = m;
            else
                h = m - 1;
        }
        i = l;
        if (i + 1 < cfg->n[a] &&
            fabs(yee_node_position(cfg, c, a, l + 1) - x) < fabs(yee_node_position(cfg, c, a, l) - x))
            i = l + 1;
    }
    if (i < 0)
        i = 0;
    if (i > cfg->n[a] - 1)
        i = cfg->n[a] - 1;
    return (int)i;
}

void yee_node_range(const yee_config *cfg, int c, int a, double min, double max, int *lo,
                    int *count)
{
    int l, h;
    if (!cfg->mesh[a] || (a == 2 && cfg->two_d)) {
        const double off = yee_stagger(c, a);
        l = (int)ceil((min - cfg->origin[a]) / cfg->dx[a] - off - 1e-9);
        h = (int)floor((max - cfg->origin[a]) / cfg->dx[a] - off + 1e-9);
    } else {
        const int k = yee_nearest_node(cfg, c, a, min);
        const double tol = 1e-9 * yee_node_width(cfg, c, a, k);
        l = yee_node_position(cfg, c, a, k) >= min - tol ? k : k + 1;
        const int m = yee_nearest_node(cfg, c, a, max);
        h = yee_node_position(cfg, c, a, m) <= max + tol ? m : m - 1;
    }
    if (l < 0)
        l = 0;
    if (h > cfg->n[a] - 1)
        h = cfg->n[a] - 1;
    if (l > h)
        l = h = yee_nearest_node(cfg, c, a, 0.5 * (min + max));
    *lo = l;
    *count = h - l + 1;
}
