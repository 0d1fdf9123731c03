/* solver/sources.h -- every source of a deck, as the currents one rank injects per step.
 *
 * Dipoles and volume sources are fixed lists of nodes with weights; plane waves and Gaussian
 * beams are TFSF corrections (solver/tfsf.h). Each step the set hands the solver two lists for
 * the backend's apply_sources: magnetic currents M for H^{n+1/2} (at time n dt) and electric
 * currents J for E^{n+1} (at time (n+1/2) dt). Normalization (docs/deck.md "Sources"):
 *   dipole   current moment I*l: J = amplitude g(t) / (dx dy dz) at one node;
 *   volume   current density J = amplitude g(t) on every node of the box; an axis where the box
 *            is thinner than a cell counts as a sheet: J = amplitude g(t) / dx_a, so the
 *            amplitude is a surface (or line) current density, as in Meep;
 *   planewave, gaussian_beam   incident E-field amplitude g(t) (the beam: on axis, at focus).
 */
#ifndef YEE_SOLVER_SOURCES_H
#define YEE_SOLVER_SOURCES_H

#include "common/yee_err.h"
#include "model/config.h"
#include "kernels/backend.h"

typedef struct yee_sources yee_sources;

/* The sources of cfg that touch the subdomain of n_local cells at global offset. Errors:
 * YEE_ERR_NOMEM, YEE_ERR_DECK (file:line, e.g. a plane-wave face in the PML). */
int yee_sources_create(const yee_config *cfg, const int n_local[3], const int offset[3],
                       yee_sources **out, yee_err *err);

/* The most currents one call below writes: the size of its buffer. */
int yee_sources_max(const yee_sources *s);

/* Step n: the magnetic currents to add after step_h, written to out (yee_sources_max entries);
 * returns their number. Advances the plane waves' incident grids. */
int yee_sources_h(yee_sources *s, long n, yee_point_current *out);

/* Step n: the electric currents to add after step_e, written to out; returns their number. */
int yee_sources_e(yee_sources *s, long n, yee_point_current *out);

/* Time (c-units) after which no source injects anything (+inf with a cw source). */
double yee_sources_end_time(const yee_sources *s);

/* Checkpoints: the sources' own state between steps, which is the incident 1-D grids of the
 * plane waves and beams (dipole and volume sources only evaluate their profile at a time).
 * save writes yee_sources_state_size bytes to buf; load restores them into a set built from
 * the same deck on the same subdomain. */
size_t yee_sources_state_size(const yee_sources *s);
void yee_sources_state_save(const yee_sources *s, void *buf);
void yee_sources_state_load(yee_sources *s, const void *buf);

void yee_sources_destroy(yee_sources *s);

#endif
