#!/usr/bin/python3
"""validation/bend2d -- a 2-D yee run against Meep on Meep's own bend-flux tutorial.

Runs bend2d.cfg as the straight guide (the reference: incident flux, saved refl-plane fields,
transmitted flux) and as the bend, with yee's normalization (T = /flux/trans/normalized,
R = /flux/refl/normalized: reflected over incident power at the refl plane), and Meep's
tutorial (bend_meep.py, the Debian package python3-meep) at the same resolution. Meep's R is
over the straight guide's transmitted power; it is converted to yee's by straight_tran /
straight_inc (within 1 % of 1). Checked over Meep's 100 frequencies 0.10 - 0.20 c/um:
  max |T - T_meep|, max |R - R_meep| < 0.01 (tolerance), regression bound 2.5e-3
  (measured 1.2e-3 and 1.5e-3 at 20 cells/um).
Exits 77 (skipped) where Meep is not installed. With --repeat N (a benchmark, not in CI) it
runs both N times in turn and prints the median wall times of straight + bend and their ratio.
Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import json
import os
import statistics
import sys
import time

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import (arguments, check, exit_status, meep_command, meep_installed,  # noqa: E402
                     meep_ranks_checked, run)

TOL, BOUND = 0.01, 2.5e-3
HERE = os.path.dirname(os.path.abspath(__file__))
STRAIGHT = ["--set", "geometry[0].size=[16.0, 1.0, 1.0]",
            "--set", "geometry[0].center=[0.0, -11.5, 0.0]",
            "--set", "geometry[1].size=[16.0, 1.0, 1.0]",
            "--set", "geometry[1].center=[0.0, -11.5, 0.0]",
            "--set", "monitors[1].min=[6.5, -12.5, 0.0]",
            "--set", "monitors[1].max=[6.5, -10.5, 0.0]",
            "--set", "monitors[0].save_fields=true"]


def run_yee(yee, deck, work):
    """Straight then bend; returns (bend HDF5 path, [seconds straight, seconds bend])."""
    straight, bend = os.path.join(work, "straight"), os.path.join(work, "bend")
    ref = os.path.join(straight, "bend2d.h5")
    seconds = []
    for out, extra in ((straight, STRAIGHT),
                       (bend, ["--set", 'monitors[0].reference="%s"' % ref,
                               "--set", "monitors[0].subtract_reference=true",
                               "--set", 'monitors[1].reference="%s"' % ref])):
        os.makedirs(out, exist_ok=True)
        t0 = time.time()
        run([yee, "run", deck, "--out", out, "--quiet"] + extra)
        seconds.append(time.time() - t0)
    return os.path.join(bend, "bend2d.h5"), seconds


def run_meep(resolution, work, ranks=1):
    out = os.path.join(work, "meep.json")
    run(meep_command(os.path.join(HERE, "bend_meep.py"), ranks) + ["%g" % resolution, out])
    return json.load(open(out))


def main():
    ap = arguments()
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--meep-ranks", type=int, default=1,
                    help="run Meep under mpirun on this many ranks (Meep's MPI build)")
    a = ap.parse_args()
    if not meep_installed():
        print("SKIP Meep (python3-meep) is not installed")
        return 77
    meep_ranks_checked(a.meep_ranks)
    os.makedirs(a.work, exist_ok=True)
    yee_s, meep_s = [], []
    for _ in range(a.repeat):
        bend_h5, secs = run_yee(a.yee, a.deck, a.work)
        yee_s.append(sum(secs))
        with h5py.File(bend_h5, "r") as f:
            resolution = 1.0 / float(f.attrs["dx"][0])
            freq = f["flux/trans/frequency"][:]
            T = f["flux/trans/normalized"][:]
            R = f["flux/refl/normalized"][:]
        m = run_meep(resolution, a.work, a.meep_ranks)
        meep_s.append(sum(m["seconds"]))
    mf = np.array(m["freq"])
    if len(mf) != len(freq) or np.max(np.abs(mf - freq)) > 1e-9:
        print("FAIL frequencies differ between yee and Meep")
        return 1
    Tm = np.array(m["T"])
    Rm = np.array(m["R"]) * np.array(m["straight_tran"]) / np.array(m["straight_inc"])
    print("%8s %9s %9s %9s %9s" % ("f c/um", "T", "T_meep", "R", "R_meep"))
    for q in range(0, len(freq), 11):
        print("%8.4f %9.4f %9.4f %9.4f %9.4f" % (freq[q], T[q], Tm[q], R[q], Rm[q]))
    note = "max over %d frequencies 0.10-0.20 c/um, %g cells/um" % (len(freq), resolution)
    check("bend2d_transmittance_vs_meep", float(np.max(np.abs(T - Tm))), TOL, BOUND, note)
    check("bend2d_reflectance_vs_meep", float(np.max(np.abs(R - Rm))), TOL, BOUND, note)
    ty, tm = statistics.median(yee_s), statistics.median(meep_s)
    print("wall time, straight + bend, median of %d: yee %.2f s, Meep %.2f s on %d rank(s) "
          "(Meep ran to t = %g); Meep / yee = %.2f"
          % (a.repeat, ty, tm, m.get("ranks", 1), m["meep_time"], tm / ty))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
