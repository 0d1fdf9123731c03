#!/usr/bin/env python3
"""plot_flux.py -- flux spectra of yee flux monitors (/flux/<name>) from one or more runs, to PNG
and optionally CSV.

Each curve is one flux monitor of one run: its flux, or with --normalized its normalized
spectrum (flux / |reference flux|, written when the deck gave `reference`), or with --divide its
flux divided by |the flux of another monitor| (of the same run, or RUN.h5:NAME of another run:
T = P_end / P_start). --scale multiplies every curve (e.g. by an area, to turn flux / incident
flux into a cross-section), --sum adds the sum of the curves (R + T, extinction = scattering +
absorption). The x axis is frequency in THz with the vacuum wavelength on a secondary axis, or
wavelength with --wavelength.
Doesn't: run simulations, read probes (plot_spectrum.py does), or interpolate between runs with
different frequencies (they must match to be divided).

Example: plot_flux.py out/grating.h5 --normalized --sum --out grating.png --csv grating.csv
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yee_h5  # noqa: E402
from yee_h5 import C_UM_THZ, YeeError  # noqa: E402


class Curve:
    """One plotted spectrum: freq_thz and values (arrays of equal length) and its legend label."""

    def __init__(self, freq_thz, values, label):
        self.freq_thz = freq_thz
        self.values = values
        self.label = label


def flux_monitors(run):
    """Names of the flux monitors of a run (empty when the run has none)."""
    g = run.f.get("flux")
    return sorted(g.keys()) if g is not None else []


def read_flux(run, name, what="flux"):
    """(freq_thz, values) of /flux/<name>/<what> (what: flux, normalized or reference).

    /flux/<name>/frequency is in c/um (frequency_thz in THz, when present); a missing monitor or
    dataset raises YeeError naming what exists."""
    import numpy as np
    names = flux_monitors(run)
    if name not in names:
        raise YeeError("no flux monitor '%s' in %s; available: %s" %
                       (name, run.path, ", ".join(names) if names else "(none)"))
    g = run.f["flux"][name]
    if what not in g:
        if what == "normalized":
            raise YeeError("flux monitor '%s' of %s has no normalized spectrum: the run had no "
                           "reference (set monitors[].reference, or plot the raw flux without "
                           "--normalized)" % (name, run.path))
        raise YeeError("flux monitor '%s' of %s has no dataset '%s'; available: %s" %
                       (name, run.path, what, ", ".join(sorted(g.keys()))))
    if "frequency_thz" in g:
        f = np.asarray(g["frequency_thz"][()], dtype=float)
    else:
        f = np.asarray(g["frequency"][()], dtype=float) * C_UM_THZ
    return f, np.asarray(g[what][()], dtype=float)


def parse_ref(text, default_run):
    """'NAME' -> (default_run, NAME); 'RUN.h5:NAME' -> (RUN.h5, NAME)."""
    path, sep, name = text.rpartition(":")
    if not sep or not path:
        return default_run, text
    return path, name


def build_curves(args):
    """The curves asked for, in the order runs x monitors."""
    import numpy as np
    curves = []
    multi = len(args.runs) > 1
    for path in args.runs:
        with yee_h5.Run(path) as run:
            names = args.monitor or flux_monitors(run)
            if not names:
                raise YeeError("%s has no flux monitors (/flux is missing)" % path)
            den, skip = None, None
            if args.divide:
                dpath, dname = parse_ref(args.divide, path)
                if dpath == path:
                    den = read_flux(run, dname)
                    skip = None if args.monitor else dname  # itself / itself: not a curve
                else:
                    with yee_h5.Run(dpath) as other:
                        den = read_flux(other, dname)
            for name in names:
                if name == skip:
                    continue
                f, v = read_flux(run, name, "normalized" if args.normalized else "flux")
                if den is not None:
                    if len(den[0]) != len(f) or np.max(np.abs(den[0] - f)) > 1e-6 * np.max(f):
                        raise YeeError("cannot divide '%s' by '%s': their frequencies differ "
                                       "(%d and %d points)" % (name, args.divide, len(f),
                                                               len(den[0])))
                    with np.errstate(divide="ignore", invalid="ignore"):
                        v = v / np.abs(den[1])
                label = "%s: %s" % (run.name, name) if multi else name
                curves.append(Curve(f, v * args.scale, label))
    if args.label:
        if len(args.label) != len(curves):
            raise YeeError("%d --label given for %d curves (%s)" %
                           (len(args.label), len(curves), ", ".join(c.label for c in curves)))
        for c, text in zip(curves, args.label):
            c.label = text
    if args.sum:
        f0 = curves[0].freq_thz
        for c in curves[1:]:
            if len(c.freq_thz) != len(f0) or np.max(np.abs(c.freq_thz - f0)) > 1e-6 * f0.max():
                raise YeeError("--sum needs curves at the same frequencies ('%s' and '%s' differ)"
                               % (curves[0].label, c.label))
        curves.append(Curve(f0, np.sum([c.values for c in curves], axis=0),
                            args.sum_label or " + ".join(c.label for c in curves)))
    return curves


def ylabel(args):
    if args.ylabel:
        return args.ylabel
    base = "normalized flux" if args.normalized else "flux (normalized units)"
    if args.divide:
        base = "flux / |flux %s|" % args.divide
    return base + (" x %g" % args.scale if args.scale != 1.0 else "")


def freq_range(args, curves):
    """(lo, hi) THz: --fmin/--fmax or --wl-min/--wl-max, else the curves' span."""
    lo, hi = yee_h5.requested_range(args)
    lo = min(c.freq_thz.min() for c in curves) if lo is None else lo
    hi = max(c.freq_thz.max() for c in curves) if hi is None else hi
    if hi <= lo:
        raise YeeError("empty frequency range %g .. %g THz" % (lo, hi))
    return lo, hi


