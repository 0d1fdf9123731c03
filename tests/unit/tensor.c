/* tests/unit/tensor.c -- the off-diagonal subpixel terms the geometry hands the kernels
 * (grid.subpixel_tensor, geometry/geometry.c): on a sphere each node's terms follow the radial
 * normal, n_c n_b (<1/eps> - 1/<eps>), in sign, direction and size; no node lies within two
 * cells of a CPML layer or a global face; no term reads a neighbour on a PEC object; a 2-D run
 * has in-plane terms only; and with the key off there are none.
 * Usage: yee_test_tensor tests/tensor/sphere.cfg validation/subpixel/cylinder.cfg
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/geometry.h"
#include "io/deck.h"
#include "kernels/yee_tensor.h"
#include "model/nodes.h"

static int failures;

static void expect(int cond, const char *what)
{
    if (!cond) {
        failures++;
        printf("FAIL %s\n", what);
    }
}

static int load(const char *path, const char *const *over, int nover, yee_config *cfg, yee_geo *g)
{
    yee_err err;
    memset(&err, 0, sizeof err);
    if (yee_deck_load(path, over, nover, cfg, &err) < 0) {
        printf("FAIL loading %s: %s\n", path, err.msg);
        return 0;
    }
    const int offset[3] = {0, 0, 0};
    if (yee_geometry_rasterize(cfg, cfg->n, offset, 1, g, &err) < 0) {
        printf("FAIL rasterizing %s: %s\n", path, err.msg);
        yee_config_free(cfg);
        return 0;
    }
    return 1;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void sphere(const char *deck)
{
    yee_config cfg;
    yee_geo g;
    if (!load(deck, NULL, 0, &cfg, &g)) {
        failures++;
        return;
    }
    const yee_shape_cfg *s = &cfg.shapes[0];
    const double delta_max = 1.0 - 1.0 / 12.0; /* <1/eps> - 1/<eps> for eps 1 and 12 */
    int per_comp[3] = {0, 0, 0}, bad_sign = 0, bad_dir = 0, too_big = 0, near_face = 0;
    int pec_read = 0, nang = 0;
    static double ang[1 << 16];
    for (int64_t q = 0; q < g.ntensor; q++) {
        const yee_geo_tensor *t = &g.tensor[q];
        const int c = t->comp;
        int at[3];
        yee_idx_cell(yee_dims_of(g.n, cfg.two_d), t->cell, &at[0], &at[1], &at[2]);
        per_comp[c]++;
        double x[3], n[3], len = 0;
        for (int a = 0; a < 3; a++) {
            x[a] = yee_node_position(&cfg, c, a, at[a]);
            n[a] = x[a] - s->center[a];
            len += n[a] * n[a];
        }
        for (int a = 0; a < 3; a++)
            n[a] /= sqrt(len);
        for (int a = 0; a < 3; a++)
            near_face |= at[a] < cfg.pml_cells[a][0] + 2 || at[a] > cfg.n[a] - cfg.pml_cells[a][1] - 3;
        const int b0 = (c + 1) % 3, b1 = (c + 2) % 3;
        const double want[2] = {n[c] * n[b0], n[c] * n[b1]};
        for (int k = 0; k < 2; k++) {
            if (fabs(want[k]) > 0.05 && t->inv[k] != 0.0 && (t->inv[k] > 0) != (want[k] > 0))
                bad_sign++;
            too_big |= fabs(t->inv[k]) > 0.5 * delta_max;
        }
        /* the direction of (inv0, inv1) is that of n's part across c, (n_b0, n_b1) sign n_c */
        const double pn = hypot(n[b0], n[b1]), pi = hypot(t->inv[0], t->inv[1]);
        if (pn > 0.3 && fabs(n[c]) > 0.3 && pi > 0) {
            const double sgn = n[c] > 0 ? 1.0 : -1.0;
            const double cosang = sgn * (t->inv[0] * n[b0] + t->inv[1] * n[b1]) / (pn * pi);
            const double a = acos(fmin(1.0, cosang)) * 180.0 / M_PI;
            if (nang < (int)(sizeof ang / sizeof ang[0]))
                ang[nang++] = a;
        }
        for (int k = 0; k < 2; k++) {
            if (t->inv[k] == 0.0)
                continue;
            const int b = (c + 1 + k) % 3;
            for (int u = 0; u < 4; u++) {
                const int64_t nb = yee_e_neighbour(g.stride, t->cell, c, b, u);
                pec_read |= g.entry[g.mat[b][nb]].pec;
            }
        }
    }
    /* The normal is the first moment of eps over the dual cell (geometry.h), which a plane
     * cutting a corner off the cell pulls towards the corner's diagonal: most nodes are within
     * a few degrees of the radial normal, a few up to 40. A swapped or misplaced term is 90 off
     * or more everywhere. */
    qsort(ang, (size_t)nang, sizeof ang[0], by_value);
    const double median = nang ? ang[nang / 2] : 180.0, p90 = nang ? ang[nang * 9 / 10] : 180.0;
    bad_dir = median > 4.0 || p90 > 20.0 || (nang && ang[nang - 1] > 50.0);
    printf("sphere: %lld tensor nodes (Ex %d, Ey %d, Ez %d); angle to the radial normal: "
           "median %.2f, 90th percentile %.2f, largest %.2f degrees (%d nodes)\n",
           (long long)g.ntensor, per_comp[0], per_comp[1], per_comp[2], median, p90,
           nang ? ang[nang - 1] : 0.0, nang);
    expect(per_comp[0] > 100 && per_comp[1] > 100 && per_comp[2] > 100,
           "sphere: every component has tensor nodes");
    expect(bad_sign == 0, "sphere: each term has the sign of n_c n_b");
    expect(nang > 200, "sphere: enough nodes with both terms to measure directions");
    expect(!bad_dir, "sphere: the terms follow the radial normal (median < 4, 90% < 20, all < 50 "
                     "degrees)");
    expect(!too_big, "sphere: |term| <= (<1/eps> - 1/<eps>) / 2");
    expect(!near_face, "sphere: no node within two cells of a CPML layer or a global face");
    expect(!pec_read, "sphere: no term reads a neighbour on the PEC block");
    yee_geometry_free(&g);
    yee_config_free(&cfg);

    const char *off[] = {"grid.subpixel_tensor=false"};
    if (load(deck, off, 1, &cfg, &g)) {
        expect(g.ntensor == 0, "sphere, subpixel_tensor = false: no tensor nodes");
        yee_geometry_free(&g);
        yee_config_free(&cfg);
    } else {
        failures++;
    }
}

