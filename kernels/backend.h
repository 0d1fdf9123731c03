/* kernels/backend.h -- the one table of operations the solver calls to advance and read fields.
 *
 * A backend owns the field, psi and material arrays of one subdomain (host memory for "cpu",
 * device memory for "cuda") and performs the arithmetic of kernels/yee_cell.h over them. The
 * solver (solver/sim.c) writes the leapfrog once against this table and never tests which
 * backend runs (STYLE 3.3, after the SQLite VFS). Every op returns YEE_OK or a negative
 * yee_status with err filled. Read/write contract of each op is stated at its member.
 */
#ifndef YEE_KERNELS_BACKEND_H
#define YEE_KERNELS_BACKEND_H

#include <stddef.h>

#include "common/yee_err.h"
#include "kernels/yee_ade.h"
#include "kernels/yee_cell.h"
#include "kernels/yee_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

#define YEE_MAX_MATERIALS 256

/* One CPML slab: the cells [lo, hi) of the subdomain next to face `side` (0 low, 1 high) of
 * `axis`. The backend keeps four psi arrays per slab (two for E, two for H), slab-sized. */
typedef struct yee_slab {
    int axis;
    int side;
    int lo[3];
    int hi[3];
} yee_slab;

/* Which fields a halo op moves. */
typedef enum yee_field_kind { YEE_FIELD_E = 0, YEE_FIELD_H = 1 } yee_field_kind;

/* The faces of a subdomain along its link axis, z (y in a 2-D run, which has no z faces),
 * whose neighbours (other ranks) the backend's advance exchanges itself, each face as soon as
 * it is final inside its sweeps, instead of the solver's halo between steps (setup.link; the
 * solver fills it, solver/halo.h yee_halo_link). A message has pack_halo's layout for that
 * axis: the two components tangential to it on one interior layer. H goes up (this layer n-1
 * into the high neighbour's ghost -1), E goes down (this layer 0 into the low neighbour's ghost
 * n). Every rank makes the same calls in the same order for the same steps, so the messages of
 * one kind pair up in order. */
typedef struct yee_face_link {
    int low, high;  /* 1: that face has a neighbour */
    /* Hands this rank's face of `kind` to its neighbour (H: the high one, E: the low one); buf
     * may be reused when the call returns. */
    int (*send)(void *user, yee_field_kind kind, const yee_real *buf, yee_err *err);
    /* Waits for the neighbour's face of `kind` (H: from the low one, E: from the high one). */
    int (*recv)(void *user, yee_field_kind kind, yee_real *buf, yee_err *err);
    void *user;
} yee_face_link;

/* The link axis of a subdomain of dims d: z, or y in a 2-D run (stride[2] = 0). */
static inline int yee_link_axis(yee_dims d)
{
    return d.stride[2] == 0 ? 1 : 2;
}

