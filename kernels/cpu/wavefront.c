/* kernels/cpu/wavefront.c -- K whole steps in one pass over memory (temporal blocking), the
 * fastest schedule of the tuned CPU backend (contract: cpu_wavefront in kernels/cpu/cpu.h).
 *
 * Write H_s(k), E_s(k) for the H and E updates of step s (1..K) on plane k. H_s(k) reads
 * E_{s-1} at planes k and k+1, E_s(k) reads H_s at k and k-1 and its own E_{s-1}(k); the fields
 * are updated in place, so every read must find its operand at exactly the level it needs, not
 * older and not already overwritten. A sweep over iterations it visits, for s = 1..K in order,
 * H_s(p) and E_s(p) at p = it - (s - 1) (step s one plane behind step s - 1), which is exact:
 *   H_s(p) reads E_{s-1}(p+1): step s-1 did it earlier in this iteration, and E_s(p+1) comes
 *     only in the next one; E_{s-1}(p) was done an iteration ago, E_s(p) comes after.
 *   E_s(p) reads H_s(p-1) (the last iteration) and H_s(p) (just before); H_{s+1}(p-1) comes
 *     after it in this iteration, H_{s+1}(p) in the next.
 * Only consecutive steps depend on each other, so any K follows from the pair argument. Within
 * a plane the same holds row by row (H reads E at j+1, E reads H at j-1), so the rows are cut
 * into bands [ja, jb) swept one after another, each through all its iterations, with the rows
 * of step s moved down by s-1, [ja-s+1, jb-s+1) (clipped to [0, ny) at the ends): a band's live
 * data (about K+2 planes of each of the six arrays, over its rows) stays in L2 between
 * iterations instead of whole planes in L3. Each E row is followed by its PEC nodes (and
 * preceded by the PMC mirror images it reads, from its final H); the step's currents and then
 * its samples of those rows follow the band's rows of the plane: per cell the order of the
 * reference's step_h, magnetic currents, step_e, electric currents, gather. Each CPML psi is
 * updated by step 1, 2, ... in order, so the result is that of the reference ops K times over,
 * bit for bit (tests/unit/cpu_schedules.c, K = 1..8). The ghost planes (k = -1, nz) do not
 * change during the K steps (a z halo takes another path: solver/step.c), PMC mirror images
 * excepted, which are filled row by row; nor do x and y ghosts, but those of axes this
 * subdomain wraps onto itself (c->wrap), which are copied after their source rows.
 *
 * Threads own contiguous blocks of planes [k0, k1), at least 2K planes each, of about equal
 * time: estimated work (cpu_block_start: CPML planes cost more; near the planes each first
 * touched, alloc_zeroed) in proportion to each thread's speed in the sweeps before
 * (cpu_balance_update). Across a seam k1 between two blocks the sweep above would read the
 * neighbour's planes while it changes them, so each block first sweeps a trapezoid that needs
 * nothing across its seams (phase A), and then each seam's inverted triangle is finished by the
 * thread below it (phase B):
 *   phase A, block [k0, k1): H_s on [k0 + s-1, k1 - (s-1)), E_s on [k0 + s, k1 - (s-1)); no
 *     shrinking at the domain's ends (k = 0, nz), whose ghosts are constant. The one read
 *     across a seam is H_1(k1-1) of E_0(k1), which the upper block leaves alone in phase A.
 *   phase B, seam k1: for s = 1..K, planes p = k1-s+1 .. k1+s-1 ascending: H_s(p) for
 *     p < k1+s-1, then E_s(p). The planes it reads just outside, E_{s-1}(k1-s+1),
 *     E_{s-1}(k1+s-1), H_s(k1-s) and H_s(k1+s-1), phase A left at exactly those levels. With
 *     blocks of 2K planes the seams' planes do not meet.
 *   phase B needs of the upper block only its first 2K - 1 iterations (all its bands but the
 *     last, and the last band's first 2K - 1): they write the planes it reads, and after them
 *     phase A reads none that phase B writes (E_{s-1}(k1+s-1), which phase B overwrites with
 *     E_s, is last read by H_s(k1+s-1) at iteration 2s-2; H_s(k1+s-1) and E_s(k1+s), which
 *     phase B overwrites at step s+1, by E_s(k1+s) and H_{s+1}(k1+s) at iterations 2s-1 and
 *     2s, s < K). So the thread below starts its seam once the upper thread marks those done
 *     (c->seam_ready: a release store, an acquire load), while the upper one sweeps on: no
 *     barrier between the phases, only the region's end per K steps (a barrier instead above
 *     CPU_BALANCE_THREADS threads).
 * Phase B re-reads K^2 planes per seam (whole planes, one step at a time), against K (nz /
 * threads) plane-steps of a block's trapezoid; its time counts in its thread's speed.
 * A z axis the subdomain wraps onto itself (c->wrap[2]) makes the faces one more seam, at
 * k1 = nz: every block shrinks at both ends, and the last block's thread finishes that seam
 * with the planes above the top taken from the bottom (nz + p is p). Its reads across the faces
 * go through the ghost planes, each refreshed right after its source plane at every step
 * (H_s(nz-1) into -1, which E_s(0) reads, also at s = 1 in phase A; E_s(0) into nz, read by
 * H_{s+1}(nz-1), which comes before E_{s+1}(0) in the seam's order): the pair argument again.
 * It needs nz >= 2K (one block: the seam's two halves must not meet). Linked z faces
 * (c->link: slabs of one run on several ranks) are seams too, each rank doing its half and the
 * messages carrying the planes across (face_seams); there K = 1 is taken too.
 * A single plane (a 2-D run, where stride[2] = 0 makes every z neighbour the cell's own plane, or
 * a 3-D run one cell thick) is the same wavefront with its rows as the layers: "plane p" above
 * reads "row p of plane 0", the same argument since H reads E at j+1 and E reads H at j-1, the
 * threads own blocks of at least 2K rows, and the live data is K + 2 rows of each array (no
 * bands). A wrapped y axis is then the wrapped axis whose faces are a seam (the ghost rows -1
 * and ny refreshed right after their source rows), and so are the y faces a 2-D run's slabs
 * link (yee_link_axis); a wrapped z axis of such a plane only copies each row into its own
 * ghosts, right after the row, which nothing reads before then.
 * setup.tuning.cpu_band_rows = n (YEE_CPU_PAIR_ROWS=n) forces bands of about n rows (at least
 * K); cpu_sweep_steps (YEE_STEPS_PER_SWEEP) the K asked for. Dispersive nodes take their two
 * ADE stages around their row's E update (cpu_polarize_row, cpu_polarization_current_row): both
 * read and write only the node's own E and P.
 * Tensor nodes (grid.subpixel_tensor) make E_s(k) read H_s at k + 1 as well (a node couples to
 * neighbours whose curls read H one layer above it, and one row further along y:
 * kernels/yee_tensor.h), which the order above has not yet updated. There E trails H by a
 * layer (cpu_e_lag = 1): iteration it does H_s(it - 2(s-1)), then E_s(it - 2(s-1) - 1), whose
 * reads of H_s at k - 1 .. k + 1 are then all done and none yet overwritten by H_{s+1} (two
 * iterations later), and H_{s+1}(p) still finds E_s(p) and E_s(p+1) as it needs them: the
 * pair argument with each step two layers behind the one before. Every offset above doubles
 * (and E's gains one): the rows of a band move down by the op's offset, phase A's H_s runs on
 * [k0 + 2(s-1), k1 - 2(s-1)) and E_s on [k0 + 2s-1, k1 - 2s+1), a seam does H_s on [k1 - 2(s-1),
 * k1 + 2(s-1)) and E_s on [k1 - 2s+1, k1 + 2s-1), each E_s(p) after H_s(p+1); blocks hold at
 * least 4K layers, bands 2K rows, and the upper block's first 4K iterations come before its
 * seam. The reference's two passes go row by row: the curls of a row's list nodes right after
 * its H update (cpu_curl_rows, into c->curl_h), its nodes' terms right after its E update
 * (cpu_tensor_row), the same values in the same sums. A curl reads H of its own layer and, but
 * for the layer axis's component, of the one below: the reads of an E update of the same step,
 * so c->curl_h holds each layer's curls at the level of its H, as the argument above needs. At
 * the lowest H layer of a trapezoid with a seam below, the layer below is the seam's, not yet
 * updated: the trapezoid computes there only the layer axis's curls (ROWS_EDGE), the only ones
 * of that layer its E reads, and the seam the others once it has updated the layer below
 * (ROWS_CURLS), before its E reads them. Linked faces are not taken with tensor nodes (which
 * run on one rank). */


