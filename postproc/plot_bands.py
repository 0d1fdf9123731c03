#!/usr/bin/env python3
"""plot_bands.py -- the band diagram `yee bands` wrote (DIR/bands.h5), to PNG.

Each mode found at a k point is a dot at (distance along the k path, frequency in c/um, which is
a/lambda for a lattice constant a = 1 um); the path's corners are ticks, labelled by their
coordinates or by --labels ("G,X,M,G": G is drawn as Gamma). --light-line draws the vacuum light
cone f = |k + G| of the nearest reciprocal lattice vectors G of a square/cubic lattice of period
--period (um), below which modes are guided. Doesn't: run anything, or join dots into lines
(which band a mode continues is not known where bands cross).

Example: plot_bands.py rods_bands/bands.h5 --labels G,X,M,G --out bands.png
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yee_h5  # noqa: E402
from yee_h5 import YeeError  # noqa: E402


class Bands:
    """What bands.h5 holds: k (nk x 3, 1/um), distance (nk), corner_index, k_path (text), and per
    mode k_index, freq (c/um), q."""

    def __init__(self, path):
        import numpy as np
        with yee_h5.open_result(path, "bands", "yee bands") as f:
            self.k = np.stack([f["k/kx"][()], f["k/ky"][()], f["k/kz"][()]], axis=1)
            self.distance = np.asarray(f["k/distance"][()], dtype=float)
            self.corner_index = np.asarray(f["k/corner_index"][()], dtype=int)
            self.k_index = np.asarray(f["modes/k_index"][()], dtype=int)
            self.freq = np.asarray(f["modes/freq"][()], dtype=float)
            self.q = np.asarray(f["modes/q"][()], dtype=float)
            self.k_path = yee_h5._str(f.attrs.get("k_path", ""))


def corner_labels(bands, labels):
    if labels is None:
        return ["(%s)" % ", ".join("%g" % v for v in bands.k[i][:2 if not bands.k[i][2] else 3])
                for i in bands.corner_index]
    names = [s.strip() for s in labels.split(",")]
    if len(names) != len(bands.corner_index):
        raise YeeError("--labels gives %d names for the path's %d corners (%s)"
                       % (len(names), len(bands.corner_index), bands.k_path))
    return ["\u0393" if n in ("G", "Gamma") else n for n in names]


def light_line(bands, period, order=1):
    """Frequency of the lowest vacuum plane wave |k + G| at each k point (c/um)."""
    import itertools
    import numpy as np
    best = np.full(len(bands.distance), np.inf)
    for g in itertools.product(range(-order, order + 1), repeat=2):
        shifted = bands.k[:, :2] + np.array(g, dtype=float) / period
        best = np.minimum(best, np.hypot(shifted[:, 0], shifted[:, 1]))
    return best


def plot(bands, args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    w, h = args.size
    fig, ax = plt.subplots(figsize=(w / args.dpi, h / args.dpi), dpi=args.dpi,
                           layout="constrained")
    x = bands.distance[bands.k_index]
    ax.plot(x, bands.freq, "o", ms=args.marker, color="tab:blue", label="modes (harminv)")
    if args.light_line:
        ax.plot(bands.distance, light_line(bands, args.period), "k--", lw=1, label="light line")
        ax.legend(fontsize=8)
    ticks = bands.distance[bands.corner_index]
    ax.set_xticks(ticks)
    ax.set_xticklabels(corner_labels(bands, args.labels))
    for t in ticks:
        ax.axvline(t, color="0.8", lw=0.8, zorder=0)
    ax.set_xlim(ticks[0], ticks[-1] if ticks[-1] > ticks[0] else ticks[0] + 1)
    lo = 0.0 if args.fmin is None else args.fmin
    hi = (bands.freq.max() * 1.05 if len(bands.freq) else 1.0) if args.fmax is None else args.fmax
    ax.set_ylim(lo, hi)
    ax.set_xlabel("wave vector (path through the Brillouin zone)")
    ax.set_ylabel("frequency (c/um = a/lambda for a = 1 um)")
    ax.grid(axis="y", alpha=0.3)
    if args.title:
        ax.set_title(args.title, fontsize=9)
    yee_h5.save_figure(fig, args.out, args.dpi)


def main(argv=None, prog="plot_bands.py"):
    p = argparse.ArgumentParser(
        prog=prog,
        description="Plot the band diagram of yee bands (DIR/bands.h5): frequency (c/um) of "
                    "each mode against the distance along the k path.")
    p.add_argument("bands", metavar="BANDS.h5", help="the bands.h5 yee bands wrote")
    p.add_argument("--labels", default=None,
                   help="names of the path's corners, comma-separated (G or Gamma: Greek)")
    p.add_argument("--light-line", action="store_true",
                   help="draw the vacuum light line of a square lattice of --period")
    p.add_argument("--period", type=float, default=1.0, help="lattice period, um (default 1)")
    p.add_argument("--fmin", type=float, default=None, help="lowest frequency shown, c/um")
    p.add_argument("--fmax", type=float, default=None, help="highest frequency shown, c/um")
    p.add_argument("--title", default=None)
    p.add_argument("--marker", type=float, default=4.0, help="dot size (default 4)")
    p.add_argument("--out", default=None,
                   help="output image (default bands.png next to BANDS.h5)")
    yee_h5.add_image_size(p, (700, 500))
    args = p.parse_args(argv)
    if args.period <= 0:
        p.error("--period must be > 0")
    if args.fmin is not None and args.fmax is not None and args.fmax <= args.fmin:
        p.error("--fmax must be above --fmin")
    bands = Bands(args.bands)
    if args.out is None:
        args.out = os.path.join(os.path.dirname(os.path.abspath(args.bands)), "bands.png")
    plot(bands, args)
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    yee_h5.run_main("plot_bands.py", main)
