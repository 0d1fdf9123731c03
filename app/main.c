/* app/main.c -- the `yee` command line: run, check, bench, info, deck-keys and help here; the
 * others (sweep, resonances, export-vtk) handed to their modules. The only place that prints
 * final errors and chooses exit codes (YEE_EXIT_* in app/commands.h, which also holds every help
 * text): 0 success, 1 a failed run or an invalid deck, 2 a bad command line, 3 a run stopped by
 * SIGTERM (after writing a checkpoint, or before its first step).
 */
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/yee_mpi_env.h"
#include "common/yee_num.h"
#include "io/deck.h"
#include "io/h5out.h"
#include "model/mesh.h"
#include "model/nodes.h"
#include "model/resolution.h"
#include "postproc/export_vtk.h"
#include "postproc/resonances.h"
#include "postproc/farfield.h"
#include "app/bands.h"
#include "app/modes.h"
#include "app/bench.h"
#include "app/child_env.h"
#include "app/commands.h"
#include "solver/geometry_out.h"
#include "solver/structure.h"
#include "solver/sim.h"
#include "solver/stability.h"
#include "solver/waveform.h"
#include "app/sweep.h"

extern char **environ;

/* Upper bounds of the numeric options: far above any real run, low enough that the product of
 * three never overflows and a typo (an extra digit or three) is an error, not a week-long job. */
enum {
    YEE_MAX_RANKS_PER_AXIS = 100000,
    YEE_MAX_CELLS_PER_AXIS = 100000,
    YEE_MAX_THREADS = 100000,
    YEE_MAX_REPEAT = 1000000,
};

#ifndef YEE_VERSION
#define YEE_VERSION "0.0.0"
#endif

typedef struct cli {
    const char *deck;
    const char *out_dir;
    const char *backend;
    const char **sets;
    int nsets;
    int quiet;
    int energy;           /* print the field energy at every health check */
    int ranks[3];
    const char *geometry_dir; /* yee check --geometry DIR */
    const char *restart;      /* yee run --restart CKPT */
} cli;

static int rank0(void)
{
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r == 0;
}

/* Set when a numeric environment variable is not a whole number (env_long said so). */
static int env_bad;

/* The only place the library's options come from the environment (docs/performance.md and
 * docs/cluster.md name the tuning variables; tests use the YEE_SIGNAL_* and YEE_FAULT_RANK hooks).
 * A value that is not a whole number is an error, never a silent default: YEE_STEPS_PER_SWEEP=abc
 * used to run with the default K. */
static long env_long(const char *name, long otherwise)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return otherwise;
    long out;
    yee_err err;
    if (yee_parse_long(name, v, LONG_MIN, LONG_MAX, &out, &err) != 0) {
        if (!env_bad && rank0())
            fprintf(stderr, "yee: error: environment: %s\n", err.msg);
        env_bad = 1;
        return otherwise;
    }
    return out;
}

static yee_run_options run_options_from_environment(void)
{
    yee_run_options o = yee_run_options_default();
    o.tuning.fused_steps = (int)env_long("YEE_FUSED_STEPS", 0);
    o.tuning.no_dft_hold = env_long("YEE_DFT_HOLD", 1) == 0;
    o.tuning.no_overlap = env_long("YEE_HALO_OVERLAP", 1) == 0;
    const char *aware = getenv("YEE_CUDA_AWARE_MPI");
    if (aware && *aware)
        o.tuning.cuda_aware_mpi = atoi(aware) ? 1 : -1;
    o.tuning.dft_every = (int)env_long("YEE_DFT_EVERY", 0);
    o.tuning.cpu_band_rows = (int)env_long("YEE_CPU_PAIR_ROWS", 0);
    o.tuning.cpu_sweep_steps = (int)env_long("YEE_STEPS_PER_SWEEP", 0);
    o.tuning.cpu_unmeasured = env_long("YEE_CPU_BALANCE", 1) == 0;
    o.tuning.sync_each_launch = env_long("YEE_DEBUG_SYNC", 0) == 1;
    /* YEE_SIGNAL_AT_STEP=N[:USR1|:KILL] raises SIGTERM (SIGUSR1, SIGKILL) after step N, on rank
     * YEE_SIGNAL_RANK only when set: tests stop a run as a scheduler or a crash would */
    const char *sig_at = getenv("YEE_SIGNAL_AT_STEP");
    if (sig_at && *sig_at) {
        o.test.signal_at_step = atol(sig_at);
        o.test.signal_num = strstr(sig_at, "USR1") ? SIGUSR1
                            : strstr(sig_at, "KILL") ? SIGKILL
                                                     : SIGTERM;
    }
    o.test.signal_rank = (int)env_long("YEE_SIGNAL_RANK", -1);
    o.test.fault_rank = (int)env_long("YEE_FAULT_RANK", -1);
    o.test.fault = o.test.fault_rank >= 0;
    o.test.no_reserve = env_long("YEE_H5_NO_RESERVE", 0) == 1;
    o.test.nan_at_step = env_long("YEE_NAN_AT_STEP", 0);
    return o;
}

