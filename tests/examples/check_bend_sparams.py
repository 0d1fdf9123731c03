#!/usr/bin/python3
"""tests/examples: inputs/bend_sparams.cfg -- S-parameters of a 90-degree bend from one run (an
eigenmode source and two mode monitors), against the flux method on the same geometry.

Runs the deck as docs/tutorials/bend_sparams.md does, then Meep's bend-flux tutorial as yee's
flux-method deck validation/bend2d/bend2d.cfg at the same 10 cells/um (a straight reference run,
then the bend with the reflection plane's reference fields subtracted; validation_bend2d checks
that method against Meep itself). T = sum over port2's modes of |S21|^2, R = sum over port1's
backward modes of |S11|^2. Checked:
  - R against the flux method's R within 0.01 wherever the guide has one mode (f < 0.15 c/um)
    and within 0.02 above (measured 0.005 and 0.013);
  - T against the flux method's T within 0.02 where the guide has one mode (measured 0.009);
    above 0.151 c/um the odd mode exists, reaches far into the air and is partly outside the
    flux method's 2 um planes, so there T_modes >= T_flux - 0.01;
  - T + R <= 1 (a passive bend) and |S21|^2 of port1's own incident mode is 1 (the division).
Exits 1 on FAIL.
"""
import os

import h5py
import numpy as np

import excommon as ex

RES = 10
SINGLE_MODE = 0.15  # c/um: the eps-12 guide 1 um wide has its second mode from 0.151 on


def flux_method(a):
    """T(f), R(f) of validation/bend2d/bend2d.cfg at RES: straight reference, then the bend."""
    deck = os.path.join(a.inputs, "..", "validation", "bend2d", "bend2d.cfg")
    straight, bend = os.path.join(a.work, "straight"), os.path.join(a.work, "bend")
    common = ["--set", "grid.resolution=%d" % RES, "--set", "boundary.pml.cells=%d" % RES]
    ex.run([a.yee, "run", deck, "--out", straight, "--quiet"] + common + [
        "--set", "geometry[0].size=[16.0, 1.0, 1.0]",
        "--set", "geometry[0].center=[0.0, -11.5, 0.0]",
        "--set", "geometry[1].size=[16.0, 1.0, 1.0]",
        "--set", "geometry[1].center=[0.0, -11.5, 0.0]",
        "--set", "monitors[1].min=[6.5, -12.5, 0.0]", "--set", "monitors[1].max=[6.5, -10.5, 0.0]",
        "--set", "monitors[0].save_fields=true"])
    ref = os.path.join(straight, "bend2d.h5")
    ex.run([a.yee, "run", deck, "--out", bend, "--quiet"] + common + [
        "--set", 'monitors[0].reference="%s"' % ref, "--set", "monitors[0].subtract_reference=true",
        "--set", 'monitors[1].reference="%s"' % ref])
    with h5py.File(os.path.join(bend, "bend2d.h5"), "r") as f:
        return (f["flux/trans/frequency"][()], f["flux/trans/normalized"][()],
                f["flux/refl/normalized"][()])


def main():
    a = ex.parser(__doc__).parse_args()
    os.makedirs(a.work, exist_ok=True)
    ex.yee_run(a, "bend_sparams.cfg")
    with h5py.File(os.path.join(a.work, "bend_sparams.h5"), "r") as f:
        freq = f["modes/port1/frequency"][()]

        def s2(port, k, d):
            g = f["modes/%s/mode%d" % (port, k)]
            return g["s_%s_re" % d][()] ** 2 + g["s_%s_im" % d][()] ** 2
        t = s2("port2", 1, "fwd") + s2("port2", 2, "fwd")
        r = s2("port1", 1, "bwd") + s2("port1", 2, "bwd")
        s11_incident = s2("port1", 1, "fwd")
    ff, t_flux, r_flux = flux_method(a)
    t_ref, r_ref = np.interp(freq, ff, t_flux), np.interp(freq, ff, r_flux)
    ex.table(freq * ex.C_UM_THZ, {"T modes": t, "T flux": t_ref, "R modes": r, "R flux": r_ref})
    one = freq < SINGLE_MODE
    c = ex.Checks()
    c.below("bend_sparams_R_single_mode", np.max(np.abs(r - r_ref)[one]), 0.01,
            "max |R_modes - R_flux|, f < %g c/um" % SINGLE_MODE)
    c.below("bend_sparams_R_two_modes", np.max(np.abs(r - r_ref)[~one]), 0.02,
            "max |R_modes - R_flux|, f >= %g c/um" % SINGLE_MODE)
    c.below("bend_sparams_T_single_mode", np.max(np.abs(t - t_ref)[one]), 0.02,
            "max |T_modes - T_flux|, f < %g c/um" % SINGLE_MODE)
    c.below("bend_sparams_T_two_modes", np.max((t_ref - t)[~one]), 0.01,
            "max (T_flux - T_modes), f >= %g c/um: the modes catch the odd mode's tails" %
            SINGLE_MODE)
    c.within("bend_sparams_passive", t + r, 0.0, 1.0, "T + R")
    c.below("bend_sparams_incident", np.max(np.abs(s11_incident - 1)), 1e-9,
            "port1's incident |S|^2 = 1")
    c.done()


if __name__ == "__main__":
    main()
