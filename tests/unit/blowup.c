/* tests/unit/blowup.c -- an unstable run stops with YEE_ERR_NUMERIC naming the step and cell,
 * instead of writing a file full of NaN. The deck validator never allows a Courant number above
 * the limit, so the config is built by hand with dt 20% above it: the leapfrog then amplifies
 * the highest spatial frequencies every step until the fields overflow.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "solver/sim.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    yee_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "blowup");
    snprintf(c.out_dir, sizeof c.out_dir, ".");
    for (int a = 0; a < 3; a++) {
        c.n[a] = 16;
        c.dx[a] = 0.05;
        c.origin[a] = -0.4;
        c.boundary[a][0] = c.boundary[a][1] = YEE_BC_PEC;
    }
    c.courant = 1.2;
    c.dt = c.courant / sqrt(3.0 / (0.05 * 0.05));
    c.steps = 5000;
    c.eps_r = 1.0;
    c.check_interval = 20;
    yee_source_cfg s;
    memset(&s, 0, sizeof s);
    s.component = YEE_EZ;
    s.profile.kind = YEE_PROFILE_RICKER;
    s.profile.frequency = 2.0;
    s.profile.delay = 0.75;
    s.profile.amplitude = 1.0;
    c.nsources = 1;
    c.sources = &s;

    yee_run_options opt = yee_run_options_default();
    opt.backend = "cpu";
    opt.no_output = 1;
    yee_run_stats stats;
    yee_err err;
    err.msg[0] = '\0';
    const int rc = yee_sim_run(&c, &opt, &stats, &err);
    const int named = strstr(err.msg, "step ") != NULL;
    const int ok = rc == YEE_ERR_NUMERIC && named;
    printf("%s blowup (rc=%d, wanted %d) message: %s\n", ok ? "PASS" : "FAIL", rc,
           YEE_ERR_NUMERIC, err.msg);
    MPI_Finalize();
    return ok ? 0 : 1;
}
