#!/usr/bin/python3
"""tests/examples: inputs/bend.cfg -- transmission through a 90-degree bend, normalized by the
straight guide of inputs/waveguide.cfg (the file of the examples_waveguide test: --straight).

Runs the bend with both flux monitors referring to the straight run, as
docs/tutorials/bend.md does, and checks: the run's normalized spectra equal flux / |reference
flux| of the two files (the reference is read right); 0 <= T <= 1.05 everywhere and T > 0.3 at
80% of the frequencies or more (a bend of 1 um radius in silicon guides most of the light); the
loss grows with wavelength (T at 1.3 um > T at 1.8 um: the mode is less confined); and the
input plane sees 1 - R with R < 5% (a smooth bend reflects little). Exits 1 on FAIL.
"""
import os

import numpy as np

import excommon as ex


def main():
    ap = ex.parser(__doc__)
    ap.add_argument("--straight", required=True, help="waveguide.h5 of the straight run")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    ex.yee_run(a, "bend.cfg",
               'monitors[0].reference="%s"' % a.straight,
               'monitors[1].reference="%s"' % a.straight,
               'monitors[1].reference_monitor="end"')
    h5 = os.path.join(a.work, "bend.h5")
    f, t = ex.flux(h5, "trans", "normalized")
    _, start = ex.flux(h5, "start", "normalized")
    _, p_trans = ex.flux(h5, "trans")
    _, p_end = ex.flux(a.straight, "end")
    ex.table(f, {"T": t, "1-R": start})
    c = ex.Checks()
    c.below("bend_reference", np.max(np.abs(t - p_trans / np.abs(p_end))), 1e-6,
            "normalized vs flux / |straight end flux|")
    c.within("bend_T_range", t, 0.0, 1.05, "T")
    frac = float(np.mean(t > 0.3))
    c.check("bend_T_mostly_high", frac >= 0.8, 1.0 - frac, 0.2,
            "fraction of the frequencies where T <= 0.3")
    c.check("bend_loss_grows_with_wavelength", t[0] < t[-1], t[0] - t[-1], 0.0,
            "T(1.8 um) - T(1.3 um) = %.3f - %.3f must be < 0" % (t[0], t[-1]))
    c.below("bend_reflection", np.max(np.abs(1 - start)), 0.05,
            "max |1 - start/straight start| (reflection)")
    c.done()


if __name__ == "__main__":
    main()
