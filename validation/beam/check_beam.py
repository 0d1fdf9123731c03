#!/usr/bin/python3
"""validation/beam -- the Gaussian-beam source against paraxial beam optics.

Runs beam.cfg: a beam of waist w0 = 1 um at lambda = 1 um (zR = pi w0^2 = 3.14 um) from the
plane z = -1.2 um, focused at z = 0. From the DFT of Ex along x through the axis it fits
|E|^2 = a exp(-2 (x - c)^2 / w^2) at z = 0 and z = 1.2 um and compares w with the paraxial
w(z) = w0 sqrt(1 + (z/zR)^2): within 3% at the focus, 6% at 1.2 um (the beam is only mildly
paraxial, k w0 = 6.3: corrections of order 1/(k w0)^2 = 2.5% are physics, not error), the
centre within half a cell of the axis. The source must be one-way: the power through a plane
behind it is below -30 dB of the power ahead. Regression bounds (vcommon.check): width errors
0.020 at the focus and 0.052 at 1.2 um (measured 0.0160, 0.0423), centre 1e-4 um (measured
1e-12 and 5e-7 um: symmetric up to rounding), backward power -31 dB (measured -34.0). Prints
PASS|FAIL lines; exits 1 on FAIL.
"""
import os
import sys

import h5py
import numpy as np
from scipy.optimize import curve_fit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import arguments, check, exit_status, run  # noqa: E402

W0, DX = 1.0, 0.05
# monitor, z (um), tolerance and regression bound of the width error (measured 0.0160, 0.0423)
CHECKS = (("focus", 0.0, 0.03, 0.020), ("far", 1.2, 0.06, 0.052))
BOUND_CENTRE = 1e-4    # um; tolerance DX / 2; measured 1e-12 (focus), 5e-7 (far)
TOL_DB, BOUND_DB = -30.0, -31.0  # backward / forward power; measured -34.0 dB


def width(f, mon):
    d = f["dft/%s/Ex_re" % mon]
    intensity = d[0, 0, 0, :] ** 2 + f["dft/%s/Ex_im" % mon][0, 0, 0, :] ** 2
    # the nodes' coordinates (a graded mesh keeps them in /coordinates), else origin + i spacing
    c = f.get("coordinates/dft/%s/Ex_re/x" % mon)
    x = (c[()] if c is not None else
         d.attrs["origin"][0] + np.arange(intensity.size) * d.attrs["spacing"][0])
    p, _ = curve_fit(lambda x, a, w, c: a * np.exp(-2 * (x - c) ** 2 / w ** 2), x, intensity,
                     p0=[intensity.max(), W0, 0.0])
    return abs(p[1]), p[2]


def main():
    a = arguments().parse_args()
    os.makedirs(a.work, exist_ok=True)
    run([a.yee, "run", a.deck, "--out", a.work, "--quiet"])
    zr = np.pi * W0 ** 2
    with h5py.File(os.path.join(a.work, "beam.h5"), "r") as f:
        for mon, z, tol, bound in CHECKS:
            w, c = width(f, mon)
            expect = W0 * np.sqrt(1 + (z / zr) ** 2)
            check("beam_width_" + mon, abs(w / expect - 1), tol, bound,
                  "w=%.4f um, paraxial %.4f um" % (w, expect))
            check("beam_centre_" + mon, abs(c), DX / 2, BOUND_CENTRE, "fitted centre, um")
        fwd, back = f["flux/fwd/flux"][0], f["flux/back/flux"][0]
    db = 10 * np.log10(max(back, 1e-30) / fwd)
    check("beam_one_way", db, TOL_DB, BOUND_DB, "backward/forward power", fmt="%.1f", unit=" dB")
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