#include <omp.h>
#include <sched.h>
#include <stdlib.h>

#include "kernels/cpu/cpu.h"

#define BAND_BYTES ((int64_t)512 * 1024) /* live band data aimed at: half an L2 */

/* what a layer() call does: H rows, E rows; ROWS_EDGE with ROWS_H: the lowest H layer of a
 * trapezoid with a seam below, whose curls that read the layer below are left to the seam;
 * ROWS_CURLS: those curls only (the seam, once it has updated that layer below). */
enum { ROWS_H = 1, ROWS_E = 2, ROWS_EDGE = 4, ROWS_CURLS = 8 };

/* A single plane (a 2-D run, or a 3-D one a cell thick) is swept row by row: its rows are the
 * wavefront's layers, and a layer's data is one row of each array (header comment). */
static int one_plane(const cpu_ctx *c)
{
    return c->d.n[2] == 1;
}

/* The axis along which the layers lie: y with one plane, else z. */
static int layer_axis(const cpu_ctx *c)
{
    return one_plane(c) ? 1 : 2;
}

/* E row (j, k) with the stages around it, in the reference's order (kernels/stages.h): PMC
 * mirror images, polarization, curl and CPML, tensor terms, polarization current, PEC nodes. */
static void e_row(const cpu_ctx *c, int j, int k, int nx)
{
    cpu_pmc_row(c, j, k);
    cpu_polarize_row(c, j, k);
    cpu_row_e(c, j, k, 0, nx);
    cpu_tensor_row(c, j, k);
    cpu_polarization_current_row(c, j, k);
    cpu_pec_row(c, j, k);
}

