/* solver/tfsf.c -- TFSF plane waves and Gaussian beams: the 1-D incident grid, the face
 * corrections, and the dispersion matching between the two grids (see solver/tfsf.h). */
#include "solver/tfsf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/components.h"
#include "model/nodes.h"
#include "solver/mode_solver.h"
#include "solver/structure.h"
#include "solver/waveform.h"

#define PAD_CELLS 4   /* 1-D cells before the entry corner: room for the interpolation stencil */
#define ABS_CELLS 60  /* graded absorbing layer at the far end of the 1-D grid */

/* One correction: target field node, and the incident value it needs as
 * coef_i * aux_i(x) + coef_q * aux_q(x), aux the 1-D E (for M) or H (for J) of the in-phase and
 * quadrature grids, x the fractional 1-D index of the node. x never changes, so its cubic
 * Lagrange stencil (base index and four weights, `stencil`) is computed once at create. */
typedef struct term {
    int comp;          /* 0..2: J into E, 3..5: M into H */
    int i, j, k;       /* local node */
    double coef_i, coef_q;
    int at;            /* the stencil reads aux[at - 1 .. at + 2] (e for M terms, h for J terms) */
    double w[4];
} term;

/* A 1-D Yee line: e[m] at xi0 + m d, h[m] at xi0 + (m + 1/2) d; on a graded axis at xe[m] and
 * xh[m] (struct yee_tfsf). */
typedef struct line1d {
    double *e, *h;
} line1d;

struct yee_tfsf {
    const yee_source_cfg *src;
    double dt, d, eps1;     /* 1-D time step, spacing, (matched) permittivity */
    double *xe, *xh;        /* a wave along a graded axis: the 1-D grid is that axis's mesh,
                             * e[m] at xi = xe[m], h[m] at xh[m] (NULL: uniform, d) */
    double lead;            /* time the hard source runs ahead of the entry corner */
    int m;                  /* 1-D E nodes */
    double *ce, *de;        /* per-node E update factors (loss in the absorbing layer) */
    double *ch, *dh;
    int nlines;             /* 1: plane wave, 2: beam (in-phase and quadrature carrier) */
    line1d line[2];
    long step;              /* completed steps of the 1-D grid */
    int nh, ne;
    term *th, *te;          /* M terms, then J terms (targets may repeat: edges) */
    double end_time;
};

/* ---- 1-D grid ---- */

/* The cubic Lagrange stencil at fractional index x of an array of n values (clamped to the
 * array): the interpolated value is w[0] a[at-1] + w[1] a[at] + w[2] a[at+1] + w[3] a[at+2]. */
static void stencil(int n, double x, int *at, double w[4])
{
    int m = (int)floor(x);
    if (m < 1)
        m = 1;
    if (m > n - 3)
        m = n - 3;
    const double t = x - m;
    *at = m;
    w[0] = -t * (t - 1) * (t - 2) / 6;
    w[1] = (t + 1) * (t - 1) * (t - 2) / 2;
    w[2] = -(t + 1) * t * (t - 2) / 2;
    w[3] = (t + 1) * t * (t - 1) / 6;
}

static double interp(const double *a, const term *tm)
{
    const int m = tm->at;
    return tm->w[0] * a[m - 1] + tm->w[1] * a[m] + tm->w[2] * a[m + 1] + tm->w[3] * a[m + 2];
}

/* |k| of a plane wave along unit vector u at angular frequency w on the 3-D Yee grid (Taflove &
 * Hagness eq. 4.12): eps (sin(w dt/2)/dt)^2 = sum_a (sin(k u_a dx_a/2)/dx_a)^2, by bisection
 * (the right side grows with k up to the first grid cutoff). */
static double k_numerical(const double u[3], const double dx[3], double dt, double eps, double w)
{
    const double lhs = eps * pow(sin(0.5 * w * dt) / dt, 2);
    double hi = INFINITY;
    for (int a = 0; a < 3; a++)
        if (fabs(u[a]) > 1e-12 && M_PI / (fabs(u[a]) * dx[a]) < hi)
            hi = M_PI / (fabs(u[a]) * dx[a]);
    double lo = 0.0;
    for (int it = 0; it < 200; it++) {
        const double k = 0.5 * (lo + hi);
        double rhs = 0.0;
        for (int a = 0; a < 3; a++)
            rhs += pow(sin(0.5 * k * u[a] * dx[a]) / dx[a], 2);
        if (rhs < lhs)
            lo = k;
        else
            hi = k;
    }
    return 0.5 * (lo + hi);
}

