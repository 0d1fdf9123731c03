#!/usr/bin/python3
"""validation/subpixel -- a dielectric-rod cavity mode with and without subpixel averaging.

Runs cylinder.cfg (eps 6 rod of radius 0.27 um, off the grid, in a 1 x 1 um PEC square, a 2-D
run at the time step of the one-cell-thick 3-D runs it replaced, 1500 fs) at 20, 40, 80 cells/um with grid.subpixel = true and false, and a reference at
160 cells/um with averaging. `yee resonances` (harminv) gives the lowest mode from the probe.
Errors are |f_R - f_ref| / f_ref; orders are least-squares slopes of log error against log
resolution over 20, 40, 80 cells/um.
Checked (TM: E along the rod, the lowest mode ~0.337 c/um): averaging is at least 3x more
accurate than the staircase at 20 and 40 cells/um, below 5e-4 at every resolution, and its
fitted order is >= 1.7. Regression bounds (vcommon.check): gain >= 6 at 20 and >= 4.5 at 40
cells/um (measured 7.48, 5.13), order >= 2.0 (measured 2.22), error < 3.6e-4 (measured 3.20e-4,
at 20 cells/um). The 2-D run and the one-cell 3-D run it replaced agree to float rounding (1.6e-6
after 100 fs), yet harminv's frequencies of the two 1500 fs series differ by up to 2e-5: the
3-D case's 2.55 and 8.07 / 6.33 moved to 2.22 and 7.48 / 5.13, so the bounds sit below both.
With --te, reported only (TE: E in the plane, the lowest mode ~0.382 c/um): errors and orders with and
without averaging; the diagonal-only anisotropic average does not reach second order there
(the off-diagonal terms of Farjadpour et al. 2006 are not implemented).
Prints PASS|FAIL lines; exits 1 on FAIL.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import arguments, check, exit_status, fail, run  # noqa: E402

C_THZ = 299.792458
CASES = {"TM": ("Ez", 0.3365, []),
         "TE": ("Ex", 0.3825, ["--set", "sources[0].component=Ex",
                               "--set", "sources[1].component=Ey",
                               "--set", 'monitors[0].components=["Ex"]'])}
RESOLUTIONS = (20, 40, 80)
FIT = (20, 40, 80)
REF = 160
COURANT = 0.99 * (2.0 / 3.0) ** 0.5  # dt of the one-cell 3-D runs: 0.99 / (res sqrt(3))
MIN_GAIN = 3.0
MAX_ERR = 5e-4
MIN_ORDER = 1.7
# regression bounds (measured in 2-D: gain 7.48 and 5.13, order 2.22, error 3.20e-4)
BOUND_GAIN = {20: 6.0, 40: 4.5}
BOUND_ORDER = 2.0
BOUND_ERR = 3.6e-4


def mode(a, case, res, subpixel):
    comp, guess, extra = CASES[case]
    out = os.path.join(a.work, "%s_R%d_%s" % (case, res, "avg" if subpixel else "stair"))
    os.makedirs(out, exist_ok=True)
    run([a.yee, "run", a.deck, "--out", out, "--quiet", "--set", "grid.resolution=%d" % res,
         "--set", "simulation.courant=%.12g" % COURANT,
         "--set", "grid.subpixel=%s" % ("true" if subpixel else "false")] + extra)
    txt = run([a.yee, "resonances", os.path.join(out, "cylinder.h5"), "--probe", "p",
               "--component", comp, "--start", "30", "--fmin", "%.4f" % (0.9 * guess * C_THZ),
               "--fmax", "%.4f" % (1.1 * guess * C_THZ)])
    lines = [[float(x) for x in l.split()] for l in txt.splitlines()
             if l.strip() and not l.startswith(("#", "+"))]
    if not lines:
        fail("subpixel_%s_R%d" % (case.lower(), res), "no resonance near %.3f c/um" % guess)
        raise SystemExit(exit_status())
    # the strongest long-lived line (harminv also returns short-lived fits of the pulse)
    lines = [v for v in lines if abs(v[4]) > 1000] or lines
    return max(lines, key=lambda v: v[5])[1]


def order(res, err):
    x, y = np.log(np.asarray(res, float)), np.log(np.asarray(err))
    return -np.polyfit(x, y, 1)[0]


def main():
    ap = arguments()
    ap.add_argument("--te", action="store_true", help="also run the TE case (reported only)")
    a = ap.parse_args()
    for case in ("TM", "TE") if a.te else ("TM",):
        f_ref = mode(a, case, REF, True)
        print("%s: reference f = %.8f c/um at %d cells/um (averaged)" % (case, f_ref, REF))
        err = {True: [], False: []}
        print("%6s %14s %12s %14s %12s" % ("R", "f_avg", "err_avg", "f_stair", "err_stair"))
        for res in RESOLUTIONS:
            fa, fs = mode(a, case, res, True), mode(a, case, res, False)
            err[True].append(abs(fa - f_ref) / f_ref)
            err[False].append(abs(fs - f_ref) / f_ref)
            print("%6d %14.8f %12.4e %14.8f %12.4e" % (res, fa, err[True][-1], fs,
                                                       err[False][-1]))
        pick = [RESOLUTIONS.index(r) for r in FIT]
        p_avg = order(FIT, [err[True][q] for q in pick])
        p_st = order(FIT, [err[False][q] for q in pick])
        print("%s: fitted order over %s cells/um: averaged %.2f, staircase %.2f"
              % (case, FIT, p_avg, p_st))
        if case != "TM":
            continue
        for res in (20, 40):
            q = RESOLUTIONS.index(res)
            check("subpixel_tm_gain_R%d" % res, err[False][q] / err[True][q], MIN_GAIN,
                  BOUND_GAIN[res], "staircase error %.3e / averaged %.3e"
                  % (err[False][q], err[True][q]), higher=True, fmt="%.2f")
        check("subpixel_tm_order", p_avg, MIN_ORDER, BOUND_ORDER,
              "fitted order with averaging; staircase %.2f" % p_st, higher=True, fmt="%.2f")
        check("subpixel_tm_accuracy", max(err[True]), MAX_ERR, BOUND_ERR,
              "max relative error at 20-80 cells/um")
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