def wavelength_ticks(lo, hi):
    """Evenly stepped round wavelengths (um) whose frequencies lie in lo..hi THz: the largest
    step of 1, 2, 5 x 10^n giving at least 4 of them."""
    import numpy as np
    wl_lo, wl_hi = C_UM_THZ / hi, C_UM_THZ / lo
    for e in range(3, -5, -1):
        for m in (5.0, 2.0, 1.0):
            step = m * 10.0 ** e
            ticks = np.arange(np.ceil(wl_lo / step - 1e-9), np.floor(wl_hi / step + 1e-9) + 1)
            if len(ticks) >= 4:
                return [round(t * step, 6) for t in ticks]
    return []


def plot(curves, lo, hi, args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    w, h = args.size
    fig, ax = plt.subplots(figsize=(w / args.dpi, h / args.dpi), dpi=args.dpi,
                           layout="constrained")
    for n, c in enumerate(curves):
        sel = (c.freq_thz >= lo * (1 - 1e-9)) & (c.freq_thz <= hi * (1 + 1e-9))
        x = C_UM_THZ / c.freq_thz[sel] if args.wavelength else c.freq_thz[sel]
        style = "k--" if args.sum and n == len(curves) - 1 else "-"
        ax.plot(x, c.values[sel], style, lw=1.3, label=c.label)
    if args.wavelength:
        ax.set_xlim(C_UM_THZ / hi, C_UM_THZ / lo)
        ax.set_xlabel("vacuum wavelength (um)")
    else:
        ax.set_xlim(lo, hi)
        ax.set_xlabel("frequency (THz)")
        top = ax.twiny()  # wavelength ticks placed at their frequencies (1/f is not linear)
        top.set_xlim(lo, hi)
        ticks = wavelength_ticks(lo, hi)
        top.set_xticks([C_UM_THZ / wl for wl in ticks])
        top.set_xticklabels(["%g" % wl for wl in ticks])
        top.set_xlabel("vacuum wavelength (um)")
    if args.ylim:
        ax.set_ylim(*args.ylim)
    ax.set_ylabel(ylabel(args))
    ax.grid(alpha=0.3)
    if len(curves) > 1 or args.legend:
        ax.legend(fontsize=8)
    if args.title:
        ax.set_title(args.title, fontsize=9)
    try:
        fig.savefig(args.out, dpi=args.dpi)
    except (OSError, ValueError) as e:
        raise YeeError("cannot write '%s': %s" % (args.out, e))


def write_csv(path, curves, lo, hi):
    """freq_THz,wavelength_um,<label>... over the plotted range (curves share the frequencies of
    the first; others are interpolated onto it)."""
    import numpy as np
    f = curves[0].freq_thz
    sel = (f >= lo * (1 - 1e-9)) & (f <= hi * (1 + 1e-9))
    cols = [np.interp(f[sel], c.freq_thz, c.values) for c in curves]
    try:
        with open(path, "w") as out:
            out.write("freq_THz,wavelength_um,%s\n" %
                      ",".join(c.label.replace(",", ";") for c in curves))
            for q, fq in enumerate(f[sel]):
                out.write("%.8g,%.8g,%s\n" % (fq, C_UM_THZ / fq,
                                              ",".join("%.8g" % col[q] for col in cols)))
    except OSError as e:
        raise YeeError("cannot write '%s': %s" % (path, e.strerror or e))


def main(argv=None, prog="plot_flux.py"):
    """The command; prog is the name its usage and errors give (the installed command passes
    its own, e.g. yee-plot-spectrum: the name the user typed)."""
    p = argparse.ArgumentParser(
        prog=prog,
        description="Plot the flux spectra of yee flux monitors (raw, normalized by the run's "
                    "reference, or divided by another monitor) against frequency (THz) or "
                    "wavelength (um).")
    p.add_argument("runs", nargs="+", metavar="RUN.h5", help="run HDF5 files")
    p.add_argument("--monitor", action="append", default=None, metavar="NAME",
                   help="flux monitor (repeat for several; default: every flux monitor)")
    q = p.add_mutually_exclusive_group()
    q.add_argument("--normalized", action="store_true",
                   help="plot /flux/<name>/normalized (flux / |reference flux|)")
    q.add_argument("--divide", default=None, metavar="[RUN.h5:]NAME",
                   help="divide every curve by |flux| of monitor NAME (of the same run, or of "
                        "RUN.h5); the monitor itself is then not plotted")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every curve by this")
    p.add_argument("--sum", action="store_true", help="also plot the sum of the curves")
    p.add_argument("--sum-label", default=None, help="legend text of the --sum curve")
    p.add_argument("--label", action="append", default=None,
                   help="legend text of each curve, in order (repeat once per curve)")
    p.add_argument("--legend", action="store_true", help="draw a legend even for one curve")
    p.add_argument("--title", default=None)
    p.add_argument("--ylabel", default=None)
    p.add_argument("--ylim", type=float, nargs=2, default=None, metavar=("LO", "HI"))
    p.add_argument("--wavelength", action="store_true",
                   help="wavelength (um) on the x axis instead of frequency")
    yee_h5.add_frequency_range(p, "range (default: the monitors' whole spectrum)")
    p.add_argument("--out", default=None,
                   help="output image (default <run>_flux.png next to the first RUN.h5)")
    p.add_argument("--csv", default=None, metavar="FILE",
                   help="also write the plotted curves as CSV")
    yee_h5.add_image_size(p, (800, 500))
    args = p.parse_args(argv)
    yee_h5.check_frequency_range(p, args)
    if args.scale == 0:
        p.error("--scale must be nonzero")

    curves = build_curves(args)
    if args.out is None:
        stem = os.path.splitext(os.path.abspath(args.runs[0]))[0]
        args.out = stem + "_flux.png"
    lo, hi = freq_range(args, curves)
    plot(curves, lo, hi, args)
    print("wrote %s" % args.out)
    if args.csv:
        write_csv(args.csv, curves, lo, hi)
        print("wrote %s" % args.csv)
    return 0


if __name__ == "__main__":
    yee_h5.run_main("plot_flux.py", main)