static int alloc_line(yee_tfsf *t, int q)
{
    t->line[q].e = (double *)calloc((size_t)t->m + 1, sizeof(double));
    t->line[q].h = (double *)calloc((size_t)t->m + 1, sizeof(double));
    return t->line[q].e && t->line[q].h;
}

/* Update factors with a graded conductivity over the last ABS_CELLS nodes, impedance-matched
 * (sigma_m = sigma / eps) so the layer itself does not reflect (Berenger's condition in 1-D). */
static int setup_factors(yee_tfsf *t)
{
    const int m = t->m;
    t->ce = (double *)malloc((size_t)(m + 1) * sizeof(double));
    t->de = (double *)malloc((size_t)(m + 1) * sizeof(double));
    t->ch = (double *)malloc((size_t)(m + 1) * sizeof(double));
    t->dh = (double *)malloc((size_t)(m + 1) * sizeof(double));
    if (!t->ce || !t->de || !t->ch || !t->dh)
        return 0;
    const int start = m - ABS_CELLS;
    const double len = t->xe ? t->xe[m] - t->xe[start] : ABS_CELLS * t->d;
    /* R = exp(-2 int sigma / (eps v)) = 1e-12 for a cubic grading (Taflove eq. 7.60) */
    const double smax = 4.0 * 27.6 * sqrt(t->eps1) / (2.0 * len);
    if (t->xe) { /* the mesh's own cells: the 1-D update is the 3-D one along the axis */
        for (int i = 0; i <= m; i++) {
            const double xe = t->xe[i] > t->xe[start] ? (t->xe[i] - t->xe[start]) / len : 0.0;
            const double xh = t->xh[i] > t->xe[start] ? (t->xh[i] - t->xe[start]) / len : 0.0;
            const double se = smax * xe * xe * xe * t->dt / (2.0 * t->eps1);
            const double sh = smax * xh * xh * xh * t->dt / (2.0 * t->eps1);
            const double dual = i > 0 ? t->xh[i] - t->xh[i - 1] : t->xh[0] - t->xe[0];
            const double cell = i < m ? t->xe[i + 1] - t->xe[i] : t->xe[m] - t->xe[m - 1];
            t->ce[i] = (1 - se) / (1 + se);
            t->de[i] = t->dt / (t->eps1 * dual) / (1 + se);
            t->ch[i] = (1 - sh) / (1 + sh);
            t->dh[i] = t->dt / cell / (1 + sh);
        }
        return 1;
    }
    for (int i = 0; i <= m; i++) {
        const double xe = i > start ? (i - start) * t->d / len : 0.0;
        const double xh = i + 0.5 > start ? (i + 0.5 - start) * t->d / len : 0.0;
        const double se = smax * xe * xe * xe * t->dt / (2.0 * t->eps1);
        const double sh = smax * xh * xh * xh * t->dt / (2.0 * t->eps1);
        t->ce[i] = (1 - se) / (1 + se);
        t->de[i] = t->dt / (t->eps1 * t->d) / (1 + se);
        t->ch[i] = (1 - sh) / (1 + sh);
        t->dh[i] = t->dt / t->d / (1 + sh);
    }
    return 1;
}

static void advance_h(yee_tfsf *t)
{
    for (int q = 0; q < t->nlines; q++) {
        double *e = t->line[q].e, *h = t->line[q].h;
        for (int i = 0; i < t->m; i++)
            h[i] = t->ch[i] * h[i] - t->dh[i] * (e[i + 1] - e[i]);
    }
}

static void advance_e(yee_tfsf *t)
{
    t->step++;
    double in, quad;
    yee_profile_iq(&t->src->profile, t->step * t->dt + t->lead, &in, &quad);
    for (int q = 0; q < t->nlines; q++) {
        double *e = t->line[q].e, *h = t->line[q].h;
        for (int i = 1; i < t->m; i++)
            e[i] = t->ce[i] * e[i] - t->de[i] * (h[i] - h[i - 1]);
        e[0] = q == 0 ? in : quad; /* hard source: the wave only moves away from it */
    }
}

/* ---- faces ---- */

