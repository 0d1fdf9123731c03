/* tests/unit/mesh.c -- model/mesh.c and the graded side of model/nodes.c: a refined interval is
 * uniform at its spacing with its edges on mesh lines, the gaps grade within the ratio up to the
 * base spacing, the CPML padding keeps the base spacing exactly, and nodes, widths and searches
 * agree with the lines. Bad requests fail with a sentence.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mesh.h"
#include "model/nodes.h"

static int failures;

static void expect(int cond, const char *what)
{
    if (!cond) {
        failures++;
        printf("FAIL %s\n", what);
    }
}

static int has_line(const double *x, int n, double v)
{
    for (int i = 0; i <= n; i++)
        if (fabs(x[i] - v) < 1e-12)
            return 1;
    return 0;
}

/* The properties every mesh must have, whatever it was asked. */
static void check_mesh(const char *name, const double *x, int n, double lo, double hi, double base,
                       int pad_lo, int pad_hi, const yee_mesh_span *sp, int ns, double ratio)
{
    char what[256];
    snprintf(what, sizeof what, "%s: ends", name);
    expect(x[0] == lo && x[n] == hi, what);
    int mono = 1, wide = 0;
    for (int i = 0; i < n; i++) {
        mono &= x[i + 1] > x[i];
        wide |= x[i + 1] - x[i] > base * (1 + 1e-9);
    }
    snprintf(what, sizeof what, "%s: increasing", name);
    expect(mono, what);
    snprintf(what, sizeof what, "%s: no cell wider than the base", name);
    expect(!wide, what);
    int pads = 1;
    for (int i = 0; i < pad_lo; i++)
        pads &= fabs(x[i + 1] - x[i] - base) < 1e-12;
    for (int i = n - pad_hi; i < n; i++)
        pads &= fabs(x[i + 1] - x[i] - base) < 1e-12;
    snprintf(what, sizeof what, "%s: the padding keeps the base spacing", name);
    expect(pads, what);
    for (int s = 0; s < ns; s++) {
        snprintf(what, sizeof what, "%s: span %d's edges are lines", name, s);
        expect(has_line(x, n, sp[s].lo) && has_line(x, n, sp[s].hi), what);
        int fine = 1;
        for (int i = 0; i < n; i++)
            if (x[i] >= sp[s].lo - 1e-12 && x[i + 1] <= sp[s].hi + 1e-12)
                fine &= x[i + 1] - x[i] <= sp[s].h * (1 + 1e-9);
        snprintf(what, sizeof what, "%s: span %d's cells are at most %g", name, s, sp[s].h);
        expect(fine, what);
    }
    const double worst = yee_mesh_max_ratio(x, n);
    snprintf(what, sizeof what, "%s: neighbours within %g (got %.4f)", name, ratio, worst);
    expect(worst <= ratio * (1 + 1e-6), what);
}

static void test_film(void)
{
    /* a 20 nm film at 2 nm in a 4 um axis of 50 nm cells, 10 CPML cells each side */
    const yee_mesh_span sp[1] = {{0.0, 0.02, 0.002}};
    double *x;
    int n;
    char why[256];
    expect(yee_mesh_axis(-2.0, 2.0, 0.05, 10, 10, sp, 1, 1.3, &x, &n, why, sizeof why) == 0,
           "film: builds");
    check_mesh("film", x, n, -2.0, 2.0, 0.05, 10, 10, sp, 1, 1.3);
    /* 10 cells in the film; the ramp 2 nm -> 50 nm at 1.3: 5 cells to 6.25 nm, then steps of
     * 1.6 nm (an eighth of the base times ln 1.3), about 32 cells a side */
    expect(n < 80 + 10 + 2 * (40 - 10), "film: far fewer cells than 2000 of 2 nm");
    /* the ramp: ratios near 1.3 at the fine end, then steps of about ln(1.3) * 6.25 nm */
    int i0 = 0;
    while (x[i0] < 0.02 - 1e-12)
        i0++;
    const double w1 = x[i0 + 1] - x[i0], w2 = x[i0 + 2] - x[i0 + 1];
    expect(w1 / 0.002 > 1.05 && w1 / 0.002 <= 1.3 && w2 / w1 > 1.1, "film: geometric at first");
    int j = i0;
    while (x[j + 1] - x[j] < 0.03)
        j++;
    const double step = (x[j + 1] - x[j]) - (x[j] - x[j - 1]);
    expect(step > 0.5 * log(1.3) * 0.00625 && step < 1.5 * log(1.3) * 0.00625,
           "film: fixed steps where the cells are coarse");
    int in_film = 0;
    for (int i = 0; i < n; i++)
        in_film += x[i] >= -1e-12 && x[i + 1] <= 0.02 + 1e-12;
    expect(in_film == 10, "film: 10 cells of 2 nm in the film");
    free(x);
    /* the same film 80 nm from the PML: no room to grade, which the ratio shows (the deck
     * reader warns with it) */
    const yee_mesh_span near[1] = {{0.40, 0.42, 0.002}};
    expect(yee_mesh_axis(-1.0, 1.0, 0.05, 10, 10, near, 1, 1.3, &x, &n, why, sizeof why) == 0 &&
               yee_mesh_max_ratio(x, n) > 2.0,
           "film near the PML: the ratio says the grading could not fit");
    free(x);
}