/* A numeric option that is not one (common/yee_num.h): prints "yee CMD: --opt wants ... (got
 * '...')" on rank 0 and returns YEE_EXIT_USAGE. Every rank parses the same argv, so all agree. */
static int option_error(const char *cmd, const yee_err *err)
{
    if (rank0())
        fprintf(stderr, "yee %s: %s\n", cmd, err->msg);
    return YEE_EXIT_USAGE;
}

/* --ranks PXxPYxPZ (each rank count >= 1); 0 or YEE_EXIT_USAGE (message printed) */
static int parse_ranks(const char *cmd, const char *s, int r[3])
{
    long v[3];
    yee_err err;
    if (yee_parse_triple("--ranks", s, "PXxPYxPZ", 1, YEE_MAX_RANKS_PER_AXIS, 0, v, &err) < 0)
        return option_error(cmd, &err);
    for (int a = 0; a < 3; a++)
        r[a] = (int)v[a];
    return 0;
}

/* Parse the options after the command word; returns 0 or 2 (usage error, message printed). */
static int parse_cli(int argc, char **argv, int first, int allow_run_opts, cli *c)
{
    memset(c, 0, sizeof *c);
    c->sets = (const char **)calloc((size_t)argc, sizeof *c->sets);
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--set") == 0 && i + 1 < argc) {
            c->sets[c->nsets++] = argv[++i];
        } else if (strncmp(a, "--set=", 6) == 0) {
            c->sets[c->nsets++] = a + 6;
        } else if (!allow_run_opts && strcmp(a, "--geometry") == 0 && i + 1 < argc) {
            c->geometry_dir = argv[++i];
        } else if (allow_run_opts && strcmp(a, "--out") == 0 && i + 1 < argc) {
            c->out_dir = argv[++i];
        } else if (allow_run_opts && strcmp(a, "--restart") == 0 && i + 1 < argc) {
            c->restart = argv[++i];
        } else if (allow_run_opts && strcmp(a, "--backend") == 0 && i + 1 < argc) {
            c->backend = argv[++i];
        } else if (allow_run_opts && strcmp(a, "--ranks") == 0 && i + 1 < argc) {
            if (parse_ranks(argv[1], argv[++i], c->ranks))
                return YEE_EXIT_USAGE;
        } else if (allow_run_opts && (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0)) {
            c->quiet = 1;
        } else if (allow_run_opts && strcmp(a, "--energy") == 0) {
            c->energy = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            if (rank0())
                fprintf(stderr, "yee: unknown or incomplete option '%s' (see yee %s --help)\n", a,
                        argv[1]);
            return YEE_EXIT_USAGE;
        } else if (!c->deck) {
            c->deck = a;
        } else {
            if (rank0())
                fprintf(stderr, "yee: more than one deck given ('%s' and '%s')\n", c->deck, a);
            return YEE_EXIT_USAGE;
        }
    }
    if (!c->deck) {
        if (rank0())
            fprintf(stderr, "yee: no deck given (see yee %s --help)\n", argv[1]);
        return YEE_EXIT_USAGE;
    }
    return 0;
}