typedef struct box_nodes {
    int face[3][2];    /* face present on axis a, side 0 low / 1 high */
    int plane[3][2];   /* E node plane of each face (global) */
    int lo_int[3], hi_int[3];   /* total-field nodes at integer positions, inclusive */
    int lo_half[3], hi_half[3]; /* ... at half positions (stored at the lower integer) */
} box_nodes;

typedef struct builder {
    yee_tfsf *t;
    const yee_config *cfg;
    const int *n_local, *offset;
    double r0[3];        /* entry corner, um */
    double u[3], pol[3], hdir[3]; /* direction, E and H unit vectors */
    double hscale;       /* |H| / |E| of the incident wave */
    double xi0;          /* 1-D coordinate of e[0] */
    int beam;            /* Gaussian beam weights instead of 1 */
    double beam_w, beam_R, beam_amp, beam_k; /* w(z), R(z), w0/w(z), n k0 at the source plane */
    const yee_mode *mode; /* eigenmode: the profile on the whole source plane (global nodes) */
    double mode_hsign;    /* +1 forward along the axis, -1 backward (h_t changes sign) */
    int cap_h, cap_e;
} builder;

/* Appends the correction of node (comp, l) with coefficients ci, cq at 1-D index x. */
static int push(builder *b, int is_h, int comp, const int l[3], double ci, double cq, double x)
{
    yee_tfsf *t = b->t;
    int *n = is_h ? &t->nh : &t->ne, *cap = is_h ? &b->cap_h : &b->cap_e;
    term **arr = is_h ? &t->th : &t->te;
    if (*n == *cap) {
        const int nc = *cap ? 2 * *cap : 1024;
        term *g = (term *)realloc(*arr, (size_t)nc * sizeof(term));
        if (!g)
            return 0;
        *arr = g;
        *cap = nc;
    }
    term *tm = &(*arr)[(*n)++];
    tm->comp = comp;
    tm->i = l[0];
    tm->j = l[1];
    tm->k = l[2];
    tm->coef_i = ci;
    tm->coef_q = cq;
    stencil(t->m + 1, x, &tm->at, tm->w);
    return 1;
}


/* Complex beam weight at a point of the source plane: amplitude and carrier phase. */
static void beam_weight(const builder *b, const double p[3], int axis, double *amp, double *phase)
{
    double rho2 = 0.0;
    for (int a = 0; a < 3; a++)
        if (a != axis)
            rho2 += pow(p[a] - b->t->src->position[a], 2);
    *amp = b->beam_amp * exp(-rho2 / (b->beam_w * b->beam_w));
    /* phase of exp(i k rho^2 / 2R) for fields ~ exp(-i w t): sin(w t + phase) lags by it */
    *phase = isfinite(b->beam_R) ? -b->beam_k * rho2 / (2.0 * b->beam_R) : 0.0;
}

/* 0 for a component a 2-D run of one polarization does not have (model/components.h): a mode's
 * profile holds rounding-level values there, which have no field to go to. */
static int run_has(const yee_config *cfg, int comp)
{
    if (!cfg->two_d || cfg->pol2d == YEE_POL_BOTH)
        return 1;
    const int tm = comp == YEE_EZ || comp == YEE_HX || comp == YEE_HY;
    return cfg->pol2d == YEE_POL_TM ? tm : !tm;
}

/* The fractional index into e[] (use_h 0) or h[] (1) of the 1-D grid at coordinate xi. */
static double line_index(const builder *b, int use_h, double xi)
{
    const yee_tfsf *t = b->t;
    if (!t->xe)
        return (xi - b->xi0) / t->d - (use_h ? 0.5 : 0.0);
    const double *x = use_h ? t->xh : t->xe;
    int l = 0, h = t->m; /* the last node at or below xi */
    while (l < h) {
        const int mid = (l + h + 1) / 2;
        if (x[mid] <= xi)
            l = mid;
        else
            h = mid - 1;
    }
    if (l >= t->m)
        return t->m;
    return l + (xi - x[l]) / (x[l + 1] - x[l]);
}

