"""check_spectrum.py CSV F0_THZ TOL -- the spectrum CSV written by plot_spectrum.py --csv has the
header freq_THz,wavelength_um,magnitude and peaks within relative TOL of F0_THZ."""
import sys

import numpy as np


def main(path, f0, tol):
    f0, tol = float(f0), float(tol)
    with open(path) as f:
        header = f.readline().strip()
    if header != "freq_THz,wavelength_um,magnitude":
        sys.exit("check_spectrum: %s: unexpected header '%s'" % (path, header))
    d = np.loadtxt(path, delimiter=",", skiprows=1)
    peak = d[np.argmax(d[:, 2]), 0]
    if not abs(peak - f0) <= tol * f0:
        sys.exit("check_spectrum: peak at %.2f THz, want %.2f THz within %g%%" %
                 (peak, f0, 100 * tol))
    wl = d[d[:, 0] > 0]
    if not np.allclose(wl[:, 1] * wl[:, 0], 299.792458, rtol=1e-6):
        sys.exit("check_spectrum: wavelength column is not c / frequency")
    print("ok: peak at %.2f THz (%.2f%% from %.2f THz), %d rows" %
          (peak, 100 * (peak - f0) / f0, f0, len(d)))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
