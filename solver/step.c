/* solver/step.c -- the order of one time step, written once (Meep's fields::step, openEMS's
 * Engine::IterateTS). On entry E^n and H^{n-1/2}, on exit E^{n+1} and H^{n+1/2}:
 *
 *   1. H update   H^{n+1/2} = H^{n-1/2} - dt curl E^n            (kernels/stages.h: Faraday, CPML)
 *   2. magnetic currents M^n                        (TFSF corrections, magnetic sheets; sources.h)
 *   3. H halo     send H faces to the neighbours             (the E update next to a face needs them)
 *   4. E update   E^{n+1} = ca E^n + cb curl H^{n+1/2}   (stages.h: ADE polarization, Ampere, CPML,
 *                                                          polarization current, PEC walls)
 *   5. electric currents J^{n+1/2}                     (dipoles, current volumes and sheets, TFSF)
 *   6. E halo     send E faces, in flight until step n+1's H update needs them
 *   7. monitors of the completed step n+1                        (probes, DFT sums, snapshot frames)
 *
 * Each update runs on the cells that read no ghost in flight while the other field's faces
 * travel, then on the layers next to those faces once they have arrived (solver/halo.h): the
 * same arithmetic per cell as without the split. The run loop (sim.c) does, after a step, what
 * belongs to the run rather than to the step: health checks, checkpoints, signals, progress.
 *
 * Where no face is exchanged (one rank, no periodic axis but the x and y axes the backend wraps
 * itself: setup.wrap, chosen in sim.c) a backend may take several whole steps
 * in one call (kernels/backend.h advance), each step's currents and probe samples handed over as
 * a plan; steps are fused only while nothing but the probes and the DFT sums needs the fields in
 * between (yee_monitors_due; the backend holds the fields the DFT samples, advance_dft), and the
 * backend keeps the order above per cell, bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include "solver/sim_private.h"

unsigned yee_monitors_due(const yee_sim *s, long st)
{
    const yee_config *cfg = s->cfg;
    unsigned due = 0;
    if (yee_dft_set_due(s->dft, st))
        due |= YEE_DUE_DFT;
    if (s->h5 && yee_monitors_frames_due(s->mon, st))
        due |= YEE_DUE_FRAMES;
    if (st % cfg->check_interval == 0 || st == cfg->steps)
        due |= YEE_DUE_HEALTH;
    if (cfg->checkpoint_interval > 0 && st % cfg->checkpoint_interval == 0)
        due |= YEE_DUE_CHECKPOINT;
    if (st == s->opt.test.signal_at_step)
        due |= YEE_DUE_TEST_SIGNAL;
    if (st == s->opt.test.nan_at_step)
        due |= YEE_DUE_TEST_NAN;
    return due;
}

/* Steps 1 and 4: one field's update over the subdomain, split around the other field's faces in
 * flight (those this update reads next to its faces). */
static int update(yee_sim *s, yee_field_kind kind, yee_err *err)
{
    int (*field_update)(void *, const yee_box *, yee_err *) =
        kind == YEE_FIELD_H ? s->be->step_h : s->be->step_e;
    yee_halo_split_boxes split;
    yee_halo_split(s->halo, kind, &split);
    for (int q = 0; q < split.ninterior; q++) {
        YEE_TRY(field_update(s->ctx, &split.interior[q], err));
        yee_halo_progress(s->halo);
    }
    YEE_TRY(yee_halo_settle(s->halo, s->step, err));
    if (split.whole)
        return field_update(s->ctx, NULL, err);
    for (int q = 0; q < split.nboundary; q++)
        YEE_TRY(field_update(s->ctx, &split.boundary[q], err));
    return YEE_OK;
}

static int add_currents(yee_sim *s, int n, const yee_point_current *cur, yee_err *err)
{
    return n ? s->be->apply_sources(s->ctx, n, cur, err) : YEE_OK;
}

/* Step 7 but the probes: the DFT sums and the snapshot frames of completed step s->step. */
static int sample_monitors(yee_sim *s, yee_err *err)
{
    YEE_TRY(yee_dft_set_accumulate(s->dft, s->step, err));
    if (s->h5)
        YEE_TRY(yee_monitors_start_frames(s->mon, s->step, err));
    return YEE_OK;
}

