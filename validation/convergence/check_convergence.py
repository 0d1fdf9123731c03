#!/usr/bin/python3
"""validation/convergence -- second-order convergence of the lowest PEC-cavity mode.

Runs the cavity deck of validation/cavity (1.0 x 0.7 x 0.6 um PEC box) at resolutions R, 2R, 4R
(default 10, 20, 40 cells/um; courant fixed, so dt shrinks with dx), extracts the (1,1,0) mode
frequency from the probe's Ez with `yee resonances`, and forms the error against the continuum
f_cont = 0.5 sqrt(1/Lx^2 + 1/Ly^2). Each halving of dx must divide the error by 4 +- 0.6
(order log2(ratio) ~ 2). The discrete Yee dispersion relation's own prediction of the ratio is
printed alongside. Regression bound (vcommon.check): |ratio - 4| < 0.1 (measured 0.048 and
0.035; harminv's ~1e-6 scatter on the 40 cells/um error, 1.8e-4, moves the ratio by ~0.03).
Prints PASS|FAIL lines, exits 1 on FAIL. Does not check the other modes
(validation/cavity does) nor anything about amplitudes.
"""
import math
import os
import sys

import h5py

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import arguments, check, exit_status, fail, run  # noqa: E402

C_THZ = 299.792458
MODE = (1, 1, 0)
RATIO, RATIO_TOL = 4.0, 0.6
RATIO_BOUND = 0.1  # regression bound on |ratio - 4|; measured 0.048, 0.035



def discrete(m, L, dx, dt):
    s = sum(math.sin(mi * math.pi * d / (2 * li)) ** 2 / d ** 2 for mi, li, d in zip(m, L, dx))
    return 2.0 * math.asin(dt * math.sqrt(s)) / dt / (2.0 * math.pi)


def main():
    ap = arguments()
    ap.add_argument("--resolutions", default="10,20,40")
    ap.add_argument("--start-fs", type=float, default=15.0)
    a = ap.parse_args()
    rows = []
    for R in [float(v) for v in a.resolutions.split(",")]:
        out = os.path.join(a.work, "R%g" % R)
        os.makedirs(out, exist_ok=True)
        run([a.yee, "run", a.deck, "--out", out, "--quiet", "--set", "grid.resolution=%g" % R])
        h5 = os.path.join(out, "cavity.h5")
        with h5py.File(h5, "r") as f:
            n = [int(v) for v in f.attrs["n"]]
            dx = [float(v) for v in f.attrs["dx"]]
            dt = float(f.attrs["dt"])
        L = [ni * di for ni, di in zip(n, dx)]
        fc = 0.5 * math.sqrt(sum((mi / li) ** 2 for mi, li in zip(MODE, L)))
        fd = discrete(MODE, L, dx, dt)
        txt = run([a.yee, "resonances", h5, "--probe", "p", "--component", "Ez",
                   "--fmin", "%.6f" % (0.9 * fc * C_THZ), "--fmax", "%.6f" % (1.08 * fc * C_THZ),
                   "--start", "%g" % a.start_fs])
        lines = [[float(x) for x in l.split()] for l in txt.splitlines()
                 if l.strip() and not l.startswith(("#", "+"))]
        near = [v for v in lines if abs(v[1] - fd) < 0.01 * fd]
        if not near:
            fail("convergence_R%g" % R, "no resonance within 1%% of %.6f c/um" % fd)
            return exit_status()
        fy = max(near, key=lambda v: v[5])[1]
        rows.append((R, dx[0], fy, fd, fc, n))
    print("%6s %8s %14s %14s %14s %12s %12s" % ("R", "dx", "f_yee", "f_disc", "f_cont",
                                                "err_yee", "err_disc"))
    for R, h, fy, fd, fc, n in rows:
        print("%6g %8.4f %14.9f %14.9f %14.9f %12.4e %12.4e   grid %s" % (R, h, fy, fd, fc,
              (fy - fc) / fc, (fd - fc) / fc, n))
    for (R1, _, fy1, fd1, fc1, _), (R2, _, fy2, fd2, fc2, _) in zip(rows, rows[1:]):
        ratio = (fy1 - fc1) / (fy2 - fc2)
        pred = (fd1 - fc1) / (fd2 - fc2)
        order = math.log(abs(ratio)) / math.log(R2 / R1)
        check("convergence_R%g_to_R%g" % (R1, R2), abs(ratio - RATIO), RATIO_TOL, RATIO_BOUND,
              "|error ratio - 4|; error ratio %.4f, predicted %.4f, order %.3f"
              % (ratio, pred, order))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
