/* kernels/cpu/wavefront.c -- two whole steps in one pass over memory (temporal blocking), the
 * fastest schedule of the tuned CPU backend (contract: cpu_wavefront_pair in kernels/cpu/cpu.h).
 *
 * H1, E1 (step 1) and H2, E2 (step 2) in one wavefront over the planes k, so
 * each field value comes from memory and goes back once per two steps: 12 values per cell per
 * two steps, against 12 per step for sweep_fused.c (docs/performance.md).
 *
 * Write A(k), B(k) for H1, E1 of plane k and C(k), D(k) for H2, E2; every E stage includes the
 * PMC mirror images its rows read (filled just before each row from the row's final H), the
 * PEC nodes of its rows and then the currents of that step in its rows, in list order. The
 * wavefront visits, for it = 0..nz, A(it), B(it) and then C(it-1), D(it-1), which is exact:
 *   A(k) reads E0(k), E0(k+1): B(k) comes after it, B(k+1) in the next iteration.
 *   B(k) reads H1(k), H1(k-1) and its own E0(k): C(k-1) (H2) comes after it.
 *   C(k-1) reads E1(k-1), E1(k) with J1 added: B(k) came first, D(k-1) comes after, D(k) in
 *     the next iteration.
 *   D(k-1) reads H2(k-1), H2(k-2), E1(k-1): C(k-1) came first, C(k-2) in the last iteration.
 * Within a plane the same holds row by row (H reads E at j+1, E reads H at j-1), so the rows
 * are cut into bands [ja, jb) swept one after another, each through all its planes, with the
 * step 2 rows of a band moved down by one, [ja-1, jb-1) (clipped to [0, ny) at the ends): then
 * C(k-1, j) finds E1(k-1|k, j+1) done (it is in this band or the one before, which is
 * finished) and not yet E2 (row jb-1 is D'ed by the next band, after its C). A band's live data
 * (E at planes k-1..k+1, H at k-2..k: 18 row arrays of its rows) stays in L2 between
 * iterations instead of a whole plane's in L3. Each row's PEC nodes are zeroed right after its
 * E update and the currents added after that, before any H update reads them: per cell the
 * order of the reference's step_e and apply_sources. Per cell the arithmetic is cpu_row_h /
 * cpu_row_e's on the same operands, and each CPML psi is updated by step 1 then step 2, so the
 * result is that of the reference ops twice over, bit for bit (tests/unit/cpu_schedules.c).
 * The samples of step 1 are read in the sweep, right after each row's first E update and
 * currents (the second step's H of a row, C, always runs after its first E, B); those of step 2
 * after the sweep.
 *
 * Threads own contiguous blocks of planes [k0, k1) (those they first touched, alloc_zeroed),
 * each swept as above. Across a block boundary four stages read the neighbour's planes, and
 * they move out of the sweep, between OpenMP barriers:
 *   1. A(k1-1): it reads E0(k1), which the next thread's B(k1) overwrites in phase 2.
 *   2. The sweep of the block, without A(k1-1), C(k1-1), D(k1-1), D(k0).
 *   3. C(k1-1) (reads E1(k1), the next thread's B of phase 2), then D(k1-1).
 *   4. D(k0): it reads H2(k0-1), the previous thread's C of phase 3 (and C(k0-1) read E1(k0)).
 * (A block of one plane does C(k0) in 3 and D(k0) in 4.) Three barriers per two steps, so
 * OMP_WAIT_POLICY=passive costs nothing measurable; the planes of phases 1, 3 and 4 are read a
 * second time, 3 of nz/nthreads per pair. An earlier version gave bands to threads round-robin,
 * each band following the one before at one plane through a release/acquire counter: it
 * matched this at 256^3 but was about 20% slower at 48^3 (there a band's rows are few, and
 * the follower reads the leader's freshly written edge rows from the other core), see
 * docs/performance.md.
 * setup.tuning.cpu_band_rows = n (YEE_CPU_PAIR_ROWS=n) forces bands of about n rows (tests and
 * tuning). Dispersive nodes go through the single-step schedule instead: their two ADE stages
 * across the wavefront are not worth the complexity. */


#include <omp.h>

#include "kernels/cpu/cpu.h"

#define PAIR_BAND_BYTES ((int64_t)512 * 1024) /* live band data aimed at: half an L2 */

