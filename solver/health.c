/* solver/health.c -- the blow-up checks of the time loop (solver/health.h). */
#include "solver/health.h"

#include <math.h>
#include <stdio.h>

#include "model/nodes.h"

int yee_health_check(yee_health *h, const yee_config *cfg, const yee_backend_ops *be, void *ctx,
                     MPI_Comm cart, int nranks, int rank, const int offset[3], long s,
                     int verbose, yee_err *err)
{
    yee_norms nrm;
    YEE_TRY(be->norms(ctx, &nrm, err));
    if (nranks > 1) {
        double sums[2] = {nrm.e2, nrm.h2};
        MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, cart);
        nrm.e2 = sums[0];
        nrm.h2 = sums[1];
    }
    if (nrm.nonfinite) {
        const int c = nrm.bad_comp;
        double pos[3];
        const int ijk[3] = {nrm.bad_i + offset[0], nrm.bad_j + offset[1],
                            nrm.bad_k + offset[2]};
        for (int a = 0; a < 3; a++)
            pos[a] = yee_node_position(cfg, c, a, ijk[a]);
        return yee_fail(err, YEE_ERR_NUMERIC,
                        "the fields blew up: %s is not finite at cell (%d, %d, %d) = (%.4g, %.4g, "
                        "%.4g) um, detected at step %ld of %ld (checks every %ld steps; lower "
                        "simulation.courant or check materials and the PML)",
                        yee_component_name(c), ijk[0], ijk[1], ijk[2], pos[0], pos[1], pos[2], s,
                        cfg->steps, cfg->check_interval);
    }
    if (!isfinite(nrm.e2 + nrm.h2)) /* another rank found it and reports the cell */
        return yee_fail(err, YEE_ERR_NUMERIC, "the fields blew up on another rank at step %ld",
                        s);
    const double energy = nrm.e2 + nrm.h2;
    const double t = s * cfg->dt;
    if (verbose && rank == 0)
        printf("step %ld  t %.6g fs  sum E^2 %.6e  sum H^2 %.6e\n", s, t * YEE_TIME_UNIT_FS,
               nrm.e2, nrm.h2);
    if (t > h->t_sources_end) {
        if (h->energy_ref <= 0.0) {
            h->energy_ref = energy > 1e-300 ? energy : 1e-300;
            h->energy_ref_step = s;
        } else if (energy > 1e4 * h->energy_ref) {
            return yee_fail(err, YEE_ERR_NUMERIC,
                            "the fields are growing without bound: energy rose %.3g-fold between "
                            "step %ld and step %ld, after all sources had ended (unstable "
                            "setup: check simulation.courant and the PML parameters)",
                            energy / h->energy_ref, h->energy_ref_step, s);
        }
    }
    return YEE_OK;
}
