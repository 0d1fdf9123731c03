/* kernels/cpu/cpu.h -- private to the CPU backend: its context, the row functions every CPU
 * schedule is built from, and the entry points the schedules share.
 *
 * The backend is split the way llm.c splits a model: backend_cpu.c is the readable reference
 * (each op a plain loop over rows, the stages of kernels/stages.h in order: the "cpu-reference"
 * backend), and the tuned schedules live beside it, each in its own file, built from the same
 * rows: sweep_fused.c (one step, H and E in one pass over the planes) and wavefront.c (K steps
 * in one pass, temporal blocking); tuned.c is the "cpu" backend, the reference ops plus advance
 * choosing a schedule. tests/unit/cpu_schedules.c holds each schedule to the reference's bytes.
 *
 * A row is the cells i = i0..i1-1 at fixed (j, k). The loops map indices to cells and nothing
 * else: no physics here (kernels/yee_cell.h, yee_ade.h).
 */
#ifndef YEE_KERNELS_CPU_H
#define YEE_KERNELS_CPU_H

#include <stdatomic.h>

#include "kernels/backend.h"

/* One kind of a step's list (M, J or samples) sorted by row: entries order[start[r] ..
 * start[r+1]) lie in row r = j + k ny, in list order within a row (so each cell gets its
 * additions in list order). key holds the rows of the n entries last sorted: a list whose rows
 * come in the same sequence (a TFSF box's corrections, step after step) reuses the order. */
typedef struct cpu_buckets {
    int *start, *order, *key;
    int n; /* entries last sorted (0: none; a kind with no entries is never sorted) */
    size_t start_cap, order_cap, key_cap;
} cpu_buckets;

/* A step's currents and samples sorted for a sweep over rows. The arrays are the context's
 * scratch, kept from step to step (no allocation per step); a kind with no entries has no
 * buckets. */
typedef struct cpu_step_lists {
    const yee_step_plan *plan;
    cpu_buckets m, j, s;
    int *key, *cursor; /* scratch of the sort */
    size_t key_cap, cursor_cap;
} cpu_step_lists;

typedef struct cpu_slab {
    yee_slab box;
    int64_t w[3];       /* slab extents */
    yee_real *psi_e[2]; /* psi_q, psi_r for E (see yee_cpml_e) */
    yee_real *psi_h[2];
} cpu_slab;

#define CPU_COPY_SLOTS 64
#define CPU_SWEEP_MAX 16 /* steps per wavefront sweep, at most */
#define CPU_BALANCE_THREADS 256 /* threads the wavefront follows (speeds, progress), at most */

/* The threads' measured speeds (wavefront.c): each sweep, the wavefront's or a fused one, times
 * every thread's share of it, and the next sweep's blocks hold work in proportion to the speeds. The estimate of
 * cpu_layer_costs_build misses what it does not model (a row through a ring or a sphere reads
 * its materials cell by cell), and a core can run slower than the others for a while (a busy
 * SMT sibling on a shared machine: 1.6x for hundreds of sweeps, measured on the 2-D bend). */
typedef struct cpu_balance {
    int nt;                                   /* threads of the speeds (0: none measured) */
    double rate[CPU_BALANCE_THREADS];         /* estimated work per second, a running mean */
    double share[CPU_BALANCE_THREADS + 1];    /* share[t]: the work below block t, of 1 */
    double work[CPU_BALANCE_THREADS];         /* the last sweep's: each block's estimated work */
    double seconds[CPU_BALANCE_THREADS];      /* and its time (trapezoid and seam) */
} cpu_balance;

/* A DFT region's sums and the samples not yet added to them: the sums (16 nfreq bytes per
 * node) are read and written once per `batch` samples instead of once per sample. And the
 * fields an advance call held for it (yee_step_plan.dft): the nodes a sample reads, the region
 * and, averaging, the layer of nodes below it along avg_axis (the held box), one copy per step
 * that samples. A sweep copies each row of the held box right after the row's last update of
 * such a step (cpu_dft_hold_rows), where it samples the probes; dft_accumulate later computes
 * the samples from the copy, with the arithmetic of yee_dft_sample. */
