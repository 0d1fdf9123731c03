/* app/commands.c -- the help texts of the `yee` commands, one table for `yee --help` and
 * `yee COMMAND --help` (app/commands.h). A new command or option gets its entry here; the
 * cli_help_* tests fail for a command without one, cli_options_known for an option listed here
 * that its parser rejects.
 */
#include "app/commands.h"

#include <string.h>

static const yee_option_doc run_options[] = {
    {"--out", NULL, "DIR",
     "write DIR/<name>.h5 (+ .xmf) there (default: the\ndeck's output.directory)"},
    {"--set", NULL, "KEY=VALUE",
     "override a deck key, e.g. --set grid.resolution=30\n(repeatable; --set=KEY=VALUE too)"},
    {"--backend", NULL, "NAME",
     "auto, cpu, cpu-reference or cuda (default: the\ndeck's simulation.backend)"},
    {"--ranks", NULL, "PXxPYxPZ", "how the grid is split over the MPI ranks\n(default: chosen)"},
    {"--restart", NULL, "CKPT", "continue from the checkpoint CKPT (docs/checkpoint.md)"},
    {"--energy", NULL, NULL, "print the field energy at every health check"},
    {"--quiet", "-q", NULL, "print nothing but errors"},
    {NULL, NULL, NULL, NULL}};

static const yee_option_doc check_options[] = {
    {"--set", NULL, "KEY=VALUE", "override a deck key, as for yee run (repeatable)"},
    {"--geometry", NULL, "DIR",
     "write the rasterized permittivity to DIR (HDF5 +\nXDMF + VTK) to look at in ParaView"},
    {NULL, NULL, NULL, NULL}};

static const yee_option_doc bench_options[] = {
    {"--backend", NULL, "NAME", "cpu, cpu-reference, cuda or all (default all)"},
    {"--size", NULL, "N|NXxNYxNZ", "cells of the problem, each >= 24 (default 128)"},
    {"--steps", NULL, "N", "timed steps per repeat (default 100)"},
    {"--repeat", NULL, "N", "timed repeats; the median is reported (default 5)"},
    {"--threads", NULL, "N", "OpenMP threads (default: OMP_NUM_THREADS)"},
    {"--ranks", NULL, "PXxPYxPZ", "how the grid is split over the MPI ranks"},
    {"--weak", NULL, NULL, "under mpirun: --size is per rank (weak scaling)"},
    {"--json", NULL, NULL, "JSON instead of a table"},
    {NULL, NULL, NULL, NULL}};

static const yee_option_doc resonances_options[] = {
    {"--probe", NULL, "NAME", "the probe monitor to analyse (required)"},
    {"--component", NULL, "C", "its component, e.g. Ez (default: the first it records)"},
    {"--fmin", NULL, "THz", "lowest frequency searched"},
    {"--fmax", NULL, "THz", "highest frequency searched"},
    {"--start", NULL, "FS", "skip the series before this time, e.g. the source\n(default 0)"},
    {"--modes", NULL, "N", "at most N modes (default 100)"},
    {"--max-error", NULL, "E",
     "drop modes whose relative error estimate is\nlarger (default 0.01)"},
    {"--min-q", NULL, "Q",
     "drop modes with |Q| below Q (default 10; 0 keeps\nall): they die out within a few periods "
     "and are\n"
     "mostly the source's transient and noise"},
    {NULL, NULL, NULL, NULL}};