/* Everything static a backend needs, in host memory owned by the caller; create() copies it. */
typedef struct yee_setup {
    yee_dims dims;
    int nmat;                    /* entries of ca/cb, <= YEE_MAX_MATERIALS */
    const yee_real *ca, *cb;     /* E coefficients per material */
    yee_real ch;                 /* H coefficient dt (mu_r = 1) */
    const uint8_t *mat[3];       /* material index per E component, field layout; NULL: all 0 */
    const yee_real *ie[3];       /* n+1 entries per axis, see yee_lines */
    const yee_real *ih[3];       /* n entries per axis */
    const yee_real *be[3], *ae[3], *bh[3], *ah[3]; /* CPML profiles, same lengths as ie/ih */
    int nslabs;
    yee_slab slabs[6];
    int pec_low[3];              /* 1: zero tangential E on node plane 0 of this axis */
    int pmc_low[3];              /* 1: mirror H into the ghost plane below node plane 0 */
    int wrap[3];                 /* 1: this axis is periodic onto this subdomain itself and
                                  * the backend's advance keeps its ghosts (the components
                                  * tangential to it, layer n-1 of H into -1, layer 0 of E into
                                  * n) as the halo exchange would after each step's currents,
                                  * so the solver exchanges nothing across it. Only for a
                                  * backend with advance_wraps; the other ops leave them */
    const yee_face_link *link;   /* NULL, or the faces along the link axis (z; y in 2-D)
                                  * that advance exchanges itself (above): only for a backend
                                  * with advance_links (complex fields: both parts in one
                                  * message, advance_complex); the link outlives the backend
                                  * and is read at each advance */
    int pol2d;                   /* a 2-D run (dims.stride[2] = 0) of one polarization:
                                  * YEE_POL_TM or YEE_POL_TE store and advance only its three
                                  * components (kernels/yee_cell.h *_tm2d, *_te2d, *_half) and
                                  * their CPML halves; every op reads the other three as zero
                                  * (gather, download, DFT, halo pack) and none writes them.
                                  * YEE_POL_BOTH: all six */
    /* Dispersive media (kernels/yee_ade.h): the E nodes with polarization poles, their pole
     * coefficients and the size of the polarization storage. ndisp = 0: none, nothing kept. */
    int64_t ndisp;
    const yee_disp_node *disp;   /* ndisp nodes */
    int64_t npol;                /* polarization values: sum over the nodes of 2 npole */
    int npcoef;
    const yee_pole_coef *pcoef;  /* npcoef pole coefficient triples */
    yee_real inv_dt;             /* 1 / dt, for the polarization current */
    /* Off-diagonal permittivity terms (kernels/yee_tensor.h): ntensor = 0: none; the curl list
     * holds the ncurl neighbours their terms point into. */
    int64_t ntensor;
    const yee_tensor_node *tensor;
    int64_t ncurl;
    const yee_curl_node *curl;
    int node_rank;               /* this process's rank among those on its node: a GPU backend
                                  * takes device node_rank mod (devices on the node) */
    /* How, not what: choices that change speed or diagnostics, never results (the application
     * reads them from the environment; 0 is the default everywhere). */
    struct {
        int cpu_band_rows;       /* CPU wavefront: rows per band (0: sized for the L2 cache) */
        int cpu_sweep_steps;     /* CPU wavefront: steps per sweep (0: the default; 1: none) */
        int cpu_unmeasured;      /* CPU schedules: thread blocks of equal estimated work, not
                                  * following the threads' measured speeds */
        int sync_each_launch;    /* CUDA: synchronize after each kernel, so a fault is reported
                                  * at the kernel that caused it */
    } tuning;
} yee_setup;

/* A sampled field value: component (YEE_EX..YEE_HZ) at cell (i,j,k) of the subdomain. */
typedef struct yee_sample {
    int comp;
    int i, j, k;
} yee_sample;

/* A point current to inject this step: comp 0..2 an electric current density J (normalized,
 * per cell volume) into Ex..Ez, comp 3..5 a magnetic current density M into Hx..Hz. j_imag is
 * the imaginary part of a complex amplitude: only complex fields (yee_backend_complex) read it;
 * a real backend adds j_value alone. */
typedef struct yee_point_current {
    int comp;
    int i, j, k;
    yee_real j_value;
    yee_real j_imag;
} yee_point_current;

/* A running DFT of one component over a box of nodes (kernels/yee_cell.h yee_dft_sample). */
typedef struct yee_dft_region {
    int comp;            /* YEE_EX..YEE_HZ (0..5) */
    int lo[3], count[3]; /* nodes of the subdomain, each count >= 1 */
    int avg_axis;        /* -1, or sample the mean of each node and its neighbour at -1 there */
    double avg_hi;       /* with avg_axis: the node's own weight in that mean (its neighbour's
                          * 1 - avg_hi): 0.5 on a uniform axis, the E plane's place between the
                          * two H nodes on a graded one */
    int nfreq;
} yee_dft_region;

/* Health of the fields: sums of squares and the first non-finite value found (if any). */
typedef struct yee_norms {
    double e2, h2;       /* sum over interior cells of |E|^2 and |H|^2 */
    int nonfinite;       /* 1 if any interior value is NaN or Inf */
    int bad_comp;        /* where: component and cell of one such value */
    int bad_i, bad_j, bad_k;
} yee_norms;

/* What one step adds to the two field updates, in the order of solver/step.c: the magnetic
 * currents after the H update, the electric currents after the E update, then the samples of the
 * completed step (E^{n+1}, H^{n+1/2}: what gather reads after it). Host memory. */
