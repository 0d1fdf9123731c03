/* kernels/yee_ade.h -- dispersive media by the auxiliary differential equation (ADE) method:
 * the per-node arithmetic of Lorentz, Drude and Debye polarizations, shared by both backends
 * (STYLE 3.2). Loops (kernels/cpu) and thread maps (kernels/cuda) only choose which list entry.
 *
 * Each dispersive E node carries, per pole p, a polarization P_p with (normalized units,
 * angular frequencies w = 2 pi f, Meep's convention, docs/deck.md "Materials")
 *   Lorentz:  P'' + G P' + w0^2 P = s w0^2 E        chi = s w0^2 / (w0^2 - w^2 - i w G)
 *   Drude:    P'' + G P'          = s w0^2 E        chi = s w0^2 / (     - w^2 - i w G)
 *   Debye:          tau P' +    P = s E             chi = s / (1 - i w tau)
 * discretized at integer time n (P with E; Taflove & Hagness ch. 9, as Meep does):
 *   (P+ - 2P + P-)/dt^2 + G (P+ - P-)/(2 dt) + w0^2 P = s w0^2 E^n          (Lorentz, Drude)
 *   tau (P+ - P-)/(2 dt) + (P+ + P-)/2 = s E^n                              (Debye; stable and
 *                                                                            second order)
 * i.e. P^{n+1} = c1 P^n + c2 P^{n-1} + c3 E^n, with c1, c2, c3 from solver/grid.c. Ampere then
 * sees the polarization current J_p = (P^{n+1} - P^n) / dt at n+1/2:
 *   E^{n+1} = ca E^n + cb (curl H - sum_p J_p),   eps_inf in ca, cb.
 * Order inside step_e: yee_ade_polarize (reads E^n) before the bulk E update, yee_ade_current
 * after it (and after the CPML correction; both are linear, so the order among them is free).
 */
#ifndef YEE_KERNELS_ADE_H
#define YEE_KERNELS_ADE_H

#include "kernels/yee_cell.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Update coefficients of one pole: P^{n+1} = c1 P^n + c2 P^{n-1} + c3 E^n. */
typedef struct yee_pole_coef {
    yee_real c1, c2, c3;
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

/* P^{n+1} from E^n; afterwards the node's slots hold (P^{n+1}, P^n). */
YEE_HD void yee_ade_polarize(yee_fields f, yee_disp_node nd, const yee_pole_coef *coef,
                             yee_real *YEE_RESTRICT P)
{
    const yee_real e = f.e[nd.comp][nd.c];
    yee_real *p = P + nd.p_off;
    for (int q = 0; q < nd.npole; q++) {
        const yee_pole_coef k = coef[nd.pole0 + q];
        const yee_real now = p[2 * q], before = p[2 * q + 1];
        p[2 * q] = k.c1 * now + k.c2 * before + k.c3 * e;
        p[2 * q + 1] = now;
    }
}

/* E^{n+1} -= cb sum_p (P^{n+1} - P^n) / dt, after the bulk update of the same step. */
YEE_HD void yee_ade_current(yee_fields f, yee_media m, yee_disp_node nd, yee_real inv_dt,
                            const yee_real *YEE_RESTRICT P)
{
    const yee_real *p = P + nd.p_off;
    yee_real j = YEE_R(0.0);
    for (int q = 0; q < nd.npole; q++)
        j += p[2 * q] - p[2 * q + 1];
    f.e[nd.comp][nd.c] -= m.cb[m.mat[nd.comp][nd.c]] * (j * inv_dt);
}

#ifdef __cplusplus
}
#endif

#endif