static const yee_option_doc bands_options[] = {
    {"--k-path", NULL, "PATH",
     "the corners of the path, kx,ky[,kz] in 1/um separated\nby blanks or ';' (required): "
     "\"0,0 0.5,0 0.5,0.5 0,0\"\nis Gamma-X-M-Gamma of a 1 um square lattice"},
    {"--k-interp", NULL, "N", "N more points between each two corners (default 0)"},
    {"--out", NULL, "DIR", "where bands.csv, bands.h5 and the runs (DIR/k-NNN)\ngo "
                           "(default: <deck name>_bands)"},
    {"--set", NULL, "KEY=VALUE", "override a deck key for every k point (repeatable)"},
    {"--backend", NULL, "B", "cpu or cuda (default: the deck's, else auto)"},
    {"--fmin", NULL, "THz", "lowest frequency searched (default: the Gaussian\nsources' f0 - "
                            "2 fwidth)"},
    {"--fmax", NULL, "THz", "highest frequency searched (default: f0 + 2 fwidth)"},
    {"--start", NULL, "FS", "analyse the probes from this time (default: the\nend of the "
                            "last source)"},
    {"--modes", NULL, "N", "harminv's basis size (default 100)"},
    {"--max-error", NULL, "E", "drop modes whose relative error estimate is\nlarger (default "
                               "0.01)"},
    {"--min-q", NULL, "Q", "drop modes with |Q| below Q (default 10)"},
    {"--quiet", "-q", NULL, "print nothing but errors"},
    {NULL, NULL, NULL, NULL}};

static const yee_option_doc farfield_options[] = {
    {"--monitor", NULL, "BOX", "a closed flux box run with save_fields = true\n(required)"},
    {"--theta", NULL, "DEG", "polar angles from +z: START:STOP:N or A,B,C\n(default 0:180:37)"},
    {"--phi", NULL, "DEG", "azimuths from +x: START:STOP:N or A,B,C (default\n0,90)"},
    {"--r", NULL, "UM", "distance of the E fields written (default 1e6 um)"},
    {"--index", NULL, "N", "refractive index of the medium (default: the\nrun's background)"},
    {"--out", NULL, "FILE", "the HDF5 file (default <run>_<box>_farfield.h5)"},
    {"--csv", NULL, "FILE", "the CSV file (default <run>_<box>_farfield.csv)"},
    {"--quiet", "-q", NULL, "print nothing but errors"},
    {NULL, NULL, NULL, NULL}};

static const yee_option_doc modes_options[] = {
    {"--plane", NULL, "AXIS=UM", "the cross-section, e.g. x=1.5: its normal is the\n"
                                 "direction of travel (required)"},
    {"--wavelength", NULL, "UM", "vacuum wavelength (this or --frequency)"},
    {"--frequency", NULL, "THz", "frequency (this or --wavelength)"},
    {"--modes", NULL, "N", "how many modes, highest index first (default 2)"},
    {"--set", NULL, "KEY=VALUE", "override a deck key, as for yee run (repeatable)"},
    {"--out", NULL, "FILE", "the HDF5 file (default <name>_modes.h5)"},
    {"--csv", NULL, "FILE", "the CSV file (default: FILE with .csv)"},
    {"--quiet", "-q", NULL, "print nothing but errors"},
    {NULL, NULL, NULL, NULL}};

static const yee_option_doc export_vtk_options[] = {
    {"--monitor", NULL, "NAME", "only this snapshot monitor (default: every one)"},
    {"--component", NULL, "C", "only this component, e.g. Ez (default: every one)"},
    {"--frame", NULL, "N", "frame N, counted from 0 (-1 is the last, the\ndefault)"},
    {"--step", NULL, "S", "the frame written at time step S"},
    {"--all", NULL, NULL, "every frame"},
    {"--out", NULL, "DIR", "where the .vtk files go (default: the folder of\nRUN.h5)"},
    {"--quiet", "-q", NULL, "print nothing but errors"},
    {NULL, NULL, NULL, NULL}};

