#!/usr/bin/python3
"""validation/cavity -- PEC rectangular cavity modes against the Yee discrete dispersion relation.

Runs cavity.cfg (1.0 x 0.7 x 0.6 um PEC box, three broadband off-centre dipoles), extracts the
resonances of the probe's Ex, Ey and Ez with `yee resonances` (harminv) and checks, for the lowest
NMODES modes (m, n, p) with at least two non-zero indices:
  1. f_yee matches the discrete Yee frequency, from
       sin^2(w dt/2) / dt^2 = sum_a sin^2(k_a dx_a/2) / dx_a^2,  k_a = m_a pi / L_a,
     to |f_yee - f_disc| / f_disc < 1e-3 (the brief's bound; expect ~1e-6 in float);
  2. f_yee - f_cont has the sign and size the discrete formula predicts for f_disc - f_cont
     (continuum f_cont = 0.5 sqrt(sum (m_a/L_a)^2)): | (f_yee - f_cont) / (f_disc - f_cont) - 1 |
     < 5%. This is what tells the Yee scheme apart from the continuum (check 1 alone would not,
     since |f_disc - f_cont| / f_cont is itself ~1e-3 here). A measured shift of the wrong sign
     gives a ratio below 0, i.e. an error above 1: it fails.
Each figure also has a regression bound (vcommon.check), near today's values: 1e-5 for check 1
(measured 1.6e-7 to 2.0e-6: harminv's own scatter, so not tighter) and 0.01 for check 2
(measured 1.1e-4 to 4.1e-3).
Units: lengths um, frequencies c/um (f_THz = 299.792458 f). Prints PASS|FAIL lines, exits 1 on FAIL.
Does not test the source spectrum, mode amplitudes or Q (a lossless PEC box has Q = inf).
"""
import itertools
import math
import os
import sys

import h5py

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from vcommon import arguments, check, exit_status, fail, run  # noqa: E402

C_THZ = 299.792458
NMODES = 6
TOL_DISC = 1e-3      # relative, f_yee vs discrete Yee
TOL_SHIFT = 0.05     # relative, (f_yee - f_cont) vs (f_disc - f_cont)
BOUND_DISC = 1e-5    # regression bounds; measured 1.6e-7 - 2.0e-6 (harminv scatter ~1e-6)
BOUND_SHIFT = 0.01   # measured 1.1e-4 - 4.1e-3 (mode 111, the weakest shift)



def box_modes(L, dx, dt, fmax):
    """Modes of a PEC box with two or more non-zero indices below fmax: (f_disc, f_cont, m)."""
    out = []
    for m in itertools.product(range(0, 8), repeat=3):
        if sum(1 for v in m if v > 0) < 2:
            continue
        fc = 0.5 * math.sqrt(sum((mi / li) ** 2 for mi, li in zip(m, L)))
        if fc > fmax:
            continue
        s = sum(math.sin(mi * math.pi * d / (2 * li)) ** 2 / d ** 2 for mi, li, d in zip(m, L, dx))
        fd = 2.0 * math.asin(dt * math.sqrt(s)) / dt / (2.0 * math.pi)
        out.append((fd, fc, m))
    out.sort()
    return out


def resonances(yee, h5, probe, comp, fmin, fmax, start_fs):
    """`yee resonances` lines as (f c/um, Q, amplitude, error)."""
    txt = run([yee, "resonances", h5, "--probe", probe, "--component", comp,
               "--fmin", "%.6f" % (fmin * C_THZ), "--fmax", "%.6f" % (fmax * C_THZ),
               "--start", "%g" % start_fs])
    res = []
    for line in txt.splitlines():
        if line.startswith("#") or not line.strip() or line.startswith("+"):
            continue
        v = [float(x) for x in line.split()]
        res.append((v[1], v[4], v[5], v[6]))
    return res


def main():
    ap = arguments(os.path.join(os.path.dirname(__file__), "cavity.cfg"))
    ap.add_argument("--start-fs", type=float, default=15.0, help="skip the source (fs)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    run([a.yee, "run", a.deck, "--out", a.work, "--quiet"])
    h5 = os.path.join(a.work, "cavity.h5")
    with h5py.File(h5, "r") as f:
        n = [int(v) for v in f.attrs["n"]]
        dx = [float(v) for v in f.attrs["dx"]]
        dt = float(f.attrs["dt"])
    L = [ni * di for ni, di in zip(n, dx)]
    print("grid %s cells, dx %s um, L %s um, dt %.6g c-units" % (n, dx, L, dt))

    modes = box_modes(L, dx, dt, fmax=3.0)[:NMODES]
    fmin, fmax = 0.8 * modes[0][0], 1.05 * modes[-1][0]
    found = []
    for comp in ("Ex", "Ey", "Ez"):
        found += [(f, q, amp, e, comp) for f, q, amp, e in
                  resonances(a.yee, h5, "p", comp, fmin, fmax, a.start_fs)]

    print("%-10s %12s %12s %12s %10s %10s %10s" % ("mode", "f_yee", "f_disc", "f_cont",
                                                   "yee-disc", "disc-cont", "yee-cont"))
    for fd, fc, m in modes:
        name = "cavity_mode_%d%d%d" % m
        near = [r for r in found if abs(r[0] - fd) < 5e-3 * fd]
        if not near:
            fail(name, "no resonance within 0.5%% of f_disc=%.6f c/um" % fd)
            continue
        fy = max(near, key=lambda r: r[2])[0]  # strongest line (harminv may split one mode)
        err = abs(fy - fd) / fd
        shift_pred = (fd - fc) / fc
        shift_meas = (fy - fc) / fc
        print("%-10s %12.8f %12.8f %12.8f %10.2e %10.2e %10.2e" % (str(m), fy, fd, fc,
                                                                   (fy - fd) / fd, shift_pred,
                                                                   shift_meas))
        check(name + "_vs_discrete", err, TOL_DISC, BOUND_DISC)
        check(name + "_shift_vs_continuum", abs(shift_meas / shift_pred - 1.0), TOL_SHIFT,
              BOUND_SHIFT, "shift %.3e predicted %.3e" % (shift_meas, shift_pred))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
