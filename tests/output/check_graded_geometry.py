#!/usr/bin/python3
"""tests/output/check_graded_geometry.py -- subpixel averaging on a graded mesh averages each E
node's own dual cell (geometry/geometry.c dual_cell).

usage: check_graded_geometry.py YEE DECK WORKDIR

graded_geometry.cfg puts a glass film's faces on the edges of a refined region. The E_x node on
each face then sits between a 2.5 nm cell w_in (inside the film) and a wider ramp cell w_out, so
its dual cell [x - w_out/2, x + w_in/2] holds the fraction f = w_in / (w_in + w_out) of glass,
and its tangential eps is 1 + 3 f (eps 4 in vacuum; about 2.404 here). A box centred on the node
would give f = 1/2, eps 2.5: that put 0.06 nm too much metal on each face of the 20 nm film of
validation/graded. Checked within 0.005 (the averaging's eps levels are quantized to about
3e-3 relative), and at least 0.05 away from 2.5.
"""
import os
import subprocess
import sys

import h5py
import numpy as np


def main():
    yee, deck, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    subprocess.run([yee, "run", deck, "--out", work, "--quiet"], check=True)
    failures = 0
    with h5py.File(os.path.join(work, "graded_geometry.h5"), "r") as f:
        eps = f["snapshots/geometry/Ex"][0, :, 0, 0]
        z = f["coordinates/snapshots/geometry/Ex/z"][()]
        lines = f["mesh/z"][()]
    widths = np.diff(lines)
    for face, inside in ((0.0, +1), (0.02, -1)):
        node = int(np.argmin(np.abs(z - face)))
        line = int(np.argmin(np.abs(lines - face)))
        w_in = widths[line] if inside > 0 else widths[line - 1]
        w_out = widths[line - 1] if inside > 0 else widths[line]
        want = 1.0 + 3.0 * w_in / (w_in + w_out)
        ok = abs(eps[node] - want) < 0.005 and abs(eps[node] - 2.5) > 0.05
        failures += not ok
        print("%s face z = %g: eps %.5f, dual-cell average %.5f (cells %.4g in, %.4g out nm)"
              % ("PASS" if ok else "FAIL", face, eps[node], want, w_in * 1e3, w_out * 1e3))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
