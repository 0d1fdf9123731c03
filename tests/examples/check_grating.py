#!/usr/bin/python3
"""tests/examples: inputs/grating.cfg -- R and T of a lossless grating add up to 1.

Runs the deck twice as docs/tutorials/grating.md does: empty (materials[0].epsilon = 1, named
grating_ref; the reflection plane saves its DFT fields), then the grating with both flux
monitors referring to the empty run and the reflection monitor subtracting its fields. Checks
over 0.85 - 1.6 um: R and T within [0, 1] (to 1e-3), |R + T - 1| < 0.02 (lossless; no
diffracted orders), the empty run's reflection after subtraction ~0 (subtract the run from
itself: < 1e-3), and a guided-mode resonance: max R > 0.9 (a 0.3 um slab alone reflects at most
~36%). Exits 1 on FAIL.
"""
import os

import numpy as np

import excommon as ex


def main():
    a = ex.parser(__doc__).parse_args()
    os.makedirs(a.work, exist_ok=True)
    ex.yee_run(a, "grating.cfg", "simulation.name=grating_ref", "materials[0].epsilon=1.0",
               extra=False)
    ref = os.path.join(a.work, "grating_ref.h5")
    ex.yee_run(a, "grating.cfg",
               'monitors[0].reference="%s"' % ref, "monitors[0].subtract_reference=true",
               'monitors[1].reference="%s"' % ref)
    h5 = os.path.join(a.work, "grating.h5")
    f, r = ex.flux(h5, "refl", "normalized")
    _, t = ex.flux(h5, "trans", "normalized")
    ex.table(f, {"R": r, "T": t, "R+T": r + t}, every=20)
    # the empty run against itself: subtracting its own fields must leave nothing
    ex.yee_run(a, "grating.cfg", "simulation.name=grating_self", "materials[0].epsilon=1.0",
               'monitors[0].reference="%s"' % ref, "monitors[0].subtract_reference=true",
               extra=False)
    _, r_self = ex.flux(os.path.join(a.work, "grating_self.h5"), "refl", "normalized")
    c = ex.Checks()
    band = "0.85-1.6 um, %d frequencies" % len(f)
    c.within("grating_R_range", r, -1e-3, 1.001, "R")
    c.within("grating_T_range", t, -1e-3, 1.001, "T")
    c.below("grating_energy", np.max(np.abs(r + t - 1)), 0.02, "max |R + T - 1| over " + band)
    c.below("grating_subtract_self", np.max(np.abs(r_self)), 1e-3,
            "max |R| of the empty run with its own fields subtracted")
    c.check("grating_resonance", r.max() > 0.9, r.max(), 0.9,
            "max R must be > 0.9 (guided-mode resonance) at %.4f um" %
            (ex.C_UM_THZ / f[np.argmax(r)]))
    c.done()


if __name__ == "__main__":
    main()
