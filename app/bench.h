/* app/bench.h -- `yee bench`: throughput of the backends on a standard problem.
 *
 * The problem is the one gprMax and openEMS publish figures for: a vacuum box with a 10-cell
 * CPML on every face and one Ez dipole (Gaussian pulse) in the middle, float fields, no output.
 * Each backend is warmed up, then timed over `repeat` runs of `steps` steps; the median is
 * reported as Mcells/s = nx*ny*nz*steps / seconds / 1e6, with the memory per cell and the
 * fraction of the backend's measured copy bandwidth that the update achieves
 * (docs/performance.md: a cell update moves 18 field values, plus the CPML psi values).
 * Under mpirun every rank takes part (the grid is decomposed as for `yee run`); rank 0 prints.
 * Strong scaling: the same --size on 1, 2, 4 ... ranks; weak scaling (--weak): --size per rank.
 */
#ifndef YEE_APP_BENCH_H
#define YEE_APP_BENCH_H

#include <stdio.h>

#include "common/yee_err.h"
#include "solver/sim.h"

typedef struct yee_bench_options {
    const char *backend; /* "cpu", "cuda", "all" (every backend built and usable) */
    int n[3];            /* cells per axis */
    long steps;          /* timed steps per repeat */
    int threads;         /* OpenMP threads (0: leave as is) */
    int repeat;          /* timed repeats; the median is reported */
    int json;            /* JSON instead of a table */
    int weak;            /* under MPI: n is per rank and the global grid grows with the ranks */
    int ranks[3];        /* MPI ranks per axis (as yee run --ranks); all 0: MPI_Dims_create */
    yee_run_options run; /* tuning (from the environment, as for yee run) */
} yee_bench_options;

/* Bytes one cell update of the standard problem on an n[0] x n[1] x n[2] grid must move to
 * and from memory, averaged over the grid: read E, H (6 values) and write H (3) in step_h,
 * read H, E (6) and write E (3) in step_e (vacuum: no material bytes are needed), and in each
 * of the six 10-cell CPML slabs read and write 2 psi_h and 2 psi_e values per slab cell
 * (docs/performance.md). Dividing the measured copy bandwidth by it gives the roofline bound. */
double yee_bench_bytes_per_cell_update(const int n[3]);

/* Run the benchmark (collective over MPI_COMM_WORLD) and print the results to out on rank 0.
 * Errors: backend creation failures. */
int yee_bench_run(const yee_bench_options *opt, FILE *out, yee_err *err);

#endif
