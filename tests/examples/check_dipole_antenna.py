#!/usr/bin/python3
"""tests/examples: inputs/dipole_antenna.cfg -- a half-wave dipole antenna's radiation pattern
and directivity through `yee farfield`, against the thin-wire antenna of antenna theory.

Runs the deck and `yee farfield` as docs/tutorials/dipole_antenna.md does, then compares, at each
frequency of the flux box (0.9 - 1.1 um), with a centre-fed wire of length L = 0.48 um carrying
the sinusoidal current I(z) = sin(k (L/2 - |z|)) (Balanis, "Antenna Theory", eq. 4.62):
  U(theta) ~ [(cos(k L/2 cos theta) - cos(k L/2)) / sin theta]^2
  - the pattern U / U_max at phi = 0 within 5 % of that (measured 1.5 - 3.4 %: a wire one cell
    thick is not infinitely thin, and the end of a staircased wire is not sharp);
  - the directivity 4 pi U_max / P_far within 3 % of the formula's (1.60 - 1.66; measured
    within 0.6 %);
  - the pattern does not depend on phi (the wire is a body of revolution on the grid: 1e-6);
  - the far field over the sphere carries the box's flux within 1 % (surface equivalence).
Exits 1 on FAIL.
"""
import os

import h5py
import numpy as np

import excommon as ex

LENGTH = 0.48  # um, the wire's two arms and the gap


def wire_pattern(k, theta):
    s = np.maximum(np.sin(theta), 1e-12)
    return ((np.cos(k * LENGTH / 2 * np.cos(theta)) - np.cos(k * LENGTH / 2)) / s) ** 2


def main():
    a = ex.parser(__doc__).parse_args()
    os.makedirs(a.work, exist_ok=True)
    ex.yee_run(a, "dipole_antenna.cfg")
    far = os.path.join(a.work, "far.h5")
    ex.run([a.yee, "farfield", os.path.join(a.work, "dipole_antenna.h5"), "--monitor", "box",
            "--theta", "0:180:37", "--phi", "0,90", "--out", far,
            "--csv", os.path.join(a.work, "far.csv"), "--quiet"])
    with h5py.File(far, "r") as f:
        freq = f["farfield/frequency"][()]
        theta = np.radians(f["farfield/theta"][()])
        nphi = len(f["farfield/phi"][()])
        u = f["farfield/power_per_sr"][()].reshape(len(freq), len(theta), nphi)
        p_far, p_box = f["farfield/power_total"][()], f["farfield/power_box"][()]
    fine = np.linspace(0.0, np.pi, 20001)
    worst_pattern = worst_d = worst_phi = 0.0
    print("%8s %10s %10s %10s" % ("f c/um", "pattern", "D yee", "D wire"))
    for q, fr in enumerate(freq):
        k = 2 * np.pi * fr
        ref = wire_pattern(k, theta)
        pattern = np.max(np.abs(u[q, :, 0] / u[q, :, 0].max() - ref / ref.max()))
        d_yee = 4 * np.pi * u[q].max() / p_far[q]
        w = wire_pattern(k, fine)
        d_wire = 2 * w.max() / np.trapz(w * np.sin(fine), fine)
        print("%8.4f %10.4f %10.4f %10.4f" % (fr, pattern, d_yee, d_wire))
        worst_pattern = max(worst_pattern, pattern)
        worst_d = max(worst_d, abs(d_yee / d_wire - 1))
        worst_phi = max(worst_phi, np.max(np.abs(u[q, :, 0] - u[q, :, 1])) / u[q].max())
    c = ex.Checks()
    c.below("antenna_pattern", worst_pattern, 0.05, "max |U/U_max - wire pattern| at phi = 0")
    c.below("antenna_directivity", worst_d, 0.03, "max |D / D_wire - 1|")
    c.below("antenna_phi_symmetry", worst_phi, 1e-6, "max |U(phi=0) - U(phi=90)| / U_max")
    c.below("antenna_power", np.max(np.abs(p_far / p_box - 1)), 0.01,
            "far-field power over the sphere / the box's flux")
    c.done()


if __name__ == "__main__":
    main()