static const yee_option_doc sweep_options[] = {
    {"--out", NULL, "DIR", "the sweep's folder (default: <deck name>_sweep)"},
    {"--jobs", "-j", "N", "N jobs at once on this machine, sharing the cores\n(default 1)"},
    {"--ranks-per-job", NULL, "R",
     "MPI ranks of one job (under mpirun: groups of R\nworker ranks)"},
    {"--slurm", NULL, NULL, "write DIR/sweep.sbatch (one array task per job)\nand run nothing"},
    {"--submit", NULL, NULL, "with --slurm: submit it with sbatch and print the\njob id"},
    {"--time", NULL, "T", "with --slurm: each task's time limit (sbatch --time)"},
    {"--partition", NULL, "P", "with --slurm: sbatch --partition"},
    {"--account", NULL, "A", "with --slurm: sbatch --account"},
    {"--mem", NULL, "M", "with --slurm: sbatch --mem"},
    {"--gpus-per-job", NULL, "G", "with --slurm: GPUs of one task"},
    {"--cpus-per-job", NULL, "C", "with --slurm: CPU cores of one task"},
    {"--mpi", NULL, "PLUGIN", "srun --mpi plugin (default: picked from\nsrun --mpi=list)"},
    {"--checkpoint-margin", NULL, "S",
     "a Slurm task checkpoints and requeues itself S s\nbefore its time limit (default 120; 0: "
     "never)"},
    {"--collect", NULL, NULL, "build DIR/summary.csv from the job folders\n(after Slurm)"},
    {"--dry-run", NULL, NULL, "write and check the job decks, run nothing"},
    {"--quiet", "-q", NULL, "print nothing but errors and the summary"},
    {NULL, NULL, NULL, NULL}};

static const yee_option_doc no_options[] = {{NULL, NULL, NULL, NULL}};

