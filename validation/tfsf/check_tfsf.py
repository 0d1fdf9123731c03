#!/usr/bin/python3
"""validation/tfsf -- leakage of the total-field/scattered-field plane wave.

With no scatterer the field outside the TFSF box is zero in exact arithmetic. For each
direction this runs tfsf.cfg and reports, at probes in front of, beside, behind and diagonal
to the box, max |E| outside over max |E| inside, in dB. Bounds:
  normal incidence (direction along z: the 1-D grid matches the 3-D grid exactly) < -50 dB;
  oblique incidence (1-D dispersion matched at the carrier only) < -50 dB at 20 cells per
  wavelength with a 20% bandwidth pulse.
Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import arguments, run  # noqa: E402

CASES = (("normal", "[0.0, 0.0, 1.0]", "[1.0, 0.0, 0.0]", -50.0),
         ("oblique", "[0.5, 0.3, 1.0]", "[1.0, 0.0, 0.0]", -50.0),
         ("diagonal", "[1.0, 1.0, 1.0]", "[1.0, -1.0, 0.0]", -50.0))


def main():
    a = arguments().parse_args()
    nfail = 0
    for name, direction, pol, bound in CASES:
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
        ok = worst < bound
        nfail += not ok
        print("%s tfsf_leakage_%s (worst %.1f dB at %s, tol < %.0f dB; incident max |E| %.4f)"
              % ("PASS" if ok else "FAIL", name, worst, where, bound, inc))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
