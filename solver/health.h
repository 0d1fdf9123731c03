/* solver/health.h -- catching a blow-up: NaN/Inf anywhere in the fields, or the field energy
 * growing after every source has ended (a passive system with absorbing or reflecting walls
 * cannot gain energy once it is left alone: an unstable Courant number, PML or material).
 */
#ifndef YEE_SOLVER_HEALTH_H
#define YEE_SOLVER_HEALTH_H

#include <mpi.h>

#include "common/yee_err.h"
#include "kernels/backend.h"
#include "model/config.h"

typedef struct yee_health {
    double t_sources_end; /* c-units; +inf with a cw source */
    double energy_ref;    /* energy at the first check after the sources ended (0: not yet) */
    long energy_ref_step;
} yee_health;

/* Checks the fields after completed step s (collective over cart): YEE_ERR_NUMERIC naming the
 * component, cell and step of a non-finite value, or the growth since the reference energy.
 * offset: this rank's block in the global grid; verbose: print the energies (rank 0). */
int yee_health_check(yee_health *h, const yee_config *cfg, const yee_backend_ops *be, void *ctx,
                     MPI_Comm cart, int nranks, int rank, const int offset[3], long s,
                     int verbose, yee_err *err);

#endif
