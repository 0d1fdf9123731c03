/* solver/mode_solver.c -- finite-difference modes of a cross-section (solver/mode_solver.h):
 * the eps of the plane from geometry/, the sparse operator [0 Q; R 0], UMFPACK's LU of it minus
 * the shift, ARPACK's shift-invert iteration, and the normalization of each mode.
 */
#include "solver/mode_solver.h"

#include <arpack/arpack.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <suitesparse/umfpack.h>

#include "geometry/geometry.h"
#include "model/components.h"

double yee_material_eps_at(const yee_material_cfg *m, int axis, double f)
{
    double complex eps = m->eps[axis];
    for (int p = 0; p < m->npoles; p++) {
        const yee_pole_cfg *q = &m->poles[p];
        switch (q->kind) {
        case YEE_POLE_LORENTZ:
            eps += q->sigma * q->f0 * q->f0 / (q->f0 * q->f0 - f * f - I * f * q->gamma);
            break;
        case YEE_POLE_DRUDE: eps += q->sigma * q->f0 * q->f0 / (-f * f - I * f * q->gamma); break;
        case YEE_POLE_DEBYE: eps += q->sigma / (1.0 - I * 2.0 * M_PI * f * q->tau); break;
        }
    }
    return creal(eps);
}

/* The plane: in-plane axes u, v (cyclic after the normal w), their node counts and spacings,
 * whether each wraps, and the permittivity of E_u, E_v, E_w per node (0: PEC). */
typedef struct plane {
    int w, u, v;
    int nu, nv;
    long n; /* nu * nv */
    double du, dv;
    int wrap_u, wrap_v;
    double *eps[3]; /* indexed by u, v, w role: eps[0] = E_u's */
} plane;

static long node(const plane *p, int a, int b)
{
    if (a < 0 || a >= p->nu) {
        if (!p->wrap_u)
            return -1;
        a = (a + p->nu) % p->nu;
    }
    if (b < 0 || b >= p->nv) {
        if (!p->wrap_v)
            return -1;
        b = (b + p->nv) % p->nv;
    }
    return a + (long)p->nu * b;
}

/* Growing triplet list of the sparse operator. */
typedef struct triplets {
    int *row, *col;
    double *val;
    long n, cap;
    int failed;
} triplets;

static void put(triplets *t, long row, long col, double val)
{
    if (col < 0 || val == 0.0 || t->failed)
        return;
    if (t->n == t->cap) {
        const long cap = t->cap ? 2 * t->cap : 1024;
        int *r = (int *)realloc(t->row, (size_t)cap * sizeof(int));
        if (r)
            t->row = r;
        int *c = (int *)realloc(t->col, (size_t)cap * sizeof(int));
        if (c)
            t->col = c;
        double *v = (double *)realloc(t->val, (size_t)cap * sizeof(double));
        if (v)
            t->val = v;
        if (!r || !c || !v) {
            t->failed = 1;
            return;
        }
        t->cap = cap;
    }
    t->row[t->n] = (int)row;
    t->col[t->n] = (int)col;
    t->val[t->n] = val;
    t->n++;
}

/* Unknowns: E_u, E_v, h_u, h_v, each N long. */
enum { EU, EV, HU, HV };

/* row += coef * C(a, b) / eps_w(a, b), C = d_u h_v - d_v h_u at the E_w node (a, b) (backward
 * differences: h_v sits at a + 1/2, h_u at b + 1/2). Nothing for a node outside the window. */
static void add_curl_h(triplets *t, const plane *p, long row, int a, int b, double coef)
{
    const long c = node(p, a, b);
    if (c < 0)
        return;
    if (p->eps[2][c] <= 0.0)
        return; /* PEC: E_w = 0 */
    const long N = p->n;
    coef /= p->eps[2][c];
    long m;
    put(t, row, HV * N + c, coef / p->du);
    if ((m = node(p, a - 1, b)) >= 0)
        put(t, row, HV * N + m, -coef / p->du);
    put(t, row, HU * N + c, -coef / p->dv);
    if ((m = node(p, a, b - 1)) >= 0)
        put(t, row, HU * N + m, coef / p->dv);
}

