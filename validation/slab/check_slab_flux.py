#!/usr/bin/python3
"""validation/slab (flux) -- R and T of a dielectric slab from DFT flux monitors vs Airy.

Runs slab_flux.cfg twice: with the slab set to air (the reference: the incident flux, and the
reflection plane's DFT fields saved), then with the slab, each flux monitor pointing at the
reference run and the reflection monitor subtracting the reference fields. The run writes
normalized = P / |P_incident| itself; this checks it against |r|^2, |t|^2 of the Airy formulas
(n = 2, d = 0.5 um) over 0.5 - 1.0 c/um at 40 cells/um (20 cells per wavelength in the slab at
the top of the band): max |T - T_airy| < 0.01, max |R - R_airy| < 0.01, and energy
max |R + T - 1| < 0.01 (lossless). Also checks that the CSV the run writes equals the HDF5
spectrum. Regression bounds (vcommon.check): T and R errors < 6e-3 (measured 4.8e-3),
R + T - 1 < 1e-5 (4.3e-6), CSV vs HDF5 < 1e-10 (measured 4.8e-12; the CSV's %.10e rounds a
value below 10 by at most 5e-11). Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import csv
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from planewave import airy_slab  # noqa: E402
from vcommon import arguments, check, exit_status, run  # noqa: E402

TOL = 0.01
BOUND, BOUND_ENERGY, BOUND_CSV = 6e-3, 1e-5, 1e-10  # measured 4.84e-3, 4.3e-6, 4.8e-12


def main():
    a = arguments().parse_args()
    ref_dir, slab_dir = os.path.join(a.work, "ref"), os.path.join(a.work, "slab")
    for d in (ref_dir, slab_dir):
        os.makedirs(d, exist_ok=True)
    run([a.yee, "run", a.deck, "--out", ref_dir, "--quiet",
         "--set", 'geometry[0].material="air"'])
    ref = os.path.join(ref_dir, "slab_flux.h5")
    run([a.yee, "run", a.deck, "--out", slab_dir, "--quiet",
         "--set", 'monitors[0].reference="%s"' % ref,
         "--set", 'monitors[1].reference="%s"' % ref,
         "--set", "monitors[1].subtract_reference=true"])
    with h5py.File(os.path.join(slab_dir, "slab_flux.h5"), "r") as f:
        freq = f["flux/trans/frequency"][:]
        T = f["flux/trans/normalized"][:]
        R = f["flux/refl/normalized"][:]
    r, t = airy_slab(2.0, 0.5, freq)
    Ra, Ta = np.abs(r) ** 2, np.abs(t) ** 2
    print("%8s %10s %10s %10s %10s" % ("f c/um", "R", "R_airy", "T", "T_airy"))
    for q in range(0, len(freq), 5):
        print("%8.3f %10.5f %10.5f %10.5f %10.5f" % (freq[q], R[q], Ra[q], T[q], Ta[q]))
    with open(os.path.join(slab_dir, "slab_flux_trans_flux.csv")) as fp:
        rows = list(csv.DictReader(fp))
    csv_T = np.array([float(row["normalized"]) for row in rows])
    for name, err, tol, bound in (
            ("slab_flux_transmittance", np.max(np.abs(T - Ta)), TOL, BOUND),
            ("slab_flux_reflectance", np.max(np.abs(R - Ra)), TOL, BOUND),
            ("slab_flux_energy", np.max(np.abs(R + T - 1)), TOL, BOUND_ENERGY),
            ("slab_flux_csv", np.max(np.abs(csv_T - T)), 1e-8, BOUND_CSV)):
        check(name, err, tol, bound, "max over %d frequencies 0.5-1.0 c/um, 40 cells/um"
              % len(freq))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
