#!/usr/bin/python3
"""validation/slab -- dielectric slab at normal incidence vs the Airy (Fresnel) formulas.

Runs slab.cfg (eps 4 slab, 0.5 um, 40 cells/um: 20 cells per wavelength in the slab at the top
of the band) and its reference (the slab's material set to air), forms the power reflectance
R = |F[E_front - E_front_ref]|^2 / |F[E_front_ref]|^2 and transmittance
T = |F[E_back]|^2 / |F[E_back_ref]|^2 over f = 0.5 - 1.0 c/um and compares them with
|r|^2, |t|^2 of the Airy formulas for n = 2, d = 0.5 um. Checks max |R - R_airy| < 0.01 and
max |T - T_airy| < 0.01 (absolute, i.e. 1% of the incident power) and energy R + T = 1 within
1e-3. Then runs 80 and 160 cells/um, where the faces fall on Ex nodes and subpixel averaging
gives those nodes eps = 2.5, and checks that the error of R falls by at least 3x (second order:
4x; a staircase face would be first order). Regression bounds (vcommon.check): R and T errors
< 6e-3 (measured 4.8e-3), R + T - 1 < 1e-5 (5.3e-6), ratio >= 3.5 (4.18). Prints PASS|FAIL
lines; exits 1 on FAIL. Does not check phases (they carry the probe distances and the grid's
phase velocity error, not the slab's).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from planewave import airy_slab, reflectance_transmittance  # noqa: E402
from vcommon import arguments, check, exit_status, run  # noqa: E402

TOL = 0.01
TOL_ENERGY = 1e-3
N, D = 2.0, 0.5
RESOLUTIONS = (40, 80, 160)
MIN_RATIO = 3.0
# regression bounds at 40 cells/um (measured R 4.845e-3, T 4.844e-3, energy 5.3e-6) and on the
# 80 -> 160 ratio (measured 4.18, order 2.06)
BOUND, BOUND_ENERGY, BOUND_RATIO = 6e-3, 1e-5, 3.5


def main():
    a = arguments().parse_args()
    f = np.linspace(0.5, 1.0, 51)
    r, t = airy_slab(N, D, f)
    Ra, Ta = np.abs(r) ** 2, np.abs(t) ** 2
    errs = []
    for res in RESOLUTIONS:
        runs = {}
        for tag, extra in (("slab", []), ("ref", ["--set", "geometry[0].material=air"])):
            out = os.path.join(a.work, "%s_R%d" % (tag, res))
            os.makedirs(out, exist_ok=True)
            run([a.yee, "run", a.deck, "--out", out, "--quiet",
                 "--set", "grid.resolution=%d" % res] + extra)
            runs[tag] = os.path.join(out, "slab.h5")
        R, T = reflectance_transmittance(runs["slab"], runs["ref"], f)
        print("resolution %d cells/um (%.0f cells per wavelength in the slab at 1.0 c/um)"
              % (res, res / N))
        print("%8s %10s %10s %10s %10s" % ("f c/um", "R", "R_airy", "T", "T_airy"))
        for q in range(0, len(f), 5):
            print("%8.3f %10.5f %10.5f %10.5f %10.5f" % (f[q], R[q], Ra[q], T[q], Ta[q]))
        errs.append(np.max(np.abs(R - Ra)))
        if res != RESOLUTIONS[0]:
            continue
        for name, err, tol, bound in (
                ("slab_reflectance", np.max(np.abs(R - Ra)), TOL, BOUND),
                ("slab_transmittance", np.max(np.abs(T - Ta)), TOL, BOUND),
                ("slab_energy", np.max(np.abs(R + T - 1)), TOL_ENERGY, BOUND_ENERGY)):
            check(name, err, tol, bound, "max over %d frequencies 0.5-1.0 c/um, %d cells/um"
                  % (len(f), res))
    ratio = errs[1] / errs[2]
    check("slab_convergence_averaged", ratio, MIN_RATIO, BOUND_RATIO,
          "error ratio %.3e -> %.3e at 80 -> 160 cells/um, order %.2f" % (errs[1], errs[2],
                                                                         np.log2(ratio)),
          higher=True)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
