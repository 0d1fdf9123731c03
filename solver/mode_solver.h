/* solver/mode_solver.h -- the guided modes of a waveguide cross-section of the deck's own
 * rasterized structure (geometry/, subpixel averaging included) at one frequency: effective and
 * group index and the six field profiles on the Yee grid's own node positions.
 *
 * Method: full-vector finite differences on the Yee lattice of the plane (Zhu & Brown, Opt.
 * Express 10, 853 (2002), written here in E and H together). With fields ~ exp(i (beta w -
 * omega t)) along the plane normal w and in-plane axes (u, v, w) cyclic (x, y, z), H scaled as
 * h = eta0 H and k0 = 2 pi f:
 *   beta e_t = Q h_t,   beta h_t = R e_t
 *   Q: beta E_u =  k0 h_v + d_u(C / eps_w) / k0,   beta E_v = -k0 h_u + d_v(C / eps_w) / k0
 *   R: beta h_v =  k0 eps_u E_u - d_v D / k0,      beta h_u = -k0 eps_v E_v - d_u D / k0
 * with C = d_u h_v - d_v h_u (at E_w nodes) and D = d_u E_v - d_v E_u (at h_w nodes), the
 * differences taken between the staggered nodes exactly as the 3-D update does, so the
 * longitudinal fields are E_w = i C / (k0 eps_w) and h_w = -i D / k0. The real 4N x 4N
 * eigenproblem [0 Q; R 0] x = beta x (N nodes of the plane) is solved by ARPACK (dnaupd, shift
 * and invert about beta = k0 n_max) with the sparse LU of UMFPACK: the modes closest below the
 * highest index come first. ARPACK + UMFPACK rather than MPB's library: the operator is the FDTD
 * grid's own (same nodes, same averaged eps, same differences), so a mode launched or projected
 * in a run needs no interpolation, and the lattice's own dispersion is in the profile.
 *
 * Edges of the window: an in-plane axis that is periodic in the deck wraps; any other edge is a
 * wall where every field outside the window is zero (a PEC box; the window normally spans the
 * whole plane, PML included, where a guided mode has decayed). Refused (YEE_ERR_UNSUPPORTED): a
 * PMC face on the window's edge (a mirror plane: the modes would be the PEC box's) and a
 * nonzero Bloch vector along an in-plane axis (the profiles are real). The invariant axis of a
 * 2-D run is one cell wide and periodic: its differences vanish, so the modes of a line
 * cross-section are the slab modes of the run's plane.
 *
 * Materials: each E component takes the permittivity of its node (eps_inf plus the real part of
 * the dispersive terms at the frequency); conductivity and losses are ignored (the modes are
 * those of the lossless guide); a PEC node is a wall (E = 0).
 * Host only; no MPI (call on one rank).
 */
#ifndef YEE_SOLVER_MODE_SOLVER_H
#define YEE_SOLVER_MODE_SOLVER_H

#include "common/yee_err.h"
#include "model/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yee_mode_request {
    int axis;            /* plane normal 0 x, 1 y, 2 z; beta > 0 travels towards +axis */
    int lo[3], count[3]; /* window, global cells; lo[axis] is the plane (the E_u, E_v nodes),
                          * count[axis] = 1 */
    double freq;         /* c/um */
    int nmodes;          /* how many modes, highest effective index first; in a 2-D run with
                          * one polarization (cfg->pol2d), how many of its modes */
} yee_mode_request;

/* One mode, normalized to unit power through the plane: 1/2 Int (E_u h_v - E_v h_u) dA = 1 (in
 * the normalized units of model/config.h, per um of z in 2-D), sign chosen so the largest
 * transverse E value is positive. */
typedef struct yee_mode {
    double neff;        /* beta / k0 */
    double ng;          /* group index c / v_g = energy / (power x c), from the profile */
    double beta;        /* rad/um */
    double energy_e[3]; /* share of Int eps |E_c|^2 dA in each component x, y, z (sums to 1) */
    int guided;         /* 1: neff^2 is above the lowest eps on the window's walls (the mode
                         * decays before them); 0: a mode of the window itself */
    /* Fields on the window's nodes, x fastest (count[0] x count[1] x count[2] values each):
     * E x, y, z then h = eta0 H x, y, z. The transverse ones are real; the two longitudinal
     * ones (E_axis, h_axis) are 90 degrees out of phase, and what is stored is their imaginary
     * part: E_axis = i * field[axis]. Each component at its own Yee node. */
    double *field[6];
} yee_mode;

typedef struct yee_mode_set {
    yee_mode_request req;
    int nmodes;          /* found (may be fewer than asked) */
    yee_mode *modes;     /* by decreasing neff; owned */
    double n_max;        /* highest index in the window (the shift) */
    double eps_min_edge; /* lowest eps on the window's walls (what yee_mode.guided compares) */
} yee_mode_set;

/* The request for nmodes modes of the whole plane normal to axis through E node plane P, at the
 * time-stepped grid's numerical frequency sin(pi f dt) / (pi dt) for the frequency f (c/um):
 * the modes eigenmode sources launch and mode monitors project on (solver/tfsf.c,
 * solver/mode_monitor.c). */
yee_mode_request yee_mode_request_grid(const yee_config *cfg, int axis, int P, double f,
                                       int nmodes);

/* Index of global node g (its coordinate along axis ignored) in the field arrays of a mode of
 * the whole plane normal to axis (yee_mode_request_grid's window). */
long yee_mode_plane_index(const yee_config *cfg, int axis, const int g[3]);

/* Solve the modes of req on cfg's structure. Errors: YEE_ERR_USAGE for a window outside the
 * grid or a non-positive frequency; YEE_ERR_UNSUPPORTED for a pmc edge or a Bloch vector along
 * the plane (above); YEE_ERR_NOMEM; YEE_ERR_NUMERIC when the LU or ARPACK fails
 * (its info code in the message). */
int yee_modes_solve(const yee_config *cfg, const yee_mode_request *req, yee_mode_set *out,
                    yee_err *err);

void yee_mode_set_free(yee_mode_set *s);

/* Real part of the relative permittivity of material m at frequency f (c/um): eps_inf plus the
 * real part of its poles (model/config.h conventions), per axis. */
double yee_material_eps_at(const yee_material_cfg *m, int axis, double f);

#ifdef __cplusplus
}
#endif

#endif