static int load_deck(const cli *c, yee_config *cfg)
{
    yee_err err;
    err.msg[0] = '\0';
    int rc = yee_deck_load(c->deck, c->sets, c->nsets, cfg, &err);
    if (rc < 0) {
        if (rank0())
            fprintf(stderr, "%s\n", err.msg);
        return YEE_EXIT_ERROR;
    }
    if (c->out_dir)
        snprintf(cfg->out_dir, sizeof cfg->out_dir, "%s", c->out_dir);
    return 0;
}

static void human_bytes(double b, char *out, size_t n)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024.0 && u < 4) {
        b /= 1024.0;
        u++;
    }
    snprintf(out, n, "%.1f %s", b, unit[u]);
}

static const char *bc_name(yee_boundary b)
{
    return b == YEE_BC_PEC ? "pec" : b == YEE_BC_CPML ? "cpml" : b == YEE_BC_PMC ? "pmc"
                                                                      : "periodic";
}

/* The graded axes of a grid.refine mesh: their narrowest and widest cells and the largest ratio
 * of neighbouring cells the grading reached (model/mesh.h). */
static void print_mesh(const yee_config *cfg, FILE *out)
{
    for (int a = 0; a < 3; a++) {
        if (!cfg->mesh[a])
            continue;
        double wmax = 0.0;
        for (int i = 0; i < cfg->n[a]; i++)
            wmax = fmax(wmax, cfg->mesh[a][i + 1] - cfg->mesh[a][i]);
        fprintf(out, "graded      %c: %d cells of %g to %g um, neighbours within %.3f "
                     "(grid.grading %g)\n", "xyz"[a], cfg->n[a], yee_min_width(cfg, a), wmax,
                yee_mesh_max_ratio(cfg->mesh[a], cfg->n[a]), cfg->grading);
    }
}

/* Print the summary `yee check` shows; returns the number of warnings, and counts errors
 * (the deck is valid but cannot run here) in *errors. */
