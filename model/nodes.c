/* model/nodes.c -- where each component's nodes sit (model/nodes.h). */
#include "model/nodes.h"

#include <math.h>

double yee_stagger(int c, int a)
{
    if (c < 3)
        return c == a ? 0.5 : 0.0;
    return (c - 3) == a ? 0.0 : 0.5;
}

double yee_node_position(const yee_config *cfg, int c, int a, int i)
{
    if (a == 2 && cfg->two_d) /* every component in the plane z = centre */
        return cfg->origin[2] + 0.5 * cfg->dx[2];
    return cfg->origin[a] + (i + yee_stagger(c, a)) * cfg->dx[a];
}

int yee_nearest_node(const yee_config *cfg, int c, int a, double x)
{
    long i = lround((x - cfg->origin[a]) / cfg->dx[a] - yee_stagger(c, a));
    if (i < 0)
        i = 0;
    if (i > cfg->n[a] - 1)
        i = cfg->n[a] - 1;
    return (int)i;
}

void yee_node_range(const yee_config *cfg, int c, int a, double min, double max, int *lo,
                    int *count)
{
    const double off = yee_stagger(c, a);
    int l = (int)ceil((min - cfg->origin[a]) / cfg->dx[a] - off - 1e-9);
    int h = (int)floor((max - cfg->origin[a]) / cfg->dx[a] - off + 1e-9);
    if (l < 0)
        l = 0;
    if (h > cfg->n[a] - 1)
        h = cfg->n[a] - 1;
    if (l > h)
        l = h = yee_nearest_node(cfg, c, a, 0.5 * (min + max));
    *lo = l;
    *count = h - l + 1;
}