/* row += coef * D(a, b), D = d_u E_v - d_v E_u at the h_w node (a + 1/2, b + 1/2) (forward). */
static void add_curl_e(triplets *t, const plane *p, long row, int a, int b, double coef)
{
    const long c = node(p, a, b);
    if (c < 0)
        return;
    const long N = p->n;
    long m;
    if ((m = node(p, a + 1, b)) >= 0)
        put(t, row, EV * N + m, coef / p->du);
    put(t, row, EV * N + c, -coef / p->du);
    if ((m = node(p, a, b + 1)) >= 0)
        put(t, row, EU * N + m, -coef / p->dv);
    put(t, row, EU * N + c, coef / p->dv);
}

/* The operator [0 Q; R 0] - shift I (mode_solver.h) as triplets. A PEC E node keeps only its
 * diagonal, so its row and column decouple (its eigenvector entries are 0 for every mode with
 * beta != shift). */
static void assemble(triplets *t, const plane *p, double k0, double shift)
{
    const long N = p->n;
    for (int b = 0; b < p->nv; b++)
        for (int a = 0; a < p->nu; a++) {
            const long c = a + (long)p->nu * b;
            const int pec_u = p->eps[0][c] <= 0.0, pec_v = p->eps[1][c] <= 0.0;
            /* beta E_u = k0 h_v + d_u(C / eps_w) / k0, the difference forward from a to a+1 */
            if (!pec_u) {
                put(t, EU * N + c, HV * N + c, k0);
                add_curl_h(t, p, EU * N + c, a + 1, b, 1.0 / (k0 * p->du));
                add_curl_h(t, p, EU * N + c, a, b, -1.0 / (k0 * p->du));
            }
            put(t, EU * N + c, EU * N + c, -shift);
            /* beta E_v = -k0 h_u + d_v(C / eps_w) / k0 */
            if (!pec_v) {
                put(t, EV * N + c, HU * N + c, -k0);
                add_curl_h(t, p, EV * N + c, a, b + 1, 1.0 / (k0 * p->dv));
                add_curl_h(t, p, EV * N + c, a, b, -1.0 / (k0 * p->dv));
            }
            put(t, EV * N + c, EV * N + c, -shift);
            /* beta h_u = -k0 eps_v E_v - d_u D / k0, the difference backward from a to a-1 */
            if (!pec_v)
                put(t, HU * N + c, EV * N + c, -k0 * p->eps[1][c]);
            add_curl_e(t, p, HU * N + c, a, b, -1.0 / (k0 * p->du));
            add_curl_e(t, p, HU * N + c, a - 1, b, 1.0 / (k0 * p->du));
            put(t, HU * N + c, HU * N + c, -shift);
            /* beta h_v = k0 eps_u E_u - d_v D / k0 */
            if (!pec_u)
                put(t, HV * N + c, EU * N + c, k0 * p->eps[0][c]);
            add_curl_e(t, p, HV * N + c, a, b, -1.0 / (k0 * p->dv));
            add_curl_e(t, p, HV * N + c, a, b - 1, 1.0 / (k0 * p->dv));
            put(t, HV * N + c, HV * N + c, -shift);
        }
}

/* The E column of a PEC node must not couple either: drop entries into PEC E unknowns. */
static void drop_pec_columns(triplets *t, const plane *p)
{
    const long N = p->n;
    long k = 0;
    for (long i = 0; i < t->n; i++) {
        const long col = t->col[i], row = t->row[i];
        int drop = 0;
        if (col != row && col < 2 * N)
            drop = p->eps[col < N ? 0 : 1][col % N] <= 0.0;
        if (!drop) {
            t->row[k] = t->row[i];
            t->col[k] = t->col[i];
            t->val[k] = t->val[i];
            k++;
        }
    }
    t->n = k;
}

