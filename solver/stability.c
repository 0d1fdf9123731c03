/* solver/stability.c -- von Neumann analysis of the update in dispersive media
 * (solver/stability.h). */
#include "solver/stability.h"
#include "model/nodes.h"

#include <math.h>
#include <string.h>

#include "solver/structure.h"

enum { MAX_STATE = 2 + 2 * YEE_MAX_POLES };

/* The update of one Fourier mode in a homogeneous medium, as kernels/yee_cell.h and yee_ade.h
 * do it for a node, with h = -iK H so that the curl-curl is the scalar k2 = K^2:
 * state x = (E^n, h^{n-1/2}, per pole (P^n, P^{n-1}) (Debye: (P^n, unused))). */
typedef struct mode {
    int npoles;
    yee_pole_coef pole[YEE_MAX_POLES];
    double ca, cb, dt, k2;
} mode;

static void step(const mode *md, const double *x, double *y)
{
    const double e = x[0], h = x[1] - md->dt * md->k2 * x[0];
    double j = 0.0;
    double pn[YEE_MAX_POLES];
    for (int q = 0; q < md->npoles; q++) {
        const yee_pole_coef *k = &md->pole[q];
        const double p = x[2 + 2 * q], before = x[3 + 2 * q];
        if (k->debye) {
            j -= (double)k->c3 * p;
        } else {
            pn[q] = (double)k->c1 * p + (double)k->c2 * before + (double)k->c3 * e;
            j += pn[q] - p;
        }
    }
    const double en = md->ca * e + md->cb * h - md->cb * (j / md->dt);
    y[0] = en;
    y[1] = h;
    for (int q = 0; q < md->npoles; q++) {
        const yee_pole_coef *k = &md->pole[q];
        const double p = x[2 + 2 * q];
        if (k->debye) {
            y[2 + 2 * q] = (double)k->c1 * p + (double)k->c2 * (en + e);
            y[3 + 2 * q] = 0.0;
        } else {
            y[2 + 2 * q] = pn[q];
            y[3 + 2 * q] = p;
        }
    }
}

static double norm_inf(const double *a, int n)
{
    double worst = 0.0;
    for (int r = 0; r < n; r++) {
        double row = 0.0;
        for (int c = 0; c < n; c++)
            row += fabs(a[r * n + c]);
        worst = fmax(worst, row);
    }
    return worst;
}

/* log of the spectral radius of one step: |A^N|^(1/N) for N = 2^40, by squaring, each square
 * normalized (its log scale kept) so nothing overflows. */
static double log_spectral_radius(const mode *md)
{
    const int n = 2 + 2 * md->npoles;
    double a[MAX_STATE * MAX_STATE], b[MAX_STATE * MAX_STATE];
    double x[MAX_STATE], y[MAX_STATE];
    for (int c = 0; c < n; c++) { /* column c = the step applied to unit vector c */
        memset(x, 0, sizeof x);
        x[c] = 1.0;
        step(md, x, y);
        for (int r = 0; r < n; r++)
            a[r * n + c] = y[r];
    }
    double s = norm_inf(a, n);
    if (s == 0.0)
        return -INFINITY;
    double logn = log(s); /* log |A^(2^i)| = logn / 2^i after the i-th squaring */
    for (int q = 0; q < n * n; q++)
        a[q] /= s;
    const int squarings = 40;
    for (int i = 1; i <= squarings; i++) {
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                double acc = 0.0;
                for (int k = 0; k < n; k++)
                    acc += a[r * n + k] * a[k * n + c];
                b[r * n + c] = acc;
            }
        s = norm_inf(b, n);
        if (s == 0.0)
            return -INFINITY;
        logn = 2.0 * logn + log(s);
        for (int q = 0; q < n * n; q++)
            a[q] = b[q] / s;
    }
    return logn / ldexp(1.0, squarings);
}

/* The growth per step of the medium's fastest-growing Fourier mode, or the first one found
 * above stop_above (then the scan ends there: a bisection only asks whether dt is stable). The
 * scan runs from the largest K^2 down, since that is where the growth peaks in practice. */
