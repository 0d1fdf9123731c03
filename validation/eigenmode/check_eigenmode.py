#!/usr/bin/python3
"""validation/eigenmode -- eigenmode sources (solver/tfsf.c with solver/mode_solver.c) in
straight guides: what they launch backwards and how much power they launch forwards.

Runs slab2d.cfg as a TM run (the slab's TE0 mode, Ez) and as a TE run (TM0: Ex, Ey), and the 3-D
silicon strip strip3d.cfg (quasi-TE mode). For each, from the flux planes behind and ahead of the
source, over the pulse's band f0 +- 10 %:
  - backward / forward power below -30 dB at every frequency (the issue's bound), and below
    -45 dB at the frequency nearest the carrier, where the launched wave is an exact mode of
    the grid (the mode is solved at the carrier; off it the mode's dispersion is not followed);
  - the forward power equals what a unit-power mode carries times the pulse's spectrum,
    2 |S(f)|^2 (Meep's flux convention without 1/2; S the Fourier transform of the source's
    time profile), times cos(beta dx/2): the flux plane pairs E with the mean of H on the two
    planes beside it. beta(f) = 2 pi (f0 neff + (f - f0) ng) from `yee modes` at the carrier.
    Within 2 %. This checks that a source of amplitude A launches power A^2 (docs/modes.md).
Mode monitors (deck type "mode", solver/mode_monitor.h), in the slab runs:
  - port2's S21 = alpha_fwd / port1's alpha_fwd: |S21|^2 >= 0.99; port1's S11 = alpha_bwd /
    alpha_fwd: |S11|^2 below -30 dB (the issue's bounds);
  - port1's forward power of mode 1 equals 2 |S(f)|^2 within 1 %: the coefficients undo the flux
    plane's cos(beta dx/2); what is left is the source's dispersion off the carrier (at the
    carrier the two agree to 4e-6).
taper2d.cfg (an abrupt width step 0.4 -> 1.0 um): port2's forward power summed over its 4 modes,
port1's backward power over its 4 modes and the flux through the planes beside the step add up
to port1's incident power within 1 % at every frequency.
Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import csv
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import arguments, check, exit_status, run  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [
    # name, deck, --set overrides, source plane, carrier (c/um), bounds: band dB, carrier dB
    ("slab2d TM run (TE0)", "slab2d.cfg", ['simulation.polarization="tm"'], "x=-1.5", 1.0,
     -32.5, -70.0),
    ("slab2d TE run (TM0)", "slab2d.cfg", ['simulation.polarization="te"'], "x=-1.5", 1.0,
     -32.5, -70.0),
    ("strip3d quasi-TE", "strip3d.cfg", [], "x=-1.0", 1 / 1.55, -32.5, -55.0),
]
BANDWIDTH = 0.1


def spectrum(f, f0):
    """|S(f)| of the Gaussian profile exp(-t^2 / 2 s^2) sin(2 pi f0 t), s = 1 / (2 pi fwidth)."""
    s = 1.0 / (2 * np.pi * BANDWIDTH * f0)
    return s * np.sqrt(2 * np.pi) / 2 * np.abs(np.exp(-2 * (np.pi * s * (f - f0)) ** 2) -
                                              np.exp(-2 * (np.pi * s * (f + f0)) ** 2))


def one_case(args, name, deck, sets, plane, f0, bound_band, bound_carrier):
    work = os.path.join(args.work, deck.replace(".cfg", "") + "_" + str(abs(hash(name)) % 1000))
    os.makedirs(work, exist_ok=True)
    path = os.path.join(HERE, deck)
    set_args = [a for s in sets for a in ("--set", s)]
    out = os.path.join(work, "mode.h5")
    run([args.yee, "modes", path, "--plane", plane, "--wavelength", "%.12g" % (1 / f0),
         "--modes", "1", "--out", out] + set_args)
    with open(out.replace(".h5", ".csv")) as fh:
        m = next(csv.DictReader(fh))
    neff, ng = float(m["neff"]), float(m["ng"])
    run([args.yee, "run", path, "--out", work, "--quiet"] + set_args)
    with h5py.File(os.path.join(work, deck.replace(".cfg", ".h5")), "r") as h:
        f = h["flux/fwd/frequency"][()]
        fwd, bwd = h["flux/fwd/flux"][()], h["flux/bwd/flux"][()]
        dx = h.attrs["dx"][0]
    band = np.abs(f - f0) <= 0.1 * f0 + 1e-9
    ratio_db = 10 * np.log10(np.abs(bwd) / fwd)
    print("%s: neff %.5f ng %.4f" % (name, neff, ng))
    for fi, r, p in zip(f, ratio_db, fwd):
        print("  f %.4f c/um: forward %.5g, backward/forward %.1f dB" % (fi, p, r))
    check("%s backward/forward, worst in f0 +- 10 %%" % name, ratio_db[band].max(), -30.0,
          bound_band, fmt="%.1f", unit=" dB")
    near = np.argmin(np.abs(f - f0))
    check("%s backward/forward at %.4f c/um (carrier %.4f)" % (name, f[near], f0),
          ratio_db[near], -45.0, bound_carrier, fmt="%.1f", unit=" dB")
    beta = 2 * np.pi * (f0 * neff + (f - f0) * ng)
    expect = 2 * spectrum(f, f0) ** 2 * np.cos(beta * dx / 2)
    err = np.abs(fwd[band] / expect[band] - 1).max()
    check("%s forward power against 2 |S|^2 cos(beta dx/2)" % name, err, 0.02, 6e-3)
    if "slab" not in deck:
        return
    with h5py.File(os.path.join(work, deck.replace(".cfg", ".h5")), "r") as h:
        s21 = h["modes/port2/mode1/s_fwd_re"][()] ** 2 + h["modes/port2/mode1/s_fwd_im"][()] ** 2
        s11 = h["modes/port1/mode1/s_bwd_re"][()] ** 2 + h["modes/port1/mode1/s_bwd_im"][()] ** 2
        fm = h["modes/port1/frequency"][()]
        p_in = h["modes/port1/mode1/power_fwd"][()]
    print("  |S21|^2 %s" % np.array2string(s21, precision=7))
    print("  |S11|^2 %s" % np.array2string(s11, precision=3))
    check("%s |S21|^2 of the straight guide (1 - |S21|^2)" % name, np.abs(1 - s21).max(), 0.01,
          1e-4)
    check("%s |S11|^2 of the straight guide" % name, 10 * np.log10(s11.max()), -30.0, -80.0,
          fmt="%.1f", unit=" dB")
    check("%s port1 forward power against 2 |S|^2" % name,
          np.abs(p_in / (2 * spectrum(fm, f0) ** 2) - 1).max(), 0.01, 7e-3)


def taper(args):
    work = os.path.join(args.work, "taper2d")
    os.makedirs(work, exist_ok=True)
    run([args.yee, "run", os.path.join(HERE, "taper2d.cfg"), "--out", work, "--quiet"])
    with h5py.File(os.path.join(work, "taper2d.h5"), "r") as h:
        def mode(port, k, what):
            return h["modes/%s/mode%d/%s" % (port, k, what)][()]
        p_in = mode("port1", 1, "power_fwd")
        out = sum(mode("port2", k, "power_fwd") for k in range(1, 5))
        back = sum(mode("port1", k, "power_bwd") for k in range(1, 5))
        side = h["flux/top/flux"][()] + h["flux/bottom/flux"][()]
    for i in range(len(p_in)):
        print("  taper: forward modes %.5f, backward modes %.2e, sideways %.5f, sum %.5f"
              % (out[i] / p_in[i], back[i] / p_in[i], side[i] / p_in[i],
                 (out[i] + back[i] + side[i]) / p_in[i]))
    check("taper2d power balance (modes + sideways flux) / incident",
          np.abs((out + back + side) / p_in - 1).max(), 0.01, 7e-3)


def main():
    ap = arguments(deck="(several)")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    for case in CASES:
        one_case(args, *case)
    taper(args)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
