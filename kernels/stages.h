/* kernels/stages.h -- the stages of one field update, in the one order every backend follows.
 *
 * The step script (solver/step.c) says when H and E are updated; this header says what one
 * update of E (or H) over a box of cells is made of, and in which order. A backend supplies the
 * stages (loops on the CPU, kernels on the GPU, each calling kernels/yee_cell.h and yee_ade.h)
 * and runs them through yee_update_h_stages / yee_update_e_stages, so the order is written once.
 * The tuned CPU schedules (kernels/cpu/sweep_fused.c, wavefront.c) interleave the stages of many
 * rows for cache reuse; per cell they keep this order, which tests/unit/cpu_schedules.c checks
 * byte for byte against the reference backend.
 *
 * Each stage reads and writes only the cells of box b (and for the curls the neighbours the
 * stencil names); what each may read and change:
 *   h_curl    reads E^n, H^{n-1/2}, psi_h; writes H^{n+1/2} and psi_h of the slab cells in b:
 *             Faraday (yee_update_h) then the CPML corrections (yee_cpml_h), slab by slab.
 *   e_pmc     fills the ghost H planes below the low PMC walls that b touches with the mirror
 *             image of H^{n+1/2} (yee_pmc_low). Must precede e_curl, which reads them.
 *   e_polarize  reads E^n and the polarizations P^n, P^{n-1} of the dispersive nodes in b;
 *             writes P^{n+1} (yee_ade_polarize). Must precede e_curl, which overwrites E^n.
 *   e_curl    reads H^{n+1/2}, E^n, psi_e; writes E^{n+1} (without the polarization current)
 *             and psi_e: Ampere with conduction (yee_update_e) then CPML (yee_cpml_e).
 *   e_tensor  reads H^{n+1/2}; adds the off-diagonal terms of the averaged permittivity to E
 *             of the tensor nodes in b (yee_tensor_e; none without grid.subpixel_tensor). After
 *             e_curl, which writes those nodes' bulk update.
 *   e_polarization_current  reads P^{n+1}, P^n; subtracts cb (P^{n+1} - P^n) / dt from E of the
 *             dispersive nodes in b (yee_ade_current).
 *   e_pec     zeroes the tangential E on the low PEC node planes that b touches (yee_pec_low).
 * Source currents are not stages: the step script adds them after the whole update.
 */
#ifndef YEE_KERNELS_STAGES_H
#define YEE_KERNELS_STAGES_H

#include "common/yee_err.h"
#include "kernels/yee_cell.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yee_update_stages {
    int (*h_curl)(void *ctx, yee_box b, yee_err *err);
    int (*e_pmc)(void *ctx, yee_box b, yee_err *err);
    int (*e_polarize)(void *ctx, yee_box b, yee_err *err);
    int (*e_curl)(void *ctx, yee_box b, yee_err *err);
    int (*e_tensor)(void *ctx, yee_box b, yee_err *err);
    int (*e_polarization_current)(void *ctx, yee_box b, yee_err *err);
    int (*e_pec)(void *ctx, yee_box b, yee_err *err);
} yee_update_stages;

/* H^{n-1/2} -> H^{n+1/2} on box b. */
static inline int yee_update_h_stages(const yee_update_stages *st, void *ctx, yee_box b,
                                      yee_err *err)
{
    return st->h_curl(ctx, b, err);
}

/* E^n -> E^{n+1} on box b: the PMC mirror images, the polarization from E^n (the curl
 * overwrites E^n), the curl of H with CPML, the tensor terms, the polarization current, last the PEC walls (a dispersive node on a wall
 * ends at zero like every other wall node). */
static inline int yee_update_e_stages(const yee_update_stages *st, void *ctx, yee_box b,
                                      yee_err *err)
{
    int rc = st->e_pmc(ctx, b, err);
    if (rc == YEE_OK)
        rc = st->e_polarize(ctx, b, err);
    if (rc == YEE_OK)
        rc = st->e_curl(ctx, b, err);
    if (rc == YEE_OK)
        rc = st->e_tensor(ctx, b, err);
    if (rc == YEE_OK)
        rc = st->e_polarization_current(ctx, b, err);
    if (rc == YEE_OK)
        rc = st->e_pec(ctx, b, err);
    return rc;
}

#ifdef __cplusplus
}
#endif

#endif