typedef struct cpu_dft {
    yee_dft_region r;
    int64_t nodes;
    double *re, *im;    /* nfreq x nodes */
    int batch;          /* samples held before they are added (yee_dft_batch) */
    int pending;        /* samples held now */
    double *v;          /* batch x nodes: the held samples, node fastest */
    double *ph;         /* batch x 2 nfreq: their phasors */
    int hlo[3], hcount[3]; /* the held box (nodes of the subdomain) */
    int64_t hnodes;
    yee_real *held;     /* held_slots x hnodes, x fastest */
    int held_slots;
    int taken;          /* held steps dft_accumulate has sampled since the advance call */
} cpu_dft;

typedef struct cpu_ctx {
    yee_dims d;
    int64_t total;      /* elements per padded array */
    yee_fields f;       /* Ex..Hz: each CPU_SKEW bytes further into its fblock (backend_cpu.c) */
    void *fblock[6];    /* the field allocations (Ex Ey Ez Hx Hy Hz) */
    uint8_t *mat[3];
    yee_real ca[YEE_MAX_MATERIALS], cb[YEE_MAX_MATERIALS];
    yee_media media;
    int *row_span;      /* per row r = j + k n1: [row_span[2r], row_span[2r+1]) holds every cell
                         * whose Ex, Ey or Ez is not material 0 (n0, n0 when none) */
    yee_ecoef coef0;    /* material 0's (ca, cb) for the three components (see cpu_row_e) */
    yee_real *line_mem; /* one block for ie, ih and the CPML profiles */
    yee_lines lines;
    yee_cpml_axis pml[3];
    int nslabs;
    cpu_slab slabs[6];
    int pec_low[3];
    int pmc_low[3];
    int wrap[3];        /* setup.wrap: advance keeps these ghosts (rows.c cpu_wrap_*) */
    int pol2d;          /* setup.pol2d: the bulk rows advance one 2-D polarization only */
    size_t bytes;
    int64_t ndisp;       /* dispersive E nodes (kernels/yee_ade.h) */
    yee_disp_node *disp;
    int64_t *disp_row;   /* the nodes of row r = j + k n1: disp[disp_by_row[q]] for q in */
    int64_t *disp_by_row; /* [disp_row[r], disp_row[r + 1]) (the wavefront's per-row ADE) */
    yee_real *pol;       /* their polarizations */
    int64_t npol;        /* values in pol */
    yee_pole_coef *pcoef;
    yee_real inv_dt;
    int64_t ntensor;     /* off-diagonal permittivity nodes (kernels/yee_tensor.h), by row: */
    yee_tensor_node *tensor; /* row r's are [tensor_row[r], tensor_row[r + 1]) */
    int64_t *tensor_row;
    int64_t ncurl;       /* their neighbours, by row as the nodes, and this step's curl H there */
    yee_curl_node *curl;
    int64_t *curl_row;
    yee_real *curl_h;
    int ndft;
    cpu_dft *dft;
    int dft_inside;     /* 1: every region's held box lies in the interior (no ghost node) */
    int dft_held;       /* steps the last advance call held DFT fields of (yee_step_plan.dft) */
    yee_real *copy_buf[CPU_COPY_SLOTS]; /* snapshot copies (copy_start / copy_finish) */
    size_t copy_cap[CPU_COPY_SLOTS], copy_len[CPU_COPY_SLOTS];
    double *layer_cost;  /* wavefront.c: estimated work of the layers below layer p, p = 0..n
                          * (the thread blocks' split, cpu_block_start) */
    int pair_rows;       /* wavefront.c: rows per band (0: sized for the L2 cache; setup.tuning) */
    int sweep_steps;     /* wavefront.c: steps per sweep asked for (setup.tuning; 0: default) */
    int unmeasured;      /* wavefront.c: equal estimated work per thread block, the speeds
                          * ignored (setup.tuning.cpu_unmeasured) */
    cpu_balance balance; /* wavefront.c: the split the threads' speeds ask for */
    unsigned sweeps;     /* wavefront.c: sweeps begun (modulo 2^32) */
    /* wavefront.c: per thread, the last sweep whose first 2K iterations it has finished (its
     * lower neighbour's seam waits for them) */
    atomic_uint seam_ready[CPU_BALANCE_THREADS];
    yee_state_layout state; /* the checkpoint parts */
    cpu_step_lists lists[CPU_SWEEP_MAX]; /* the steps' sorted lists, scratch of the schedules */
    /* Complex fields on the fast path (cpu_advance_complex): for the length of that call the
     * real part's context points to the imaginary part's, whose rows the schedules update right
     * after its own (CPU_PARTS), and holds the factors its wraps apply to the pair; NULL
     * otherwise, and always in the imaginary part. */
    struct cpu_ctx *twin;
    double wrap_phase[2][3][2]; /* [kind][axis] = {cos, sin}: backend.h advance_complex */
    const yee_face_link *link; /* setup.link: the faces along yee_link_axis that advance
                                * exchanges (NULL: none) */
    yee_real *link_buf;        /* one face message: two components over the face per part,
                                * room for two parts (backend_cpu.c link_face_values) */
} cpu_ctx;

