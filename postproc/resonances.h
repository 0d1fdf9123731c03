/* postproc/resonances.h -- `yee resonances RUN.h5 --probe NAME [...]`: modes (frequency, decay
 * rate, Q) of a probe's time series by harminv. Reads a finished run's file; never runs a
 * simulation and never touches MPI (the caller runs it on one rank).
 */
#ifndef YEE_POSTPROC_RESONANCES_H
#define YEE_POSTPROC_RESONANCES_H

#ifdef __cplusplus
extern "C" {
#endif

/* The whole subcommand: argv[0] is the command word ("resonances"), the options follow. Prints
 * the modes to stdout, one per line (columns in resonances.c), and errors to stderr as
 * "yee resonances: ...". Returns the exit status: 0 success, 1 an unreadable file, probe or
 * component, or too few samples, 2 a bad command line. */
int yee_resonances_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
