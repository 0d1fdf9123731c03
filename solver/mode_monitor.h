/* solver/mode_monitor.h -- mode coefficients of a flux plane's DFT fields (deck monitors of
 * type "mode"; solver/dft.c gathers the fields, this module projects them).
 *
 * At each frequency f of the monitor the plane's modes are solved (solver/mode_solver.h, the
 * whole plane, at the grid's numerical frequency sin(pi f dt)/(pi dt) as eigenmode sources are)
 * and the transverse DFT fields are split into forward (+axis) and backward amplitudes of each
 * mode (Meep's get_eigenmode_coefficients):
 *   a+- = ( Int E x h_m . n dA  +-  Int e_m x H . n dA / cos(beta dx/2) ) / (2 N),
 *   N = Int e_m x h_m . n dA = 2   (the unit-power mode: 1/2 Int e_m x h_m = 1),
 * because E_t = (a+ + a-) e_m and H_t = (a+ - a-) h_m for the mode's two directions. The flux
 * plane's H is the mean of the two H planes beside the E plane, which turns h_m into
 * h_m cos(beta_d dx/2) (beta_d the mode's wavenumber on the grid); dividing by it makes the
 * amplitudes exact for a mode of the grid. Sums use the flux's trapezoid weights. The power a
 * mode carries each way is 2 |a+-|^2 in the flux spectrum's convention (no 1/2); the flux of
 * the same plane is that times cos(beta_d dx/2) (its H is the two planes' mean), about 1 %
 * lower at 20 cells per wavelength in the guide.
 */
#ifndef YEE_SOLVER_MODE_MONITOR_H
#define YEE_SOLVER_MODE_MONITOR_H

#include <mpi.h>
#include <stdint.h>

#include "common/yee_err.h"
#include "model/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* This rank's part of one tangential pair of a flux plane normal to axis: E_q with H_r (pair 0,
 * q = axis+1) or E_r with H_q (pair 1, r = axis+2), on E's nodes. */
typedef struct yee_plane_pair {
    int64_t nodes;
    const int *node;      /* 3 ints per node: its global index (x, y, z) */
    const double *weight; /* trapezoid weight per node */
    const double *e, *h;  /* DFT sums: re[nfreq][nodes] then im[nfreq][nodes] */
} yee_plane_pair;

/* The coefficients of mc (a mode monitor: mc->nmodes modes, nfreq frequencies freq in c/um) on
 * the plane normal to axis through E node plane P, from this rank's pairs; collective over comm
 * (every rank solves the modes). Fills alpha[((k nfreq + q) 2 + dir) 2 + part] (mode k, dir 0
 * forward / 1 backward, part 0 re / 1 im) and neff[k nfreq + q]; a mode the plane does not have
 * at some frequency gets NaN there. Errors: those of yee_modes_solve. */
int yee_mode_coefficients(const yee_config *cfg, const yee_monitor_cfg *mc, int axis, int P,
                          int nfreq, const double *freq, const yee_plane_pair pair[2],
                          MPI_Comm comm, double *alpha, double *neff, yee_err *err);

#ifdef __cplusplus
}
#endif

#endif