typedef struct yee_step_plan {
    int nm;
    const yee_point_current *m; /* comp 3..5 */
    int nj;
    const yee_point_current *j; /* comp 0..2 */
    int nsamp;
    const yee_sample *samp;
    yee_real *samp_out;         /* nsamp values */
    /* 0, or n >= 1: this is the n-th step of the call (counted 1, 2, ... in step order) whose
     * DFT samples the backend holds: after the call the next dft_accumulate of each region takes
     * the fields of the n-th such step's end instead of the current ones (advance_dft). */
    int dft;
} yee_step_plan;

typedef struct yee_backend_ops {
    const char *name;
    /* Allocate fields (zeroed), psi and material arrays for s->dims and copy the static data.
     * Writes *ctx. Fails with YEE_ERR_NOMEM (or _CUDA) naming the bytes asked for. */
    int (*create)(const yee_setup *s, void **ctx, yee_err *err);
    /* The H update of the cells of box `cells` (NULL: every interior cell), H^{n-1/2} ->
     * H^{n+1/2}: yee_update_h_stages (kernels/stages.h). The solver updates the interior of a
     * subdomain while its halo exchange is in flight, then the boundary cells (solver/step.c):
     * calls on disjoint boxes that cover the subdomain give the bytes of one call on NULL. */
    int (*step_h)(void *ctx, const yee_box *cells, yee_err *err);
    /* The E update of box `cells` (NULL: all), E^n -> E^{n+1}: yee_update_e_stages
     * (polarization, curl and CPML, polarization current, PEC). Same box contract as step_h. */
    int (*step_e)(void *ctx, const yee_box *cells, yee_err *err);
    /* nsteps whole steps of the whole subdomain, with nothing between them but what the plans
     * hold (no halo exchange, no other read of the fields): for each step s the result of
     * step_h(NULL), apply_sources(plan[s].nm, m), step_e(NULL), apply_sources(plan[s].nj, j),
     * gather(plan[s].nsamp, samp, samp_out), bit for bit, but faster (the tuned CPU backend
     * sweeps H and E of a step, or two whole steps, in one pass over memory). NULL member: the
     * backend has no faster way and the solver calls those ops. */
    int (*advance)(void *ctx, int nsteps, const yee_step_plan *plan, yee_err *err);
    /* Adds point currents: J to E (after step_e of the same step), M to H (after step_h). */
    int (*apply_sources)(void *ctx, int n, const yee_point_current *src, yee_err *err);
    /* Allocates zeroed DFT sums (2 * nfreq * nodes doubles) for region r; writes its id. */
    int (*dft_create)(void *ctx, const yee_dft_region *r, int *id, yee_err *err);
    /* Adds the current field of region id with this step's phasors ph (2 * nfreq, see
     * yee_dft_add); the solver calls it for E after the E halo and for H after step_h. After an
     * advance call whose plans held DFT samples (yee_step_plan.dft), each region's next calls
     * take those steps' fields, one per call in step order, before the current field again. */
    int (*dft_accumulate)(void *ctx, int id, const double *ph, yee_err *err);
    /* Copies region id's sums to host re/im (nfreq x nodes, node x fastest), or with
     * set != 0 replaces the sums by re/im (restart from a checkpoint). */
    int (*dft_transfer)(void *ctx, int id, double *re, double *im, int set, yee_err *err);
    /* Snapshot output without stalling the time loop: copy_start snapshots component comp on
     * [lo, lo+count) into the backend's buffer `slot` (0 <= slot < 64) and starts moving it to
     * the host (a GPU: an asynchronous copy on a second stream, overlapping the next step's
     * kernels); copy_finish waits for it and copies it to out (host, x fastest). A slot holds
     * one pending copy; the fields may be stepped in between. */
    int (*copy_start)(void *ctx, int comp, const int lo[3], const int count[3], int slot,
                      yee_err *err);
    int (*copy_finish)(void *ctx, int slot, yee_real *out, yee_err *err);
    /* Copies the two components of `kind` tangential to `axis` (axis+1, axis+2 mod 3: the only
     * ones the stencil reads across a face) on the interior layer `layer` (0..n-1) into buf
     * (2 * n_other1 * n_other2 values, component-major, lower axis fastest). buf is host
     * memory or a buffer from halo_alloc (device memory there: packed without a host copy). */
    int (*pack_halo)(void *ctx, yee_field_kind kind, int axis, int layer, yee_real *buf,
                     yee_err *err);
    /* Writes buf (same layout) into the ghost layer `layer` (-1 or n) of `axis`. buf may be
     * reused (the next message received into it) as soon as the call returns. */
    int (*unpack_halo)(void *ctx, yee_field_kind kind, int axis, int layer, const yee_real *buf,
                       yee_err *err);
    /* A halo message buffer of `bytes`: device = 0 host memory fit for the fastest copies
     * (pinned on a GPU), device = 1 memory of the device itself, for an MPI library that reads
     * device pointers (CUDA-aware); NULL when there is no such memory (the CPU: device = 1) or
     * it cannot be had. Freed by halo_free before destroy. */
    void *(*halo_alloc)(void *ctx, size_t bytes, int device);
    void (*halo_free)(void *ctx, void *buf);
    /* Reads n sampled values into out (host memory). */
    int (*gather)(void *ctx, int n, const yee_sample *pts, yee_real *out, yee_err *err);
    /* Reads component comp on the cells [lo, lo+count) into out (host, x fastest). */
    int (*download)(void *ctx, int comp, const int lo[3], const int count[3], yee_real *out,
                    yee_err *err);
    /* Computes the field norms over the interior. */
    int (*norms)(void *ctx, yee_norms *out, yee_err *err);
    /* Bytes of memory this backend holds for the subdomain. */
    size_t (*bytes)(void *ctx);
    /* Frees everything; ctx is invalid afterwards. NULL is a no-op. */
    void (*destroy)(void *ctx);
    /* Measures this backend's memory bandwidth with a large array copy (STREAM "copy" on the CPU,
     * cudaMemcpy device-to-device on a GPU), counting bytes read plus bytes written per second.
     * Needs no ctx; for `yee bench`'s roofline fraction. */
    int (*copy_bandwidth)(double *bytes_per_s, yee_err *err);
    /* Host memory create() would allocate for a subdomain of these dims and slabs (all of
     * yee_backend_bytes_needed for the CPU, only small staging buffers for a GPU), so the
     * solver can refuse a run before it allocates anything. */
    size_t (*host_bytes)(yee_dims d, int pol2d, int nslabs, const yee_slab *slabs);
    /* Checkpoints (solver/checkpoint.h): the complete time-stepping state of the subdomain as
     * an ordered list of arrays ("parts"), the same list and layout on every backend so that a
     * checkpoint written on one restarts on another: parts 0..5 Ex, Ey, Ez, Hx, Hy, Hz over the
     * whole padded array, ghost layers included (the exchanged ghosts are read by the next
     * step); then per CPML slab, in setup order, psi_e[0], psi_e[1], psi_h[0], psi_h[1] (slab
     * cells, x fastest); last, with dispersive nodes, the npol polarization values. DFT sums
     * are not parts: dft_transfer moves them. Parts go one at a time, so a checkpoint needs
     * host memory for the largest part only, not for a second copy of the state. */
    int (*state_parts)(void *ctx);
    /* Bytes of part p (0 <= p < state_parts). */
    size_t (*state_part_bytes)(void *ctx, int p);
    /* Copies part p to host buf (set = 0), or replaces it by buf (set != 0). Reads/writes the
     * part only; called between steps (a pending deferred sweep is completed first). */
    int (*state_transfer)(void *ctx, int p, void *buf, int set, yee_err *err);
    /* 1: advance honours setup.wrap (any axis): it fills the wrapped ghosts from the fields
     * on entry and keeps them after each step's currents, bit for bit as pack_halo +
     * unpack_halo would, so a one-rank periodic cell takes the fast schedules. 0: the solver
     * exchanges periodic faces through the halo and steps one at a time. */
    int advance_wraps;
    /* 1: advance honours setup.link: it exchanges the linked faces itself at each step, as
     * the halo would between the steps, so a run split into slabs along z (rows of slabs along
     * y in 2-D) keeps the fast schedules. 0: the solver exchanges them through the halo, one
     * step at a time. */
    int advance_links;
    /* Complex fields (yee_backend_complex below) on the fast path: nsteps whole steps of a
     * complex field whose real and imaginary parts are the contexts re and im of this backend
     * (created from one setup), the wrapped ghosts (setup.wrap) of `kind` on `axis` taking the
     * Bloch factor phase[kind][axis] = {cos phi, sin phi}. For each step s the result, bit for
     * bit, of: step_h(NULL) on both parts; plan_re[s]'s magnetic currents on re, plan_im[s]'s
     * on im; for each wrapped axis pack_halo of both parts and yee_backend_complex's unpack_halo
     * (the pair rotated by the factor); step_e(NULL) on both; the electric currents likewise;
     * the E wraps likewise; gather of plan_re[s] on re and of plan_im[s] on im. NULL: the
     * backend cannot, and the solver exchanges a Bloch cell's faces through the halo, one step
     * at a time (requires advance_wraps). */
    int (*advance_complex)(void *re, void *im, const double phase[2][3][2], int nsteps,
                           const yee_step_plan *plan_re, const yee_step_plan *plan_im,
                           yee_err *err);
    /* 1: advance holds the DFT samples its plans ask for (yee_step_plan.dft; with complex
     * fields, advance_complex too), so that the solver need not end a call at each step that
     * samples a DFT. 0: the solver ends every call there and samples after it. */
    int advance_dft;
} yee_backend_ops;