static int print_check(const yee_config *cfg, FILE *out, int *errors)
{
    int warnings = 0, errors_out = 0;
    const double cells = (double)cfg->n[0] * cfg->n[1] * cfg->n[2];
    char mem[32];
    human_bytes((double)yee_sim_bytes_estimate(cfg), mem, sizeof mem);
    fprintf(out, "deck        %s (run name '%s')\n", cfg->deck_path, cfg->name);
    if (cfg->two_d) {
        fprintf(out, "grid        2-D, %d x %d = %.0f cells, dx = %g x %g um (fields independent "
                     "of z; line sources and fluxes per um of z)\n", cfg->n[0], cfg->n[1], cells,
                cfg->dx[0], cfg->dx[1]);
        fprintf(out, "domain      [%g, %g] x [%g, %g] um\n", cfg->origin[0],
                yee_domain_end(cfg, 0), cfg->origin[1], yee_domain_end(cfg, 1));
        print_mesh(cfg, out);
        fprintf(out, "fields      %s\n", cfg->pol2d == YEE_POL_TM ? "TM: Ez, Hx, Hy"
                                       : cfg->pol2d == YEE_POL_TE ? "TE: Hz, Ex, Ey"
                                                                  : "TM and TE: all six");
        fprintf(out, "boundaries  x %s/%s, y %s/%s; CPML cells %d/%d %d/%d\n",
                bc_name(cfg->boundary[0][0]), bc_name(cfg->boundary[0][1]),
                bc_name(cfg->boundary[1][0]), bc_name(cfg->boundary[1][1]), cfg->pml_cells[0][0],
                cfg->pml_cells[0][1], cfg->pml_cells[1][0], cfg->pml_cells[1][1]);
    } else {
        fprintf(out, "grid        %d x %d x %d = %.0f cells, dx = %g x %g x %g um\n", cfg->n[0],
                cfg->n[1], cfg->n[2], cells, cfg->dx[0], cfg->dx[1], cfg->dx[2]);
        fprintf(out, "domain      [%g, %g] x [%g, %g] x [%g, %g] um\n", cfg->origin[0],
                yee_domain_end(cfg, 0), cfg->origin[1], yee_domain_end(cfg, 1), cfg->origin[2],
                yee_domain_end(cfg, 2));
        print_mesh(cfg, out);
        fprintf(out, "boundaries  x %s/%s, y %s/%s, z %s/%s; CPML cells %d/%d %d/%d %d/%d\n",
                bc_name(cfg->boundary[0][0]), bc_name(cfg->boundary[0][1]),
                bc_name(cfg->boundary[1][0]), bc_name(cfg->boundary[1][1]),
                bc_name(cfg->boundary[2][0]), bc_name(cfg->boundary[2][1]), cfg->pml_cells[0][0],
                cfg->pml_cells[0][1], cfg->pml_cells[1][0], cfg->pml_cells[1][1],
                cfg->pml_cells[2][0], cfg->pml_cells[2][1]);
    }
    if (cfg->complex_fields)
        fprintf(out, "bloch       k = [%g, %g, %g] 1/um: complex fields (twice the memory and "
                "work); snapshots and probes are the real part\n", cfg->bloch[0], cfg->bloch[1],
                cfg->bloch[2]);
    fprintf(out, "time step   dt = %.6g fs (Courant %.3g of the %s limit)\n",
            cfg->dt * YEE_TIME_UNIT_FS, cfg->courant, cfg->two_d ? "2D" : "3D");
    fprintf(out, "steps       %ld (%.6g fs simulated)\n", cfg->steps,
            cfg->steps * cfg->dt * YEE_TIME_UNIT_FS);
    for (int i = 0; i < cfg->nmaterials; i++) /* the step each dispersive material allows */
        if (cfg->materials[i].npoles > 0 && !cfg->materials[i].pec)
            fprintf(out, "stability   materials[%d] \"%s\": stable up to Courant %.4g here\n", i,
                    cfg->materials[i].name, yee_stable_courant(cfg, &cfg->materials[i]));
    {
        yee_err stab;
        if (yee_check_dispersive_stability(cfg, &stab) < 0) {
            fprintf(stderr, "%s\n", stab.msg);
            errors_out++;
        }
    }
    const size_t avail = yee_host_memory_available();
    char avail_s[32];
    human_bytes((double)avail, avail_s, sizeof avail_s);
    fprintf(out, "memory      %s on one rank (%s fields); %s available on this machine\n", mem,
            YEE_REAL_NAME, avail_s);
    if (avail > 0 && yee_sim_bytes_estimate(cfg) > avail) {
        fprintf(stderr, "error: the run needs %s on one rank but this machine has %s available: "
                     "split it over MPI ranks (docs/cluster.md) or use a coarser grid\n",
                mem, avail_s);
        errors_out++;
    }
    fprintf(out, "sources     %d, monitors %d\n", cfg->nsources, cfg->nmonitors);
    yee_resolution res;
    yee_resolution_of(cfg, &res);
    if (res.fmax > 0.0) {
        /* the shortest wavelength: the highest frequency of interest in the densest medium */
        const double lambda = 1.0 / (res.fmax * res.index);
        fprintf(out, "resolution  %.1f cells per shortest wavelength (%.4g um at %.4g THz in "
                     "%s%s%s, n = %.3g)\n", res.cells, lambda, res.fmax * YEE_C_UM_THZ,
                res.medium >= 0 ? "\"" : "", res.medium >= 0 ? cfg->materials[res.medium].name
                                                          : "the background",
                res.medium >= 0 ? "\"" : "", res.index);
        if (res.metal >= 0)
            fprintf(out, "resolution  %.1f cells per skin depth in \"%s\" at %.4g THz\n",
                    res.skin_cells, cfg->materials[res.metal].name, res.fmax * YEE_C_UM_THZ);
        if (res.cells < YEE_MIN_CELLS_PER_WAVELENGTH) {
            fprintf(out, "warning: fewer than %.0f cells per wavelength (%.1f) in the densest "
                         "medium: expect phase errors of a few percent; raise grid.resolution\n",
                    YEE_MIN_CELLS_PER_WAVELENGTH, res.cells);
            warnings++;
        }
        if (res.skin_cells < YEE_MIN_CELLS_PER_SKIN_DEPTH) {
            fprintf(out, "warning: fewer than %.0f cells per skin depth (%.1f) in \"%s\": the "
                         "field inside the metal is not resolved; raise grid.resolution\n",
                    YEE_MIN_CELLS_PER_SKIN_DEPTH, res.skin_cells, cfg->materials[res.metal].name);
            warnings++;
        }
    }
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++)
            if (cfg->boundary[a][side] == YEE_BC_CPML && cfg->pml_cells[a][side] < 8) {
                fprintf(out, "warning: %c %s CPML has only %d cells; 8 or more absorb better\n",
                        "xyz"[a], side ? "high" : "low", cfg->pml_cells[a][side]);
                warnings++;
            }
    *errors = errors_out;
    return warnings;
}