static int rasterize_plane(const yee_config *cfg, const yee_mode_request *req, plane *p,
                           yee_err *err)
{
    yee_geo geo;
    int rc = yee_geometry_rasterize(cfg, req->count, req->lo, 0, &geo, err);
    if (rc < 0)
        return rc;
    const int comp[3] = {p->u, p->v, p->w}; /* E_u, E_v, E_w are E_x.. by axis */
    for (int r = 0; r < 3; r++) {
        p->eps[r] = (double *)malloc((size_t)p->n * sizeof(double));
        if (!p->eps[r]) {
            yee_geometry_free(&geo);
            return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold the plane's permittivity");
        }
    }
    int idx[3];
    for (idx[2] = 0; idx[2] < req->count[2]; idx[2]++)
        for (idx[1] = 0; idx[1] < req->count[1]; idx[1]++)
            for (idx[0] = 0; idx[0] < req->count[0]; idx[0]++) {
                const int64_t g = idx[0] + geo.stride[1] * idx[1] + geo.stride[2] * idx[2];
                const long c = idx[p->u] + (long)p->nu * idx[p->v];
                for (int r = 0; r < 3; r++) {
                    const yee_geo_entry *e = &geo.entry[geo.mat[comp[r]][g]];
                    double eps = e->eps;
                    if (e->pec)
                        eps = 0.0;
                    else if (e->npoles > 0 && e->material >= 0 && e->fill == 1.0)
                        eps = yee_material_eps_at(&cfg->materials[e->material], comp[r], req->freq);
                    else if (e->npoles > 0 && e->material >= 0) /* a metal interface node */
                        eps += e->fill *
                               (yee_material_eps_at(&cfg->materials[e->material], comp[r],
                                                    req->freq) -
                                cfg->materials[e->material].eps[comp[r]]);
                    p->eps[r][c] = eps;
                }
            }
    yee_geometry_free(&geo);
    return YEE_OK;
}

/* Relative accuracy of ARPACK's Ritz values (its default, 0, asks for machine precision and
 * takes 3-4x the solves): beta to 1e-10 is far below the discretization's error. */
#define ARNOLDI_TOL 1e-10

/* ARPACK dnaupd/dneupd in shift-invert mode on the LU in numeric; eigenvalues beta (real
 * part, imaginary part) and vectors (n each, column-major, real-valued pairs as ARPACK gives
 * them) for the nev closest to shift. */
