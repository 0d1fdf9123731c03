/* solver/tfsf.h -- plane waves and Gaussian beams by total-field/scattered-field (TFSF).
 *
 * Inside a box (the total-field region) the fields are incident + scattered; outside only the
 * scattered part remains. The incident wave is computed on an auxiliary 1-D Yee grid along the
 * propagation direction, stepped with the same dt, and injected as the field-matching
 * corrections on the box faces (Taflove & Hagness, "Computational Electrodynamics", 3rd ed.,
 * sec. 5.6 and 5.9), which are electric currents J on the tangential E nodes of each face and
 * magnetic currents M on the tangential H nodes half a cell outside it (kernels/yee_cell.h
 * yee_add_current / yee_add_mcurrent). For each face normal to axis p with tangential axes
 * q = p+1, r = p+2 (mod 3) and s = +1 on a low face, -1 on a high one (plane P of E nodes):
 *   J_q(P) = -s H_r^inc(P - s/2) / dx_p      J_r(P) = +s H_q^inc(P - s/2) / dx_p
 *   M_r(P - s/2) = -s E_q^inc(P) / dx_p      M_q(P - s/2) = +s E_r^inc(P) / dx_p
 * (on a graded axis dx_p is the spacing each update takes there: the dual cell of plane P for
 * J, cell P - s/2 for M).
 * A face the box reaches beyond the domain is dropped: the total field then extends to the
 * boundary (a periodic axis, or the PML). With only one face left this is a one-way planar
 * source (the usual way to light a periodic cell); a Gaussian beam is that one face with the
 * transverse profile of a paraxial beam (Siegman, "Lasers", eq. 17.9) as a complex weight,
 * and an eigenmode source is that one face with a guided mode's E and H profiles
 * (solver/mode_solver.h, solved on the face's plane at the carrier) as weights and the 1-D
 * grid's permittivity set to the mode's neff^2, so the 1-D wave travels with the mode's own
 * wavenumber on the grid.
 *
 * Numerical dispersion of the 1-D grid is matched to the 3-D grid's along the direction at the
 * carrier frequency (the 1-D permittivity is adjusted; exact at every frequency when the
 * direction is a grid axis), and the 1-D fields are read at the 3-D nodes by cubic Lagrange
 * interpolation. Along a graded axis (model/mesh.h) the 1-D grid is that axis's own mesh, node
 * for node, so the face nodes fall on 1-D nodes and axis-aligned incidence is again exact; a
 * direction at an angle to a graded axis is refused by the deck reader. Leakage into the
 * scattered region: float rounding for axis-aligned incidence, about -40 to -60 dB for oblique
 * incidence (docs/validation.md). The 1-D grid ends in a graded absorbing layer, so runs of
 * any length cost O(box size) per step.
 */
#ifndef YEE_SOLVER_TFSF_H
#define YEE_SOLVER_TFSF_H

#include "common/yee_err.h"
#include "model/config.h"
#include "kernels/backend.h"

typedef struct yee_tfsf yee_tfsf;

/* Builds the source sc (YEE_SRC_PLANEWAVE, YEE_SRC_GAUSSIAN_BEAM or YEE_SRC_EIGENMODE) for the
 * subdomain of n_local cells starting at global cell offset. Fails with YEE_ERR_DECK (file:line)
 * when a face lies in the PML, the background is not a lossless isotropic dielectric at a face
 * (plane waves, beams), or the source plane guides fewer modes than sc->mode. */
int yee_tfsf_create(const yee_config *cfg, const yee_source_cfg *sc, const int n_local[3],
                    const int offset[3], yee_tfsf **out, yee_err *err);

/* Corrections this rank applies per step: magnetic (H) and electric (E) entries. */
int yee_tfsf_count_h(const yee_tfsf *t);
int yee_tfsf_count_e(const yee_tfsf *t);

/* Step n (fields E^n, H^{n-1/2}): fills out with the M entries for H^{n+1/2} (from the incident
 * E at time n dt) and returns their number; then advances the 1-D H to time (n+1/2) dt. */
int yee_tfsf_h_step(yee_tfsf *t, yee_point_current *out);

/* Fills out with the J entries for E^{n+1} (from the incident H at (n+1/2) dt) and returns
 * their number; then advances the 1-D E to time (n+1) dt. Call after yee_tfsf_h_step. */
int yee_tfsf_e_step(yee_tfsf *t, yee_point_current *out);

/* Time after which the incident wave has left the box (the profile's end plus the crossing). */
double yee_tfsf_end_time(const yee_tfsf *t);

/* Checkpoints: the bytes of the 1-D grid's state (step count, then its E and H lines); save
 * copies it to buf, load puts back what save wrote for the same source of the same deck. The
 * corrections and update factors are rebuilt from the deck and are not part of it. */
size_t yee_tfsf_state_size(const yee_tfsf *t);
void yee_tfsf_state_save(const yee_tfsf *t, void *buf);
void yee_tfsf_state_load(yee_tfsf *t, const void *buf);

void yee_tfsf_destroy(yee_tfsf *t);

#endif