/* The contexts a schedule steps together: c, then its twin when it has one. */
#define CPU_PARTS(p, c) for (const cpu_ctx *p = (c); p; p = p->twin)

/* ---- rows (rows.c) ---- */

/* Row (j, k), cells [i0, i1): the H update then the CPML corrections of every slab the row
 * crosses, while the row is in L1 (per cell the order of separate sweeps: bulk, then slab 0,
 * 1, ...). */
void cpu_row_h(const cpu_ctx *c, int j, int k, int i0, int i1);
/* The same for E (Ampere, CPML); a row of material 0 only takes material 0's coefficients as
 * loop constants (the same arithmetic on the same values, without the index bytes). */
void cpu_row_e(const cpu_ctx *c, int j, int k, int i0, int i1);
/* What a wall does at one of its nodes: yee_pec_low or yee_pmc_low. */
typedef void (*cpu_wall_node_fn)(yee_fields f, yee_dims d, int axis, int i, int j, int k);
/* The PEC wall nodes (yee_pec_low) on row (j, k). */
void cpu_pec_row(const cpu_ctx *c, int j, int k);
/* The PMC mirror images (yee_pmc_low) that the E update of row (j, k) reads, from H of the
 * same row: call after that H row is final and before cpu_row_e(j, k). */
void cpu_pmc_row(const cpu_ctx *c, int j, int k);
/* The ghosts of the axes this subdomain wraps onto itself (c->wrap, setup.wrap), copied from
 * the opposite interior layer exactly as pack_halo + unpack_halo would: H, the two components
 * tangential to the axis, layer n-1 into ghost -1 (read by E at layer 0); E, layer 0 into ghost
 * n (read by H at layer n-1). Rows [j0, j1) of plane k: their x ghosts, the y ghost row when
 * the rows hold its source row (H: j1 = n1, E: j0 = 0), and their z ghosts when k is the z
 * source plane (H: k = n2 - 1, E: k = 0). Call after the rows are final
 * for the step (H with its magnetic currents, E with its electric ones; with a twin, in both
 * parts) and before another update reads the ghosts. With a twin the pair's ghosts take the
 * Bloch factor as the complex backend's unpack_halo does: (re, im) -> (cos re - sin im,
 * sin re + cos im), a plain copy where the factor is 1. */
void cpu_wrap_h_rows(const cpu_ctx *c, int k, int j0, int j1);
void cpu_wrap_e_rows(const cpu_ctx *c, int k, int j0, int j1);
/* Every plane of one field. */
void cpu_wrap_all(const cpu_ctx *c, yee_field_kind kind);
/* The linked faces (c->link, setup.link; normal to z, or to y in a 2-D run: yee_link_axis):
 * this rank's face of `kind` to its neighbour (H: layer n-1 up, E: layer 0 down), and the
 * neighbour's into the ghost layer (H: -1 from below, E: n from above). No-ops without a link
 * or a neighbour on that side. Serial code only (the link calls MPI). */
