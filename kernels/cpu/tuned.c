/* kernels/cpu/tuned.c -- the advance op of the "cpu" backend: whole steps by the fastest
 * schedule that takes them. K steps at a time by the wavefront (wavefront.c), a step left over
 * (or one the wavefront does not take) by the fused sweep (sweep_fused.c),
 * which itself falls back on the reference ops (backend_cpu.c) for a current or sample outside
 * the subdomain. Every path gives the reference's bytes (tests/unit/cpu_schedules.c). A run with
 * tensor nodes (grid.subpixel_tensor) takes the wavefront with E a layer behind H (wavefront.c),
 * a step left over the fused sweep with the tensor terms after it. Complex fields
 * (a Bloch cell) take the same schedules for both parts at once (cpu_advance_complex). Linked z
 * faces (MPI slabs along z, or along y in 2-D: setup.link) take the wavefront for every step,
 * K = 1 included, since only
 * it and the reference step exchange them.
 */
#include <omp.h>
#include <string.h>

#include "kernels/cpu/cpu.h"

#define DEFAULT_SWEEP_STEPS 4 /* docs/performance.md, "Steps per sweep" */

/* Steps for the next sweep, with `left` steps to go: those asked for (or the default), no more
 * than leave every thread a block of the least layers (planes, or a 2-D run's rows; but 2 when
 * even that does not), no more than left. */
static int sweep_steps(const cpu_ctx *c, int left)
{
    int K = c->sweep_steps > 0 ? c->sweep_steps : DEFAULT_SWEEP_STEPS;
    if (K > CPU_SWEEP_MAX)
        K = CPU_SWEEP_MAX;
    const int fit = cpu_wavefront_layers(c) / (cpu_wavefront_least(c, 1) * omp_get_max_threads());
    if (c->sweep_steps <= 0 && K > fit)
        K = fit < 2 ? 2 : fit;
    return K < left ? K : left;
}

/* nsteps steps of c (with its twin: of both parts, plan_im the imaginary part's plans). */
static int advance_parts(cpu_ctx *c, int nsteps, const yee_step_plan *plan,
                         const yee_step_plan *plan_im, yee_err *err)
{
    /* wrapped and linked ghosts as the exchange would have left them (a restart, a state set) */
    cpu_wrap_all(c, YEE_FIELD_E);
    cpu_wrap_all(c, YEE_FIELD_H);
    for (int kind = YEE_FIELD_E; kind <= YEE_FIELD_H; kind++) {
        YEE_TRY(cpu_link_send(c, (yee_field_kind)kind, err));
        YEE_TRY(cpu_link_recv(c, (yee_field_kind)kind, err));
    }
    /* the DFT fields the plans ask to hold (the twin's plans ask the same) */
    int held = 0;
    for (int s = 0; s < nsteps; s++)
        held = plan[s].dft > held ? plan[s].dft : held;
    CPU_PARTS(p, c) YEE_TRY(cpu_dft_hold_begin((cpu_ctx *)p, held, err));
    int s = 0;
    while (s < nsteps) {
        int K = sweep_steps(c, nsteps - s);
        const int layers = cpu_wavefront_layers(c);
        if (c->link && K > layers / 2) /* a linked face's seam needs 2K layers */
            K = layers / 2 > 0 ? layers / 2 : 1;
        /* a held box with ghost nodes, which the sweep does not hold row by row: the sweep ends
         * at each step that holds DFT fields, which are then copied whole */
        for (int st = s; st < s + K - 1 && held && !c->dft_inside; st++)
            if (plan[st].dft)
                K = st - s + 1;
        const yee_step_plan *im = plan_im ? &plan_im[s] : NULL;
        const int took = K >= 2 || c->link ? cpu_wavefront(c, K, &plan[s], im, err) : 0;
        if (took < 0)
            return took;
        if (took) {
            if (!c->dft_inside)
                CPU_PARTS(p, c) cpu_dft_hold_all(p, p == c ? &plan[s + K - 1] : &im[K - 1]);
            s += K;
            continue;
        }
        /* the fused sweep does not exchange linked faces; the reference step does */
        if (c->link)
            YEE_TRY(cpu_reference_step(c, &plan[s], im, err));
        else
            YEE_TRY(cpu_fused_step(c, &plan[s], im, err));
        CPU_PARTS(p, c) cpu_dft_hold_all(p, p == c ? &plan[s] : im);
        s++;
    }
    return YEE_OK;
}

int cpu_advance(void *ctx, int nsteps, const yee_step_plan *plan, yee_err *err)
{
    return advance_parts((cpu_ctx *)ctx, nsteps, plan, NULL, err);
}

/* The two parts in one schedule: every row of the real part followed by the same row of the
 * imaginary part (CPU_PARTS), so the Bloch wraps, which need both, find them at the same step.
 * The twin link lasts for this call only; the other ops see two independent contexts. */
int cpu_advance_complex(void *re, void *im, const double phase[2][3][2], int nsteps,
                        const yee_step_plan *plan_re, const yee_step_plan *plan_im, yee_err *err)
{
    cpu_ctx *c = (cpu_ctx *)re;
    c->twin = (cpu_ctx *)im;
    memcpy(c->wrap_phase, phase, sizeof c->wrap_phase);
    const int rc = advance_parts(c, nsteps, plan_re, plan_im, err);
    c->twin = NULL;
    return rc;
}