/* Rows [j0, j1) of plane k, step s (lists[s] of each part): ROWS_H the H rows with their
 * magnetic currents (and wrapped ghosts); ROWS_E the E rows (e_row), then the step's electric
 * currents in these rows of the plane, the wrapped E ghosts, then its samples there; both: H
 * then E row by row, or all H rows first under a wrapped y axis. With a twin (complex fields)
 * each row of the real part is followed by the same row of the imaginary part, and the wraps,
 * which mix the two, come after both. */
static void rows(const cpu_ctx *c, int s, int k, int j0, int j1, int what)
{
    const int nx = c->d.n[0];
    /* a wrapped y axis: E of row 0 reads H of the last row (its ghost), so all H rows first */
    const int h_first = c->wrap[1] && (what & ROWS_H);
    for (int j = j0; j < j1; j++) {
        if (what & ROWS_H) {
            CPU_PARTS(p, c) cpu_rows_h_m(p, &p->lists[s], k, j, j + 1);
            cpu_wrap_h_rows(c, k, j, j + 1);
        }
        if ((what & ROWS_E) && !h_first)
            CPU_PARTS(p, c) e_row(p, j, k, nx);
    }
    /* the curls the tensor nodes read (none without: E is then never a layer behind), of H
     * just updated: those of the layer axis's component read no other layer */
    const unsigned in_layer = 1u << layer_axis(c), all = 7u;
    const unsigned comps = what & ROWS_CURLS  ? all & ~in_layer
                           : what & ROWS_EDGE ? in_layer
                           : what & ROWS_H    ? all
                                              : 0u;
    if (comps)
        CPU_PARTS(p, c) cpu_curl_rows(p, k, j0, j1, comps);
    if (!(what & ROWS_E))
        return;
    if (h_first)
        for (int j = j0; j < j1; j++)
            CPU_PARTS(p, c) e_row(p, j, k, nx);
    CPU_PARTS(p, c) cpu_plane_j(p, &p->lists[s], k, j0, j1);
    cpu_wrap_e_rows(c, k, j0, j1);
    CPU_PARTS(p, c) {
        cpu_plane_samples(p, &p->lists[s], k, j0, j1);
        cpu_dft_hold_rows(p, &p->lists[s], k, j0, j1);
    }
}

