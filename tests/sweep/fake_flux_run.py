#!/usr/bin/python3
"""Fake `yee run DECK --out DIR` for the flux results of `yee sweep` (tests/sweep.cmake).

Writes DIR/<simulation.name>.h5 with /flux/trans/frequency (c/um) and /flux/trans/flux, the layout
flux monitors write (docs/output.md), with values the test can predict from the job's parameter t
(read from the job deck's first-line comment "/* yee sweep job N of M: t = 0.1 */"):
  flux(f) = t * f (f in c/um), on 21 frequencies from 150 to 250 THz (job with t = 0.2: listed
  from high to low); t = 0.3 also writes normalized = 2 t f (which the sweep must prefer); t = 0.4
  covers 200 to 250 THz only, so 1.55 um (193.4 THz) is outside its range.
"""
import re
import sys

import h5py
import numpy as np

C_THZ = 299.792458


def main():
    deck, out = sys.argv[2], sys.argv[sys.argv.index("--out") + 1]
    text = open(deck, encoding="utf-8").read()
    t = float(re.search(r"job \d+ of \d+: t = ([0-9.e+-]+)", text).group(1))
    name = re.search(r'name\s*=\s*"([^"]+)"', text).group(1)
    lo = 200.0 if t == 0.4 else 150.0
    f = np.linspace(lo, 250.0, 21) / C_THZ
    if t == 0.2:
        f = f[::-1].copy()
    with h5py.File("%s/%s.h5" % (out, name), "w") as h5:
        g = h5.create_group("flux/trans")
        g["frequency"] = f
        g["flux"] = t * f
        if t == 0.3:
            g["normalized"] = 2 * t * f
    print("fake run of %s: t = %g" % (deck, t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
