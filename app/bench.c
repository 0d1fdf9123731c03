/* app/bench.c -- the standard throughput problem, timed per backend (see bench.h). */
#include "app/bench.h"

#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "solver/sim.h"

double yee_bench_bytes_per_cell_update(const int n[3])
{
    const double cells = (double)n[0] * n[1] * n[2];
    double slab_cells = 0.0; /* each slab spans the whole grid across its axis */
    for (int a = 0; a < 3; a++)
        slab_cells += 2.0 * 10.0 * cells / n[a];
    return 18.0 * sizeof(yee_real) + 8.0 * sizeof(yee_real) * slab_cells / cells;
}

/* The standard problem: dx = 0.05 um (20 cells per um), CPML 10 cells, dipole at 1 um. */
static void standard_config(const yee_bench_options *opt, yee_config *c, yee_source_cfg *src)
{
    memset(c, 0, sizeof *c);
    memset(src, 0, sizeof *src);
    snprintf(c->name, sizeof c->name, "bench");
    snprintf(c->out_dir, sizeof c->out_dir, ".");
    for (int a = 0; a < 3; a++) {
        c->n[a] = opt->n[a];
        c->dx[a] = 0.05;
        c->origin[a] = -0.5 * c->n[a] * c->dx[a];
        c->boundary[a][0] = c->boundary[a][1] = YEE_BC_CPML;
        c->pml_cells[a][0] = c->pml_cells[a][1] = 10;
    }
    c->courant = 0.99;
    c->dt = yee_courant_dt(c->dx, c->courant);
    c->steps = 1L << 40; /* advanced in pieces; never reached */
    c->eps_r = 1.0;
    c->pml_order = 3.0;
    c->pml_sigma_factor = 1.0;
    c->pml_kappa_max = 1.0;
    c->check_interval = 1L << 40;
    src->component = YEE_EZ;
    src->profile.kind = YEE_PROFILE_GAUSSIAN;
    src->profile.frequency = 1.0;
    src->profile.fwidth = 0.3;
    src->profile.delay = 5.0 / (2.0 * M_PI * 0.3);
    src->profile.amplitude = 1.0;
    c->nsources = 1;
    c->sources = src;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n sorted values. */
static double median(const double *v, int n)
{
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct bench_result {
    const char *backend;
    double mcells_median, mcells_min, mcells_max;
    double bytes_per_cell;
    double bandwidth;     /* bytes/s measured */
    double fraction;      /* of the bandwidth bound */
    double halo_wait;     /* fraction of the run the rank that waited most spent waiting for halos */
    int ranks;
} bench_result;

static int bench_backend(const yee_bench_options *opt, const char *name, bench_result *r,
                         yee_err *err)
{
    yee_config cfg;
    yee_source_cfg src;
    standard_config(opt, &cfg, &src);
    yee_run_options ro = opt->run;
    ro.backend = name;
    ro.no_output = 1;
    for (int a = 0; a < 3; a++)
        ro.ranks[a] = opt->ranks[a];
    yee_sim *sim = NULL;
    YEE_TRY(yee_sim_create(&cfg, &ro, &sim, err));
    const double cells = (double)cfg.n[0] * cfg.n[1] * cfg.n[2];
    int nranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    /* rates, then copy bandwidths and bound fractions measured right after each repeat: on a
     * shared machine the two drift together, so their ratio is steadier than either */
    double *rates = (double *)calloc(3 * (size_t)opt->repeat, sizeof(double));
    double *bws = rates + opt->repeat, *fracs = rates + 2 * opt->repeat;
    const yee_backend_ops *be = yee_backend_find(name);
    const double bytes_update = yee_bench_bytes_per_cell_update(cfg.n);
    int rc = rates ? yee_sim_advance(sim, opt->steps / 10 + 1, err) /* warm-up */
                   : YEE_FAIL(err, YEE_ERR_NOMEM, "bench");
    for (int k = 0; k < opt->repeat && rc == YEE_OK; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        rc = yee_sim_advance(sim, opt->steps, err);
        /* a device backend must have finished: read one value back before stopping the clock */
        yee_real probe_value;
        const int lo[3] = {0, 0, 0}, one[3] = {1, 1, 1};
        if (rc == YEE_OK)
            rc = yee_sim_download(sim, YEE_EZ, lo, one, &probe_value, err);
        MPI_Barrier(MPI_COMM_WORLD); /* the slowest rank sets the pace */
        rates[k] = cells * (double)opt->steps / (MPI_Wtime() - t0) / 1e6;
        /* every rank copies at once: their sum is what the ranks share */
        if (rc == YEE_OK)
            rc = be->copy_bandwidth(&bws[k], err);
        MPI_Allreduce(MPI_IN_PLACE, &bws[k], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        fracs[k] = rates[k] * 1e6 * bytes_update / bws[k];
    }
    yee_run_stats stats;
    if (rc == YEE_OK)
        rc = yee_sim_finish(sim, &stats, err);
    if (rc == YEE_OK) {
        double bytes = (double)stats.backend_bytes;
        MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        stats.backend_bytes = (size_t)bytes;
        qsort(rates, (size_t)opt->repeat, sizeof(double), cmp_double);
        qsort(bws, (size_t)opt->repeat, sizeof(double), cmp_double);
        qsort(fracs, (size_t)opt->repeat, sizeof(double), cmp_double);
        r->backend = name;
        r->mcells_median = median(rates, opt->repeat);
        r->mcells_min = rates[0];
        r->mcells_max = rates[opt->repeat - 1];
        r->bytes_per_cell = (double)stats.backend_bytes / cells;
        r->bandwidth = median(bws, opt->repeat);
        r->ranks = nranks;
        r->fraction = median(fracs, opt->repeat);
        r->halo_wait = stats.seconds > 0 ? stats.halo.wait_s / stats.seconds : 0.0;
        MPI_Allreduce(MPI_IN_PLACE, &r->halo_wait, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    free(rates);
    yee_sim_destroy(sim);
    return rc;
}

int yee_bench_run(const yee_bench_options *opt_in, FILE *out, yee_err *err)
{
    yee_bench_options o = *opt_in;
    const yee_bench_options *opt = &o;
    int nranks = 1, rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (o.weak && nranks > 1) {
        /* each rank keeps n[0] x n[1] x n[2]: the global grid grows with the rank grid that
         * solver/sim.c will choose for it (MPI_Dims_create, most ranks on the longest axis) */
        int dims[3] = {o.ranks[0], o.ranks[1], o.ranks[2]};
        if (!dims[0]) { /* large to small from MPI_Dims_create; sim.c prefers z for ties */
            int made[3] = {0, 0, 0};
            MPI_Dims_create(nranks, 3, made);
            for (int a = 0; a < 3; a++)
                dims[a] = made[2 - a];
        }
        for (int a = 0; a < 3; a++)
            o.n[a] *= dims[a];
    }
    if (opt->threads > 0)
        omp_set_num_threads(opt->threads);
    if (rank != 0)
        out = NULL;
    const char *names[3];
    int nb = 0;
    if (strcmp(opt->backend, "all") == 0) {
        /* the reference beside the tuned CPU backend: what its schedules gain */
        names[nb++] = "cpu";
        names[nb++] = "cpu-reference";
        if (yee_backend_find("cuda") && !yee_backend_cuda_emulated() &&
            yee_backend_cuda_devices() > 0)
            names[nb++] = "cuda";
    } else {
        const yee_backend_ops *be = NULL;
        YEE_TRY(yee_backend_pick(opt->backend, &be, err));
        names[nb++] = be->name;
    }
    bench_result res[3];
    for (int b = 0; b < nb; b++)
        YEE_TRY(bench_backend(opt, names[b], &res[b], err));
    const double cells = (double)opt->n[0] * opt->n[1] * opt->n[2];
    if (!out)
        return YEE_OK;
    if (opt->json) {
        fprintf(out, "{\"problem\": {\"n\": [%d, %d, %d], \"cells\": %.0f, \"steps\": %ld, "
                     "\"repeat\": %d, \"precision\": \"%s\", \"cpml_cells\": 10, "
                     "\"bytes_per_cell_update\": %.1f, \"threads\": %d, \"ranks\": %d, "
                     "\"weak\": %s},\n \"results\": [",
                opt->n[0], opt->n[1], opt->n[2], cells, opt->steps, opt->repeat, YEE_REAL_NAME,
                yee_bench_bytes_per_cell_update(opt->n), omp_get_max_threads(), nranks,
                opt->weak ? "true" : "false");
        for (int b = 0; b < nb; b++)
            fprintf(out, "%s\n  {\"backend\": \"%s\", \"mcells_per_s\": %.2f, \"min\": %.2f, "
                         "\"max\": %.2f, \"bytes_per_cell\": %.2f, \"copy_bandwidth_gb_s\": %.2f, "
                         "\"bandwidth_fraction\": %.3f, \"halo_wait_fraction\": %.4f}",
                    b ? "," : "", res[b].backend, res[b].mcells_median, res[b].mcells_min,
                    res[b].mcells_max, res[b].bytes_per_cell, res[b].bandwidth / 1e9,
                    res[b].fraction, res[b].halo_wait);
        fprintf(out, "\n ]}\n");
        return YEE_OK;
    }
    fprintf(out, "yee bench: %d x %d x %d cells (%.2f M), vacuum + 10-cell CPML + dipole, %s, "
                 "%ld steps x %d repeats, %d threads x %d rank%s%s\n",
            opt->n[0], opt->n[1], opt->n[2], cells / 1e6, YEE_REAL_NAME, opt->steps, opt->repeat,
            omp_get_max_threads(), nranks, nranks > 1 ? "s" : "",
            opt->weak && nranks > 1 ? " (weak scaling: the grid grows with the ranks)" : "");
    fprintf(out, "%-8s %12s %12s %12s %10s %14s %10s\n", "backend", "Mcells/s", "min", "max",
            "B/cell", "copy GB/s", "of bound");
    for (int b = 0; b < nb; b++)
        fprintf(out, "%-8s %12.1f %12.1f %12.1f %10.1f %14.1f %9.0f%%\n", res[b].backend,
                res[b].mcells_median, res[b].mcells_min, res[b].mcells_max, res[b].bytes_per_cell,
                res[b].bandwidth / 1e9, 100.0 * res[b].fraction);
    fprintf(out, "(medians of the repeats; copy bandwidth measured after each repeat; bound = copy "
                 "bandwidth / %.1f bytes per cell update)\n",
            yee_bench_bytes_per_cell_update(opt->n));
    for (int b = 0; b < nb && nranks > 1; b++)
        fprintf(out, "%s: waiting for halo messages took up to %.1f%% of a rank's time\n",
                res[b].backend, 100.0 * res[b].halo_wait);
    return YEE_OK;
}
