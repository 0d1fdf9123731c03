/* app/bands.h -- `yee bands DECK --k-path "..."`: a band diagram (docs/bands.md), as Meep's
 * run_k_points. The deck is one Bloch-periodic unit cell lit by broadband sources and watched
 * by probes. For each k point of the path (its corners, and --k-interp points between each pair,
 * as Meep's interpolate) the deck runs in-process with `boundary.bloch` set to k (a --set, so the
 * deck's own checks apply: the axes of a nonzero k must be periodic), writing OUT/k-NNN/<name>.h5;
 * then harminv (postproc/harminv_modes.h) finds the modes of every component of every probe
 * after the sources have died out, and the modes the probes share are merged into one list per k.
 * Written at the end: OUT/bands.csv (one row per k point and mode) and OUT/bands.h5 (the same
 * columns, the path's corners and the options, for postproc/plot_bands.py). Under mpirun every
 * k point runs on all ranks (domain decomposition); rank 0 reads the probes and writes the files.
 * This module does no physics of its own.
 */
#ifndef YEE_APP_BANDS_H
#define YEE_APP_BANDS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The whole subcommand: argv[1] is "bands", the deck and options follow (`yee bands --help`,
 * whose text is in app/commands.c; main answers -h and --help). MPI must be initialized; under
 * mpirun every rank calls this. Prints a line per k point on stdout and errors on stderr
 * (rank 0). Returns the exit status: 0 done, 1 a deck error, a failed run or an unwritable file,
 * 2 a bad command line. */
int yee_bands_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