/* One step n -> n+1 through the backend's single-step ops. */
static int one_step(yee_sim *s, yee_err *err)
{
    const long n = s->step;
    yee_point_current *cur = s->fused_cur[0];
    YEE_TRY(update(s, YEE_FIELD_H, err));                               /* 1 */
    if (s->h5) /* the frames of step n leave while the device runs this update */
        YEE_TRY(yee_monitors_write_frames(s->mon, s->h5, s->nranks, err));
    int ncur = yee_sources_h(s->sources, n, cur);                       /* 2 */
    YEE_TRY(add_currents(s, ncur, cur, err));
    YEE_TRY(yee_halo_start(s->halo, YEE_FIELD_H, n, err));              /* 3 */
    YEE_TRY(update(s, YEE_FIELD_E, err));                               /* 4 */
    ncur = yee_sources_e(s->sources, n, cur);                           /* 5 */
    YEE_TRY(add_currents(s, ncur, cur, err));
    YEE_TRY(yee_halo_start(s->halo, YEE_FIELD_E, n, err));              /* 6 */
    s->step = n + 1;
    const yee_sample *pts;                                              /* 7 */
    const int np = yee_monitors_probe_samples(s->mon, &pts);
    if (np && s->step <= s->cfg->steps) {
        YEE_TRY(s->be->gather(s->ctx, np, pts, s->probe_vals, err));
        yee_monitors_store_probes(s->mon, s->step, s->probe_vals);
    }
    return sample_monitors(s, err);
}

/* Steps n+1 .. n+k in one backend call: steps 1-7 above per step, the currents and probe samples
 * of each in its plan, the DFT sums of the steps before the last from the fields the backend
 * held (nothing else is due before the last: yee_step), the rest of step 7 after it. */
static int fused_steps(yee_sim *s, int k, yee_err *err)
{
    const long n = s->step;
    if (s->h5) /* the frames of step n */
        YEE_TRY(yee_monitors_write_frames(s->mon, s->h5, s->nranks, err));
    const yee_sample *pts;
    const int np = yee_monitors_probe_samples(s->mon, &pts);
    int held = 0;
    for (int st = 0; st < k; st++) {
        /* each step's magnetic then electric currents, in the order one_step asks for them (a
         * plane wave's 1-D grid advances with each call) */
        yee_step_plan *p = &s->plans[st];
        /* DFT samples before the last step: the backend holds those steps' fields (yee_step) */
        p->dft = st < k - 1 && yee_dft_set_due(s->dft, n + st + 1) ? ++held : 0;
        p->nm = yee_sources_h(s->sources, n + st, s->fused_cur[2 * st]);
        p->m = s->fused_cur[2 * st];
        p->nj = yee_sources_e(s->sources, n + st, s->fused_cur[2 * st + 1]);
        p->j = s->fused_cur[2 * st + 1];
        p->nsamp = n + st + 1 <= s->cfg->steps ? np : 0;
        p->samp = pts;
        p->samp_out = s->fused_vals + (size_t)st * (size_t)np;
    }
    YEE_TRY(s->be->advance(s->ctx, k, s->plans, err));
    for (int st = 0; st < k; st++) {
        yee_monitors_store_probes(s->mon, n + st + 1, s->fused_vals + (size_t)st * (size_t)np);
        if (s->plans[st].dft)
            YEE_TRY(yee_dft_set_accumulate(s->dft, n + st + 1, err));
    }
    s->step = n + k;
    s->fused_steps += k;
    s->fused_calls++;
    return sample_monitors(s, err);
}

int yee_step(yee_sim *s, long end, yee_err *err)
{
    if (s->fused_max == 0 || yee_halo_active(s->halo)) {
        YEE_TRY(one_step(s, err));
        return 1;
    }
    /* on to the next step while nothing is due at the end of this one but DFT samples the
     * backend can hold */
    int k = 1, held = 0;
    for (; k < s->fused_max && s->step + k < end; k++) {
        const unsigned due = yee_monitors_due(s, s->step + k);
        if (due == YEE_DUE_DFT && held < s->dft_hold_max)
            held++;
        else if (due)
            break;
    }
    YEE_TRY(fused_steps(s, k, err));
    return k;
}

