/* kernels/yee_ade.h -- dispersive media by the auxiliary differential equation (ADE) method:
 * the per-node arithmetic of Lorentz, Drude and Debye polarizations, shared by both backends
 * (STYLE 3.2). Loops (kernels/cpu) and thread maps (kernels/cuda) only choose which list entry.
 *
 * Each dispersive E node carries, per pole p, a polarization P_p with (normalized units,
 * angular frequencies w = 2 pi f, Meep's convention, docs/deck.md "Materials")
 *   Lorentz:  P'' + G P' + w0^2 P = s w0^2 E        chi = s w0^2 / (w0^2 - w^2 - i w G)
 *   Drude:    P'' + G P'          = s w0^2 E        chi = s w0^2 / (     - w^2 - i w G)
 *   Debye:          tau P' +    P = s E             chi = s / (1 - i w tau)
 * Lorentz and Drude poles are discretized at integer time n (P with E; Taflove & Hagness ch. 9,
 * as Meep does), explicitly:
 *   (P+ - 2P + P-)/dt^2 + G (P+ - P-)/(2 dt) + w0^2 P = s w0^2 E^n
 * i.e. P^{n+1} = c1 P^n + c2 P^{n-1} + c3 E^n, and Ampere sees their current
 * J_p = (P^{n+1} - P^n) / dt at n+1/2. They are stable only up to a time step that depends on the
 * pole and on the grid (solver/stability.c finds it; yee check and run refuse a deck past it).
 * Debye poles are discretized at n+1/2 by the trapezoidal rule, semi-implicitly with Ampere
 * (Joseph, Hagness & Taflove 1991; Taflove & Hagness 3rd ed. sec. 9.4.2):
 *   tau (P^{n+1} - P^n)/dt + (P^{n+1} + P^n)/2 = s (E^{n+1} + E^n)/2
 *   P^{n+1} = a P^n + b (E^{n+1} + E^n),  a = (tau/dt - 1/2)/(tau/dt + 1/2),  b = (s/2)/(tau/dt + 1/2)
 * and their current enters Ampere with E^{n+1} moved to the left:
 *   (eps_inf + sigma dt/2 + B) E^{n+1} = (eps_inf - sigma dt/2 - B) E^n + dt (curl H - J)
 *                                        + sum_Debye (1 - a) P^n,        B = sum_Debye b
 * so ca and cb of a material with Debye poles include B (solver/structure.c), and the update is
 * stable for every dispersion strength at the Courant limit of eps_inf (an explicit three-level
 * Debye update blew up from delta_eps 1.5 at 20 cells/um; issue 24). Per pole the storage holds
 * (P^n, P^{n-1}) for Lorentz and Drude, (P^n, E^n) for Debye.
 * Order inside step_e (kernels/stages.h): yee_ade_polarize (reads E^n) before the bulk E update,
 * yee_ade_current after it and the CPML correction (both linear, so their order is free).
 */
#ifndef YEE_KERNELS_ADE_H
#define YEE_KERNELS_ADE_H

#include "kernels/yee_cell.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Update coefficients of one pole. Lorentz, Drude: P^{n+1} = c1 P^n + c2 P^{n-1} + c3 E^n.
 * Debye: c1 = a, c2 = b, c3 = 1 - a of the trapezoidal rule above. */
typedef struct yee_pole_coef {
    yee_real c1, c2, c3;
    int debye;
} yee_pole_coef;

/* One dispersive E node: field index c of component comp, its poles coef[pole0 .. pole0+npole)
 * and its polarization storage P[p_off .. p_off + 2 npole): (P^n, P^{n-1}) per pole. */
typedef struct yee_disp_node {
    int64_t c;
    int64_t p_off;
    int comp;
    int pole0;
    int npole;
    int pad_;
} yee_disp_node;

/* Before the E update: the Lorentz and Drude poles' P^{n+1} from E^n (their slots then hold
 * (P^{n+1}, P^n)); the Debye poles keep E^n beside P^n for after it. */
YEE_HD void yee_ade_polarize(yee_fields f, yee_disp_node nd, const yee_pole_coef *coef,
                             yee_real *YEE_RESTRICT P)
{
    const yee_real e = f.e[nd.comp][nd.c];
    yee_real *p = P + nd.p_off;
    for (int q = 0; q < nd.npole; q++) {
        const yee_pole_coef k = coef[nd.pole0 + q];
        if (k.debye) {
            p[2 * q + 1] = e;
            continue;
        }
        const yee_real now = p[2 * q], before = p[2 * q + 1];
        p[2 * q] = k.c1 * now + k.c2 * before + k.c3 * e;
        p[2 * q + 1] = now;
    }
}

/* After the bulk update (whose ca, cb include the Debye poles' B): E^{n+1} -= cb (sum over
 * Lorentz and Drude poles of (P^{n+1} - P^n) - sum over Debye poles of (1 - a) P^n) / dt; then
 * each Debye pole's P^{n+1} = a P^n + b (E^{n+1} + E^n). */
YEE_HD void yee_ade_current(yee_fields f, yee_media m, yee_disp_node nd,
                            const yee_pole_coef *coef, yee_real inv_dt, yee_real *YEE_RESTRICT P)
{
    yee_real *p = P + nd.p_off;
    yee_real j = YEE_R(0.0);
    for (int q = 0; q < nd.npole; q++) {
        const yee_pole_coef k = coef[nd.pole0 + q];
        j += k.debye ? -(k.c3 * p[2 * q]) : p[2 * q] - p[2 * q + 1];
    }
    yee_real *e = &f.e[nd.comp][nd.c];
    *e -= m.cb[m.mat[nd.comp][nd.c]] * (j * inv_dt);
    for (int q = 0; q < nd.npole; q++) {
        const yee_pole_coef k = coef[nd.pole0 + q];
        if (k.debye)
            p[2 * q] = k.c1 * p[2 * q] + k.c2 * (*e + p[2 * q + 1]);
    }
}

#ifdef __cplusplus
}
#endif

#endif
