/* kernels/cpu/tuned.c -- the advance op of the "cpu" backend: whole steps by the fastest
 * schedule that takes them. Two steps at a time by the wavefront (wavefront.c), a step left over
 * (or one the wavefront does not take: dispersive nodes) by the fused sweep (sweep_fused.c),
 * which itself falls back on the reference ops (backend_cpu.c) for a current or sample outside
 * the subdomain. Every path gives the reference's bytes (tests/unit/cpu_schedules.c).
 */
#include "kernels/cpu/cpu.h"

int cpu_advance(void *ctx, int nsteps, const yee_step_plan *plan, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)ctx;
    int s = 0;
    while (s < nsteps) {
        if (nsteps - s >= 2 && cpu_wavefront_pair(c, &plan[s])) {
            s += 2;
            continue;
        }
        YEE_TRY(cpu_fused_step(c, &plan[s], err));
        s++;
    }
    return YEE_OK;
}