/* The CPU (OpenMP) backend, always built: "cpu", the reference ops with the tuned schedules of
 * advance (kernels/cpu/tuned.c), and "cpu-reference", the same ops without them: the readable
 * loops every schedule is checked against (kernels/cpu/backend_cpu.c). */
extern const yee_backend_ops yee_backend_cpu;
extern const yee_backend_ops yee_backend_cpu_reference;
#ifdef YEE_HAVE_CUDA
/* The CUDA backend; built when nvcc is found. */
extern const yee_backend_ops yee_backend_cuda;
#endif

/* ---- complex fields (kernels/backend_complex.c) ----
 * A Bloch-periodic run (boundary.bloch) has complex fields: two instances of a real backend,
 * the real and the imaginary part, which only complex currents and the phase of ghost layers
 * across Bloch faces couple (the coefficients are real). yee_backend_complex is their ops table
 * over a ctx from yee_backend_complex_create (its own create refuses). Probes, snapshots and
 * downloads read the real part; DFT sums are those of the complex field; halo buffers are host
 * memory (the phase is applied on the host); advance takes the inner backend's advance_complex
 * (the split ops one step at a time where it has none); checkpoint parts are the real
 * part's, the imaginary part's, then both parts' own DFT sums per region (dft_transfer's set
 * does nothing: the combined sums cannot be split, the parts restore them). */
