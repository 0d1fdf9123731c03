/* kernels/cpu/tuned.c -- the advance op of the "cpu" backend: whole steps by the fastest
 * schedule that takes them. K steps at a time by the wavefront (wavefront.c), a step left over
 * (or one the wavefront does not take: a 2-D run's one plane) by the fused sweep (sweep_fused.c),
 * which itself falls back on the reference ops (backend_cpu.c) for a current or sample outside
 * the subdomain. Every path gives the reference's bytes (tests/unit/cpu_schedules.c). A run with
 * tensor nodes (grid.subpixel_tensor) takes the fused sweep for every step.
 */
#include <omp.h>

#include "kernels/cpu/cpu.h"

#define DEFAULT_SWEEP_STEPS 4 /* docs/performance.md, "Steps per sweep" */

/* Steps for the next sweep, with `left` steps to go: those asked for (or the default), no more
 * than leave every thread a block of 2K planes (but 2 when even that does not), no more than
 * left. */
static int sweep_steps(const cpu_ctx *c, int left)
{
    int K = c->sweep_steps > 0 ? c->sweep_steps : DEFAULT_SWEEP_STEPS;
    if (K > CPU_SWEEP_MAX)
        K = CPU_SWEEP_MAX;
    const int fit = c->d.n[2] / (2 * omp_get_max_threads());
    if (c->sweep_steps <= 0 && K > fit)
        K = fit < 2 ? 2 : fit;
    return K < left ? K : left;
}

int cpu_advance(void *ctx, int nsteps, const yee_step_plan *plan, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)ctx;
    /* wrapped ghosts as the exchange would have left them (a restart, a state set) */
    cpu_wrap_all(c, YEE_FIELD_E);
    cpu_wrap_all(c, YEE_FIELD_H);
    int s = 0;
    while (s < nsteps) {
        /* a tensor node reads H one plane above it (yee_tensor.h), which the wavefront updates
         * only after the node's E: one step per sweep, its terms after the sweep */
        const int K = c->ntensor > 0 ? 1 : sweep_steps(c, nsteps - s);
        if (K >= 2 && cpu_wavefront(c, K, &plan[s])) {
            s += K;
            continue;
        }
        YEE_TRY(cpu_fused_step(c, &plan[s], err));
        s++;
    }
    return YEE_OK;
}