static int arnoldi(const int *Ap, const int *Ai, const double *Ax, void *numeric, long n, int nev,
                   double shift, double *dr, double *di, double *z, int *found, yee_err *err)
{
    const int ncv = nev * 2 + 20 < n ? nev * 2 + 20 : (int)n;
    const int lworkl = 3 * ncv * ncv + 6 * ncv;
    double *resid = (double *)calloc((size_t)n, sizeof(double));
    double *v = (double *)malloc((size_t)n * ncv * sizeof(double));
    double *workd = (double *)malloc(3 * (size_t)n * sizeof(double));
    double *workl = (double *)malloc((size_t)lworkl * sizeof(double));
    double *workev = (double *)malloc(3 * (size_t)ncv * sizeof(double));
    int *select = (int *)calloc((size_t)ncv, sizeof(int));
    int rc = YEE_OK;
    if (!resid || !v || !workd || !workl || !workev || !select) {
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold ARPACK's %d vectors of %ld", ncv, n);
        goto done;
    }
    /* A fixed start vector (not ARPACK's random one) so that runs are repeatable. */
    for (long i = 0; i < n; i++)
        resid[i] = 1.0 + 0.5 * sin(0.37 * (double)i);
    int iparam[11] = {0}, ipntr[14] = {0}, ido = 0, info = 1;
    iparam[0] = 1;    /* exact shifts */
    iparam[2] = 3000; /* iterations */
    iparam[6] = 3;    /* shift-invert: OP = (A - sigma I)^-1 */
    for (;;) {
        dnaupd_c(&ido, "I", (int)n, "LM", nev, ARNOLDI_TOL, resid, ncv, v, (int)n, iparam, ipntr,
                 workd, workl, lworkl, &info);
        if (ido != -1 && ido != 1)
            break;
        double *x = workd + ipntr[0] - 1, *y = workd + ipntr[1] - 1;
        if (umfpack_di_solve(UMFPACK_A, Ap, Ai, Ax, y, x, numeric, NULL, NULL) < 0) {
            rc = YEE_FAIL(err, YEE_ERR_NUMERIC, "UMFPACK's solve failed");
            goto done;
        }
    }
    if (info < 0) {
        rc = YEE_FAIL(err, YEE_ERR_NUMERIC, "ARPACK dnaupd failed (info %d)", info);
        goto done;
    }
    dneupd_c(1, "A", select, dr, di, z, (int)n, shift, 0.0, workev, "I", (int)n, "LM", nev,
             ARNOLDI_TOL, resid, ncv, v, (int)n, iparam, ipntr, workd, workl, lworkl, &info);
    if (info != 0) {
        rc = YEE_FAIL(err, YEE_ERR_NUMERIC, "ARPACK dneupd failed (info %d)", info);
        goto done;
    }
    *found = iparam[4];
done:
    free(resid);
    free(v);
    free(workd);
    free(workl);
    free(workev);
    free(select);
    return rc;
}

/* Normalize mode x (E_u, E_v, h_u, h_v) and fill m: the longitudinal fields, unit power, the
 * energies and the group index, the profiles scattered onto the window's xyz layout. */
static int finish_mode(const plane *p, const yee_mode_request *req, double k0, double beta,
                       const double *x, yee_mode *m)
{
    const long N = p->n;
    const double dA = p->du * p->dv;
    double *ew = (double *)calloc((size_t)N, sizeof(double));
    double *hw = (double *)calloc((size_t)N, sizeof(double));
    if (!ew || !hw) {
        free(ew);
        free(hw);
        return -1;
    }
    /* E_w = i C / (k0 eps_w), h_w = -i D / k0: the imaginary parts */
    for (int b = 0; b < p->nv; b++)
        for (int a = 0; a < p->nu; a++) {
            const long c = a + (long)p->nu * b;
            long m1;
            if (p->eps[2][c] > 0.0) {
                double C = x[HV * N + c] / p->du - x[HU * N + c] / p->dv;
                if ((m1 = node(p, a - 1, b)) >= 0)
                    C -= x[HV * N + m1] / p->du;
                if ((m1 = node(p, a, b - 1)) >= 0)
                    C += x[HU * N + m1] / p->dv;
                ew[c] = C / (k0 * p->eps[2][c]);
            }
            double D = -x[EV * N + c] / p->du + x[EU * N + c] / p->dv;
            if ((m1 = node(p, a + 1, b)) >= 0)
                D += x[EV * N + m1] / p->du;
            if ((m1 = node(p, a, b + 1)) >= 0)
                D -= x[EU * N + m1] / p->dv;
            hw[c] = -D / k0;
        }
    double power = 0.0, we[3] = {0, 0, 0}, wh = 0.0, biggest = 0.0;
    for (long c = 0; c < N; c++) {
        power += 0.5 * (x[EU * N + c] * x[HV * N + c] - x[EV * N + c] * x[HU * N + c]) * dA;
        we[0] += p->eps[0][c] * x[EU * N + c] * x[EU * N + c] * dA;
        we[1] += p->eps[1][c] * x[EV * N + c] * x[EV * N + c] * dA;
        we[2] += p->eps[2][c] * ew[c] * ew[c] * dA;
        wh += (x[HU * N + c] * x[HU * N + c] + x[HV * N + c] * x[HV * N + c] + hw[c] * hw[c]) * dA;
        for (int r = 0; r < 2; r++)
            if (fabs(x[r * N + c]) > fabs(biggest))
                biggest = x[r * N + c];
    }
    /* power > 0 for beta > 0 (a forward mode); the sign of the scale makes the largest
     * transverse E positive */
    const double scale = (biggest < 0 ? -1.0 : 1.0) / sqrt(fabs(power));
    const double wtot = we[0] + we[1] + we[2];
    m->beta = beta;
    m->neff = beta / k0;
    /* c / v_g = W / P with W = 1/4 Int (eps |E|^2 + |h|^2), P = 1/2 Int Re(E x h*) */
    m->ng = 0.25 * (wtot + wh) / fabs(power);
    const int role_axis[3] = {p->u, p->v, p->w};
    for (int r = 0; r < 3; r++)
        m->energy_e[role_axis[r]] = wtot > 0 ? we[r] / wtot : 0.0;
    const double *src[6];
    src[p->u] = x + EU * N;
    src[p->v] = x + EV * N;
    src[p->w] = ew;
    src[3 + p->u] = x + HU * N;
    src[3 + p->v] = x + HV * N;
    src[3 + p->w] = hw;
    const long total = (long)req->count[0] * req->count[1] * req->count[2];
    int ok = 1;
    for (int f = 0; f < 6; f++)
        ok &= (m->field[f] = (double *)malloc((size_t)total * sizeof(double))) != NULL;
    if (ok) {
        int idx[3];
        long o = 0;
        for (idx[2] = 0; idx[2] < req->count[2]; idx[2]++)
            for (idx[1] = 0; idx[1] < req->count[1]; idx[1]++)
                for (idx[0] = 0; idx[0] < req->count[0]; idx[0]++, o++) {
                    const long c = idx[p->u] + (long)p->nu * idx[p->v];
                    for (int f = 0; f < 6; f++)
                        m->field[f][o] = scale * src[f][c];
                }
    }
    free(ew);
    free(hw);
    return ok ? 0 : -1;
}

