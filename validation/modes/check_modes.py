#!/usr/bin/python3
"""validation/modes -- `yee modes` (solver/mode_solver.c) against analytic slab modes and MPB.

--case slab: the 2-D slab of slab.cfg (n 2 core 0.4 um thick in n 1.45) at 1 um, solved at 50 and
100 cells/um. Checked against the slab's dispersion relation, tan(kappa d/2) = r gamma/kappa with
r = 1 (TE: E along z) or (n1/n2)^2 (TM), solved here by root finding:
  - the TE and TM fundamental effective indices within 1e-3 at both resolutions;
  - second-order convergence: the order from 50 to 100 cells/um at least 1.8;
  - the group index c/v_g that yee computes from the profile's energy over its power, against
    the analytic n - lambda dn/dlambda, within 1e-3;
  - the HDF5 profiles: 1/2 Int (E_y h_z - E_z h_y) dy = 1 (unit power), the TE mode with E_z
    only, and the longitudinal E_x of the TM mode odd about the core.
--case strip: the silicon strip of strip.cfg (0.5 x 0.22 um, Si in SiO2) at 1.55 um, 120
cells/um, against MPB (Debian package mpb) on the same 2.5 x 2 um cross-section: find-k at
resolutions 100 and 200, extrapolated to infinite resolution (its error falls as 1/res^2). The
first two modes (quasi-TE, quasi-TM) within 1e-3 in effective index.
Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import csv
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import arguments, check, exit_status, fail, run  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = 1e-3


def slab_neff(n1, n2, d, lam, pol):
    """Fundamental (even) mode of a symmetric slab: the root of tan(kappa d/2) = r gamma/kappa."""
    from scipy.optimize import brentq
    k0 = 2 * np.pi / lam
    r = 1.0 if pol == "te" else (n1 / n2) ** 2

    def f(n):
        kappa = k0 * np.sqrt(n1 ** 2 - n ** 2)
        gamma = k0 * np.sqrt(n ** 2 - n2 ** 2)
        return np.tan(kappa * d / 2) - r * gamma / kappa
    # the even mode's kappa d/2 lies in (0, pi/2): bracket it there
    n_hi = n1 - 1e-12
    n_lo = max(n2 + 1e-12, np.sqrt(max(n1 ** 2 - (np.pi / (k0 * d)) ** 2, n2 ** 2)) + 1e-12)
    return brentq(f, n_lo, n_hi, xtol=1e-14)


def solve(yee, deck, work, wavelength, res, nmodes=2, extra=()):
    out = os.path.join(work, "modes_%g.h5" % res)
    run([yee, "modes", deck, "--plane", "x=0", "--wavelength", "%.12g" % wavelength, "--modes",
         str(nmodes), "--set", "grid.resolution=%g" % res, "--out", out] + list(extra))
    with open(os.path.splitext(out)[0] + ".csv") as f:
        rows = list(csv.DictReader(f))
    return rows, out


def by_polarization(rows, pol):
    """The highest-index row whose E energy is mostly Ez (te) or in the plane (tm)."""
    for r in rows:
        ez = float(r["energy_ez"]) >= 0.5
        if ez == (pol == "te"):
            return r
    return None


def case_slab(args):
    n1, n2, d, lam = 2.0, 1.45, 0.4, 1.0
    exact = {p: slab_neff(n1, n2, d, lam, p) for p in ("te", "tm")}
    dl = 1e-3
    exact_ng = {p: exact[p] - lam * (slab_neff(n1, n2, d, lam + dl, p) -
                                     slab_neff(n1, n2, d, lam - dl, p)) / (2 * dl)
                for p in ("te", "tm")}
    print("analytic: TE neff %.8f ng %.6f, TM neff %.8f ng %.6f"
          % (exact["te"], exact_ng["te"], exact["tm"], exact_ng["tm"]))
    errs = {}
    bound = {("te", 50): 4e-4, ("tm", 50): 8e-4, ("te", 100): 1e-4, ("tm", 100): 2.5e-4}
    h5 = None
    for res in (50, 100):
        rows, out = solve(args.yee, args.deck, args.work, lam, res)
        if res == 100:
            h5 = out
        for pol in ("te", "tm"):
            r = by_polarization(rows, pol)
            if r is None:
                fail("slab %s mode at %d cells/um" % (pol.upper(), res), "not found")
                continue
            errs[(pol, res)] = abs(float(r["neff"]) - exact[pol])
            print("%d cells/um %s: neff %s ng %s" % (res, pol.upper(), r["neff"], r["ng"]))
            check("slab %s neff, %d cells/um" % (pol.upper(), res), errs[(pol, res)], TOL,
                  bound[(pol, res)])
            if res == 100:
                check("slab %s group index, %d cells/um" % (pol.upper(), res),
                      abs(float(r["ng"]) - exact_ng[pol]), TOL, 3e-4)
    for pol in ("te", "tm"):
        if (pol, 50) in errs and (pol, 100) in errs:
            order = np.log2(errs[(pol, 50)] / errs[(pol, 100)])
            check("slab %s convergence order 50 -> 100 cells/um" % pol.upper(), order, 1.8, 1.9,
                  higher=True, fmt="%.3f")
    # the profiles in the file
    with h5py.File(h5, "r") as f:
        neff = f["modes/neff"][()]
        y_e = f["coords/Ey_y"][()]
        dy = y_e[1] - y_e[0]
        for i in range(len(neff)):
            g = f["mode%d" % (i + 1)]
            ey, ez = g["Ey"][()].ravel(), g["Ez"][()].ravel()
            hy, hz = g["Hy"][()].ravel(), g["Hz"][()].ravel()
            power = 0.5 * np.sum(ey * hz - ez * hy) * dy  # E x h . x, dz = 1 um in 2-D
            check("slab mode %d unit power" % (i + 1), abs(power - 1.0), 1e-6, 1e-9)
        te = f["mode1"]
        check("slab TE mode: Ey share of |E|^2",
              np.sum(te["Ey"][()] ** 2) / np.sum(te["Ez"][()] ** 2), 1e-12, 1e-20)
        # E_x sits on the integer nodes y = -2 + j dy, j = 0..399: node j mirrors node 400 - j.
        # The window's walls (zero fields beyond its nodes) are not mirror images for these
        # nodes (y = -2.01 and y = 2.0), which the mode's tail feels at 1e-5.
        ex = f["mode2/Ex"][()].ravel()[1:]
        check("slab TM mode: longitudinal Ex odd about the core",
              np.abs(ex + ex[::-1]).max() / np.abs(ex).max(), 1e-4, 3e-5)


def mpb_neff(work, wavelength, res):
    """MPB's first two modes of the strip at this resolution (find-k along the strip)."""
    mpb = shutil.which("mpb")
    if not mpb:
        raise SystemExit("FAIL mpb is not installed (Debian package mpb; scripts/install-deps.sh "
                         "installs it): it is this case's reference")
    ctl = os.path.join(work, "strip_%d.ctl" % res)
    omega = 1.0 / wavelength
    with open(ctl, "w") as f:
        f.write("(set! geometry-lattice (make lattice (size 2.5 2 no-size)))\n"
                "(set! default-material (make dielectric (epsilon 2.085136)))\n"
                "(set! geometry (list (make block (center 0 0 0) (size 0.5 0.22 infinity)\n"
                "  (material (make dielectric (epsilon 12.082576))))))\n"
                "(set! resolution %d)\n"
                "(set! num-bands 2)\n"
                "(find-k NO-PARITY %.15g 1 2 (vector3 0 0 1) 1e-10 %.15g %.15g %.15g)\n"
                % (res, omega, 2.4 * omega, 1.45 * omega, 3.47 * omega))
    print("+ mpb " + ctl, flush=True)
    r = subprocess.run([mpb, ctl], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    rows = [line.split(",") for line in r.stdout.splitlines() if line.startswith("kvals:")]
    if r.returncode != 0 or not rows:
        print(r.stdout)
        raise SystemExit("FAIL mpb exited %d" % r.returncode)
    return np.array([float(v) for v in rows[-1][-2:]]) / omega


def case_strip(args):
    lam = 1.55
    coarse, fine = mpb_neff(args.work, lam, 100), mpb_neff(args.work, lam, 200)
    ref = fine + (fine - coarse) / 3.0  # Richardson: error ~ 1/res^2
    print("MPB neff: res 100 %s, res 200 %s, extrapolated %s" % (coarse, fine, ref))
    rows, _ = solve(args.yee, args.deck, args.work, lam, 120)
    names = ("quasi-TE (Ey)", "quasi-TM (Ez)")
    bounds = (3e-4, 1e-3)
    for i, r in enumerate(rows[:2]):
        print("yee mode %d: neff %s ng %s %s" % (i + 1, r["neff"], r["ng"], r["polarization"]))
        check("strip mode %d %s neff against MPB" % (i + 1, names[i]),
              abs(float(r["neff"]) - ref[i]), TOL, bounds[i])
    if len(rows) < 2:
        fail("strip modes", "found %d of 2" % len(rows))
    elif rows[0]["polarization"] != "Ey-like" or rows[1]["polarization"] != "Ez-like":
        fail("strip mode polarizations", "got %s, %s" % (rows[0]["polarization"],
                                                         rows[1]["polarization"]))


def main():
    ap = arguments()
    ap.add_argument("--case", choices=("slab", "strip"), required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    (case_slab if args.case == "slab" else case_strip)(args)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