static void rod2d(const char *deck)
{
    const char *on[] = {"grid.subpixel_tensor=true"};
    yee_config cfg;
    yee_geo g;
    if (!load(deck, on, 1, &cfg, &g)) {
        failures++;
        return;
    }
    int out_of_plane = 0, nxy = 0;
    for (int64_t q = 0; q < g.ntensor; q++) {
        const yee_geo_tensor *t = &g.tensor[q];
        out_of_plane |= t->comp == 2 || (t->comp == 0 && t->inv[1] != 0.0) ||
                        (t->comp == 1 && t->inv[0] != 0.0);
        nxy += t->comp < 2;
    }
    printf("rod2d: %lld tensor nodes\n", (long long)g.ntensor);
    expect(nxy > 20, "rod2d: Ex and Ey have tensor nodes");
    expect(!out_of_plane, "rod2d: only the in-plane terms (Ex-Ey, Ey-Ex)");
    yee_geometry_free(&g);
    yee_config_free(&cfg);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s tensor_sphere.cfg cylinder2d.cfg\n", argv[0]);
        return 2;
    }
    sphere(argv[1]);
    rod2d(argv[2]);
    if (failures)
        printf("%d check(s) failed\n", failures);
    else
        printf("PASS tensor nodes\n");
    return failures ? 1 : 0;
}