int cpu_wavefront_layers(const cpu_ctx *c)
{
    return c->d.n[layer_axis(c)];
}

int cpu_e_lag(const cpu_ctx *c)
{
    return c->ntensor > 0;
}

int cpu_wavefront_least(const cpu_ctx *c, int K)
{
    return 2 * K * (1 + cpu_e_lag(c));
}

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Estimated work per layer, in cell updates: each cell, plus half a cell per cell of each CPML
 * slab it lies in, plus one per dispersive node. The CPML share is a fit to thread times: in the
 * Mie sphere of validation/peers (83 x 41 x 41, CPML on the high faces only, mirror walls on the
 * low ones) the block with the z slab took 1.3x its half's time with equal planes, and 0.5 puts
 * the split where the two took the same to within the noise (1.06x faster runs); the ranks'
 * split counts a CPML cell 1.5 too (solver/decompose.h). Only the split of the threads' blocks
 * reads it, never the results. */
int cpu_layer_costs_build(cpu_ctx *c)
{
    const int la = layer_axis(c), n = c->d.n[la];
    const int u = (la + 1) % 3, v = (la + 2) % 3;
    const int64_t rows_per_layer = one_plane(c) ? 1 : c->d.n[1]; /* rows r = j + k n1 */
    c->layer_cost = (double *)malloc(((size_t)n + 1) * sizeof(double));
    if (!c->layer_cost)
        return 0;
    c->layer_cost[0] = 0.0;
    for (int p = 0; p < n; p++) {
        double w = (double)c->d.n[u] * (double)c->d.n[v];
        for (int q = 0; q < c->nslabs; q++) {
            const yee_slab *b = &c->slabs[q].box;
            if (p >= b->lo[la] && p < b->hi[la])
                w += 0.5 * (double)(b->hi[u] - b->lo[u]) * (double)(b->hi[v] - b->lo[v]);
        }
        if (c->ndisp > 0)
            w += (double)(c->disp_row[(p + 1) * rows_per_layer] - c->disp_row[p * rows_per_layer]);
        c->layer_cost[p + 1] = c->layer_cost[p] + w;
    }
    return 1;
}

int cpu_block_start(const cpu_ctx *c, int nt, int t, int least, const double *share)
{
    const int n = cpu_wavefront_layers(c);
    if (t <= 0)
        return 0;
    if (t >= nt)
        return n;
    /* start(t) = t least + f(t), f non-decreasing in [0, spare]: every block keeps its least
     * layers; f(u) follows the layer where the work below reaches share[u] of the whole */
    const int spare = n - nt * least;
    const double *cost = c->layer_cost;
    int f = 0;
    for (int u = 1; u <= t; u++) {
        const double want = cost[n] * (share ? share[u] : (double)u / nt);
        int lo = 0, hi = n; /* the first layer b with cost[b] >= want */
        while (lo < hi) {
            const int mid = lo + (hi - lo) / 2;
            if (cost[mid] < want)
                lo = mid + 1;
            else
                hi = mid;
        }
        const int g = clamp(lo - u * least, 0, spare);
        if (g > f)
            f = g;
    }
    return t * least + f;
}

/* How far one sweep's timing moves the speeds: a running mean over about 1 / RATE_WEIGHT
 * sweeps, which follows a core's slowdown within tens of sweeps and does not chase a single
 * late thread; one sample moves a rate by at most a factor RATE_STEP either way (a thread
 * preempted for a time slice in the middle of a sweep says nothing of its speed). */
#define RATE_WEIGHT 0.25
#define RATE_STEP 2.0

const double *cpu_balance_share(const cpu_ctx *c, int nt)
{
    return c->balance.nt == nt && nt > 1 && !c->unmeasured ? c->balance.share : NULL;
}

