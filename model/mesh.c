/* model/mesh.c -- node lines of a graded axis (model/mesh.h). */
#include "model/mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* One interval of the axis to mesh: [a, b], the widths of the neighbours' end cells hl and hr
 * (or the cap where a neighbour is not meshed yet), the widest cell allowed (cap) and the width
 * where the ramps turn from geometric to fixed steps (knee, ramp()). */
typedef struct gap {
    double a, b, hl, hr, cap, knee;
} gap;

/* The fraction of the base spacing (1 / RAMP_KNEE) where ramps turn to fixed steps (ramp()). */
#define RAMP_KNEE 8.0

/* The target spacing at distance d (um) from a cell of width h0: each cell wider than the last
 * by g times its width (a ratio of about exp(g)) up to the knee, then by g knee, a fixed step.
 * Why the fixed step: the grid's wave impedance differs from the continuum's by about
 * (k h)^2 / 8, so a change of cell size reflects about the change of (k h)^2 / 8 over the
 * distance it takes, and a geometric ramp makes its largest steps where k h is largest. A 2.5 ->
 * 25 nm ramp at ratio 1.2 reflects, at 1 um wavelength: geometric all the way -52 dB; fixed
 * steps from a quarter of the base -57 dB, a sixth -63 dB, an eighth -67.5 dB (validation/
 * graded). An eighth costs about 7 / ln(ratio) cells per ramp, 20 base cells long. */
static double ramp(double h0, double g, double knee, double d)
{
    if (h0 < knee) {
        const double dk = g > 0.0 ? (knee - h0) / g : INFINITY; /* where the cells reach it */
        if (d <= dk)
            return h0 + g * d;
        d -= dk;
        h0 = knee;
    }
    /* ds/dx = g knee / s: s^2 grows linearly */
    return sqrt(h0 * h0 + 2.0 * g * knee * d);
}

/* The target spacing inside q at x: ramps away from both ends, at most the cap. */
static double gap_spacing(const gap *q, double x, double g)
{
    return fmin(q->cap, fmin(ramp(q->hl, g, q->knee, x - q->a), ramp(q->hr, g, q->knee, q->b - x)));
}

/* Cells q holds at rate g: the integral of 1/s over it, by the trapezoid rule on m steps (s is
 * smooth but for kinks, so the error is far below what rounding to cells needs). */
static double gap_cells(const gap *q, double g, int m)
{
    const double dx = (q->b - q->a) / m;
    double sum = 0.5 * (1.0 / gap_spacing(q, q->a, g) + 1.0 / gap_spacing(q, q->b, g));
    for (int k = 1; k < m; k++)
        sum += 1.0 / gap_spacing(q, q->a + k * dx, g);
    return sum * dx;
}

/* Nodes strictly inside q that cut it into `cells` cells of equal integral of 1/s; writes
 * cells - 1 values to out. */
static void gap_nodes(const gap *q, double g, int cells, int m, double *out)
{
    const double a = q->a, dx = (q->b - a) / m, per = gap_cells(q, g, m) / cells;
    double acc = 0.0, prev = 1.0 / gap_spacing(q, a, g);
    int next = 1;
    for (int k = 1; k <= m && next < cells; k++) {
        const double cur = 1.0 / gap_spacing(q, a + k * dx, g);
        const double step = 0.5 * (prev + cur) * dx;
        while (next < cells && acc + step >= next * per) {
            out[next - 1] = a + (k - 1 + (next * per - acc) / step) * dx;
            next++;
        }
        acc += step;
        prev = cur;
    }
    for (; next < cells; next++) /* rounding at the very end */
        out[next - 1] = a + (q->b - a) * next / cells;
}

/* The per-interval arrays of yee_mesh_axis, freed together. */
typedef struct work {
    double *cut;                 /* interval ends, ncut */
    double *cap, *rate;          /* per interval: widest cell, the ramps' rate */
    double *wfirst, *wlast;      /* its first and last cells once meshed */
    double *end_l, *end_r;       /* the neighbours' end cells it graded from */
    int *cells, *order;          /* its cells (0: not meshed yet); intervals finest first */
} work;

