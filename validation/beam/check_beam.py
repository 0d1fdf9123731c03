#!/usr/bin/python3
"""validation/beam -- the Gaussian-beam source against paraxial beam optics.

Runs beam.cfg: a beam of waist w0 = 1 um at lambda = 1 um (zR = pi w0^2 = 3.14 um) from the
plane z = -1.2 um, focused at z = 0. From the DFT of Ex along x through the axis it fits
|E|^2 = a exp(-2 (x - c)^2 / w^2) at z = 0 and z = 1.2 um and compares w with the paraxial
w(z) = w0 sqrt(1 + (z/zR)^2): within 3% at the focus, 6% at 1.2 um (the beam is only mildly
paraxial, k w0 = 6.3: corrections of order 1/(k w0)^2 = 2.5% are physics, not error), the
centre within half a cell of the axis. The source must be one-way: the power through a plane
behind it is below -30 dB of the power ahead. Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import os
import sys

import h5py
import numpy as np
from scipy.optimize import curve_fit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import arguments, run  # noqa: E402

W0, DX = 1.0, 0.05
CHECKS = (("focus", 0.0, 0.03), ("far", 1.2, 0.06))


def width(f, mon):
    d = f["dft/%s/Ex_re" % mon]
    intensity = d[0, 0, 0, :] ** 2 + f["dft/%s/Ex_im" % mon][0, 0, 0, :] ** 2
    x = d.attrs["origin"][0] + np.arange(intensity.size) * d.attrs["spacing"][0]
    p, _ = curve_fit(lambda x, a, w, c: a * np.exp(-2 * (x - c) ** 2 / w ** 2), x, intensity,
                     p0=[intensity.max(), W0, 0.0])
    return abs(p[1]), p[2]


def main():
    a = arguments().parse_args()
    os.makedirs(a.work, exist_ok=True)
    run([a.yee, "run", a.deck, "--out", a.work, "--quiet"])
    nfail = 0
    zr = np.pi * W0 ** 2
    with h5py.File(os.path.join(a.work, "beam.h5"), "r") as f:
        for mon, z, tol in CHECKS:
            w, c = width(f, mon)
            expect = W0 * np.sqrt(1 + (z / zr) ** 2)
            err = abs(w / expect - 1)
            ok = err < tol and abs(c) < DX / 2
            nfail += not ok
            print("%s beam_width_%s (w=%.4f um, paraxial %.4f um, err=%.2e, tol=%.0e; centre "
                  "%.4f um)" % ("PASS" if ok else "FAIL", mon, w, expect, err, tol, c))
        fwd, back = f["flux/fwd/flux"][0], f["flux/back/flux"][0]
    db = 10 * np.log10(max(back, 1e-30) / fwd)
    ok = db < -30
    nfail += not ok
    print("%s beam_one_way (backward/forward power %.1f dB, tol < -30 dB)"
          % ("PASS" if ok else "FAIL", db))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