int cpu_link_send(const cpu_ctx *c, yee_field_kind kind, yee_err *err);
int cpu_link_recv(const cpu_ctx *c, yee_field_kind kind, yee_err *err);
/* The dispersive nodes of row (j, k) (kernels/yee_ade.h): P^{n+1} from E^n, before the row's
 * E update; the polarization current, after it (and before its PEC nodes). Each node reads and
 * writes only its own E and P, so per row is per node the reference's order. */
void cpu_polarize_row(const cpu_ctx *c, int j, int k);
void cpu_polarization_current_row(const cpu_ctx *c, int j, int k);
/* The curl H of the curl list's nodes of components in the mask comps (bit a: component a) in
 * rows [j0, j1) of plane k, into c->curl_h (kernels/yee_tensor.h, the first pass): after those
 * rows' H update (and magnetic currents). A curl reads H at its own row and plane and one below
 * along each axis but its component's. */
void cpu_curl_rows(const cpu_ctx *c, int k, int j0, int j1, unsigned comps);
/* The off-diagonal terms of the tensor nodes of row (j, k) from c->curl_h (the second pass),
 * after the row's E update: their neighbours lie at rows j - 1 .. j + 1 of planes k - 1 .. k +
 * 1, whose curls the wavefront has computed once E trails H by a layer (cpu_e_lag). */
void cpu_tensor_row(const cpu_ctx *c, int j, int k);
/* One current of a step: J into E (comp 0..2) or M into H (comp 3..5). */
void cpu_add_current(const cpu_ctx *c, const yee_point_current *p);

/* Sorts plan's lists into l (scratch of the context); 0 when a current or sample lies outside
 * the subdomain or memory is short: the caller then runs the reference ops. */
int cpu_step_lists_build(const cpu_ctx *c, const yee_step_plan *plan, cpu_step_lists *l);
/* Frees the scratch (when the context goes). */
void cpu_step_lists_free(cpu_step_lists *l);
/* H rows [j0, j1) of plane k, each followed by its magnetic currents. */
void cpu_rows_h_m(const cpu_ctx *c, const cpu_step_lists *l, int k, int j0, int j1);
/* The electric currents of plane k in rows [j0, j1), row by row, in list order within a row. */
void cpu_plane_j(const cpu_ctx *c, const cpu_step_lists *l, int k, int j0, int j1);
/* The samples of plane k in rows [j0, j1) into plan->samp_out. */
void cpu_plane_samples(const cpu_ctx *c, const cpu_step_lists *l, int k, int j0, int j1);

/* ---- DFT fields held by an advance call (backend_cpu.c) ---- */

/* Room for `steps` held copies of every region, and no held step sampled yet: before the call's
 * first step (steps = the most yee_step_plan.dft of its plans). */
int cpu_dft_hold_begin(cpu_ctx *c, int steps, yee_err *err);
/* With c->dft_inside: plane k's rows [j0, j1) of every held box, into the slot of l's step
 * (none when it holds no DFT fields), after those rows' last update of that step. */
void cpu_dft_hold_rows(const cpu_ctx *c, const cpu_step_lists *l, int k, int j0, int j1);
/* The whole held box of every region from the fields as they are, into slot plan->dft - 1
 * (none when 0): at the end of the plan's step where a schedule did not hold them row by row. */
void cpu_dft_hold_all(const cpu_ctx *c, const yee_step_plan *plan);

/* ---- the reference ops (backend_cpu.c) the schedules fall back on ---- */
int cpu_step_h(void *ctx, const yee_box *cells, yee_err *err);
int cpu_step_e(void *ctx, const yee_box *cells, yee_err *err);
int cpu_apply_sources(void *ctx, int n, const yee_point_current *src, yee_err *err);
int cpu_gather(void *ctx, int n, const yee_sample *pts, yee_real *out, yee_err *err);
/* The dispersive nodes of box b: P^{n+1} from E^n, and the polarization current. */
void cpu_polarize(const cpu_ctx *c, yee_box b);
void cpu_polarization_current(const cpu_ctx *c, yee_box b);
/* The off-diagonal permittivity terms of the tensor nodes in box b (kernels/yee_tensor.h). */
void cpu_tensor(const cpu_ctx *c, yee_box b);
/* The PEC walls' nodes in box b; the PMC walls' mirror images in box b. */
void cpu_pec(const cpu_ctx *c, yee_box b);
void cpu_pmc(const cpu_ctx *c, yee_box b);
/* One step of plan by the reference ops (steps the schedules do not take); with a twin, of
 * both parts, plan_im the imaginary part's (NULL without a twin). */
