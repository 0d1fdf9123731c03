#!/usr/bin/python3
"""tests/mirror -- three mirror planes reproduce the whole domain in the part they keep.

Runs mirror.cfg (48^3 cells: two in-phase z-dipoles either side of z = 0 in a glass sphere,
CPML all round) and mirror_eighth.cfg (its eighth x, y, z >= 0, 24^3 cells: pmc on x_low and
y_low, pec on z_low, one dipole), and checks:
  - every snapshot dataset (all six components on a cut at z = 0.3, and Ey, Ez, Hx on the
    x = 0 plane, where Ey and Ez are the PMC wall's own nodes) agrees within 1e-6 of the
    largest value (float rounding; the mirror images are exact, so today they are identical);
  - the eighth's flux box (three faces, weight = 8) equals the whole closed box within 1e-6
    relative at every frequency (the faces on the mirror planes are left out: no power crosses
    them, and the trapezoid weights of the nodes on the planes halve as the box does);
  - the eighth has 8x fewer cells.
Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import os
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from fieldcmp import close, yee_and_work  # noqa: E402

TOL = 1e-6


def run(yee, deck, out):
    os.makedirs(out, exist_ok=True)
    subprocess.run([yee, "run", deck, "--out", out, "--quiet"], check=True)


def datasets(h, prefix):
    names = []
    h.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset)
                 and n.startswith(prefix) else None)
    return sorted(names)


def main():
    a = yee_and_work()
    here = os.path.dirname(os.path.abspath(__file__))
    full_dir, part_dir = os.path.join(a.work, "full"), os.path.join(a.work, "eighth")
    run(a.yee, os.path.join(here, "mirror.cfg"), full_dir)
    run(a.yee, os.path.join(here, "mirror_eighth.cfg"), part_dir)
    bad = 0
    with h5py.File(os.path.join(full_dir, "mirror.h5"), "r") as full, \
            h5py.File(os.path.join(part_dir, "mirror_eighth.h5"), "r") as part:
        names = datasets(full, "snapshots/")
        if len(names) != 9:
            print("FAIL expected 9 snapshot datasets (got %d)" % len(names))
            bad = 1
        for name in names:
            bad |= not close(name, full[name][...], part[name][...], TOL, "whole - eighth")
        fx, fy = full["flux/box/flux"][:], part["flux/box/flux"][:]
        err = float(np.max(np.abs(fx - fy) / np.abs(fx)))
        ok = err <= TOL and np.all(fx > 0)
        print("%s flux box: max |whole - 8 x eighth| / whole = %.3g over %d frequencies (tol %g)"
              % ("PASS" if ok else "FAIL", err, len(fx), TOL))
        bad |= not ok
        cells = [int(np.prod(h.attrs["n"])) for h in (full, part)]
        ok = cells[0] == 8 * cells[1]
        print("%s cells: whole %d, eighth %d" % ("PASS" if ok else "FAIL", cells[0], cells[1]))
        bad |= not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