static const yee_command_doc commands[] = {
    {"run",
     "DECK [--out DIR] [--set KEY=VALUE]...\n"
     "[--backend auto|cpu|cpu-reference|cuda] [--ranks PXxPYxPZ]\n"
     "[--restart CKPT] [--energy] [--quiet]",
     "run the simulation DECK describes; writes DIR/<name>.h5\n"
     "(+ .xmf); under mpirun the grid is split over the ranks.\n"
     "SIGTERM writes a checkpoint and stops (exit 3), SIGUSR1\n"
     "writes one and goes on; --restart continues from one\n"
     "(docs/checkpoint.md)",
     run_options,
     "Deck reference: docs/deck.md. Units: lengths um, times fs, frequencies THz.\n"
     "A job script resubmits on exit status 3 with the --restart the message names.",
     1},
    {"check", "DECK [--set KEY=VALUE]... [--geometry DIR]",
     "validate DECK and print grid, time step, memory and\n"
     "resolution; --geometry writes the rasterized permittivity\n"
     "to DIR (HDF5 + VTK)",
     check_options,
     "Exit status 1 also when the deck is valid but cannot run here (it needs more\n"
     "memory than this machine has, or a dispersive material is unstable at its\n"
     "time step).",
     0},
    {"bench",
     "[--backend cpu|cpu-reference|cuda|all] [--size N|NXxNYxNZ]\n"
     "[--steps N] [--threads N] [--repeat N] [--json] [--weak]\n"
     "[--ranks PXxPYxPZ]",
     "throughput (Mcells/s) on the standard vacuum + CPML +\n"
     "dipole problem; under mpirun: strong scaling, or weak with\n"
     "--size per rank (--weak)",
     bench_options, "docs/performance.md explains the numbers.", 0},
    {"resonances",
     "RUN.h5 --probe NAME [--component Ez] [--fmin THz]\n"
     "[--fmax THz] [--start FS] [--modes N] [--max-error E]\n"
     "[--min-q Q]",
     "frequencies, decay rates and Q of a probe's time series\n(harminv)", resonances_options,
     "Prints one line per mode, columns:\n"
     "freq_THz freq_c_um wavelength_um decay_per_fs Q amplitude error",
     0},
    {"bands",
     "DECK --k-path PATH [--k-interp N] [--out DIR] [--set K=V]\n"
     "[--backend B] [--fmin THz] [--fmax THz] [--start FS]\n"
     "[--modes N] [--max-error E] [--min-q Q] [--quiet]",
     "a band diagram: the deck's Bloch-periodic cell run at\n"
     "each k point of a path, its modes found by harminv",
     bands_options,
     "Each k point runs the deck with boundary.bloch = k into DIR/k-NNN; harminv\n"
     "finds the modes of every probe component after the sources, and the modes\n"
     "the probes share are merged. Writes DIR/bands.csv (k_index, kx, ky, kz,\n"
     "k_distance, band, freq_c_um, freq_THz, Q, decay_per_fs, amplitude, error)\n"
     "and DIR/bands.h5; yee-plot-bands DIR/bands.h5 draws the diagram. See\n"
     "docs/bands.md.",
     0},
    {"farfield",
     "RUN.h5 --monitor BOX [--theta DEG] [--phi DEG] [--r UM]\n"
     "[--index N] [--out FILE] [--csv FILE] [--quiet]",
     "far fields and radiation pattern from a closed flux box's\n"
     "saved DFT fields (near-to-far transform)",
     farfield_options,
     "Writes E_theta, E_phi (at distance r) and the power per steradian for each\n"
     "frequency, theta and phi to HDF5 and CSV; prints per frequency the power the\n"
     "far field carries over the whole sphere beside the box's own flux. 3-D runs,\n"
     "homogeneous background. yee-plot-farfield draws the pattern. See\n"
     "docs/postproc.md.",
     0},
    {"modes",
     "DECK --plane AXIS=UM (--wavelength UM | --frequency THz)\n"
     "[--modes N] [--set K=V] [--out FILE] [--csv FILE] [--quiet]",
     "guided modes of the deck's structure on a cross-section:\n"
     "effective and group index, E and H profiles",
     modes_options,
     "A full-vector finite-difference mode solver on the Yee grid's own nodes and\n"
     "averaged permittivity (ARPACK + UMFPACK). Prints one line per mode (neff,\n"
     "ng, which E component holds the energy); writes the profiles, normalized to\n"
     "unit power, to HDF5 and the table to CSV. yee-plot-modes draws |E|. A 2-D\n"
     "run's plane is a line (x or y) and only its polarization's modes are kept.\n"
     "See docs/modes.md.",
     0},
    {"export-vtk",
     "RUN.h5 [--monitor NAME] [--component Ez]\n"
     "[--frame N|--step S|--all] [--out DIR] [--quiet]",
     "snapshot frames of a run's HDF5 file as legacy VTK files\n"
     "(default: every monitor and component, last frame)",
     export_vtk_options,
     "Files are named <run>_<monitor>_<Comp>_<step>.vtk, as a run's `vtk = true`\n"
     "writes them.",
     0},
    {"sweep",
     "DECK [--out DIR] [--jobs N] [--ranks-per-job R] [--quiet]\n"
     "[--slurm [--submit] [--time T] [--partition P] [--account A]\n"
     "[--mem M] [--gpus-per-job G] [--cpus-per-job C] [--mpi PLUGIN]\n"
     "[--checkpoint-margin S]] [--collect | --dry-run]",
     "every job of the deck's sweep section (parameters in\n"
     "${...}): job decks, runs (resumable; under mpirun farmed\n"
     "over the ranks) and summary.csv",
     sweep_options,
     "Writes DIR/job-NNNN/deck.cfg for every job, runs them, then DIR/summary.csv.\n"
     "Finished jobs (job-NNNN/DONE) are skipped on a rerun. Under mpirun rank 0 hands\n"
     "out jobs and the other ranks run them. Exit status 1 when a job failed (after\n"
     "--collect: not when one is still pending). See docs/sweeps.md.",
     0},
    {"info", "", "build configuration, backends and devices", no_options, NULL, 0},
    {"deck-keys", "", "every deck key with type, unit and default (see docs/deck.md)", no_options,
     NULL, 0},
    {"help", "[COMMAND]", "this text, or COMMAND's options (as yee COMMAND --help)", no_options,
     NULL, 0},
};

static const struct {
    int code;
    const char *meaning;
} exit_statuses[] = {
    {YEE_EXIT_OK, "success"},
    {YEE_EXIT_ERROR, "error: an invalid deck, a failed run or sweep job, a file that\n"
                     "cannot be read or written"},
    {YEE_EXIT_USAGE, "usage: an unknown command or option, a missing or malformed argument"},
    {YEE_EXIT_STOPPED, "stopped: SIGTERM stopped a run after writing a checkpoint, or before\n"
                       "its first step; running it again goes on (yee run only)"},
};

