/* tests/gpu/parity.c -- CPU and CUDA backends on the same deck agree.
 *
 * usage: parity DECK STEPS
 * Runs STEPS steps of DECK on each backend (no output files) and compares all six components
 * over the whole grid: max |cpu - cuda| <= atol + rtol * max |cpu|, with rtol = 1e-6 and
 * atol = 1e-30. Both backends execute the same IEEE operations in the same order (no FMA
 * contraction on either side), so the expected difference is exactly zero; the bound leaves room
 * only for a libm difference in host-evaluated source values, which both share anyway.
 * Exits 77 (ctest: skipped) when the CUDA backend is not built or no device is present.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/deck.h"
#include "solver/sim.h"

static int run(const yee_config *cfg, const char *backend, long steps, yee_real **fields,
               yee_err *err)
{
    yee_run_options opt = yee_run_options_default();
    opt.backend = backend;
    opt.no_output = 1;
    yee_sim *sim = NULL;
    int rc = yee_sim_create(cfg, &opt, &sim, err);
    if (rc == YEE_OK)
        rc = yee_sim_advance(sim, steps, err);
    const int lo[3] = {0, 0, 0};
    const size_t cells = (size_t)cfg->n[0] * cfg->n[1] * cfg->n[2];
    for (int c = 0; c < YEE_NCOMP && rc == YEE_OK; c++) {
        fields[c] = (yee_real *)malloc(cells * sizeof(yee_real));
        rc = yee_sim_download(sim, c, lo, cfg->n, fields[c], err);
    }
    yee_sim_destroy(sim);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc != 3) {
        fprintf(stderr, "usage: parity DECK STEPS\n");
        return 2;
    }
    if (!yee_backend_find("cuda") || yee_backend_cuda_devices() == 0) {
        printf("SKIP parity %s: no CUDA backend or device\n", argv[1]);
        MPI_Finalize();
        return 77;
    }
    const long steps = atol(argv[2]);
    yee_config cfg;
    yee_err err;
    if (yee_deck_load(argv[1], NULL, 0, &cfg, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    yee_real *cpu[YEE_NCOMP] = {0}, *gpu[YEE_NCOMP] = {0};
    if (run(&cfg, "cpu", steps, cpu, &err) < 0 || run(&cfg, "cuda", steps, gpu, &err) < 0) {
        fprintf(stderr, "FAIL parity: %s\n", err.msg);
        return 1;
    }
    const size_t cells = (size_t)cfg.n[0] * cfg.n[1] * cfg.n[2];
    const double rtol = 1e-6, atol = 1e-30;
    int failed = 0;
    for (int c = 0; c < YEE_NCOMP; c++) {
        double maxref = 0.0, maxdiff = 0.0;
        size_t differing = 0;
        for (size_t q = 0; q < cells; q++) {
            const double a = cpu[c][q], b = gpu[c][q];
            maxref = fmax(maxref, fabs(a));
            maxdiff = fmax(maxdiff, fabs(a - b));
            differing += a != b;
        }
        const double tol = atol + rtol * maxref;
        const int ok = maxdiff <= tol;
        failed |= !ok;
        printf("%s parity %s %s after %ld steps (err=%.3g, tol=%.3g, max|cpu|=%.3g, %zu of %zu "
               "values differ)\n",
               ok ? "PASS" : "FAIL", argv[1], yee_component_name(c), steps, maxdiff, tol, maxref,
               differing, cells);
        free(cpu[c]);
        free(gpu[c]);
    }
    yee_config_free(&cfg);
    MPI_Finalize();
    return failed;
}