void cpu_balance_record(cpu_ctx *c, int t, double seconds, int k0, int k1)
{
    if (t < CPU_BALANCE_THREADS) {
        c->balance.seconds[t] = seconds;
        c->balance.work[t] = c->layer_cost[k1] - c->layer_cost[k0];
    }
}

void cpu_balance_update(cpu_balance *b, int nt)
{
    if (nt < 2 || nt > CPU_BALANCE_THREADS)
        return;
    for (int t = 0; t < nt; t++)
        if (!(b->seconds[t] > 0.0) || !(b->work[t] > 0.0)) /* a block too short to time */
            return;
    int first = b->nt != nt; /* or shares set from outside (a test), without speeds */
    for (int t = 0; t < nt; t++)
        first |= !(b->rate[t] > 0.0);
    b->nt = nt;
    double total = 0.0;
    for (int t = 0; t < nt; t++) {
        double r = b->work[t] / b->seconds[t];
        if (!first) {
            const double lo = b->rate[t] / RATE_STEP, hi = b->rate[t] * RATE_STEP;
            r = r < lo ? lo : r > hi ? hi : r;
            r = b->rate[t] + RATE_WEIGHT * (r - b->rate[t]);
        }
        b->rate[t] = r;
        total += r;
    }
    b->share[0] = 0.0;
    for (int t = 0; t < nt; t++)
        b->share[t + 1] = b->share[t] + b->rate[t] / total;
    b->share[nt] = 1.0;
}

/* Layer p (step s, what): plane p's rows [j0, j1) (one band), or with one plane its row p. */
static void layer(const cpu_ctx *c, int s, int p, int j0, int j1, int what)
{
    if (one_plane(c))
        rows(c, s, 0, p, p + 1, what);
    else
        rows(c, s, p, j0, j1, what);
}

/* Layers between the H updates of consecutive steps (1 + cpu_e_lag), and the offsets of step
 * s's H and E behind the iteration: (1 + lag)(s - 1), and lag more for E. */
static int per_step(const cpu_ctx *c)
{
    return 1 + cpu_e_lag(c);
}

/* Bands per block: about BAND_BYTES of live rows each (or c->pair_rows rows), at least K (1 +
 * lag) rows; one with a single plane, whose K (1 + lag) + 2 live rows are small already. */
static int bands(const cpu_ctx *c, int K)
{
    if (one_plane(c))
        return 1;
    const int nx = c->d.n[0], ny = c->d.n[1];
    const int64_t row_bytes = (c->twin ? 2 : 1) * 6 * (int64_t)(K * per_step(c) + 1) *
                              (int64_t)(nx + 2 * YEE_HALO) * (int64_t)sizeof(yee_real);
    int64_t band_rows = c->pair_rows > 0 ? c->pair_rows : BAND_BYTES / row_bytes;
    if (band_rows < K * per_step(c)) /* a band's rows move down by up to K (1 + lag) - 1 */
        band_rows = K * per_step(c);
    if (c->wrap[1]) /* row 0 reads the last row's ghost at the same step: whole planes */
        return 1;
    const int64_t nb = ny / band_rows;
    return nb < 1 ? 1 : (int)nb;
}

/* Phase A of block [k0, k1) of layers: the trapezoid, band by band; shrink_lo / shrink_hi where
 * a seam lies below / above. Once the last band's first 2K (1 + lag) iterations are done, *ready
 * = sweep (release: the seam below may begin, see cpu_wavefront). */