extern const yee_backend_ops yee_backend_complex;
int yee_backend_complex_create(const yee_backend_ops *inner, const yee_setup *s, void **ctx,
                               yee_err *err);
/* The factor exp(i phi) = cos_phi + i sin_phi a ghost layer of `kind` on `axis` takes when it
 * is unpacked (the value across a Bloch face); 1 (no change) until set. */
void yee_backend_complex_set_phase(void *ctx, yee_field_kind kind, int axis, double cos_phi,
                                   double sin_phi);
/* One value pair (re, im) times exp(i phi): in double, rounded once. Every path that applies a
 * Bloch factor (the complex unpack_halo, the CPU backend's wraps and linked faces) calls this,
 * so they agree bit for bit. The inputs are taken by value: out may alias them. */
static inline void yee_bloch_rotate(double cos_phi, double sin_phi, yee_real re, yee_real im,
                                    yee_real *out_re, yee_real *out_im)
{
    const double r = re, m = im;
    *out_re = (yee_real)(cos_phi * r - sin_phi * m);
    *out_im = (yee_real)(sin_phi * r + cos_phi * m);
}

/* ---- bookkeeping every backend shares (kernels/backend.c) ---- */

/* The checkpoint parts of a subdomain (the state_parts contract above), in that order: where
 * each array is (a host or device pointer) and its length in values. A backend fills one when
 * it is created and answers state_parts, state_part_bytes and state_transfer from it. */
