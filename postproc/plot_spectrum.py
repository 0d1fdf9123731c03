#!/usr/bin/env python3
"""plot_spectrum.py -- the spectrum |FFT| of a yee probe's time series, to PNG and optionally CSV.

Takes one component of a probe (/probes/<name>), optionally drops the part before --start (the
source) and applies a window, zero-pads to --pad times its length (a power of two) and plots the
magnitude of the discrete Fourier transform times dt (an approximation of the continuous
transform: normalized field units of docs/units.md times fs) against frequency in THz, with the
vacuum wavelength in um on a secondary axis. --resonances overlays the modes listed
by `yee resonances RUN.h5 --probe NAME > modes.txt`.
Doesn't: normalize by the source spectrum, find resonances itself (use `yee resonances`), or read
flux monitors yet (a later --flux NAME will read /flux/<name> the same way; see docs/postproc.md).

Example: plot_spectrum.py out/dipole.h5 --probe far --component Ez --out far.png --csv far.csv
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yee_h5  # noqa: E402
from yee_h5 import C_UM_THZ, YeeError  # noqa: E402

WINDOWS = ("none", "hann", "hamming", "blackman")


class Spectrum:
    """What gets plotted and written: freq_thz, values (>= 0), a y label and a title."""

    def __init__(self, freq_thz, values, ylabel, title):
        self.freq_thz = freq_thz
        self.values = values
        self.ylabel = ylabel
        self.title = title


def probe_spectrum(run, args):
    """The |FFT| of one probe component (the only source of spectra for now; a flux monitor
    would be a second function like this one returning a Spectrum)."""
    import numpy as np
    t_fs, x, comp, pos = run.probe(args.probe, args.component)
    keep = t_fs >= args.start if args.start is not None else np.ones_like(t_fs, dtype=bool)
    t_fs, x = t_fs[keep], x[keep]
    if len(x) < 8:
        raise YeeError("probe '%s' has only %d samples%s" %
                       (args.probe, len(x), " after --start" if args.start is not None else ""))
    if args.window != "none":
        windows = {"hann": np.hanning, "hamming": np.hamming, "blackman": np.blackman}
        x = x * windows[args.window](len(x))
    dt_fs = float(t_fs[1] - t_fs[0])
    nfft = 1 << int(np.ceil(np.log2(max(len(x) * args.pad, len(x)))))
    spec = np.abs(np.fft.rfft(x, nfft)) * dt_fs
    f_thz = np.fft.rfftfreq(nfft, dt_fs) * 1e3  # 1/fs = 1000 THz
    where = "" if pos is None else " at (%s) um" % ", ".join("%.3g" % v for v in pos)
    title = "%s  probe '%s' %s%s\n%d samples, dt %.3g fs, window %s" % (
        run.name, args.probe, comp, where, len(x), dt_fs, args.window)
    return Spectrum(f_thz, spec, "|FFT %s| (normalized units x fs)" % comp, title)


def freq_range(args, s):
    """(fmin, fmax) in THz from --fmin/--fmax or --wl-min/--wl-max, else 0 .. a bit beyond the
    highest frequency where the spectrum is above 1e-3 of its peak."""
    import numpy as np
    lo, hi = yee_h5.requested_range(args)
    if hi is None:
        above = np.nonzero(s.values[1:] > 1e-3 * s.values[1:].max())[0] if len(s.values) > 1 else []
        top = s.freq_thz[1 + above[-1]] if len(above) else s.freq_thz[-1]
        hi = min(1.3 * top, s.freq_thz[-1])
    lo = 0.0 if lo is None else lo
    if hi <= lo:
        raise YeeError("empty frequency range %g .. %g THz" % (lo, hi))
    return lo, hi


def read_resonances(path):
    """(freq_THz, Q) pairs from `yee resonances` output (comment lines start with '#')."""
    modes = []
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                cols = line.split()
                try:
                    modes.append((float(cols[0]), float(cols[4])))
                except (ValueError, IndexError):
                    raise YeeError("%s:%d: not a `yee resonances` line (freq_THz freq_c_um "
                                   "wavelength_um decay_per_fs Q amplitude error)" % (path, n))
    except OSError as e:
        raise YeeError("cannot read resonances '%s': %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise YeeError("%s is not a text file of `yee resonances` output" % path)
    return modes


def write_csv(path, f, y, wl_header="wavelength_um"):
    import numpy as np
    with np.errstate(divide="ignore"):
        wl = np.where(f > 0, C_UM_THZ / np.where(f > 0, f, 1.0), np.inf)
    try:
        with open(path, "w") as out:
            out.write("freq_THz,%s,magnitude\n" % wl_header)
            for a, b, c in zip(f, wl, y):
                out.write("%.8g,%.8g,%.8g\n" % (a, b, c))
    except OSError as e:
        raise YeeError("cannot write '%s': %s" % (path, e.strerror or e))


def wavelength_ticks(lo, hi):
    """Round wavelengths (um) whose frequencies lie in lo..hi THz, at most about 10, spread so
    that their labels do not overlap."""
    mant = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0)
    cands = sorted({m * 10.0 ** e for e in range(-3, 4) for m in mant}, reverse=True)
    kept, last = [], lo - (hi - lo) / 20.0
    for wl in cands:  # increasing frequency
        f = C_UM_THZ / wl
        if lo <= f <= hi and f - last >= (hi - lo) / 10.0:
            kept.append(wl)
            last = f
    return kept


def plot(s, lo, hi, args, modes):
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    w, h = args.size
    fig, ax = plt.subplots(figsize=(w / args.dpi, h / args.dpi), dpi=args.dpi,
                           layout="constrained")
    sel = (s.freq_thz >= lo) & (s.freq_thz <= hi)
    y = s.values[sel]
    if args.db:
        peak = y.max() if y.size and y.max() > 0 else 1.0
        y = 20 * np.log10(np.maximum(y / peak, 1e-300))
        ax.set_ylim(max(y.min(), -120.0) - 3, 3)
        ax.set_ylabel(s.ylabel + ", dB re peak")
    else:
        ax.set_ylabel(s.ylabel)
    ax.plot(s.freq_thz[sel], y, lw=1.2)
    if not args.db:  # after plotting: set earlier, the top would freeze at the default 1.0
        ax.set_ylim(bottom=0)
    shown = [(f, q) for f, q in modes if lo <= f <= hi]
    for n, (f, q) in enumerate(shown):
        ax.axvline(f, color="C3", ls="--", lw=0.8)
        if len(shown) <= 12:  # labels staggered in height so that neighbours do not overlap
            ax.annotate("%.1f THz\nQ=%.3g" % (f, q), (f, 1.0 - 0.1 * (n % 3)),
                        xycoords=("data", "axes fraction"),
                        xytext=(3, -3), textcoords="offset points", va="top",
                        fontsize=7, color="C3")
    ax.set_xlim(lo, hi)
    ax.set_xlabel("frequency (THz)")
    ax.grid(alpha=0.3)

    top = ax.twiny()  # wavelength ticks placed at their frequencies (1/f is not linear)
    top.set_xlim(lo, hi)
    ticks = wavelength_ticks(lo, hi)
    top.set_xticks([C_UM_THZ / wl for wl in ticks])
    top.set_xticklabels(["%g" % wl for wl in ticks])
    top.set_xlabel("vacuum wavelength (um)")
    ax.set_title(s.title, fontsize=9)
    try:
        fig.savefig(args.out, dpi=args.dpi)
    except (OSError, ValueError) as e:
        raise YeeError("cannot write '%s': %s" % (args.out, e))


def main(argv=None, prog="plot_spectrum.py"):
    """The command; prog is the name its usage and errors give (the installed command passes
    its own, e.g. yee-plot-spectrum: the name the user typed)."""
    p = argparse.ArgumentParser(
        prog=prog,
        description="Plot |FFT| of a yee probe's time series against frequency (THz), with the "
                    "vacuum wavelength (um) on the top axis.")
    p.add_argument("run", metavar="RUN.h5", help="the run's HDF5 file")
    p.add_argument("--probe", required=True, help="probe monitor name")
    p.add_argument("--component", default=None, help="component (default: the probe's first)")
    p.add_argument("--out", default=None,
                   help="output image (default <run>_<probe>_spectrum.png next to RUN.h5)")
    p.add_argument("--csv", default=None, metavar="FILE",
                   help="also write freq_THz,wavelength_um,magnitude over the plotted range")
    yee_h5.add_frequency_range(p, "frequency range (default: 0 to where the spectrum has died out)")
    p.add_argument("--start", type=float, default=None, metavar="FS",
                   help="drop samples before this time (fs), e.g. the source pulse")
    p.add_argument("--window", choices=WINDOWS, default="none",
                   help="window applied before the FFT (default none)")
    p.add_argument("--pad", type=int, default=8,
                   help="zero-pad to at least PAD x the number of samples (default 8)")
    p.add_argument("--db", action="store_true", help="magnitude in dB relative to the peak")
    p.add_argument("--resonances", default=None, metavar="FILE",
                   help="overlay the modes of a `yee resonances` output file")
    yee_h5.add_image_size(p, (800, 500))
    args = p.parse_args(argv)
    yee_h5.check_frequency_range(p, args)
    if args.pad < 1:
        p.error("--pad must be >= 1")

    modes = read_resonances(args.resonances) if args.resonances else []
    with yee_h5.Run(args.run) as run:
        s = probe_spectrum(run, args)
        if args.out is None:
            args.out = os.path.join(os.path.dirname(os.path.abspath(args.run)),
                                    "%s_%s_spectrum.png" % (run.name, args.probe))
    lo, hi = freq_range(args, s)
    plot(s, lo, hi, args, modes)
    print("wrote %s" % args.out)
    if args.csv:
        sel = (s.freq_thz >= lo) & (s.freq_thz <= hi)
        write_csv(args.csv, s.freq_thz[sel], s.values[sel])
        print("wrote %s" % args.csv)
    return 0


if __name__ == "__main__":
    yee_h5.run_main("plot_spectrum.py", main)
