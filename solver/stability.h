/* solver/stability.h -- is the time step stable in the deck's dispersive media?
 *
 * The Yee update is stable in a non-dispersive medium up to the Courant limit; a dispersive pole
 * can lower that limit (the explicit Lorentz and Drude updates of kernels/yee_ade.h) or, with a
 * careless discretization, remove it (issue 24: an explicit Debye update blew up from
 * delta_eps 1.5). Rather than a closed-form bound per pole kind, this module takes the update
 * itself: in a homogeneous medium each Fourier mode of the grid evolves by a small linear map
 * (E, curl H, and the polarizations of the poles), built from the very coefficients the backends
 * use (solver/structure.c); the step is stable when no such map grows, i.e. its spectral radius
 * is at most 1 for every discrete curl-curl eigenvalue K^2 in [0, K^2_max],
 * K^2_max = sum over the axes of 4 / dx_a^2 (Taflove & Hagness 3rd ed. sec. 4.7, for the same
 * von Neumann analysis by hand). The spectral radius is rho = lim |A^N|^(1/N), taken by 40
 * squarings of A (N = 2^40), which also catches the algebraic growth of a defective eigenvalue.
 */
#ifndef YEE_SOLVER_STABILITY_H
#define YEE_SOLVER_STABILITY_H

#include "common/yee_err.h"
#include "model/config.h"

/* The largest growth per step, rho - 1, of the update in a homogeneous medium of material m
 * (relative permittivity eps_inf along the axis of interest, its conductivity and poles) over
 * K^2 in [0, k2max] (1/um^2), at time step dt (c-units). A deck counts as stable below 1e-6
 * (yee_check_dispersive_stability says why). */
double yee_medium_growth(const yee_material_cfg *m, double eps_inf, double dt, double k2max);

/* The largest Courant number (of the 3-D limit, simulation.courant) at which material m is stable
 * on cfg's grid, to 1e-4; 0 when none is. */
double yee_stable_courant(const yee_config *cfg, const yee_material_cfg *m);

/* Every dispersive material of cfg at cfg->dt on cfg's grid: YEE_ERR_DECK naming the material,
 * its deck line, the growth per step and the largest stable simulation.courant, for the first
 * material that is unstable. (Materials the geometry does not use are checked too.) */
int yee_check_dispersive_stability(const yee_config *cfg, yee_err *err);

#endif