enum { NCOMMANDS = (int)(sizeof commands / sizeof commands[0]) };

const yee_command_doc *yee_command_find(const char *name)
{
    for (int i = 0; name && i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* Each line of text, the first after `first` characters already printed on its line, every
 * later one after `indent` spaces. */
static void print_lines(FILE *out, const char *text, int first, int indent)
{
    fprintf(out, "%*s", first < indent ? indent - first : 0, "");
    for (const char *p = text; *p; p++) {
        fputc(*p, out);
        if (*p == '\n' && p[1])
            fprintf(out, "%*s", indent, "");
    }
    fputc('\n', out);
}

void yee_print_usage(FILE *out)
{
    fputs("usage: yee <command> [options]\n\ncommands:\n", out);
    for (int i = 0; i < NCOMMANDS; i++) {
        const yee_command_doc *c = &commands[i];
        int used = fprintf(out, "  %s", c->name);
        if (c->synopsis[0]) {
            fputc(' ', out);
            print_lines(out, c->synopsis, 6, 6); /* continuation lines under the name */
            used = 0;
        }
        if (used + 1 >= 17) {
            fputc('\n', out);
            used = 0;
        }
        print_lines(out, c->summary, used, 17);
    }
    fputs("\noptions:\n"
          "  -h, --help     this text; yee COMMAND --help: that command's options\n"
          "  --version      print the version\n\nexit status:\n",
          out);
    for (size_t i = 0; i < sizeof exit_statuses / sizeof exit_statuses[0]; i++) {
        fprintf(out, "  %d", exit_statuses[i].code);
        print_lines(out, exit_statuses[i].meaning, 3, 6);
    }
    fputs("\nDeck reference: docs/deck.md. Units: lengths um, times fs, frequencies THz.\n", out);
}

void yee_print_command_help(const yee_command_doc *c, FILE *out)
{
    const int lead = fprintf(out, "usage: yee %s", c->name);
    if (c->synopsis[0]) {
        fputc(' ', out);
        print_lines(out, c->synopsis, lead + 1, lead + 1);
    } else {
        fputc('\n', out);
    }
    fputc('\n', out);
    print_lines(out, c->summary, 0, 0);
    fputs("\noptions:\n", out);
    for (const yee_option_doc *o = c->options; o->flag; o++) {
        const int used =
            fprintf(out, "  %s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->flag,
                    o->arg ? " " : "", o->arg ? o->arg : "");
        if (used + 2 > 26) /* a long flag: its text on the next line */
            fprintf(out, "\n%*s", 26, "");
        print_lines(out, o->text, used + 2 > 26 ? 26 : used, 26);
    }
    fprintf(out, "  -h, --help%*sthis text\n", 26 - 12, "");
    if (c->notes) {
        fputc('\n', out);
        print_lines(out, c->notes, 0, 0);
    }
    fputs("\nexit status:", out);
    for (size_t i = 0; i < sizeof exit_statuses / sizeof exit_statuses[0]; i++)
        if (exit_statuses[i].code != YEE_EXIT_STOPPED || c->may_stop) {
            /* the first line of the meaning, up to its first ':' when it has one */
            const char *m = exit_statuses[i].meaning;
            const size_t n = strcspn(m, ":\n");
            fprintf(out, "%s %d %.*s", i ? "," : "", exit_statuses[i].code, (int)n, m);
        }
    fputs(" (yee --help tells more)\n", out);
}

int yee_command_wants_help(const yee_command_doc *c, int argc, char **argv, int first)
{
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        for (const yee_option_doc *o = c->options; o->flag; o++)
            if (o->arg && (strcmp(a, o->flag) == 0 || (o->alias && strcmp(a, o->alias) == 0))) {
                i++; /* its value, whatever it looks like */
                break;
            }
    }
    return 0;
}