/* Each step of an advance call holds its two lists of currents. A TFSF box fills them: the
 * 128^3 benchmark's 4 um box (validation/bench_sources.py) hands over 51 840 corrections a list,
 * 2.5 MB a step, so that 16 steps a call took 40 MB beside 72 MB of fields. Fewer steps a call
 * cost nothing measured on that deck (docs/performance.md, "Steps per advance call"): the lists
 * of a call stop at STEP_LISTS_BUDGET, in whole wavefront sweeps and at least one (FUSED_FLOOR,
 * kernels/cpu/tuned.c's default steps per sweep, or the steps per sweep asked for). */
#define STEP_LISTS_BUDGET ((size_t)16 << 20)
#define FUSED_FLOOR 4
/* The fields the backend holds for the DFT samples of a call's steps (yee_step_plan.dft): a
 * closed flux box of 6 faces of 101^2 nodes (validation/bench_sources.py) holds 1.45 MB a step,
 * so 11 of them; the Mie sphere's boxes (validation/peers/sphere.cfg) 33 kB. */
#define DFT_HOLD_BUDGET ((size_t)16 << 20)

static int fused_steps_most(const yee_run_options *opt, size_t list_bytes)
{
    const int asked = opt->tuning.fused_steps;
    int most = asked > 0 && asked < YEE_FUSED_MAX ? asked : YEE_FUSED_MAX;
    const size_t fit = STEP_LISTS_BUDGET / (2 * list_bytes);
    const int floor = opt->tuning.cpu_sweep_steps > FUSED_FLOOR ? opt->tuning.cpu_sweep_steps
                                                                 : FUSED_FLOOR;
    if (fit >= YEE_FUSED_MAX)
        return most;
    /* whole sweeps: 6 steps would be a sweep of 4 and a slower one of 2 */
    const int budget = fit > (size_t)floor ? floor * ((int)fit / floor) : floor;
    return most < budget ? most : budget;
}

int yee_step_setup(yee_sim *s, yee_err *err)
{
    const yee_sample *pts;
    const int np = yee_monitors_probe_samples(s->mon, &pts);
    s->probe_vals = (yee_real *)malloc(((size_t)np + 1) * sizeof(yee_real));
    if (!s->probe_vals)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "probe samples");
    const size_t list_bytes = ((size_t)yee_sources_max(s->sources) + 1) * sizeof(yee_point_current);
    s->fused_max = !s->be->advance ? 0 : fused_steps_most(&s->opt, list_bytes);
    const size_t hold = yee_dft_set_hold_bytes(s->dft) * (s->cfg->complex_fields ? 2 : 1);
    s->dft_hold_max = !s->advance_dft || s->opt.tuning.no_dft_hold ? 0
                      : hold                                   ? (int)(DFT_HOLD_BUDGET / hold)
                                                               : YEE_FUSED_MAX;
    const int lists = 2 * (s->fused_max > 0 ? s->fused_max : 1);
    for (int b = 0; b < lists; b++)
        if (!(s->fused_cur[b] = (yee_point_current *)malloc(list_bytes)))
            return YEE_FAIL(err, YEE_ERR_NOMEM, "source currents");
    if (s->fused_max == 0)
        return YEE_OK;
    s->plans = (yee_step_plan *)calloc((size_t)s->fused_max, sizeof *s->plans);
    s->fused_vals = (yee_real *)malloc(((size_t)s->fused_max * (size_t)np + 1) * sizeof(yee_real));
    if (!s->plans || !s->fused_vals)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "step plans");
    return YEE_OK;
}

void yee_step_agree(yee_sim *s)
{
    int most[2] = {s->fused_max, s->dft_hold_max};
    MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    s->fused_max = most[0];
    s->dft_hold_max = most[1];
}

void yee_step_free(yee_sim *s)
{
    free(s->probe_vals);
    free(s->plans);
    free(s->fused_vals);
    for (int b = 0; b < 2 * YEE_FUSED_MAX; b++)
        free(s->fused_cur[b]);
}
