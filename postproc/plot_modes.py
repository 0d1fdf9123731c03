#!/usr/bin/env python3
"""plot_modes.py -- the mode profiles `yee modes` wrote (<name>_modes.h5), to PNG.

One panel per mode: |E| on the cross-section (a colour map over the plane's two axes; for the line
cross-section of a 2-D run, |E| and each E component along the line), titled with the mode's
effective and group index. |E| combines the components at their own Yee nodes, each moved to the
plane's cell corners by averaging its two neighbours along its staggered axis, so what is drawn
is a smooth magnitude, not the raw staggered arrays. Doesn't: solve anything, or draw H.

Example: plot_modes.py strip_modes.h5 --out strip_modes.png
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yee_h5  # noqa: E402
from yee_h5 import YeeError  # noqa: E402

COMPONENTS = ("Ex", "Ey", "Ez")


class Modes:
    """What <name>_modes.h5 holds: per mode neff, ng, and E profiles (3-D arrays z, y, x; the
    plane's normal axis has length 1) with the node coordinates of each component."""

    def __init__(self, path):
        import numpy as np
        with yee_h5.open_result(path, "modes", "yee modes") as f:
            self.plane = yee_h5._str(f.attrs.get("plane", ""))
            self.wavelength = float(yee_h5._str(f.attrs.get("wavelength_um", "nan")))
            self.neff = np.asarray(f["modes/neff"][()], dtype=float)
            self.ng = np.asarray(f["modes/ng"][()], dtype=float)
            self.fields = []
            for i in range(len(self.neff)):
                self.fields.append({c: np.asarray(f["mode%d/%s" % (i + 1, c)][()])
                                    for c in COMPONENTS})
            self.coords = {c: [np.asarray(f["coords/%s_%s" % (c, a)][()]) for a in "xyz"]
                           for c in COMPONENTS}
        self.axis = "xyz".index(self.plane[0]) if self.plane[:1] in ("x", "y", "z") else 0


def magnitude(fields):
    """|E| with each component averaged onto the integer nodes along its own staggered axis."""
    import numpy as np
    total = None
    for a, c in enumerate(COMPONENTS):
        v = fields[c].astype(float)
        arr_axis = 2 - a  # arrays are (z, y, x)
        if v.shape[arr_axis] > 1:
            shifted = np.roll(v, 1, axis=arr_axis)
            idx = [slice(None)] * 3
            idx[arr_axis] = 0
            shifted[tuple(idx)] = 0.0
            v = 0.5 * (v + shifted)
        total = v * v if total is None else total + v * v
    return np.sqrt(total)


def plot(modes, args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    n = len(modes.neff) if args.mode is None else 1
    if n == 0:
        raise YeeError("the file holds no mode")
    chosen = range(len(modes.neff)) if args.mode is None else [args.mode - 1]
    w, h = args.size
    fig, axes = plt.subplots(1, n, figsize=(w / args.dpi, h / args.dpi), dpi=args.dpi,
                             layout="constrained", squeeze=False)
    inplane = [a for a in range(3) if a != modes.axis]
    for ax, i in zip(axes[0], chosen):
        mag = magnitude(modes.fields[i])
        shape = mag.shape[::-1]  # x, y, z
        line = [a for a in inplane if shape[a] > 1]
        title = "mode %d: neff %.4f, ng %.3f" % (i + 1, modes.neff[i], modes.ng[i])
        if len(line) == 1:
            a = line[0]
            x = modes.coords["Ex"][a] if a != 0 else modes.coords["Ey"][a]
            ax.plot(x, mag.ravel(), "k", lw=1.5, label="|E|")
            for c in COMPONENTS:
                v = modes.fields[i][c].ravel()
                if np.abs(v).max() > 1e-3 * np.abs(mag).max():
                    ax.plot(modes.coords[c][a], v, lw=1, label=c)
            ax.set_xlabel("%s (um)" % "xyz"[a])
            ax.legend(fontsize=7)
        else:
            u, v = inplane  # u < v: the squeezed (z, y, x) array has rows v, columns u
            img = mag.squeeze(axis=2 - modes.axis)
            cu = modes.coords["Ex" if u != 0 else "Ey"][u]
            cv = modes.coords["Ex" if v != 0 else "Ey"][v]
            extent = (cu[0], cu[-1], cv[0], cv[-1])
            im = ax.imshow(img, origin="lower", extent=extent, cmap=args.cmap, aspect="equal")
            ax.set_xlabel("%s (um)" % "xyz"[u])
            ax.set_ylabel("%s (um)" % "xyz"[v])
            fig.colorbar(im, ax=ax, shrink=0.8, label="|E| (unit power)")
        ax.set_title(title, fontsize=8)
    fig.suptitle("%s, wavelength %.4g um" % (modes.plane, modes.wavelength), fontsize=9)
    yee_h5.save_figure(fig, args.out, args.dpi)


def main(argv=None, prog="plot_modes.py"):
    p = argparse.ArgumentParser(
        prog=prog,
        description="Plot |E| of the modes yee modes found (<name>_modes.h5): one panel per "
                    "mode, titled with its effective and group index.")
    p.add_argument("modes", metavar="MODES.h5", help="the file yee modes wrote")
    p.add_argument("--mode", type=int, default=None, help="only mode N (counted from 1)")
    p.add_argument("--cmap", default="magma", help="matplotlib colour map (default magma)")
    p.add_argument("--out", default=None, help="output image (default MODES.h5 with .png)")
    yee_h5.add_image_size(p, (1000, 400))
    args = p.parse_args(argv)
    modes = Modes(args.modes)
    if args.mode is not None and not 1 <= args.mode <= len(modes.neff):
        raise YeeError("--mode %d: the file holds modes 1 to %d" % (args.mode, len(modes.neff)))
    if args.out is None:
        args.out = os.path.splitext(args.modes)[0] + ".png"
    plot(modes, args)
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    yee_h5.run_main("plot_modes.py", main)