enum { ROWS_H = 1, ROWS_E = 2 };

/* Rows [j0, j1) of plane k, one step (lists l): ROWS_H the H rows with their magnetic currents;
 * ROWS_E the E rows, each with its PEC nodes, then the step's electric currents in these rows of
 * the plane, then (sample) its samples there; both: H then E row by row. */
static void rows(const cpu_ctx *c, const cpu_step_lists *l, int k, int j0, int j1, int what,
                 int sample)
{
    const int nx = c->d.n[0];
    for (int j = j0; j < j1; j++) {
        if (what & ROWS_H)
            cpu_rows_h_m(c, l, k, j, j + 1);
        if (what & ROWS_E) {
            cpu_pmc_row(c, j, k);
            cpu_row_e(c, j, k, 0, nx);
            cpu_pec_row(c, j, k);
        }
    }
    if (!(what & ROWS_E))
        return;
    cpu_plane_j(c, l, k, j0, j1);
    if (sample)
        cpu_plane_samples(c, l, k, j0, j1);
}

/* Bands per block: about PAIR_BAND_BYTES of live rows each (or c->pair_rows rows). */
static int bands(const cpu_ctx *c)
{
    const int nx = c->d.n[0], ny = c->d.n[1];
    const int64_t row_bytes = 18 * (int64_t)(nx + 2 * YEE_HALO) * (int64_t)sizeof(yee_real);
    int64_t band_rows = c->pair_rows > 0 ? c->pair_rows : PAIR_BAND_BYTES / row_bytes;
    if (band_rows < 2)
        band_rows = 2;
    const int64_t nb = (ny + band_rows - 1) / band_rows;
    return nb < 1 ? 1 : (int)nb;
}

int cpu_wavefront_pair(cpu_ctx *c, const yee_step_plan plan[2])
{
    if (c->ndisp || c->d.n[2] == 1) /* one plane: sweep_fused.c shares its rows */
        return 0;
    cpu_step_lists *s1 = &c->lists[0], *s2 = &c->lists[1];
    if (!cpu_step_lists_build(c, &plan[0], s1) || !cpu_step_lists_build(c, &plan[1], s2))
        return 0;
    const int ny = c->d.n[1], nz = c->d.n[2];
    const int nb = bands(c);
#pragma omp parallel
    {
        const int nt = omp_get_num_threads(), t = omp_get_thread_num();
        const int k0 = (int)((int64_t)nz * t / nt), k1 = (int)((int64_t)nz * (t + 1) / nt);
        if (k1 > k0) /* 1. A(k1-1) */
            rows(c, s1, k1 - 1, 0, ny, ROWS_H, 0);
#pragma omp barrier
        for (int b = 0; b < nb && k1 > k0; b++) { /* 2. the block, band by band */
            const int ja = (int)((int64_t)ny * b / nb), jb = (int)((int64_t)ny * (b + 1) / nb);
            const int ja2 = b == 0 ? 0 : ja - 1, jb2 = b == nb - 1 ? ny : jb - 1;
            for (int it = k0; it <= k1; it++) {
                if (it < k1) /* A(it) (done in 1 for k1-1), B(it) */
                    rows(c, s1, it, ja, jb, it == k1 - 1 ? ROWS_E : ROWS_H | ROWS_E, 1);
                const int k = it - 1;
                if (k >= k0 && k <= k1 - 2) /* C(k), D(k) (for k0 in 4) */
                    rows(c, s2, k, ja2, jb2, k == k0 ? ROWS_H : ROWS_H | ROWS_E, 0);
            }
        }
#pragma omp barrier
        if (k1 > k0) { /* 3. C(k1-1), then D(k1-1) unless that is D(k0) */
            rows(c, s2, k1 - 1, 0, ny, ROWS_H, 0);
            if (k1 - 1 > k0)
                rows(c, s2, k1 - 1, 0, ny, ROWS_E, 0);
        }
#pragma omp barrier
        if (k1 > k0) /* 4. D(k0) */
            rows(c, s2, k0, 0, ny, ROWS_E, 0);
    }
    for (int q = 0; q < plan[1].nsamp; q++) {
        const yee_sample *p = &plan[1].samp[q];
        plan[1].samp_out[q] = yee_component_array(c->f, p->comp)[yee_idx(c->d, p->i, p->j, p->k)];
    }
    return 1;
}