static int cmd_check(int argc, char **argv)
{
    cli c;
    int rc = parse_cli(argc, argv, 2, 0, &c);
    if (rc) {
        free(c.sets);
        return rc;
    }
    yee_config cfg;
    memset(&cfg, 0, sizeof cfg);
    rc = load_deck(&c, &cfg);
    if (rc == 0 && rank0()) {
        int errors = 0;
        print_check(&cfg, stdout, &errors);
        if (errors)
            rc = YEE_EXIT_ERROR;
        else
            printf("ok: %s is valid\n", c.deck);
        if (rc == 0 && c.geometry_dir) {
            char path[YEE_PATH_LEN + YEE_NAME_LEN + 16];
            yee_err err;
            if (yee_geometry_preview(&cfg, c.geometry_dir, path, sizeof path, &err) < 0) {
                fprintf(stderr, "yee: error: %s\n", err.msg);
                rc = YEE_EXIT_ERROR;
            } else {
                printf("wrote the rasterized permittivity to %s (open the .xmf in ParaView)\n",
                       path);
            }
        }
    }
    yee_config_free(&cfg);
    free(c.sets);
    return rc;
}

/* The only state the signal handlers touch (async-signal-safe: they set flags, nothing else);
 * the time loop reads it between steps (solver/sim.h). */
static yee_signal_flags run_signals;

static void on_signal(int sig)
{
    if (sig == SIGTERM && !run_signals.stepping) {
        /* still setting up (rasterizing, allocating): nothing to save, so stop now rather
         * than when the time loop would first look */
        static const char msg[] = "yee: stopped by SIGTERM before the first step (nothing to "
                                  "checkpoint yet; running it again starts over)\n";
        ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)ignored;
        _exit(YEE_EXIT_STOPPED); /* stopped, not failed: a job script resubmits on 3 (docs/checkpoint.md) */
    }
    if (sig == SIGTERM)
        run_signals.term = 1;
    else
        run_signals.usr1 = run_signals.usr1 + 1;
}

static void watch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* a signal must not fail the write() or MPI call it interrupts */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
}

/* With several ranks: what the halo exchange cost (the rank that waited most), and how it ran. */
static void print_halo_summary(const yee_run_stats *st)
{
    int nranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks < 2)
        return;
    double v[2] = {st->seconds > 0 ? st->halo.wait_s / st->seconds : 0.0, st->halo.bytes_per_step};
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    char sent[32];
    human_bytes(v[1], sent, sizeof sent);
    if (rank0())
        printf("halo: up to %s sent per rank and step, %s, %s; waiting took up to %.1f%% "
               "of a rank's time\n",
               sent,
               st->halo.linked    ? "the z faces inside the fused sweeps"
               : st->halo.overlap ? "overlapped with the interior update"
                                  : "not overlapped",
               st->halo.device_buffers ? "device buffers (CUDA-aware MPI)" : "host buffers",
               100.0 * v[0]);
}