static int by_neff(const void *a, const void *b)
{
    const double x = ((const yee_mode *)a)->neff, y = ((const yee_mode *)b)->neff;
    return (x < y) - (x > y);
}

int yee_modes_solve(const yee_config *cfg, const yee_mode_request *req, yee_mode_set *out,
                    yee_err *err)
{
    memset(out, 0, sizeof *out);
    out->req = *req;
    if (req->freq <= 0.0 || !isfinite(req->freq))
        return YEE_FAIL(err, YEE_ERR_USAGE, "the mode frequency must be > 0 (got %g c/um)",
                        req->freq);
    if (req->axis < 0 || req->axis > 2 || req->nmodes < 1 || req->count[req->axis] != 1)
        return YEE_FAIL(err, YEE_ERR_USAGE, "bad mode request (axis %d, %d modes)", req->axis,
                        req->nmodes);
    for (int a = 0; a < 3; a++)
        if (req->lo[a] < 0 || req->count[a] < 1 || req->lo[a] + req->count[a] > cfg->n[a])
            return YEE_FAIL(err, YEE_ERR_USAGE,
                            "the mode window (cells %d..%d on axis %c) is outside the grid "
                            "(0..%d)", req->lo[a], req->lo[a] + req->count[a] - 1, "xyz"[a],
                            cfg->n[a] - 1);
    plane p;
    memset(&p, 0, sizeof p);
    p.w = req->axis;
    p.u = (p.w + 1) % 3;
    p.v = (p.w + 2) % 3;
    p.nu = req->count[p.u];
    p.nv = req->count[p.v];
    p.n = (long)p.nu * p.nv;
    p.du = cfg->dx[p.u];
    p.dv = cfg->dx[p.v];
    /* a whole periodic axis wraps; so does the invariant z of a 2-D run */
    p.wrap_u = (cfg->boundary[p.u][0] == YEE_BC_PERIODIC && p.nu == cfg->n[p.u]) ||
               (cfg->two_d && p.u == 2);
    p.wrap_v = (cfg->boundary[p.v][0] == YEE_BC_PERIODIC && p.nv == cfg->n[p.v]) ||
               (cfg->two_d && p.v == 2);
    /* What the zero-field walls cannot stand for: a PMC wall (a mirror plane) on the window's
     * edge, and a Bloch phase across a wrapped axis (the profiles are real). */
    for (int r = 0; r < 2; r++) {
        const int a = r == 0 ? p.u : p.v;
        if (req->lo[a] == 0 && cfg->boundary[a][0] == YEE_BC_PMC)
            return yee_fail(err, YEE_ERR_UNSUPPORTED,
                            "the mode solver has no PMC wall: the low %c face is pmc (a mirror "
                            "plane); give the plane its full cross-section", "xyz"[a]);
        if (cfg->bloch[a] != 0.0)
            return yee_fail(err, YEE_ERR_UNSUPPORTED,
                            "the mode solver has real profiles and no Bloch phase: boundary.bloch "
                            "is nonzero along %c, in the plane", "xyz"[a]);
    }
    if (4 * p.n > 2000000000L)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "a plane of %ld nodes is too large for the mode solver",
                        p.n);
    const double k0 = 2.0 * M_PI * req->freq;
    triplets t = {0};
    int *Ap = NULL, *Ai = NULL;
    double *Ax = NULL, *dr = NULL, *di = NULL, *z = NULL;
    void *symbolic = NULL, *numeric = NULL;
    int rc = rasterize_plane(cfg, req, &p, err);
    if (rc < 0)
        goto done;
    double eps_max = 0.0, edge_min = INFINITY;
    for (long c = 0; c < p.n; c++) {
        const int a = (int)(c % p.nu), b = (int)(c / p.nu);
        const int edge =
            (!p.wrap_u && (a == 0 || a == p.nu - 1)) || (!p.wrap_v && (b == 0 || b == p.nv - 1));
        for (int r = 0; r < 3; r++) {
            if (p.eps[r][c] > eps_max)
                eps_max = p.eps[r][c];
            if (edge && p.eps[r][c] > 0.0 && p.eps[r][c] < edge_min)
                edge_min = p.eps[r][c];
        }
    }
    out->n_max = sqrt(eps_max);
    out->eps_min_edge = isfinite(edge_min) ? edge_min : 0.0;
    /* Just above the highest possible beta: the guided modes are the eigenvalues nearest it. */
    const double shift = k0 * out->n_max * (1.0 + 1e-3);
    assemble(&t, &p, k0, shift);
    drop_pec_columns(&t, &p);
    const long n = 4 * p.n;
    Ap = (int *)malloc(((size_t)n + 1) * sizeof(int));
    Ai = (int *)malloc((size_t)(t.n ? t.n : 1) * sizeof(int));
    Ax = (double *)malloc((size_t)(t.n ? t.n : 1) * sizeof(double));
    if (t.failed || !Ap || !Ai || !Ax) {
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold the mode operator (%ld unknowns)", n);
        goto done;
    }
    int status =
        umfpack_di_triplet_to_col((int)n, (int)n, (int)t.n, t.row, t.col, t.val, Ap, Ai, Ax, NULL);
    if (status == UMFPACK_OK) /* NULL control: UMFPACK's defaults */
        status = umfpack_di_symbolic((int)n, (int)n, Ap, Ai, Ax, &symbolic, NULL, NULL);
    if (status == UMFPACK_OK)
        status = umfpack_di_numeric(Ap, Ai, Ax, symbolic, &numeric, NULL, NULL);
    if (status != UMFPACK_OK) {
        rc = YEE_FAIL(err, status == UMFPACK_ERROR_out_of_memory ? YEE_ERR_NOMEM : YEE_ERR_NUMERIC,
                      "UMFPACK could not factor the mode operator of %ld unknowns (status %d)", n,
                      status);
        goto done;
    }
    /* A 2-D run with one polarization keeps that polarization's modes only; both families come
     * from one operator, so ask for enough of both. */
    const int keep_ez = cfg->two_d && cfg->pol2d == YEE_POL_TM;
    const int keep_inplane = cfg->two_d && cfg->pol2d == YEE_POL_TE;
    const int asked = keep_ez || keep_inplane ? 2 * req->nmodes + 2 : req->nmodes;
    const int nev = asked < n - 2 ? asked : (int)n - 2;
    dr = (double *)calloc((size_t)nev + 1, sizeof(double));
    di = (double *)calloc((size_t)nev + 1, sizeof(double));
    z = (double *)calloc((size_t)n * (nev + 1), sizeof(double));
    if (!dr || !di || !z) {
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %d mode vectors", nev);
        goto done;
    }
    int found = 0;
    if ((rc = arnoldi(Ap, Ai, Ax, numeric, n, nev, shift, dr, di, z, &found, err)) < 0)
        goto done;
    out->modes = (yee_mode *)calloc((size_t)found + 1, sizeof(yee_mode));
    if (!out->modes) {
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold %d modes", found);
        goto done;
    }
    /* Keep the real, forward (beta > 0) eigenvalues: a complex pair is evanescent, and a real
     * one has its vector in one column. */
    for (int i = 0; i < found; i++) {
        if (di[i] != 0.0 || dr[i] <= 0.0)
            continue;
        if (finish_mode(&p, req, k0, dr[i], z + (size_t)i * n, &out->modes[out->nmodes]) < 0) {
            rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold the mode profiles");
            goto done;
        }
        out->nmodes++;
    }
    qsort(out->modes, (size_t)out->nmodes, sizeof(yee_mode), by_neff);
    int kept = 0;
    for (int i = 0; i < out->nmodes; i++) {
        const int ez = out->modes[i].energy_e[2] >= 0.5;
        if ((keep_ez && !ez) || (keep_inplane && ez) || kept == req->nmodes) {
            for (int f = 0; f < 6; f++)
                free(out->modes[i].field[f]);
            continue;
        }
        out->modes[i].guided = out->modes[i].neff * out->modes[i].neff > out->eps_min_edge;
        out->modes[kept++] = out->modes[i];
    }
    out->nmodes = kept;
