/* app/modes.h -- `yee modes DECK --plane x=X --wavelength UM`: the guided modes of the deck's
 * structure on one plane (solver/mode_solver.h), printed one line each and written to HDF5 (the
 * six field profiles on their Yee nodes, with node coordinates) and CSV; yee-plot-modes
 * (postproc/plot_modes.py) draws |E|. Serial: under mpirun only rank 0 works.
 */
#ifndef YEE_APP_MODES_H
#define YEE_APP_MODES_H

#ifdef __cplusplus
extern "C" {
#endif

/* argv[0] is "modes", the deck and options follow (`yee modes --help`, text in app/commands.c).
 * Returns the exit status: 0 done, 1 a deck error, a failed solve or an unwritable file, 2 a bad
 * command line. */
int yee_modes_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