static void trapezoid(const cpu_ctx *c, int K, int k0, int k1, int shrink_lo, int shrink_hi,
                      int nb, atomic_uint *ready, unsigned sweep)
{
    const int ny = c->d.n[1], lag = cpu_e_lag(c), per = per_step(c);
    for (int b = 0; b < nb; b++) {
        const int ja = (int)((int64_t)ny * b / nb), jb = (int)((int64_t)ny * (b + 1) / nb);
        for (int it = k0; it < k1 + per * (K - 1) + lag; it++) {
            if (ready && b == nb - 1 && it == k0 + 2 * K * per)
                atomic_store_explicit(ready, sweep, memory_order_release);
            for (int s = 1; s <= K; s++) {
                const int oh = per * (s - 1), oe = oh + lag; /* H_s on layer it - oh, E_s it - oe */
                const int h0 = k0 + (shrink_lo ? oh : 0), h1 = k1 - (shrink_hi ? oh : 0);
                const int e0 = k0 + (shrink_lo ? oh + 1 : 0), e1 = k1 - (shrink_hi ? oe : 0);
                const int ph = it - oh, pe = it - oe;
                const int h = ph >= h0 && ph < h1, e = pe >= e0 && pe < e1;
                /* a band's rows move down with the op's offset, as its layers do */
                const int j0 = b == 0 ? 0 : ja - oh, j1 = b == nb - 1 ? ny : jb - oh;
                if (!lag && (h || e)) { /* one pass, H then E row by row */
                    layer(c, s - 1, ph, j0, j1, (h ? ROWS_H : 0) | (e ? ROWS_E : 0));
                    continue;
                }
                if (h)
                    layer(c, s - 1, ph, j0, j1, ROWS_H | (shrink_lo && ph == h0 ? ROWS_EDGE : 0));
                if (e)
                    layer(c, s - 1, pe, b == 0 ? 0 : ja - oe, b == nb - 1 ? ny : jb - oe, ROWS_E);
            }
        }
    }
    if (ready) /* a block of exactly 2K (1 + lag) layers with no shrinking above */
        atomic_store_explicit(ready, sweep, memory_order_release);
}

/* Waits until *ready holds sweep (acquire: the upper block's first 2K (1 + lag) iterations are
 * done). */
static void await_ready(const atomic_uint *ready, unsigned sweep)
{
    while (atomic_load_explicit(ready, memory_order_acquire) != sweep)
        sched_yield(); /* rarely taken: the upper block began with this one */
}

/* Phase B of the seam at layer k1: the inverted triangle, one step at a time, H_s on
 * [k1 - oh, k1 + oh) and E_s on [k1 - oe, k1 + oh + 1) (oh, oe: trapezoid()), each E_s(p) after
 * H_s(p + lag). The seam of a wrapped axis is k1 = n (the layers), its layers above the top
 * those from 0 up (p - n). */
static void seam(const cpu_ctx *c, int K, int k1)
{
    const int ny = c->d.n[1], n = cpu_wavefront_layers(c), lag = cpu_e_lag(c);
    for (int s = 1; s <= K; s++) {
        const int oh = per_step(c) * (s - 1), oe = oh + lag;
        for (int p = k1 - oe; p < k1 + oh + 1; p++) {
            const int ph = p + lag, h = ph < k1 + oh ? ROWS_H : 0;
            if (lag && (h || ph == k1 + oh)) /* the upper trapezoid's edge: its curls left */
                layer(c, s - 1, ph < n ? ph : ph - n, 0, ny, h ? h : ROWS_CURLS);
            layer(c, s - 1, p < n ? p : p - n, 0, ny, (lag ? 0 : h) | ROWS_E);
        }
    }
}

/* The blocks of layers (threads) of a K-step wavefront: at most one per thread, each of at
 * least 2K (1 + lag) layers, and at least one. */
static int wavefront_blocks(const cpu_ctx *c, int K)
{
    const int nt = omp_get_max_threads();
    const int most = cpu_wavefront_layers(c) / cpu_wavefront_least(c, K);
    return clamp(most, 1, nt);
}

/* The seams at the linked faces (c->link), after phase A, on the calling thread (the link
 * calls MPI). Each is half a seam: the other half is the neighbour's, and the layers they read
 * across the face arrive through the ghosts, one message per step and direction, as the
 * pair argument needs them: for s = 1..K, the top (layers n-s+1..n-1, whose H_s(n-1) reads
 * E_{s-1} of the upper rank's layer 0, received first; then H_s(n-1) goes up), then the bottom
 * (layers 0..s-1 as in seam(), E_s(0) reading H_s of the lower rank's top layer, received
 * first; then E_s(0) goes down). The top of step s waits only for the upper rank's bottom of
 * step s-1, which waits only for this rank's top of step s-1: no cycle, whatever the ranks.
 * Last, the upper rank's E_K(0) into the ghost, as the halo would leave it. */