static double medium_growth(const yee_material_cfg *m, double eps_inf, double dt, double k2max,
                            double stop_above)
{
    mode md;
    memset(&md, 0, sizeof md);
    md.npoles = m->npoles;
    md.dt = dt;
    for (int q = 0; q < m->npoles; q++)
        md.pole[q] = yee_pole_coefficients(&m->poles[q], dt);
    yee_real ca, cb;
    yee_medium_coefficients(eps_inf, m->sigma, yee_debye_weight(m->poles, m->npoles, dt), dt,
                            &ca, &cb);
    md.ca = ca;
    md.cb = cb;
    /* the growth peaks at the largest K^2 in practice; scan the whole range to be sure */
    const int samples = 128;
    double worst = -INFINITY;
    for (int i = samples; i >= 0; i--) {
        md.k2 = k2max * (double)i / samples;
        worst = fmax(worst, log_spectral_radius(&md));
        if (expm1(worst) > stop_above)
            break;
    }
    return expm1(worst);
}

double yee_medium_growth(const yee_material_cfg *m, double eps_inf, double dt, double k2max)
{
    return medium_growth(m, eps_inf, dt, k2max, INFINITY);
}

/* K^2_max of cfg's grid: the axes with room for a wave (two cells or more). */
static double largest_k2(const yee_config *cfg)
{
    double k2 = 0.0;
    for (int a = 0; a < 3; a++)
        if (cfg->n[a] > 1)
            k2 += 4.0 / (yee_min_width(cfg, a) * yee_min_width(cfg, a));
    return k2;
}

/* The worst growth of material m over its axes' eps_inf at time step dt (an axis with the eps of
 * an earlier one is the same medium), or the first found above stop_above. */
static double material_growth(const yee_material_cfg *m, double dt, double k2max,
                              double stop_above)
{
    double worst = -1.0;
    for (int a = 0; a < 3 && worst <= stop_above; a++)
        if ((a < 1 || m->eps[a] != m->eps[0]) && (a < 2 || m->eps[a] != m->eps[1]))
            worst = fmax(worst, medium_growth(m, m->eps[a], dt, k2max, stop_above));
    return worst;
}

/* Growth below 1e-6 per step (a factor e in a million steps) counts as stable: rounding the
 * coefficients to float alone moves a marginal eigenvalue of a weakly lossy medium (water's
 * 8 ps Debye pole at optical time steps) about 2e-8 above 1, where double coefficients give the
 * 2e-11 floor of the method. */
static const double stable_growth = 1e-6;

double yee_stable_courant(const yee_config *cfg, const yee_material_cfg *m)
{
    /* growth falls with dt for every pole kind here: bisect */
    const double k2max = largest_k2(cfg);
    double lo = 0.0, hi = 1.0;
    if (material_growth(m, yee_config_courant_dt(cfg, hi), k2max, stable_growth) <= stable_growth)
        return hi;
    while (hi - lo > 1e-4) {
        const double mid = 0.5 * (lo + hi);
        if (material_growth(m, yee_config_courant_dt(cfg, mid), k2max, stable_growth) <=
            stable_growth)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int yee_check_dispersive_stability(const yee_config *cfg, yee_err *err)
{
    const double k2max = largest_k2(cfg);
    for (int i = 0; i < cfg->nmaterials; i++) {
        const yee_material_cfg *m = &cfg->materials[i];
        if (m->npoles == 0 || m->pec)
            continue;
        const double g = material_growth(m, cfg->dt, k2max, INFINITY);
        if (g <= stable_growth)
            continue;
        const double ok = yee_stable_courant(cfg, m);
        return yee_fail(err, YEE_ERR_DECK,
                        "%s:%d: error: materials[%d] (\"%s\"): its dispersion makes the update "
                        "unstable at dt = %.4g fs (fields grow %.3g-fold per step); the largest "
                        "stable simulation.courant is %.4g (dt = %.4g fs), or refine the grid",
                        cfg->deck_path, m->line, i, m->name, cfg->dt * YEE_TIME_UNIT_FS, 1.0 + g,
                        ok, yee_config_courant_dt(cfg, ok) * YEE_TIME_UNIT_FS);
    }
    return YEE_OK;
}
