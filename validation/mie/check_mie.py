#!/usr/bin/python3
"""validation/mie -- scattering cross-section of a dielectric sphere vs the Mie series.

Runs mie.cfg twice: with the sphere set to air (the reference: the incident intensity
I(f) = P_inc(f) / A from the flux plane `inc` inside the TFSF box, A its weighted Ex-node area; and the
leakage of the empty TFSF box into the closed flux box `scat`), then with the sphere (eps 4,
r = 0.5 um): sigma_sca(f) = P_scat(f) / I(f), Q_sca = sigma_sca / (pi r^2), compared with the
Mie series (mie.py) at the size parameters x = 2 pi r f = 1 ... 3, 25 cells/um.
Checked: the Mie module's self-test; reference leakage max P_scat / (I pi r^2 Q_mie) < 1e-3;
max |Q_sca / Q_mie - 1| < 5% over the band. Regression bounds (vcommon.check): Q_sca 3.5%
(measured 2.82%), leakage 1e-11 (measured 5.6e-14: float rounding, squared). Prints a table
and PASS|FAIL lines; exits 1 on FAIL. With --plot PNG also draws Q_sca vs x (matplotlib, Agg);
--resolution R reruns at another resolution (studies only). Measured: 2.8% at x = 1
(docs/validation.md).
Differential cross-section (the near-to-far transform, postproc/farfield.c): the sphere run
saves the closed `scat` box's DFT fields, `yee farfield` turns them into the power per steradian
U(theta, phi) at theta = 0..180 (5 degrees), phi = 0 and 90, and U / I is compared with the Mie
series' (|S2|^2 cos^2 phi + |S1|^2 sin^2 phi) / k^2 (mie.py) at every frequency of the band:
max |U/I - dsigma_mie| / max(dsigma_mie) < 6 % (each angle on its own: the integrated Q_sca's
2.8 % plus the pattern's error; measured 4.9 % at x = 2.2), and the pattern's shape,
U / P_far against dsigma_mie / sigma_mie, within 5 % of its peak (measured 2.5 %, the forward
lobe at x = 2.2).
With --tensor (grid.subpixel_tensor, validation_mie_tensor) over x = 1 - 2.5: Q_sca within 2%
(bound 1.5%, measured 1.31%), the differential cross-section within 3% of its peak (bound 2.5%,
measured 2.00%), the pattern within 2% (measured 0.76%); the diagonal average alone gives 2.82%,
4.89% and 2.50% over the same band. Q_sca at x = 1: 0.43% against 2.82%; from 25 to 40 cells/um
the worst error over x = 1 - 3 falls 2.6x with the tensor (3.8% -> 1.4%, second order, the grid's
dispersion at x = 2.8) and 1.6x without (2.8% -> 1.8%, first order).
It does not check the sharp resonances above x = 3 (x = 3.31, 3.91: Q ~ 70 - 100), which
this resolution does not place to 5% (up to 9% off at 20 cells/um).
"""
import math
import os
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from mie import diff_cross_section, q_sca, selftest  # noqa: E402
from vcommon import arguments, check, exit_status, fail, run  # noqa: E402

RADIUS = 0.5          # um, as in mie.cfg
INDEX = 2.0           # sqrt(eps 4)
INC_MIN = (-0.31, -0.31)   # the `inc` plane's x, y extent (set on both runs, so A is known)
INC_MAX = (0.31, 0.31)
X_BAND = (1.0, 3.0)
TOL = 0.05
LEAK_TOL = 1e-3
BOUND, LEAK_BOUND = 0.035, 1e-11  # regression bounds; measured 2.82e-2, 5.6e-14
DCS_TOL, DCS_BOUND = 0.06, 0.055  # measured 4.89e-2
SHAPE_BOUND = 0.03                # measured 2.50e-2
# --tensor (grid.subpixel_tensor): x = 1 - 2.5, below the resonances where the grid's own
# dispersion dominates at 25 cells/um (3.8% at x = 2.8, 1.4% at 40 cells/um: second order, where
# the diagonal average's first-order error (2.8%, 1.8%) partly cancels it)
TENSOR_LIMITS = {"X_BAND": (1.0, 2.5), "TOL": 0.02, "BOUND": 0.015, "DCS_TOL": 0.03,
                 "DCS_BOUND": 0.025, "SHAPE_BOUND": 0.02}