int cpu_reference_step(cpu_ctx *c, const yee_step_plan *plan, const yee_step_plan *plan_im,
                       yee_err *err);
/* The whole subdomain as a box. */
yee_box cpu_all_cells(const cpu_ctx *c);

/* ---- the tuned schedules ---- */
/* Each takes the real part's plans, and with a twin (complex fields) the imaginary part's in
 * plan_im (NULL without one). */
/* tuned.c: the advance op of the "cpu" backend, each step by the fastest schedule that takes it,
 * and its advance_complex (the same with a twin). */
int cpu_advance(void *ctx, int nsteps, const yee_step_plan *plan, yee_err *err);
int cpu_advance_complex(void *re, void *im, const double phase[2][3][2], int nsteps,
                        const yee_step_plan *plan_re, const yee_step_plan *plan_im, yee_err *err);
/* sweep_fused.c: one step, plane by plane H(k) then E(k). */
int cpu_fused_step(cpu_ctx *c, const yee_step_plan *plan, const yee_step_plan *plan_im,
                   yee_err *err);
/* wavefront.c: K (2..CPU_SWEEP_MAX, or 1 with linked faces) steps in one wavefront: 1; 0
 * when it cannot take them (a current or sample outside the subdomain, no memory, fewer than 2K
 * layers with the wavefront's axis wrapped or linked), having changed nothing; a negative status
 * when a linked face's message fails (err set). */
int cpu_wavefront(cpu_ctx *c, int K, const yee_step_plan *plan, const yee_step_plan *plan_im,
                  yee_err *err);
/* The layers the wavefront sweeps: the planes, or a single plane's rows (a 2-D run). */
int cpu_wavefront_layers(const cpu_ctx *c);
/* Layers by which the wavefront's E update of a step trails its H update: 1 with tensor nodes
 * (their E reads H one layer above: kernels/yee_tensor.h), else 0. */
int cpu_e_lag(const cpu_ctx *c);
/* The fewest layers of a thread block of a K-step wavefront (and of a wrapped or linked layer
 * axis): 2K (1 + cpu_e_lag), so that the seams' layers do not meet. */
int cpu_wavefront_least(const cpu_ctx *c, int K);
/* Sets c->layer_cost from the CPML slabs and the dispersive nodes (create, after both); 0 when
 * memory is short. */
int cpu_layer_costs_build(cpu_ctx *c);
/* The first layer of block t of nt (t = nt: the layers' end), each block at least `least`
 * layers (nt * least <= the layers): block u holding about the fraction share[u+1] - share[u]
 * of the estimated work (share NULL: 1 / nt each), so that a thread whose layers hold the CPML
 * does not keep the others waiting at the barrier. share: nt + 1 non-decreasing fractions from 0
 * to 1. */
int cpu_block_start(const cpu_ctx *c, int nt, int t, int least, const double *share);
/* After a sweep of nt blocks (b->work and b->seconds set for each): each thread's speed, a
 * running mean of work / seconds (a sample moves it by at most 2x), and b->share in proportion
 * to the speeds. Unchanged when a block's time or work is not positive (too short to time) or
 * nt is 1 or above CPU_BALANCE_THREADS; a new nt starts the means over. */
void cpu_balance_update(cpu_balance *b, int nt);
/* The shares the speeds ask for nt threads (for cpu_block_start), or NULL (equal shares of the
 * estimated work) before a timed sweep of nt threads, and always with c->unmeasured. */
const double *cpu_balance_share(const cpu_ctx *c, int nt);
/* Thread t's time in this sweep on its block [k0, k1) of layers, for cpu_balance_update (every
 * schedule that splits the layers by cpu_balance_share records it). */
void cpu_balance_record(cpu_ctx *c, int t, double seconds, int k0, int k1);

#endif