static int face_seams(const cpu_ctx *c, int K, int lo, int hi, yee_err *err)
{
    const int ny = c->d.n[1], n = cpu_wavefront_layers(c);
    for (int s = 1; s <= K; s++) {
        if (hi) {
            if (s > 1)
                YEE_TRY(cpu_link_recv(c, YEE_FIELD_E, err));
            for (int p = n - s + 1; p < n; p++)
                layer(c, s - 1, p, 0, ny, ROWS_H | ROWS_E);
            YEE_TRY(cpu_link_send(c, YEE_FIELD_H, err));
        }
        if (lo) {
            YEE_TRY(cpu_link_recv(c, YEE_FIELD_H, err));
            for (int p = 0; p <= s - 1; p++)
                layer(c, s - 1, p, 0, ny, (p < s - 1 ? ROWS_H : 0) | ROWS_E);
            YEE_TRY(cpu_link_send(c, YEE_FIELD_E, err));
        }
    }
    return hi ? cpu_link_recv(c, YEE_FIELD_E, err) : YEE_OK;
}

int cpu_wavefront(cpu_ctx *c, int K, const yee_step_plan *plan, const yee_step_plan *plan_im,
                  yee_err *err)
{
    const int lo = c->link && c->link->low, hi = c->link && c->link->high;
    const int n = cpu_wavefront_layers(c);
    /* a wrapped layer axis makes its faces a seam (with one plane z's ghosts are the row's own,
     * refreshed after it: rows.c cpu_wrap_*) */
    const int wrapped = c->wrap[layer_axis(c)];
    /* linked faces must be the layers' (a 3-D run one cell thick is never cut along z), and E
     * not a layer behind (face_seams has no such order; tensor nodes run on one rank) */
    if (K < (c->link ? 1 : 2) || K > CPU_SWEEP_MAX ||
        (c->link && (yee_link_axis(c->d) != layer_axis(c) || cpu_e_lag(c))))
        return 0;
    const int least = cpu_wavefront_least(c, K);
    if ((wrapped || lo || hi) && n < least) /* a face's seam would meet the other */
        return 0;
    for (int s = 0; s < K; s++)
        if (!cpu_step_lists_build(c, &plan[s], &c->lists[s]) ||
            (c->twin && !cpu_step_lists_build(c->twin, &plan_im[s], &c->twin->lists[s])))
            return 0;
    const int nb = bands(c, K), nblk = wavefront_blocks(c, K);
    const unsigned sweep = ++c->sweeps;
    int nran = 1;
#pragma omp parallel num_threads(nblk)
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int tracked = nt <= CPU_BALANCE_THREADS; /* else: a barrier before the seams */
        const double *share = cpu_balance_share(c, nt);
        const int k0 = cpu_block_start(c, nt, t, least, share),
                  k1 = cpu_block_start(c, nt, t + 1, least, share);
        const double start = omp_get_wtime();
        /* a wrapped axis: a seam at the bottom and top faces too */
        trapezoid(c, K, k0, k1, t > 0 || wrapped || lo, t < nt - 1 || wrapped || hi, nb,
                  tracked ? &c->seam_ready[t] : NULL, sweep);
        double seconds = omp_get_wtime() - start;
        if (t == 0)
            nran = nt;
        if (!tracked) {
#pragma omp barrier
        }
        if (t < nt - 1 || wrapped) {
            if (tracked)
                await_ready(&c->seam_ready[(t + 1) % nt], sweep);
            const double seam_start = omp_get_wtime();
            seam(c, K, k1);
            seconds += omp_get_wtime() - seam_start;
        }
        cpu_balance_record(c, t, seconds, k0, k1);
    }
    cpu_balance_update(&c->balance, nran);
    if (!lo && !hi)
        return 1;
    const int rc = face_seams(c, K, lo, hi, err);
    return rc < 0 ? rc : 1;
}