def node_length(lo, hi, origin, dx, stagger):
    """Length (um) the flux sum gives the nodes of a component with half-cell offset `stagger`
    in [lo, hi] (solver/grid.c yee_node_range): each node weighs the part of its cell inside
    [lo, hi] (solver/dft.c node_weight, the trapezoid rule at the edges)."""
    first = math.ceil((lo - origin) / dx - stagger - 1e-9)
    last = math.floor((hi - origin) / dx - stagger + 1e-9)
    total = 0.0
    for i in range(first, last + 1):
        x = origin + (i + stagger) * dx
        total += max(0.0, min(x + dx / 2, hi) - max(x - dx / 2, lo))
    return total


def plot(path, x, q, rel, res):
    """Q_sca vs x (yee points on the Mie curve) and the relative error, to a small PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    xf = np.linspace(0.8 * X_BAND[0], 1.05 * X_BAND[1], 600)
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(6.0, 4.2), dpi=90, sharex=True,
                                  gridspec_kw={"height_ratios": [3, 1]})
    ax.plot(xf, q_sca(xf, INDEX), "k-", lw=1.2, label="Mie series")
    ax.plot(x, q, "o", ms=4, mfc="none", mec="C3", label="yee, %g cells/um" % res)
    ax.set_ylabel("Q_sca")
    ax.set_title("Dielectric sphere, n = 2, r = 0.5 um", fontsize=10)
    ax.legend(frameon=False, fontsize=9)
    ax.grid(alpha=0.3)
    ax2.plot(x, 100 * rel, "o-", ms=3, color="C3", lw=0.8)
    ax2.axhline(100 * TOL, color="k", ls=":", lw=0.8)
    ax2.axhline(-100 * TOL, color="k", ls=":", lw=0.8)
    ax2.set_ylim(-100 * TOL * 1.3, 100 * TOL * 1.3)
    ax2.set_ylabel("error %")
    ax2.set_xlabel("size parameter x = 2 pi r / lambda")
    ax2.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    print("wrote " + path)


def main():
    ap = arguments()
    ap.add_argument("--plot", help="write Q_sca vs x to this PNG")
    ap.add_argument("--resolution", type=float, help="override grid.resolution (study only)")
    ap.add_argument("--tensor", action="store_true",
                    help="grid.subpixel_tensor = true (the off-diagonal subpixel terms)")
    a = ap.parse_args()
    if a.tensor:
        globals().update(TENSOR_LIMITS)
    nbad = selftest()  # the Mie series itself (mie.py): its own PASS|FAIL lines
    if nbad:
        fail("mie_selftest", "%d check(s) of the Mie series module failed" % nbad)
    ref_dir, sph_dir = os.path.join(a.work, "ref"), os.path.join(a.work, "sphere")
    for d in (ref_dir, sph_dir):
        os.makedirs(d, exist_ok=True)
    inc = ["--set", "monitors[1].min=[%r, %r, 0.0]" % INC_MIN,
           "--set", "monitors[1].max=[%r, %r, 0.0]" % INC_MAX]
    if a.resolution:
        inc += ["--set", "grid.resolution=%r" % a.resolution]
    if a.tensor:
        inc += ["--set", "grid.subpixel_tensor=true"]
    run([a.yee, "run", a.deck, "--out", ref_dir, "--quiet",
         "--set", 'geometry[0].material="air"'] + inc)
    run([a.yee, "run", a.deck, "--out", sph_dir, "--quiet",
         "--set", "monitors[0].save_fields=true"] + inc)
    far = os.path.join(sph_dir, "far.h5")
    run([a.yee, "farfield", os.path.join(sph_dir, "mie.h5"), "--monitor", "scat",
         "--theta", "0:180:37", "--phi", "0,90", "--out", far,
         "--csv", os.path.join(sph_dir, "far.csv"), "--quiet"])
    with h5py.File(os.path.join(ref_dir, "mie.h5"), "r") as f:
        origin, dx = f.attrs["origin"], f.attrs["dx"]
        freq = f["flux/inc/frequency"][:]
        p_inc = f["flux/inc/flux"][:]
        leak = f["flux/scat/flux"][:]
    with h5py.File(os.path.join(sph_dir, "mie.h5"), "r") as f:
        p_scat = f["flux/scat/flux"][:]
    # Incident x-polarized wave: only Ex Hy crosses the plane, summed over the Ex nodes.
    area = (node_length(INC_MIN[0], INC_MAX[0], origin[0], dx[0], 0.5)
            * node_length(INC_MIN[1], INC_MAX[1], origin[1], dx[1], 0.0))
    intensity = p_inc / area
    res = 1.0 / dx[0]
    geo = math.pi * RADIUS ** 2
    x = 2 * math.pi * RADIUS * freq
    q = p_scat / intensity / geo
    q_ref = q_sca(x, INDEX)
    rel = q / q_ref - 1
    band = (x >= X_BAND[0] - 1e-3) & (x <= X_BAND[1] + 1e-3)
    print("incident plane area %.4f um^2; %d frequencies, x = %.2f - %.2f"
          % (area, len(x), x.min(), x.max()))
    print("%7s %8s %9s %9s %9s" % ("x", "f c/um", "Q_yee", "Q_mie", "rel err"))
    for k in range(len(x)):
        print("%7.3f %8.4f %9.4f %9.4f %+9.4f" % (x[k], freq[k], q[k], q_ref[k], rel[k]))
    worst = int(np.argmax(np.where(band, np.abs(rel), -1)))
    err = abs(rel[worst])
    leak_err = np.max(np.abs(leak / intensity / geo / q_ref)[band])
    for name, e, tol, bound, what in (
            ("mie_leakage", leak_err, LEAK_TOL, LEAK_BOUND, "empty TFSF box, P_scat / P_scat,mie"),
            ("mie_qsca", err, TOL, BOUND, "max |Q/Q_mie - 1| over x = %.1f-%.1f at x = %.2f, "
             "%g cells/um" % (X_BAND[0], X_BAND[1], x[worst], res))):
        check(name, e, tol, bound, what)
    with h5py.File(far, "r") as f:
        ff = f["farfield/frequency"][:]
        theta = np.radians(f["farfield/theta"][:])
        phi = np.radians(f["farfield/phi"][:])
        u = f["farfield/power_per_sr"][:].reshape(len(ff), len(theta), len(phi))
        p_far = f["farfield/power_total"][:]
    t, p = np.meshgrid(theta, phi, indexing="ij")
    worst_dcs, at, worst_shape = 0.0, None, 0.0
    for k in range(len(ff)):
        xk = 2 * math.pi * RADIUS * ff[k]
        if not X_BAND[0] - 1e-3 <= xk <= X_BAND[1] + 1e-3:
            continue
        ii = int(np.argmin(np.abs(freq - ff[k])))
        mie = diff_cross_section(xk, INDEX, 2 * math.pi * ff[k], t, p)
        e = np.max(np.abs(u[k] / intensity[ii] - mie)) / np.max(mie)
        if e > worst_dcs:
            worst_dcs, at = e, xk
        sigma = math.pi * RADIUS ** 2 * q_sca(xk, INDEX)
        worst_shape = max(worst_shape, np.max(np.abs(u[k] / p_far[k] - mie / sigma)) /
                          np.max(mie / sigma))
    print("differential cross-section: worst %.4f of the peak at x = %.2f" % (worst_dcs, at))
    check("mie_differential_cross_section", worst_dcs, DCS_TOL, DCS_BOUND,
          "max |U/I - dsigma_mie| / max dsigma_mie over theta, phi = 0, 90 and x = %.1f-%.1f"
          % X_BAND)
    check("mie_scattering_pattern", worst_shape, TOL, SHAPE_BOUND,
          "U / P_far against dsigma_mie / sigma_mie, relative to the peak")
    if a.plot:
        plot(a.plot, x[band], q[band], rel[band], res)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
