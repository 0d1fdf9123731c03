#!/usr/bin/python3
"""validation/drude -- reflection from a Drude half-space vs Fresnel with the Drude permittivity.

Runs drude.cfg (Drude metal fp = 2.0 c/um, gamma = 0.1 c/um, 100 cells/um, ADE) and its
reference (metal set to air), forms R = |F[E_front - E_front_ref]|^2 / |F[E_front_ref]|^2 over
f = 0.5 - 1.0 c/um and compares with |r|^2, r = (1 - n) / (1 + n), n = sqrt(eps(f)),
eps(f) = 1 - fp^2 / (f^2 + i f gamma) (fields ~ exp(-i 2 pi f t)). Checks the relative error
max |R - R_ana| / R_ana < 2%, and the phase of r against the analytic one after removing the
probe's round trip exp(2 i 2 pi f L) (L = 1.005 um from the probe to the face, the vacuum Yee
phase velocity error included) to within 0.01 rad. Regression bounds (vcommon.check): 5e-4 for R
(measured 2.5e-4), 2.5e-3 rad for the phase (measured 1.6e-3). Prints PASS|FAIL lines; exits 1
on FAIL.
"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from planewave import probe, spectrum  # noqa: E402
from vcommon import arguments, check, exit_status, run  # noqa: E402

C_THZ = 299.792458
FP, GAMMA = 599.584916 / C_THZ, 29.9792458 / C_THZ
TOL = 0.02
TOL_PHASE = 0.01
BOUND, BOUND_PHASE = 5e-4, 2.5e-3  # regression bounds; measured 2.47e-4, 1.64e-3 rad
L_PROBE = 1.005  # um, probe at z = -1.0, metal face at z = 0.005


def main():
    a = arguments().parse_args()
    runs = {}
    for tag, extra in (("metal", []), ("ref", ["--set", "geometry[0].material=air"])):
        out = os.path.join(a.work, tag)
        os.makedirs(out, exist_ok=True)
        run([a.yee, "run", a.deck, "--out", out, "--quiet"] + extra)
        runs[tag] = os.path.join(out, "drude.h5")
    f = np.linspace(0.5, 1.0, 51)
    xs, dt = probe(runs["metal"], "front")
    xr, _ = probe(runs["ref"], "front")
    r_meas = spectrum(xs - xr, dt, f) / spectrum(xr, dt, f)
    eps = 1 - FP ** 2 / (f ** 2 + 1j * f * GAMMA)
    n = np.sqrt(eps)
    n = np.where(n.imag < 0, -n, n)  # decaying into the metal
    r = (1 - n) / (1 + n)
    R, Ra = np.abs(r_meas) ** 2, np.abs(r) ** 2
    # phase: remove the round trip probe -> face -> probe at the Yee vacuum wavenumber
    with h5py.File(runs["metal"], "r") as h:
        dz = float(h.attrs["dx"][2])
    k_yee = 2 / dz * np.arcsin(dz / dt * np.sin(np.pi * f * dt))  # 1-D Yee, vacuum
    # spectrum() uses exp(-i 2 pi f t), i.e. fields ~ exp(+i w t): compare with conj(r); the
    # delay 2 L / c of the reflected wave at the probe multiplies by exp(-i 2 k L)
    ph = np.angle(r_meas * np.exp(2j * k_yee * L_PROBE) / np.conj(r))
    print("%8s %10s %10s %10s %12s" % ("f c/um", "eps_re", "R", "R_fresnel", "phase err"))
    for q in range(0, len(f), 5):
        print("%8.3f %10.3f %10.5f %10.5f %12.4f" % (f[q], eps[q].real, R[q], Ra[q], ph[q]))
    for name, err, tol, bound in (
            ("drude_reflectance", np.max(np.abs(R - Ra) / Ra), TOL, BOUND),
            ("drude_reflection_phase", np.max(np.abs(ph)), TOL_PHASE, BOUND_PHASE)):
        check(name, err, tol, bound, "max over %d frequencies 0.5-1.0 c/um" % len(f))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