/* The corrections of the face normal to p on side `side` (0 low, 1 high). */
static int build_face(builder *b, const box_nodes *bx, int p, int side)
{
    const yee_config *cfg = b->cfg;
    const int q = (p + 1) % 3, r = (p + 2) % 3;
    const double s = side == 0 ? 1.0 : -1.0;
    const int P = bx->plane[p][side];
    const int Ph = side == 0 ? P - 1 : P; /* storage index of the H plane half a cell outside */
    /* tangential pairs: (E component on the face, H component outside it, sign of J, of M) */
    const int ecomp[2] = {q, r};
    const int hcomp[2] = {3 + r, 3 + q};
    const double jsign[2] = {-s, +s}, msign[2] = {-s, +s};
    for (int pair = 0; pair < 2; pair++) {
        const int ec = ecomp[pair], hc = hcomp[pair];
        /* the E node of component ec is half along its own axis, integer along the other */
        const int half_axis = ec;
        const int lo1 = half_axis == q ? bx->lo_half[q] : bx->lo_int[q];
        const int hi1 = half_axis == q ? bx->hi_half[q] : bx->hi_int[q];
        const int lo2 = half_axis == r ? bx->lo_half[r] : bx->lo_int[r];
        const int hi2 = half_axis == r ? bx->hi_half[r] : bx->hi_int[r];
        for (int g2 = lo2; g2 <= hi2; g2++)
            for (int g1 = lo1; g1 <= hi1; g1++) {
                int ge[3], gh[3];
                ge[p] = P, ge[q] = g1, ge[r] = g2;
                gh[p] = Ph, gh[q] = g1, gh[r] = g2;
                double pe[3], ph[3];
                for (int a = 0; a < 3; a++) {
                    pe[a] = yee_node_position(cfg, ec, a, ge[a]);
                    ph[a] = yee_node_position(cfg, hc, a, gh[a]);
                }
                double amp = 1.0, phase = 0.0;
                if (b->beam)
                    beam_weight(b, pe, p, &amp, &phase);
                if (b->beam && amp < 1e-7 * b->beam_amp)
                    continue;
                double xie = 0.0, xih = 0.0;
                for (int a = 0; a < 3; a++) {
                    xie += b->u[a] * (pe[a] - b->r0[a]);
                    xih += b->u[a] * (ph[a] - b->r0[a]);
                }
                const double ce = amp * cos(phase), se = amp * sin(phase);
                /* J on E node ec from the incident H component hc - 3 at the H node */
                const int el[3] = {ge[0] - b->offset[0], ge[1] - b->offset[1],
                                   ge[2] - b->offset[2]};
                int mine = 1;
                for (int a = 0; a < 3; a++)
                    mine &= el[a] >= 0 && el[a] < b->n_local[a];
                /* eigenmode: the mode's h and E at these nodes (whole-plane arrays) */
                const double *mode_h = b->mode ? b->mode->field[hc] : NULL;
                const double *mode_e = b->mode ? b->mode->field[ec] : NULL;
                const double hin =
                    mode_h ? b->mode_hsign * mode_h[yee_mode_plane_index(cfg, p, gh)] * b->hscale
                           : b->hdir[hc - 3] * b->hscale;
                if (mine && hin != 0.0 && run_has(cfg, ec)) {
                    /* the E update's spacing there: the dual cell of plane P */
                    const double c0 = jsign[pair] * hin / yee_dual_width(cfg, p, P);
                    if (!push(b, 0, ec, el, c0 * ce, c0 * se, line_index(b, 1, xih)))
                        return 0;
                }
                /* M on H node hc from the incident E component ec at the E node */
                const int hl[3] = {gh[0] - b->offset[0], gh[1] - b->offset[1],
                                   gh[2] - b->offset[2]};
                mine = 1;
                for (int a = 0; a < 3; a++)
                    mine &= hl[a] >= 0 && hl[a] < b->n_local[a];
                const double ein = mode_e ? mode_e[yee_mode_plane_index(cfg, p, ge)] : b->pol[ec];
                if (mine && ein != 0.0 && run_has(cfg, hc)) {
                    /* the H update's spacing there: cell Ph */
                    const double c0 = msign[pair] * ein / yee_cell_width(cfg, p, Ph);
                    if (!push(b, 1, hc, hl, c0 * ce, c0 * se, line_index(b, 0, xie)))
                        return 0;
                }
            }
    }
    return 1;
}

/* Permittivity of the background, or 0 when it is not a lossless isotropic dielectric. */
static double background_eps(const yee_config *cfg)
{
    if (cfg->background_material < 0)
        return cfg->sigma == 0.0 ? cfg->eps_r : 0.0;
    const yee_material_cfg *m = &cfg->materials[cfg->background_material];
    if (m->pec || m->npoles || m->sigma != 0.0 || m->eps[0] != m->eps[1] || m->eps[1] != m->eps[2])
        return 0.0;
    return m->eps[0];
}