static int cmd_run(int argc, char **argv)
{
    cli c;
    int rc = parse_cli(argc, argv, 2, 1, &c);
    if (rc) {
        free(c.sets);
        return rc;
    }
    yee_config cfg;
    memset(&cfg, 0, sizeof cfg);
    rc = load_deck(&c, &cfg);
    if (rc) {
        free(c.sets);
        return rc;
    }
    yee_run_options opt = run_options_from_environment();
    if (env_bad) {
        yee_config_free(&cfg);
        free(c.sets);
        return YEE_EXIT_USAGE;
    }
    opt.backend = c.backend ? c.backend : cfg.backend;
    opt.quiet = c.quiet;
    opt.verbose = c.energy;
    for (int a = 0; a < 3; a++)
        opt.ranks[a] = c.ranks[a];
    opt.progress = !c.quiet && rank0() && isatty(STDERR_FILENO);
    opt.restart = c.restart;
    opt.signals = &run_signals;
    opt.sets = c.sets;
    opt.nsets = c.nsets;
    watch_signals();
    if (!c.quiet && rank0())
        printf("yee %s: %s, %d x %d x %d cells, %ld steps of %.4g fs\n", YEE_VERSION, cfg.name,
               cfg.n[0], cfg.n[1], cfg.n[2], cfg.steps, cfg.dt * YEE_TIME_UNIT_FS);
    yee_run_stats stats;
    yee_err err;
    err.msg[0] = '\0';
    rc = yee_sim_run(&cfg, &opt, &stats, &err);
    if (rc < 0) {
        if (rank0())
            fprintf(stderr, "yee: error: %s\n", err.msg);
        rc = rc == YEE_ERR_USAGE ? YEE_EXIT_USAGE : YEE_EXIT_ERROR;
    } else if (stats.stopped) {
        /* exit 3: a job script can tell "stopped, resume me" from success and failure */
        if (rank0()) {
            fprintf(stderr, "yee: stopped by SIGTERM at step %ld of %ld after writing the "
                            "checkpoint %s; continue with: yee run %s", stats.checkpoint_step,
                    cfg.steps, stats.checkpoint, c.deck);
            if (c.out_dir)
                fprintf(stderr, " --out %s", c.out_dir);
            for (int i = 0; i < c.nsets; i++)
                fprintf(stderr, " --set '%s'", c.sets[i]);
            fprintf(stderr, " --restart %s\n", stats.checkpoint);
        }
        rc = YEE_EXIT_STOPPED;
    } else {
        if (!c.quiet && rank0()) {
            char mem[32];
            human_bytes((double)stats.backend_bytes, mem, sizeof mem);
            const int emulated = strcmp(stats.backend, "cuda") == 0 && yee_backend_cuda_emulated();
            printf("done: %ld steps in %.2f s on %s%s, %.1f Mcells/s, %s; wrote %s\n",
                   stats.steps, stats.seconds, stats.backend,
                   emulated ? " (emulated on the CPU)" : "", stats.mcells_per_s, mem,
                   stats.h5_path);
            if (stats.fused_steps > 0)
                printf("%ld of the steps ran in fused sweeps (the backend's advance, up to "
                       "%d steps a call, %.1f on average)\n", stats.fused_steps, stats.fused_max,
                       (double)stats.fused_steps / (double)stats.fused_calls);
        }
        if (!c.quiet)
            print_halo_summary(&stats);
        rc = 0;
    }
    yee_config_free(&cfg);
    free(c.sets);
    return rc;
}

