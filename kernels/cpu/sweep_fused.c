/* kernels/cpu/sweep_fused.c -- one whole step in one pass over memory: plane by plane, the H rows
 * of plane k (each followed by its magnetic currents) and then its E rows, so E(k) finds H(k),
 * H(k-1) and E(k) in cache and a step moves each field once: 12 values per cell instead of the
 * 18 of separate H and E sweeps (docs/performance.md).
 *
 * Per cell the arithmetic and its inputs are those of the reference (stages.h order): H(k) reads
 * E(k), E(k+1) before E(k+1) is updated (next plane); E(k) reads H(k), H(k-1) after both are,
 * with their magnetic currents. The polarization P^{n+1} reads E^n, so it comes before the sweep;
 * the tensor nodes' off-diagonal terms (they read H one plane above), the polarization current,
 * the PEC walls, the electric currents and the samples come after it,
 * as after the reference's E update; the PMC walls' mirror images of H are filled row by row
 * just before the E row that reads them (cpu_pmc_row), from that row's final H. Each thread owns planes [k0, k1); its last H plane reads
 * E(k1), the next thread's first plane, so every thread updates its last H plane before a
 * barrier. One plane (a 2-D run) would leave all threads but one idle: there the threads share
 * the plane's rows, all H rows, a barrier, then all E rows (E(j) reads H(j), H(j-1)).
 */
#include <omp.h>

#include "kernels/cpu/cpu.h"

/* Threads over blocks of planes (split by their speeds, cpu_balance_share): H(k) then E(k)
 * plane by plane (each row in both parts with a twin, the wraps after both). */
static void sweep_planes(cpu_ctx *c)
{
    const int nx = c->d.n[0], ny = c->d.n[1], nz = c->d.n[2];
    int nran = 1;
#pragma omp parallel
    {
        const int nt = omp_get_num_threads(), t = omp_get_thread_num();
        const int least = nz >= nt ? 1 : 0;
        const double *share = cpu_balance_share(c, nt);
        const int k0 = cpu_block_start(c, nt, t, least, share),
                  k1 = cpu_block_start(c, nt, t + 1, least, share);
        double start = omp_get_wtime();
        if (k1 > k0) {
            CPU_PARTS(p, c) cpu_rows_h_m(p, &p->lists[0], k1 - 1, 0, ny);
            cpu_wrap_h_rows(c, k1 - 1, 0, ny);
        }
        double seconds = omp_get_wtime() - start;
        if (t == 0)
            nran = nt;
#pragma omp barrier
        start = omp_get_wtime();
        for (int k = k0; k < k1; k++) {
            if (k < k1 - 1) {
                CPU_PARTS(p, c) cpu_rows_h_m(p, &p->lists[0], k, 0, ny);
                cpu_wrap_h_rows(c, k, 0, ny);
            }
            for (int j = 0; j < ny; j++)
                CPU_PARTS(p, c) {
                    cpu_pmc_row(p, j, k);
                    cpu_row_e(p, j, k, 0, nx);
                }
        }
        cpu_balance_record(c, t, seconds + omp_get_wtime() - start, k0, k1);
    }
    cpu_balance_update(&c->balance, nran);
}

/* One plane (a 2-D run): threads over blocks of its rows (split as above), all H rows, then all
 * E rows. */
static void sweep_rows(cpu_ctx *c)
{
    const int nx = c->d.n[0], ny = c->d.n[1];
    int nran = 1;
#pragma omp parallel
    {
        const int nt = omp_get_num_threads(), t = omp_get_thread_num();
        const int least = ny >= nt ? 1 : 0;
        const double *share = cpu_balance_share(c, nt);
        const int j0 = cpu_block_start(c, nt, t, least, share),
                  j1 = cpu_block_start(c, nt, t + 1, least, share);
        double start = omp_get_wtime();
        CPU_PARTS(p, c) cpu_rows_h_m(p, &p->lists[0], 0, j0, j1);
        cpu_wrap_h_rows(c, 0, j0, j1);
        double seconds = omp_get_wtime() - start;
        if (t == 0)
            nran = nt;
#pragma omp barrier
        start = omp_get_wtime();
        for (int j = j0; j < j1; j++)
            CPU_PARTS(p, c) {
                cpu_pmc_row(p, j, 0);
                cpu_row_e(p, j, 0, 0, nx);
            }
        cpu_balance_record(c, t, seconds + omp_get_wtime() - start, j0, j1);
    }
    cpu_balance_update(&c->balance, nran);
}

int cpu_fused_step(cpu_ctx *c, const yee_step_plan *plan, const yee_step_plan *plan_im,
                   yee_err *err)
{
    if (!cpu_step_lists_build(c, plan, &c->lists[0]) ||
        (c->twin && !cpu_step_lists_build(c->twin, plan_im, &c->twin->lists[0])))
        return cpu_reference_step(c, plan, plan_im, err);
    const yee_box all = cpu_all_cells(c);
    CPU_PARTS(p, c) if (p->ndisp) cpu_polarize(p, all);
    if (c->d.n[2] == 1)
        sweep_rows(c);
    else
        sweep_planes(c);
    for (cpu_ctx *p = c; p; p = p->twin) {
        if (p->ntensor) /* after the whole sweep: an Ez node reads H of the plane above */
            cpu_tensor(p, all);
        if (p->ndisp)
            cpu_polarization_current(p, all);
        cpu_pec(p, all);
        const yee_step_plan *pl = p == c ? plan : plan_im;
        YEE_TRY(cpu_apply_sources(p, pl->nj, pl->j, err));
    }
    cpu_wrap_all(c, YEE_FIELD_E);
    for (cpu_ctx *p = c; p; p = p->twin) {
        const yee_step_plan *pl = p == c ? plan : plan_im;
        YEE_TRY(cpu_gather(p, pl->nsamp, pl->samp, pl->samp_out, err));
    }
    return YEE_OK;
}