/* The mode of an eigenmode source on the E node plane P normal to axis, over the whole plane.
 * It is solved at the grid's numerical frequency sin(pi f dt) / (pi dt): with that k0 and the
 * solver's beta taken as the difference quotient (2/dx) sin(beta_d dx/2) along the axis, the
 * profile is an exact mode of the time-stepped 3-D grid, travelling with wavenumber beta_d.
 * The 1-D incident grid with eps1 = (beta / k0)^2 then travels with that same beta_d, so the
 * wave launched at the carrier leaves nothing behind the plane but float rounding. Off the
 * carrier the mode's dispersion (its profile and ng != neff) is not followed: what leaks
 * backwards grows with the bandwidth (docs/modes.md). Every rank solves the same plane. */
static int solve_mode(const yee_config *cfg, const yee_source_cfg *sc, int axis, int P,
                      yee_mode_set *modes, yee_err *err)
{
    const double f = sc->profile.frequency;
    const yee_mode_request req = yee_mode_request_grid(cfg, axis, P, f, sc->mode);
    int rc = yee_modes_solve(cfg, &req, modes, err);
    if (rc < 0) {
        char why[YEE_ERR_MSG_LEN];
        snprintf(why, sizeof why, "%s", err->msg);
        return yee_fail(err, rc, "%s:%d: source '%s': %s", cfg->deck_path, sc->line, sc->name, why);
    }
    /* only guided modes: a mode of the window's walls is almost always a mistake */
    int guided = 0;
    while (guided < modes->nmodes && modes->modes[guided].guided)
        guided++;
    if (guided < sc->mode) {
        yee_mode_set_free(modes);
        return yee_fail(err, YEE_ERR_DECK,
                        "%s:%d: source '%s': mode %d asked, but the source plane guides %d "
                        "mode%s at %.4g THz (yee modes lists them)", cfg->deck_path, sc->line,
                        sc->name, sc->mode, guided, guided == 1 ? "" : "s", f * YEE_C_UM_THZ);
    }
    return YEE_OK;
}

/* Line i of axis a, also past the ends (extended by the end cells). */
static double line_beyond(const yee_config *cfg, int a, int i)
{
    const int n = cfg->n[a];
    if (i < 0)
        return yee_mesh_line(cfg, a, 0) + i * yee_cell_width(cfg, a, 0);
    if (i > n)
        return yee_mesh_line(cfg, a, n) + (i - n) * yee_cell_width(cfg, a, n - 1);
    return yee_mesh_line(cfg, a, i);
}

/* The 1-D grid of a wave along graded axis a (up: towards +a) entering at line `entry` (r0 its
 * coordinate): e[m] on line entry - PAD_CELLS + m (down: entry + PAD_CELLS - m), h[m] in the
 * middle of the cell between e[m] and e[m + 1], each computed as model/nodes.c places the 3-D
 * nodes, so that a face node's 1-D index is a whole number and the interpolation exact. */
static int graded_line(const yee_config *cfg, int a, int up, int entry, double r0, yee_tfsf *t)
{
    t->xe = (double *)malloc((size_t)(t->m + 1) * sizeof(double));
    t->xh = (double *)malloc((size_t)(t->m + 1) * sizeof(double));
    if (!t->xe || !t->xh)
        return 0;
    for (int m = 0; m <= t->m; m++) {
        const int i = up ? entry - PAD_CELLS + m : entry + PAD_CELLS - m;
        const int c = up ? i : i - 1; /* the cell of h[m] */
        const double x = line_beyond(cfg, a, i);
        const double xc = line_beyond(cfg, a, c);
        const double mid = xc + 0.5 * (line_beyond(cfg, a, c + 1) - xc);
        t->xe[m] = up ? x - r0 : -(x - r0);
        t->xh[m] = up ? mid - r0 : -(mid - r0);
    }
    return 1;
}