static int cmd_bench(int argc, char **argv)
{
    yee_bench_options o;
    memset(&o, 0, sizeof o);
    o.run = run_options_from_environment();
    if (env_bad)
        return YEE_EXIT_USAGE;
    o.backend = "all";
    o.n[0] = o.n[1] = o.n[2] = 128;
    o.steps = 100;
    o.repeat = 5;
    yee_err err;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        if (strcmp(a, "--backend") == 0 && more) {
            o.backend = argv[++i];
        } else if (strcmp(a, "--size") == 0 && more) {
            /* >= 24: two 10-cell CPMLs and a few cells of vacuum between them */
            long n[3];
            if (yee_parse_triple(a, argv[++i], "N or NXxNYxNZ", 24, YEE_MAX_CELLS_PER_AXIS, 1, n,
                                 &err) < 0)
                return option_error("bench", &err);
            for (int k = 0; k < 3; k++)
                o.n[k] = (int)n[k];
        } else if (strcmp(a, "--steps") == 0 && more) {
            if (yee_parse_long(a, argv[++i], 1, LONG_MAX, &o.steps, &err) < 0)
                return option_error("bench", &err);
        } else if (strcmp(a, "--threads") == 0 && more) {
            long v;
            if (yee_parse_long(a, argv[++i], 0, YEE_MAX_THREADS, &v, &err) < 0)
                return option_error("bench", &err);
            o.threads = (int)v; /* 0: OMP_NUM_THREADS */
        } else if (strcmp(a, "--repeat") == 0 && more) {
            long v;
            if (yee_parse_long(a, argv[++i], 1, YEE_MAX_REPEAT, &v, &err) < 0)
                return option_error("bench", &err);
            o.repeat = (int)v;
        } else if (strcmp(a, "--json") == 0) {
            o.json = 1;
        } else if (strcmp(a, "--weak") == 0) {
            o.weak = 1;
        } else if (strcmp(a, "--ranks") == 0 && more) {
            if (parse_ranks("bench", argv[++i], o.ranks))
                return YEE_EXIT_USAGE;
        } else {
            if (rank0())
                fprintf(stderr, "yee bench: unknown or incomplete option '%s' (see yee bench --help)\n",
                        a);
            return YEE_EXIT_USAGE;
        }
    }
    err.msg[0] = '\0';
    int rc = yee_bench_run(&o, stdout, &err);
    if (rc < 0) {
        if (rank0())
            fprintf(stderr, "yee bench: error: %s\n", err.msg);
        return rc == YEE_ERR_USAGE ? YEE_EXIT_USAGE : YEE_EXIT_ERROR;
    }
    return 0;
}

static int cmd_info(void)
{
    if (!rank0())
        return 0;
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(mpi, &len);
    char *nl = strchr(mpi, '\n');
    if (nl)
        *nl = '\0';
    printf("yee %s\n", YEE_VERSION);
#ifdef YEE_BUILD_TYPE
    printf("build       %s, %s\n", YEE_BUILD_TYPE, YEE_C_COMPILER);
#endif
    printf("precision   %s (%zu bytes per field value)\n", YEE_REAL_NAME, sizeof(yee_real));
    printf("openmp      %d threads (OMP_NUM_THREADS)\n", omp_get_max_threads());
    printf("mpi         %s\n", mpi);
    printf("backends    cpu, cpu-reference%s\n", !yee_backend_find("cuda")       ? ""
                                  : yee_backend_cuda_emulated() ? ", cuda (emulated on the CPU)"
                                                                : ", cuda");
    if (yee_backend_find("cuda")) {
        const int ndev = yee_backend_cuda_devices();
        printf("cuda        %d device(s)\n", ndev);
        for (int d = 0; d < ndev; d++) {
            char name[256];
            size_t total = 0, free_b = 0;
            if (yee_backend_cuda_device_info(d, name, sizeof name, &total, &free_b) == 0)
                printf("  device %d  %s, %.1f GiB\n", d, name, total / 1073741824.0);
        }
    } else
        printf("cuda        not built (configure with nvcc found, YEE_CUDA=AUTO|ON)\n");
    return 0;
}

/* A command without options (info, deck-keys) given some: a usage error. */
static int no_arguments(int argc, char **argv)
{
    if (argc <= 2)
        return 0;
    if (rank0())
        fprintf(stderr, "yee %s: unexpected argument '%s' (see yee %s --help)\n", argv[1], argv[2],
                argv[1]);
    return YEE_EXIT_USAGE;
}

