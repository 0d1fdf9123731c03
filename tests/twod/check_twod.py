#!/usr/bin/python3
"""tests/twod -- a 2-D run equals the same physics as a one-cell-thick periodic 3-D run.

Runs rod2d.cfg (2-D: grid.size z = 0) and rod3d.cfg (0.05 um thick, periodic z, the same dt),
both with a glass rod, a Drude block, CPML, an Ez and an Ey line source (TM and TE), a closed
flux box, six-component snapshots and a probe. rod3d's line currents are 1/dz = 20 times
rod2d's (per um of z), so every field and flux of rod3d must be 20 times rod2d's: within 2e-6
of the largest value (float rounding: the two dt differ in the last bit, and the currents
scaled by 1/dz round differently). Also: the 2-D file says
dimensions = 2 and n = [nx, ny, 1], and the 2-D run took the fused sweeps (no periodic halo).
Then tfsf2d.cfg: two oblique plane waves (TM and TE, 20 cells per wavelength) on an empty TFSF
box; the field leaking out of the box must be below -40 dB of the field inside (measured -46.7
and -56.6 dB at the two outside probes).
Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import os
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from fieldcmp import close, yee_and_work  # noqa: E402

TOL = 2e-6
SCALE = 20.0


def main():
    a = yee_and_work()
    here = os.path.dirname(os.path.abspath(__file__))
    out = {}
    for name in ("rod2d", "rod3d"):
        d = os.path.join(a.work, name)
        os.makedirs(d, exist_ok=True)
        r = subprocess.run([a.yee, "run", os.path.join(here, name + ".cfg"), "--out", d],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(r.stdout.strip())
        if r.returncode != 0:
            print("FAIL %s exited %d" % (name, r.returncode))
            return 1
        out[name] = (os.path.join(d, name + ".h5"), r.stdout)
    bad = 0
    if "ran in fused sweeps" not in out["rod2d"][1]:
        print("FAIL rod2d did not run in fused sweeps")
        bad = 1
    with h5py.File(out["rod2d"][0], "r") as f2, h5py.File(out["rod3d"][0], "r") as f3:
        ok = int(f2.attrs["dimensions"]) == 2 and list(f2.attrs["n"]) == [60, 48, 1] and \
            int(f3.attrs["dimensions"]) == 3
        print("%s attributes: dimensions %s / %s, n %s" % ("PASS" if ok else "FAIL",
              f2.attrs["dimensions"], f3.attrs["dimensions"], list(f2.attrs["n"])))
        bad |= not ok
        names = []
        f3.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) and
                      n.split("/")[0] in ("snapshots", "probes") or n == "flux/box/flux"
                      else None)
        if len(names) != 8:
            print("FAIL expected 8 datasets to compare (got %d: %s)" % (len(names), names))
            bad = 1
        for n in sorted(names):
            bad |= not close(n, f3[n][...], SCALE * f2[n][...].astype(float), TOL,
                             "20 x 2-D - 3-D")
    d = os.path.join(a.work, "tfsf2d")
    os.makedirs(d, exist_ok=True)
    subprocess.run([a.yee, "run", os.path.join(here, "tfsf2d.cfg"), "--out", d, "--quiet"],
                   check=True)
    with h5py.File(os.path.join(d, "tfsf2d.h5"), "r") as f:
        inside = float(np.max(np.abs(f["probes/in"][...])))
        for probe in ("out", "out2"):
            db = 20 * np.log10(float(np.max(np.abs(f["probes/" + probe][...]))) / inside)
            ok = db < -40.0
            print("%s tfsf2d leakage at %s: %.1f dB (tol -40 dB)" % ("PASS" if ok else "FAIL",
                                                                   probe, db))
            bad |= not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