enum { YEE_STATE_MAX_PARTS = 6 + 4 * 6 + 1 };
typedef struct yee_state_layout {
    int nparts;
    yee_real *part[YEE_STATE_MAX_PARTS];
    int64_t len[YEE_STATE_MAX_PARTS];
} yee_state_layout;

/* fields f (total values each); per slab its four psi arrays psi[s] = {psi_e[0], psi_e[1],
 * psi_h[0], psi_h[1]} of cells[s] values; the polarizations (npol values; none when npol 0).
 * An array a 2-D run of one polarization does not keep (NULL) is a part of length 0. */
void yee_state_layout_build(yee_state_layout *L, yee_fields f, int64_t total, int nslabs,
                            yee_real *const psi[][4], const int64_t *cells, yee_real *pol,
                            int64_t npol);

/* The 1-D lines of a setup in one block, per axis ie, be, ae (n+1 values) then ih, bh, ah (n):
 * its length in values, the block filled from the setup (host memory), and the pointers of
 * yee_lines and yee_cpml_axis into a block of that layout at base (host or device). */
size_t yee_lines_length(yee_dims d);
void yee_lines_pack(const yee_setup *s, yee_real *block);
void yee_lines_point(yee_dims d, yee_real *base, yee_lines *lines, yee_cpml_axis pml[3]);

/* Each row's span of cells not of material 0, for the E updates that take material 0's
 * coefficients as constants outside it (the same values as the per-cell lookup, without reading
 * the index bytes). Row r = j + k n1 holds every cell with a nonzero index on any component in
 * [span[2r], span[2r+1]); a row of material 0 only has span[2r] = span[2r+1] = n0. span holds
 * 2 n1 n2 ints; no material arrays (s->mat[a] NULL) is material 0 everywhere. */
void yee_row_spans(const yee_setup *s, int *span);

/* The cells of slab s, and its extents in w. */
int64_t yee_slab_cells(const yee_slab *s, int64_t w[3]);

/* Backend by name ("cpu", "cpu-reference", "cuda"); NULL if not built in. */
const yee_backend_ops *yee_backend_find(const char *name);

/* Host memory available for new allocations now (MemAvailable of /proc/meminfo), in bytes;
 * 0 when unknown. Backends compare their needs against it before allocating. */
size_t yee_host_memory_available(void);

/* YEE_ERR_NOMEM ("the grid needs at least X GiB of host memory on this rank but only Y GiB are
 * available ...") when need exceeds yee_host_memory_available(): checked before allocating, so
 * a run that cannot fit stops with a message instead of being killed half-way. */
int yee_backend_check_host_memory(size_t need, yee_err *err);

/* Number of usable CUDA devices (0 when the CUDA backend is not built or finds none). */
int yee_backend_cuda_devices(void);

/* 1 when the CUDA backend is the emulated build (-DYEE_CUDA=EMULATE: the .cu code runs on the
 * CPU, for tests): it answers --backend cuda, but `auto` and `bench --backend all` pass it by. */
int yee_backend_cuda_emulated(void);

/* Name (with compute capability), total and free memory of CUDA device dev (free is 0 unless dev
 * is the current device). YEE_ERR_CUDA when there is no such device or no CUDA backend. */
int yee_backend_cuda_device_info(int dev, char *name, size_t cap, size_t *total,
                                 size_t *free_bytes);

/* Bytes one backend needs for dims, the 2-D polarization (yee_setup.pol2d) and slabs (fields,
 * materials, psi), for estimates before allocating (yee check, memory checks). Same for every
 * backend. */
size_t yee_backend_bytes_needed(yee_dims d, int pol2d, int nslabs, const yee_slab *slabs);

/* How many samples of a DFT region of nfreq frequencies the CPU backend holds before adding
 * them to the sums (1 .. YEE_DFT_BATCH_MAX; 8 bytes per node each, at most 1/8 of the sums' 16
 * nfreq). */
#define YEE_DFT_BATCH_MAX 16
int yee_dft_batch(int nfreq);

#ifdef __cplusplus
}
#endif

#endif