/* `yee help [COMMAND]` */
static int cmd_help(int argc, char **argv)
{
    if (argc > 3)
        return no_arguments(argc - 1, argv + 1);
    const yee_command_doc *c = argc > 2 ? yee_command_find(argv[2]) : NULL;
    if (argc > 2 && !c) {
        if (rank0())
            fprintf(stderr, "yee: unknown command '%s' (see yee --help)\n", argv[2]);
        return YEE_EXIT_USAGE;
    }
    if (rank0()) {
        if (c)
            yee_print_command_help(c, stdout);
        else
            yee_print_usage(stdout);
    }
    return YEE_EXIT_OK;
}

/* The command word of argv[1] to its command; -h/--help after any command prints its help from
 * app/commands.c, so each parser below meets only the options it runs with. */
static int dispatch(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    if (!cmd) {
        if (rank0())
            yee_print_usage(stderr);
        return YEE_EXIT_USAGE;
    }
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        if (rank0())
            yee_print_usage(stdout);
        return YEE_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        if (rank0())
            printf("yee %s\n", YEE_VERSION);
        return YEE_EXIT_OK;
    }
    const yee_command_doc *doc = yee_command_find(cmd);
    if (!doc) {
        if (rank0())
            fprintf(stderr, "yee: unknown command '%s' (see yee --help)\n", cmd);
        return YEE_EXIT_USAGE;
    }
    if (yee_command_wants_help(doc, argc, argv, 2)) {
        if (rank0())
            yee_print_command_help(doc, stdout);
        return YEE_EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0)
        return cmd_help(argc, argv);
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc, argv);
    if (strcmp(cmd, "check") == 0)
        return cmd_check(argc, argv);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc, argv);
    if (strcmp(cmd, "resonances") == 0 || strcmp(cmd, "export-vtk") == 0 ||
        strcmp(cmd, "farfield") == 0) {
        /* post-processing reads one file: serial, on rank 0 only (postproc/) */
        if (!rank0())
            return YEE_EXIT_OK;
        return cmd[0] == 'r'   ? yee_resonances_main(argc - 1, argv + 1)
               : cmd[0] == 'f' ? yee_farfield_main(argc - 1, argv + 1)
                               : yee_export_vtk_main(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "modes") == 0) /* one solve on rank 0 (solver/mode_solver.h) */
        return rank0() ? yee_modes_main(argc - 1, argv + 1) : YEE_EXIT_OK;
    if (strcmp(cmd, "sweep") == 0)
        return yee_sweep_main(argc, argv); /* every rank: rank 0 hands out jobs to the others */
    if (strcmp(cmd, "bands") == 0)
        return yee_bands_main(argc, argv); /* every rank: each k point is one (MPI) run */
    if (strcmp(cmd, "info") == 0)
        return no_arguments(argc, argv) ? YEE_EXIT_USAGE : cmd_info();
    if (strcmp(cmd, "deck-keys") == 0) {
        if (no_arguments(argc, argv))
            return YEE_EXIT_USAGE;
        if (rank0())
            yee_deck_print_keys(stdout);
        return YEE_EXIT_OK;
    }
    /* a command in app/commands.c's table that nothing here runs */
    if (rank0())
        fprintf(stderr, "yee: internal error: command '%s' has no implementation\n", cmd);
    return YEE_EXIT_ERROR;
}

int main(int argc, char **argv)
{
    yee_child_env_capture(environ); /* before MPI_Init adds its own (app/child_env.h) */
    /* a log file (run.log of a sweep job, slurm-*.out) shows each line when it is written, so
     * a user or a job script can follow a run, not only after it ended */
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int singleton = yee_mpi_env_singleton_set(); /* 0.3 s less per command */
    MPI_Init(&argc, &argv);
    yee_mpi_env_singleton_restore(singleton);
    int rc = dispatch(argc, argv);
    if (yee_h5_shutdown_unsafe()) {
        /* The run's file could not be written (its error is printed, every rank agreed): HDF5
         * 1.10 would crash in its shutdown inside MPI_Finalize, turning exit 1 into a signal. */
        fflush(stdout);
        fflush(stderr);
        _exit(rc ? rc : YEE_EXIT_ERROR);
    }
    MPI_Finalize();
    return rc;
}
