/* tests/unit/stability.c -- the von Neumann analysis of dispersive updates (solver/stability.c)
 * against what runs showed, and the update coefficients it exposed.
 *
 * - A strong Drude metal (f_p 2000 THz) at 20 cells/um: the analysis puts the limit at Courant
 *   0.8556; runs of the 3-D periodic box it models blew up at 0.857 and ran 4000 steps at 0.855.
 * - The Drude term of Rakic gold at 100 cells/um, Courant 0.55: with c1 + c2 rounded apart in
 *   float the static-polarization root sat 6.5e-5 above 1 and a closed box blew up after 133000
 *   steps (issue 24); with c2 = 1 - c1 no growth.
 * - A water-like Debye pole (delta_eps 75, tau 1 fs) is stable at the 3-D Courant limit at any
 *   resolution (the semi-implicit update), and so is the real water pole (8.27 ps).
 * - A Lorentz pole with 2 pi f0 dt > 2 is unstable (Taflove & Hagness sec. 9.5).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solver/stability.h"

static int failures = 0;

static void check(int ok, const char *what, double got)
{
    printf("%s %s (%.6g)\n", ok ? "PASS" : "FAIL", what, got);
    failures += !ok;
}

static yee_config grid(double resolution, int n)
{
    yee_config c;
    memset(&c, 0, sizeof c);
    for (int a = 0; a < 3; a++) {
        c.n[a] = n;
        c.dx[a] = 1.0 / resolution;
    }
    c.courant = 0.99;
    c.dt = yee_courant_dt(c.dx, c.courant);
    snprintf(c.deck_path, sizeof c.deck_path, "test.cfg");
    return c;
}

static yee_material_cfg medium(double eps)
{
    yee_material_cfg m;
    memset(&m, 0, sizeof m);
    m.eps[0] = m.eps[1] = m.eps[2] = eps;
    return m;
}

static void add_pole(yee_material_cfg *m, yee_pole_kind kind, double f0_thz, double gamma_thz,
                     double sigma, double tau_fs)
{
    yee_pole_cfg *p = &m->poles[m->npoles++];
    p->kind = kind;
    p->f0 = f0_thz / YEE_C_UM_THZ;
    p->gamma = gamma_thz / YEE_C_UM_THZ;
    p->sigma = sigma;
    p->tau = tau_fs / YEE_TIME_UNIT_FS;
}

static double k2max(const yee_config *c)
{
    return 4.0 / (c->dx[0] * c->dx[0]) + 4.0 / (c->dx[1] * c->dx[1]) +
           4.0 / (c->dx[2] * c->dx[2]);
}

int main(void)
{
    yee_config c = grid(20.0, 20);
    yee_material_cfg drude = medium(1.0);
    add_pole(&drude, YEE_POLE_DRUDE, 2000.0, 20.0, 1.0, 0.0);
    const double limit = yee_stable_courant(&c, &drude);
    check(fabs(limit - 0.8556) < 0.002, "strong Drude at 20 cells/um: stable up to Courant 0.8556 "
                                        "(runs: 0.855 ran, 0.857 blew up)", limit);
    c.nmaterials = 1;
    c.materials = &drude;
    yee_err err;
    check(yee_check_dispersive_stability(&c, &err) == YEE_ERR_DECK &&
              strstr(err.msg, "largest stable simulation.courant is 0.85"),
          "and the deck at Courant 0.99 is refused, naming the limit", 0.0);

    c = grid(100.0, 8);
    yee_material_cfg gold = medium(1.0);
    add_pole(&gold, YEE_POLE_DRUDE, 2183.444, 12.8153, 0.76, 0.0);
    const double g = yee_medium_growth(&gold, 1.0, yee_courant_dt(c.dx, 0.55), k2max(&c));
    check(g < 1e-6, "Rakic gold's Drude term at 100 cells/um, Courant 0.55: no growth (was "
                    "6.5e-5 per step with c1 + c2 rounded apart)", g);

    for (double res = 10.0; res <= 640.0; res *= 4.0) {
        c = grid(res, 16);
        yee_material_cfg water = medium(2.0);
        add_pole(&water, YEE_POLE_DEBYE, 0.0, 0.0, 75.0, 1.0);
        char what[128];
        snprintf(what, sizeof what, "Debye delta_eps 75, tau 1 fs at %g cells/um: stable at "
                                    "Courant 1", res);
        check(yee_stable_courant(&c, &water) == 1.0, what, yee_stable_courant(&c, &water));
    }
    c = grid(100.0, 16);
    yee_material_cfg water = medium(5.2);
    add_pole(&water, YEE_POLE_DEBYE, 0.0, 0.0, 73.2, 8270.0);
    check(yee_stable_courant(&c, &water) == 1.0, "water (8.27 ps) at 100 cells/um: stable",
          yee_stable_courant(&c, &water));

    c = grid(2.0, 16); /* dt = 0.286 c-units: 2 pi f0 dt = 6.0 for f0 = 1000 THz */
    yee_material_cfg lor = medium(2.0);
    add_pole(&lor, YEE_POLE_LORENTZ, 1000.0, 10.0, 1.0, 0.0);
    check(yee_medium_growth(&lor, 2.0, c.dt, k2max(&c)) > 1e-3,
          "a Lorentz pole with 2 pi f0 dt = 6.0 at Courant 0.99: unstable",
          yee_medium_growth(&lor, 2.0, c.dt, k2max(&c)));
    printf("%s stability analysis: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
