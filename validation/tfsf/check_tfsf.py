#!/usr/bin/python3
"""validation/tfsf -- leakage of the total-field/scattered-field plane wave.

With no scatterer the field outside the TFSF box is zero in exact arithmetic. For each
direction this runs tfsf.cfg and reports, at probes in front of, beside, behind and diagonal
to the box, max |E| outside over max |E| inside, in dB. Physical tolerance -50 dB for each:
  normal incidence (direction along z: the 1-D grid matches the 3-D grid exactly);
  oblique and diagonal incidence (1-D dispersion matched at the carrier only) at 20 cells per
  wavelength with a 20% bandwidth pulse.
Regression bounds (vcommon.check): normal -120 dB (measured -132.1 dB, float rounding: the bound
leaves room for it), oblique -51 dB (measured -54.3), diagonal -50 dB, the tolerance itself
(measured -51.5: 1.5 dB, 1.19x, is already as close as a bound should come).
A deck with grid.refine (tfsf_graded.cfg) runs the four axis directions of GRADED_CASES instead.
Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import arguments, check, exit_status, run  # noqa: E402

TOL_DB = -50.0
# name, direction, polarization, regression bound (dB; measured -132.1, -54.3, -51.5)
CASES = (("normal", "[0.0, 0.0, 1.0]", "[1.0, 0.0, 0.0]", -120.0),
         ("oblique", "[0.5, 0.3, 1.0]", "[1.0, 0.0, 0.0]", -51.0),
         ("diagonal", "[1.0, 1.0, 1.0]", "[1.0, -1.0, 0.0]", -50.0))
# a graded deck (tfsf_graded.cfg): along each graded axis both ways, where the 1-D grid is the
# axis's own mesh (measured -123.9 .. -129.2 dB worst probe: float rounding)
GRADED_CASES = (("graded_up_z", "[0.0, 0.0, 1.0]", "[1.0, 0.0, 0.0]", -115.0),
                ("graded_down_z", "[0.0, 0.0, -1.0]", "[0.0, 1.0, 0.0]", -115.0),
                ("graded_up_x", "[1.0, 0.0, 0.0]", "[0.0, 0.0, 1.0]", -115.0),
                ("graded_down_y", "[0.0, -1.0, 0.0]", "[1.0, 0.0, 0.0]", -115.0))


def main():
    a = arguments().parse_args()
    graded = "refine" in open(a.deck).read()
    for name, direction, pol, bound in GRADED_CASES if graded else CASES:
        out = os.path.join(a.work, name)
        os.makedirs(out, exist_ok=True)
        run([a.yee, "run", a.deck, "--out", out, "--quiet",
             "--set", "sources[0].direction=%s" % direction,
             "--set", "sources[0].polarization=%s" % pol])
        with h5py.File(os.path.join(out, "tfsf.h5"), "r") as f:
            inc = np.max(np.linalg.norm(f["probes/inside"][:], axis=1))
            worst, where = -400.0, ""
            for p in ("front", "side", "back", "corner"):
                leak = np.max(np.linalg.norm(f["probes/" + p][:], axis=1))
                db = 20 * np.log10(max(leak, 1e-30) / inc)
                print("  %-8s %-6s %8.1f dB" % (name, p, db))
                if db > worst:
                    worst, where = db, p
        check("tfsf_leakage_" + name, worst, TOL_DB, bound,
              "worst probe %s; incident max |E| %.4f" % (where, inc), fmt="%.1f", unit=" dB")
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