int yee_tfsf_create(const yee_config *cfg, const yee_source_cfg *sc, const int n_local[3],
                    const int offset[3], yee_tfsf **out, yee_err *err)
{
    *out = NULL;
    const int eigen = sc->kind == YEE_SRC_EIGENMODE;
    const double eps = eigen ? 1.0 : background_eps(cfg); /* a mode needs no background */
    if (eps <= 0.0)
        return yee_fail(err, YEE_ERR_DECK,
                        "%s:%d: source '%s': a plane wave or beam needs a lossless isotropic "
                        "non-dispersive background (background.material)",
                        cfg->deck_path, sc->line, sc->name);
    yee_tfsf *t = (yee_tfsf *)calloc(1, sizeof *t);
    if (!t)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "TFSF source");
    t->src = sc;
    t->dt = cfg->dt;
    builder b;
    memset(&b, 0, sizeof b);
    b.t = t;
    b.cfg = cfg;
    b.n_local = n_local;
    b.offset = offset;
    for (int a = 0; a < 3; a++) {
        b.u[a] = sc->direction[a];
        b.pol[a] = sc->polarization[a];
    }
    b.hdir[0] = b.u[1] * b.pol[2] - b.u[2] * b.pol[1];
    b.hdir[1] = b.u[2] * b.pol[0] - b.u[0] * b.pol[2];
    b.hdir[2] = b.u[0] * b.pol[1] - b.u[1] * b.pol[0];

    /* the total-field box in nodes; faces beyond the domain are dropped */
    box_nodes bx;
    memset(&bx, 0, sizeof bx);
    double lo_um[3], hi_um[3];
    int rc = YEE_OK;
    for (int a = 0; a < 3 && rc == YEE_OK; a++) {
        const int n = cfg->n[a];
        const double tol = 1e-6 * cfg->dx[a];
        const double dom_lo = cfg->origin[a], dom_hi = yee_domain_end(cfg, a);
        bx.face[a][0] = sc->box_min[a] > dom_lo + tol;
        bx.face[a][1] = sc->box_max[a] < dom_hi - tol;
        /* the faces on the mesh lines nearest the box (on a graded axis: the nearest lines of an
         * E component that sits on them) */
        const int c_on = (a + 1) % 3;
        const int p0 = !bx.face[a][0] ? 0
                       : cfg->mesh[a] ? yee_nearest_node(cfg, c_on, a, sc->box_min[a])
                                      : (int)lround((sc->box_min[a] - dom_lo) / cfg->dx[a]);
        const int p1 = !bx.face[a][1] ? n
                       : cfg->mesh[a] ? yee_nearest_node(cfg, c_on, a, sc->box_max[a])
                                      : (int)lround((sc->box_max[a] - dom_lo) / cfg->dx[a]);
        bx.plane[a][0] = p0;
        bx.plane[a][1] = p1;
        bx.lo_int[a] = bx.lo_half[a] = p0;
        bx.hi_int[a] = bx.face[a][1] ? p1 : n - 1;
        bx.hi_half[a] = p1 - 1;
        lo_um[a] = cfg->mesh[a] ? yee_mesh_line(cfg, a, p0) : dom_lo + p0 * cfg->dx[a];
        hi_um[a] = cfg->mesh[a] ? yee_mesh_line(cfg, a, p1) : dom_lo + p1 * cfg->dx[a];
        for (int side = 0; side < 2; side++) {
            if (!bx.face[a][side])
                continue;
            const int P = bx.plane[a][side];
            if (P <= cfg->pml_cells[a][0] || P >= n - cfg->pml_cells[a][1])
                rc = yee_fail(err, YEE_ERR_DECK,
                              "%s:%d: source '%s': the %s %c face of the total-field box (node "
                              "plane %d) must lie inside the domain and outside the PML (planes "
                              "%d to %d)", cfg->deck_path, sc->line, sc->name,
                              side ? "high" : "low", "xyz"[a], P, cfg->pml_cells[a][0] + 1,
                              n - cfg->pml_cells[a][1] - 1);
        }
        if (!bx.face[a][0] && !bx.face[a][1] && fabs(b.u[a]) > 1e-9 &&
            cfg->boundary[a][0] == YEE_BC_PERIODIC)
            rc = yee_fail(err, YEE_ERR_DECK,
                          "%s:%d: source '%s': the wave crosses the periodic %c axis at an angle "
                          "(direction %c = %g), which a plane wave's fixed-angle incident field "
                          "cannot do: set boundary.bloch and launch the wave with a volume sheet "
                          "source (docs/deck.md \"Bloch-periodic cells\")",
                          cfg->deck_path, sc->line, sc->name, "xyz"[a], "xyz"[a], b.u[a]);
    }
    if (rc == YEE_OK && cfg->complex_fields) /* io/deck_sources.c refuses such a deck */
        rc = yee_fail(err, YEE_ERR_DECK, "%s:%d: source '%s': TFSF sources have no Bloch phase",
                      cfg->deck_path, sc->line, sc->name);
    if (rc != YEE_OK) {
        yee_tfsf_destroy(t);
        return rc;
    }

    /* the entry corner: the box corner the wave reaches first; 1-D coordinate xi from there */
    double xi_max = 0.0;
    for (int a = 0; a < 3; a++)
        b.r0[a] = b.u[a] >= 0 ? lo_um[a] : hi_um[a];
    for (int a = 0; a < 3; a++)
        xi_max += fabs(b.u[a]) * (hi_um[a] - lo_um[a]);
    /* 1-D spacing: the cell size along the dominant axis (exact for axis-aligned incidence) */
    int amax = 0;
    for (int a = 1; a < 3; a++)
        if (fabs(b.u[a]) > fabs(b.u[amax]))
            amax = a;
    t->d = cfg->dx[amax];
    t->eps1 = eps;
    const double f0 = sc->profile.frequency;
    yee_mode_set modes;
    memset(&modes, 0, sizeof modes);
    double mode_ng = 0.0;
    if (eigen) {
        const int side = b.u[amax] > 0 ? 0 : 1;
        if ((rc = solve_mode(cfg, sc, amax, bx.plane[amax][side], &modes, err)) < 0) {
            yee_tfsf_destroy(t);
            return rc;
        }
        const yee_mode *m = &modes.modes[sc->mode - 1];
        b.mode = m;
        b.mode_hsign = side == 0 ? 1.0 : -1.0;
        t->eps1 = m->neff * m->neff; /* the 1-D grid's wavenumber is the mode's (solve_mode) */
        mode_ng = m->ng;
    } else if (fabs(b.u[amax]) < 1.0 - 1e-12 && f0 > 0) {
        const double w = 2 * M_PI * f0;
        const double k = k_numerical(b.u, cfg->dx, t->dt, eps, w);
        t->eps1 = pow(sin(0.5 * k * t->d) / t->d, 2) / pow(sin(0.5 * w * t->dt) / t->dt, 2);
    }
    b.hscale = eigen ? 1.0 : sqrt(eps); /* |H| = n |E|; the mode's own h holds its ratio */
    b.hscale /= sqrt(t->eps1);          /* the 1-D H carries sqrt(eps1) */
    b.xi0 = -PAD_CELLS * t->d;
    t->m = (int)ceil((xi_max - b.xi0) / t->d) + 2 * PAD_CELLS + ABS_CELLS;
    if (rc == YEE_OK && cfg->mesh[amax]) {
        /* along a graded axis (the deck allows only that axis's direction): the 1-D grid on the
         * axis's own lines, so that the 1-D wave is the 3-D one node for node */
        const int up = b.u[amax] > 0;
        t->m = bx.plane[amax][1] - bx.plane[amax][0] + 3 * PAD_CELLS + ABS_CELLS;
        if (!graded_line(cfg, amax, up, up ? bx.plane[amax][0] : bx.plane[amax][1],
                         b.r0[amax], t))
            rc = YEE_FAIL(err, YEE_ERR_NOMEM, "TFSF 1-D grid");
        else
            b.xi0 = t->xe[0];
    }
    t->lead = -b.xi0 * sqrt(t->eps1);
    t->nlines = sc->kind == YEE_SRC_GAUSSIAN_BEAM ? 2 : 1;
    t->end_time = yee_profile_end(&sc->profile) +
                  (xi_max + 2 * PAD_CELLS * t->d) * (eigen ? mode_ng : sqrt(eps));
    if (sc->kind == YEE_SRC_GAUSSIAN_BEAM) {
        const double n = sqrt(eps);
        const double zr = M_PI * sc->waist * sc->waist * n * f0; /* Rayleigh range */
        const double z = -sc->focus;                             /* source plane vs focus */
        b.beam = 1;
        b.beam_w = sc->waist * sqrt(1 + (z / zr) * (z / zr));
        b.beam_R = z != 0.0 ? z * (1 + (zr / z) * (zr / z)) : INFINITY;
        b.beam_amp = sc->waist / b.beam_w;
        b.beam_k = 2 * M_PI * n * f0;
    }
    for (int q = 0; q < t->nlines && rc == YEE_OK; q++)
        if (!alloc_line(t, q))
            rc = YEE_FAIL(err, YEE_ERR_NOMEM, "TFSF 1-D grid");
    if (rc == YEE_OK && !setup_factors(t))
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "TFSF 1-D grid");
    for (int a = 0; a < 3 && rc == YEE_OK; a++)
        for (int side = 0; side < 2 && rc == YEE_OK; side++)
            if (bx.face[a][side] && !build_face(&b, &bx, a, side))
                rc = YEE_FAIL(err, YEE_ERR_NOMEM, "TFSF corrections");
    yee_mode_set_free(&modes);
    if (rc != YEE_OK) {
        yee_tfsf_destroy(t);
        return rc;
    }
    /* the 1-D E at time 0: the source value at t = 0 (zero for every built-in profile) */
    double in, quad;
    yee_profile_iq(&sc->profile, t->lead, &in, &quad);
    t->line[0].e[0] = in;
    if (t->nlines == 2)
        t->line[1].e[0] = quad;
    *out = t;
    return YEE_OK;
}