static void work_free(work *w)
{
    free(w->cut), free(w->cap), free(w->rate), free(w->wfirst), free(w->wlast);
    free(w->end_l), free(w->end_r), free(w->cells), free(w->order);
}

/* yee_mesh_axis's failure: the sentence in why, the work freed, -1. */
static int fail(work *w, char *why, size_t nwhy, const char *text)
{
    if (text)
        snprintf(why, nwhy, "%s", text);
    work_free(w);
    return -1;
}

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int yee_mesh_axis(double lo, double hi, double base, int pad_lo, int pad_hi,
                  const yee_mesh_span *spans, int nspans, double ratio, double **lines, int *n,
                  char *why, size_t nwhy)
{
    *lines = NULL;
    *n = 0;
    const double in_lo = lo + pad_lo * base, in_hi = hi - pad_hi * base;
    const double tol = 1e-9 * (hi - lo);
    if (!(base > 0) || !(ratio >= 1.0) || !(in_hi > in_lo)) {
        snprintf(why, nwhy, "no room for a mesh (spacing %g, ratio %g, %g..%g um)", base, ratio,
                 in_lo, in_hi);
        return -1;
    }
    work w = {0};
    double *cut = w.cut = malloc((size_t)(2 * nspans + 2) * sizeof *cut);
    if (!cut)
        return fail(&w, why, nwhy, "out of memory");
    int ncut = 0;
    cut[ncut++] = in_lo;
    cut[ncut++] = in_hi;
    for (int s = 0; s < nspans; s++) {
        const yee_mesh_span *sp = &spans[s];
        if (!(sp->h > 0) || !(sp->hi > sp->lo)) {
            snprintf(why, nwhy, "region %d: empty interval [%g, %g] or spacing %g", s + 1, sp->lo,
                     sp->hi, sp->h);
            return fail(&w, why, nwhy, NULL);
        }
        if (sp->lo < in_lo - tol || sp->hi > in_hi + tol) {
            snprintf(why, nwhy,
                     "region %d: [%g, %g] um is not inside [%g, %g] um, the part of the axis "
                     "between the PML layers",
                     s + 1, sp->lo, sp->hi, in_lo, in_hi);
            return fail(&w, why, nwhy, NULL);
        }
        cut[ncut++] = fmax(sp->lo, in_lo);
        cut[ncut++] = fmin(sp->hi, in_hi);
    }
    qsort(cut, (size_t)ncut, sizeof *cut, cmp_double);
    int m = 0; /* drop cuts closer than the tolerance */
    for (int k = 0; k < ncut; k++)
        if (m == 0 || cut[k] - cut[m - 1] > tol)
            cut[m++] = cut[k];
    cut[m - 1] = in_hi;
    const int nint = m - 1;

    /* Each interval between cuts has a cap: the finest spacing of the spans covering it, or the
     * base in a gap. Intervals are meshed finest first, each grading away from the end cells
     * of the neighbours already meshed (finer ones), so a coarser span nested around a finer
     * one grades inside itself and a gap grades between its neighbours. */
    const size_t nd = (size_t)nint * sizeof(double);
    w.cap = malloc(nd), w.rate = calloc((size_t)nint, sizeof(double));
    w.wfirst = malloc(nd), w.wlast = malloc(nd), w.end_l = malloc(nd), w.end_r = malloc(nd);
    w.cells = calloc((size_t)nint, sizeof(int)), w.order = malloc((size_t)nint * sizeof(int));
    if (!w.cap || !w.rate || !w.wfirst || !w.wlast || !w.end_l || !w.end_r || !w.cells ||
        !w.order)
        return fail(&w, why, nwhy, "out of memory");
    for (int k = 0; k < nint; k++) {
        const double mid = 0.5 * (cut[k] + cut[k + 1]);
        w.cap[k] = base;
        for (int s = 0; s < nspans; s++)
            if (spans[s].lo <= mid && mid <= spans[s].hi)
                w.cap[k] = fmin(w.cap[k], spans[s].h);
        w.order[k] = k;
    }
    for (int k = 1; k < nint; k++) /* insertion sort by cap, stable: few intervals */
        for (int q = k; q > 0 && w.cap[w.order[q]] < w.cap[w.order[q - 1]]; q--) {
            const int t = w.order[q];
            w.order[q] = w.order[q - 1];
            w.order[q - 1] = t;
        }
    const double g = log(ratio);
    const int quad = 4096;
    long total = pad_lo + pad_hi;
    for (int q = 0; q < nint; q++) {
        const int k = w.order[q];
        const double a = cut[k], b = cut[k + 1], h = w.cap[k];
        /* the neighbours' end cells where they are meshed already (the padding is) */
        double hl = h, hr = h;
        if (k == 0 ? pad_lo > 0 : w.cells[k - 1] > 0)
            hl = fmin(h, k == 0 ? base : w.wlast[k - 1]);
        if (k == nint - 1 ? pad_hi > 0 : w.cells[k + 1] > 0)
            hr = fmin(h, k == nint - 1 ? base : w.wfirst[k + 1]);
        /* as many cells as the target spacing at the full rate needs, then the rate lowered
         * until exactly those cells fit, so both ends meet their neighbours' widths */
        const gap gq = {a, b, hl, hr, h, base / RAMP_KNEE};
        const double full = gap_cells(&gq, g, quad);
        const double flat = gap_cells(&gq, 0.0, quad);
        int c = (int)ceil(full - 1e-6);
        if (c < 1)
            c = 1;
        double gk = 0.0;
        if (flat >= c && g > 0.0) {
            double g0 = 0.0, g1 = g;
            for (int it = 0; it < 60; it++) {
                const double gm = 0.5 * (g0 + g1);
                if (gap_cells(&gq, gm, quad) > c)
                    g0 = gm;
                else
                    g1 = gm;
            }
            gk = 0.5 * (g0 + g1);
        } else if (flat < c) { /* shorter than the ramps: uniform */
            c = (int)ceil(flat - 1e-6) < 1 ? 1 : (int)ceil(flat - 1e-6);
        }
        w.cells[k] = c;
        w.rate[k] = gk;
        w.end_l[k] = hl;
        w.end_r[k] = hr;
        /* the end cells, for the neighbours meshed later */
        double *tmp = malloc((size_t)(c + 1) * sizeof *tmp);
        if (!tmp)
            return fail(&w, why, nwhy, "out of memory");
        tmp[0] = a;
        tmp[c] = b;
        gap_nodes(&gq, gk, c, quad > 64 * c ? quad : 64 * c, tmp + 1);
        w.wfirst[k] = tmp[1] - tmp[0];
        w.wlast[k] = tmp[c] - tmp[c - 1];
        free(tmp);
        total += c;
    }
    if (total > (1L << 30)) {
        snprintf(why, nwhy, "%ld cells on one axis is more than 2^30", total);
        return fail(&w, why, nwhy, NULL);
    }
    double *x = malloc((size_t)(total + 1) * sizeof *x);
    if (!x)
        return fail(&w, why, nwhy, "out of memory for the mesh lines");
    long p = 0;
    for (int i = 0; i < pad_lo; i++)
        x[p++] = lo + i * base;
    for (int k = 0; k < nint; k++) {
        x[p++] = cut[k];
        const gap gq = {cut[k], cut[k + 1], w.end_l[k], w.end_r[k], w.cap[k], base / RAMP_KNEE};
        gap_nodes(&gq, w.rate[k], w.cells[k], quad > 64 * w.cells[k] ? quad : 64 * w.cells[k],
                  x + p);
        p += w.cells[k] - 1;
    }
    for (int i = pad_hi; i >= 1; i--)
        x[p++] = hi - i * base;
    x[p] = hi;
    work_free(&w);
    *lines = x;
    *n = (int)total;
    return 0;
}

double yee_mesh_max_ratio(const double *lines, int n)
{
    double worst = 1.0;
    for (int i = 1; i < n; i++) {
        const double w0 = lines[i] - lines[i - 1], w1 = lines[i + 1] - lines[i];
        worst = fmax(worst, fmax(w0 / w1, w1 / w0));
    }
    return worst;
}
