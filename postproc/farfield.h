/* postproc/farfield.h -- `yee farfield RUN.h5 --monitor BOX`: far fields from the DFT fields a
 * closed flux box saved (`save_fields = true`), by the surface equivalence principle: the
 * currents J = n x H and M = -n x E on the box radiate into the homogeneous background what the
 * sources inside radiate (Taflove & Hagness 2005, ch. 8; Balanis, "Antenna Theory", 4th ed.,
 * sec. 12.3 for the radiation vectors N, L and eq. 12-10 for E_theta, E_phi). Reads a finished
 * run's file; never runs a simulation and never touches MPI (the caller runs it on one rank).
 *
 * With fields ~ exp(-i w t) (yee's DFT, solver/dft.h), k = 2 pi f n, eta = 1 / n (H is stored as
 * eta0 H):
 *   N = sum J exp(-i k rhat.r') dA,  L = sum M exp(-i k rhat.r') dA   (r' the node, dA its
 *       trapezoid-weighted area, every node of the six faces: the sums the flux is made of)
 *   E_theta = i k exp(i k r) / (4 pi r) (L_phi + eta N_theta)
 *   E_phi  = -i k exp(i k r) / (4 pi r) (L_theta - eta N_phi)
 *   U = r^2 (|E_theta|^2 + |E_phi|^2) / eta   (power per steradian, the flux's convention)
 * r is measured from the deck's origin (0, 0, 0). The integral of U over the sphere (Gauss-
 * Legendre in cos(theta), uniform in phi, enough points for the box's size) is printed beside the
 * box's own flux: they agree when the box is closed and the background homogeneous.
 */
#ifndef YEE_POSTPROC_FARFIELD_H
#define YEE_POSTPROC_FARFIELD_H

#ifdef __cplusplus
extern "C" {
#endif

/* The whole subcommand: argv[0] is the command word ("farfield"), the options follow (help in
 * app/commands.c). Writes <run>_<monitor>_farfield.h5 and .csv (or --out, --csv), prints a line
 * per frequency. Returns the exit status: 0 success, 1 an unreadable file, a monitor without
 * saved face fields, an open box, a 2-D run, 2 a bad command line. */
int yee_farfield_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
