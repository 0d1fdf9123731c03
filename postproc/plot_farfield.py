#!/usr/bin/env python3
"""plot_farfield.py -- the radiation pattern `yee farfield` wrote (<run>_<box>_farfield.h5), as a
polar plot to PNG.

One curve per azimuth phi in the file (or --phi): the power per steradian U(theta) at one
frequency (--frequency, c/um: the nearest in the file; default the first), normalized to its
maximum over the plotted curves, linear or in dB (--db). theta runs from +z (up) clockwise to
180 on the right half and the mirrored azimuth phi + 180 is drawn on the left when the file
has it. Doesn't: compute anything but the normalization (yee farfield does the transform).

Example: plot_farfield.py out/dipole_box_box_farfield.h5 --db --out pattern.png
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yee_h5  # noqa: E402
from yee_h5 import YeeError  # noqa: E402


class Pattern:
    """frequency (c/um), theta, phi (degrees) and U (nfreq x ntheta x nphi) of a farfield file."""

    def __init__(self, path):
        import numpy as np
        with yee_h5.open_result(path, "farfield", "yee farfield") as f:
            g = f["farfield"]
            self.freq = np.asarray(g["frequency"][()], dtype=float)
            self.theta = np.asarray(g["theta"][()], dtype=float)
            self.phi = np.asarray(g["phi"][()], dtype=float)
            self.u = np.asarray(g["power_per_sr"][()], dtype=float).reshape(
                len(self.freq), len(self.theta), len(self.phi))
            self.monitor = yee_h5._str(f.attrs.get("monitor", ""))


def plot(pat, args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    q = 0 if args.frequency is None else int(np.argmin(np.abs(pat.freq - args.frequency)))
    phis = pat.phi if args.phi is None else args.phi
    cols = []
    for p in phis:
        hit = np.nonzero(np.abs(pat.phi - p) < 1e-9)[0]
        if len(hit) == 0:
            raise YeeError("phi = %g is not in the file (it has %s)"
                           % (p, ", ".join("%g" % v for v in pat.phi)))
        cols.append(hit[0])
    u = pat.u[q][:, cols]
    peak = np.max(u)
    if not peak > 0:
        raise YeeError("the pattern at %g c/um is zero" % pat.freq[q])
    w, h = args.size
    fig = plt.figure(figsize=(w / args.dpi, h / args.dpi), dpi=args.dpi, layout="constrained")
    ax = fig.add_subplot(projection="polar")
    ax.set_theta_zero_location("N")
    ax.set_theta_direction(-1)
    th = np.radians(pat.theta)
    for k, p in enumerate(phis):
        val = u[:, k] / peak
        if args.db:
            val = np.maximum(10 * np.log10(np.maximum(val, 1e-30)), args.floor)
        line, = ax.plot(th, val, lw=1.5, label="phi = %g" % p)
        mirror = np.nonzero(np.abs((pat.phi - p) % 360 - 180) < 1e-9)[0]
        if len(mirror) and mirror[0] not in cols:
            other = pat.u[q][:, mirror[0]] / peak
            if args.db:
                other = np.maximum(10 * np.log10(np.maximum(other, 1e-30)), args.floor)
            ax.plot(-th, other, lw=1.5, color=line.get_color())
    if args.db:
        ax.set_rlim(args.floor, 0)
    ax.set_title(args.title or "%s: U(theta) at %.4g c/um (%.4g THz), %s"
                 % (pat.monitor, pat.freq[q], pat.freq[q] * yee_h5.C_UM_THZ,
                    "dB" if args.db else "linear"), fontsize=9)
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0.85, 0.0))
    yee_h5.save_figure(fig, args.out, args.dpi)


def main(argv=None, prog="plot_farfield.py"):
    p = argparse.ArgumentParser(
        prog=prog,
        description="Polar plot of the radiation pattern yee farfield wrote: power per "
                    "steradian against theta for each phi, normalized to its maximum.")
    p.add_argument("farfield", metavar="FARFIELD.h5", help="the file yee farfield wrote")
    p.add_argument("--frequency", type=float, default=None,
                   help="frequency, c/um (the nearest in the file; default the first)")
    p.add_argument("--phi", type=float, action="append", default=None,
                   help="azimuth to draw, degrees (repeat; default every one in the file)")
    p.add_argument("--db", action="store_true", help="10 log10 of the normalized pattern")
    p.add_argument("--floor", type=float, default=-40.0, help="lowest dB drawn (default -40)")
    p.add_argument("--title", default=None)
    p.add_argument("--out", default=None,
                   help="output image (default <FARFIELD>.png next to the file)")
    yee_h5.add_image_size(p, (600, 600))
    args = p.parse_args(argv)
    if args.floor >= 0:
        p.error("--floor must be below 0 dB")
    pat = Pattern(args.farfield)
    if args.out is None:
        args.out = os.path.splitext(os.path.abspath(args.farfield))[0] + ".png"
    plot(pat, args)
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    yee_h5.run_main("plot_farfield.py", main)