static void test_overlap(void)
{
    /* nested spans: the finer one wins where they overlap; a ratio of 1.1 */
    const yee_mesh_span sp[2] = {{0.0, 0.5, 0.01}, {0.2, 0.3, 0.0025}};
    double *x;
    int n;
    char why[256];
    expect(yee_mesh_axis(-1.0, 1.5, 0.05, 0, 0, sp, 2, 1.1, &x, &n, why, sizeof why) == 0,
           "overlap: builds");
    check_mesh("overlap", x, n, -1.0, 1.5, 0.05, 0, 0, sp, 2, 1.1);
    free(x);
    /* a span against the axis end and a gap shorter than a cell */
    const yee_mesh_span sq[2] = {{-1.0, -0.5, 0.01}, {-0.49, 0.0, 0.01}};
    expect(yee_mesh_axis(-1.0, 1.0, 0.05, 0, 0, sq, 2, 1.3, &x, &n, why, sizeof why) == 0,
           "short gap: builds");
    check_mesh("short gap", x, n, -1.0, 1.0, 0.05, 0, 0, sq, 2, 1.3);
    free(x);
}

static void test_errors(void)
{
    double *x = NULL;
    int n;
    char why[256] = "";
    const yee_mesh_span in_pml[1] = {{-0.95, 0.0, 0.01}};
    expect(yee_mesh_axis(-1.0, 1.0, 0.05, 10, 10, in_pml, 1, 1.3, &x, &n, why, sizeof why) < 0 &&
               strstr(why, "PML") && !x,
           "a span in the PML is refused");
    const yee_mesh_span zero[1] = {{0.0, 0.1, 0.0}};
    expect(yee_mesh_axis(-1.0, 1.0, 0.05, 0, 0, zero, 1, 1.3, &x, &n, why, sizeof why) < 0,
           "a zero spacing is refused");
}

/* Nodes, widths and searches on a config with a graded x. */
static void test_nodes(void)
{
    yee_config cfg;
    memset(&cfg, 0, sizeof cfg);
    const yee_mesh_span sp[1] = {{0.0, 0.1, 0.01}};
    char why[256];
    int n;
    expect(yee_mesh_axis(-0.5, 0.5, 0.05, 2, 2, sp, 1, 1.3, &cfg.mesh[0], &n, why, sizeof why) == 0,
           "nodes: builds");
    cfg.n[0] = n;
    cfg.origin[0] = -0.5;
    cfg.dx[0] = 0.05;
    cfg.n[1] = cfg.n[2] = 4;
    cfg.dx[1] = cfg.dx[2] = 0.05;
    double sum_cell = 0.0, sum_dual = 0.0;
    int ok_pos = 1, ok_near = 1;
    for (int i = 0; i < n; i++) {
        sum_cell += yee_node_width(&cfg, YEE_EX, 0, i);
        sum_dual += yee_node_width(&cfg, YEE_EY, 0, i);
        const double xc = yee_node_position(&cfg, YEE_EX, 0, i);
        ok_pos &= fabs(xc - 0.5 * (cfg.mesh[0][i] + cfg.mesh[0][i + 1])) < 1e-15 &&
                  yee_node_position(&cfg, YEE_EY, 0, i) == cfg.mesh[0][i];
        ok_near &= yee_nearest_node(&cfg, YEE_EX, 0, xc + 1e-6) == i &&
                   yee_nearest_node(&cfg, YEE_EY, 0, cfg.mesh[0][i] - 1e-6) == i;
    }
    expect(fabs(sum_cell - 1.0) < 1e-12, "nodes: the cells of Ex fill the axis");
    /* the lines 0..n-1 stand for dual cells from -w_0/2 (a ghost as wide as cell 0) to the
     * middle of the last cell: the axis shifted by half a base cell */
    expect(fabs(sum_dual - 1.0) < 1e-12,
           "nodes: the dual cells tile the axis");
    expect(ok_pos, "nodes: staggered nodes mid-cell, line nodes on the lines");
    expect(ok_near, "nodes: the nearest node of a node is itself");
    int lo, cnt;
    yee_node_range(&cfg, YEE_EY, 0, 0.0, 0.1, &lo, &cnt);
    expect(cnt == 11 && cfg.mesh[0][lo] == 0.0, "nodes: 11 lines in the refined 0.1 um");
    expect(fabs(yee_min_width(&cfg, 0) - 0.01) < 1e-12, "nodes: the narrowest cell");
    expect(yee_domain_end(&cfg, 0) == 0.5 && yee_graded(&cfg), "nodes: end and graded");
    expect(fabs(yee_dual_width(&cfg, 0, 0) - 0.05) < 1e-12, "nodes: a ghost as wide as cell 0");
    free(cfg.mesh[0]);
}

int main(void)
{
    test_film();
    test_overlap();
    test_errors();
    test_nodes();
    if (failures)
        printf("%d failures\n", failures);
    else
        printf("mesh: all passed\n");
    return failures ? 1 : 0;
}