int yee_tfsf_count_h(const yee_tfsf *t)
{
    return t->nh;
}

int yee_tfsf_count_e(const yee_tfsf *t)
{
    return t->ne;
}

/* The corrections of this step. A box's faces hold some 10^5 of them, computed between two
 * fused sweeps while the backend's threads wait: so they are computed on every thread (each
 * term on its own: the values do not depend on the threads). */
static int emit(const yee_tfsf *t, const term *terms, int n, int use_h, yee_point_current *out)
{
    const double *aux_i = use_h ? t->line[0].h : t->line[0].e;
    const double *aux_q = t->nlines == 2 ? (use_h ? t->line[1].h : t->line[1].e) : NULL;
#pragma omp parallel for schedule(static) if (n >= 8192)
    for (int s = 0; s < n; s++) {
        const term *tm = &terms[s];
        double v = tm->coef_i * interp(aux_i, tm);
        if (aux_q)
            v += tm->coef_q * interp(aux_q, tm);
        out[s].comp = tm->comp;
        out[s].i = tm->i;
        out[s].j = tm->j;
        out[s].k = tm->k;
        out[s].j_value = (yee_real)v;
        out[s].j_imag = 0;
    }
    return n;
}

int yee_tfsf_h_step(yee_tfsf *t, yee_point_current *out)
{
    const int n = emit(t, t->th, t->nh, 0, out);
    advance_h(t);
    return n;
}