done:
    if (numeric)
        umfpack_di_free_numeric(&numeric);
    if (symbolic)
        umfpack_di_free_symbolic(&symbolic);
    free(Ap);
    free(Ai);
    free(Ax);
    free(dr);
    free(di);
    free(z);
    free(t.row);
    free(t.col);
    free(t.val);
    for (int r = 0; r < 3; r++)
        free(p.eps[r]);
    if (rc < 0)
        yee_mode_set_free(out);
    return rc;
}

long yee_mode_plane_index(const yee_config *cfg, int axis, const int g[3])
{
    long idx = 0, stride = 1;
    for (int a = 0; a < 3; a++) {
        if (a == axis)
            continue;
        idx += stride * g[a];
        stride *= cfg->n[a];
    }
    return idx;
}

yee_mode_request yee_mode_request_grid(const yee_config *cfg, int axis, int P, double f,
                                       int nmodes)
{
    yee_mode_request req;
    memset(&req, 0, sizeof req);
    req.axis = axis;
    for (int a = 0; a < 3; a++)
        req.count[a] = cfg->n[a];
    req.lo[axis] = P;
    req.count[axis] = 1;
    req.freq = sin(M_PI * f * cfg->dt) / (M_PI * cfg->dt);
    req.nmodes = nmodes;
    return req;
}

void yee_mode_set_free(yee_mode_set *s)
{
    for (int i = 0; i < s->nmodes; i++)
        for (int f = 0; f < 6; f++)
            free(s->modes[i].field[f]);
    free(s->modes);
    s->modes = NULL;
    s->nmodes = 0;
}
