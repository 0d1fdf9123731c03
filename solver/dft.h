/* solver/dft.h -- frequency-domain monitors: Poynting flux through planes and closed boxes, and
 * DFT fields over boxes, accumulated on the fly by the backend (kernels/backend.h dft_*).
 *
 * Every step s (E at s dt, H at (s - 1/2) dt, each sampled at its own time) adds
 *   F(f) += F(t) exp(i 2 pi f t) dt
 * to the running sums of the monitored components, so no time series is stored. The flux through
 * a face normal to axis p (tangential axes q, r) is
 *   P(f) = sum over nodes of w Re[E_q(f) conj(H_r(f)) - E_r(f) conj(H_q(f))] dx_q dx_r
 * with E on the E nodes of the plane and H the mean of the two H planes half a cell on either
 * side (the pairs E_q/H_r and E_r/H_q share their in-plane positions on the Yee grid, so no
 * in-plane interpolation is needed), w the fraction of each node's cell inside the monitor (1/2
 * on an edge: the trapezoid rule, so a box's faces meet without counting their edges twice;
 * 1 across a periodic axis the monitor spans). This is Meep's flux convention (no factor 1/2); a closed
 * box sums its six faces with outward normals. Spectra go to the run's HDF5 file and to
 * <dir>/<name>_<monitor>_flux.csv.
 *
 * Normalization: with `reference` the monitor also reports normalized(f) = P(f) / P_ref(f), the
 * same monitor's flux in an earlier run (e.g. without the scatterer); with
 * `subtract_reference` the earlier run's DFT fields (saved with save_fields) are subtracted
 * before the flux is formed, which leaves the scattered (reflected) part only: Meep's
 * load_minus_flux. With MPI each rank sums its part and the spectra are reduced across ranks.
 */
#ifndef YEE_SOLVER_DFT_H
#define YEE_SOLVER_DFT_H

#include <mpi.h>

#include "common/yee_err.h"
#include "model/config.h"
#include "io/h5out.h"
#include "kernels/backend.h"

typedef struct yee_dft_set yee_dft_set;

/* Registers the flux and DFT monitors of cfg with the backend (be, ctx) for the subdomain of
 * n_local cells at global offset, sampling every `every` steps (0: every k-th step, k the
 * largest with 1/(k dt) above the sources' top frequency plus the monitors', as Meep decimates).
 * Errors: YEE_ERR_NOMEM and backend errors. */
int yee_dft_set_create(const yee_config *cfg, const yee_backend_ops *be, void *ctx,
                       const int n_local[3], const int offset[3], int every, yee_dft_set **out,
                       yee_err *err);

/* Adds the fields after completed step s (E^s, H^{s-1/2}, halos exchanged). */
int yee_dft_set_accumulate(yee_dft_set *d, long s, yee_err *err);

/* 1 if yee_dft_set_accumulate(d, s, ...) would sample anything. */
int yee_dft_set_due(const yee_dft_set *d, long s);
/* Bytes a backend holds per step whose DFT fields an advance call keeps (yee_step_plan.dft):
 * each region of this rank and, averaging, the layer of nodes below it, in yee_real (an upper
 * bound: kernels/cpu/backend_cpu.c holds no layer along an axis of stride 0). */
size_t yee_dft_set_hold_bytes(const yee_dft_set *d);

/* Forms the spectra (reference runs read here), reduces them over comm and writes them to h5
 * (collective) and, on rank 0, to the CSV files. */
int yee_dft_set_write(yee_dft_set *d, yee_h5 *h5, MPI_Comm comm, yee_err *err);

/* Bytes of DFT sums a run of cfg keeps on one rank holding the whole grid (estimates). */
size_t yee_dft_bytes_estimate(const yee_config *cfg);

/* Host buffers of every region's sums, in order, for checkpoints: *n regions; region r has
 * yee_dft_set_region_size(d, r) doubles in re and as many in im. transfer(set=0) copies the
 * backend's sums out, set=1 back in. */
int yee_dft_set_regions(const yee_dft_set *d);
int64_t yee_dft_set_region_size(const yee_dft_set *d, int r);
int yee_dft_set_transfer(yee_dft_set *d, int r, double *re, double *im, int set, yee_err *err);

void yee_dft_set_destroy(yee_dft_set *d);

#endif