int yee_tfsf_e_step(yee_tfsf *t, yee_point_current *out)
{
    const int n = emit(t, t->te, t->ne, 1, out);
    advance_e(t);
    return n;
}

double yee_tfsf_end_time(const yee_tfsf *t)
{
    return t->end_time;
}

size_t yee_tfsf_state_size(const yee_tfsf *t)
{
    return sizeof(int64_t) + 2 * (size_t)t->nlines * (size_t)(t->m + 1) * sizeof(double);
}

void yee_tfsf_state_save(const yee_tfsf *t, void *buf)
{
    const int64_t step = t->step;
    const size_t len = (size_t)(t->m + 1) * sizeof(double);
    char *p = (char *)buf;
    memcpy(p, &step, sizeof step);
    p += sizeof step;
    for (int q = 0; q < t->nlines; q++) {
        memcpy(p, t->line[q].e, len);
        memcpy(p + len, t->line[q].h, len);
        p += 2 * len;
    }
}

void yee_tfsf_state_load(yee_tfsf *t, const void *buf)
{
    int64_t step;
    const size_t len = (size_t)(t->m + 1) * sizeof(double);
    const char *p = (const char *)buf;
    memcpy(&step, p, sizeof step);
    t->step = (long)step;
    p += sizeof step;
    for (int q = 0; q < t->nlines; q++) {
        memcpy(t->line[q].e, p, len);
        memcpy(t->line[q].h, p + len, len);
        p += 2 * len;
    }
}

void yee_tfsf_destroy(yee_tfsf *t)
{
    if (!t)
        return;
    for (int q = 0; q < 2; q++) {
        free(t->line[q].e);
        free(t->line[q].h);
    }
    free(t->xe);
    free(t->xh);
    free(t->ce);
    free(t->de);
    free(t->ch);
    free(t->dh);
    free(t->th);
    free(t->te);
    free(t);
}
