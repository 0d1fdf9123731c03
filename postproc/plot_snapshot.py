#!/usr/bin/env python3
"""plot_snapshot.py -- one frame of a yee snapshot monitor as a 2D colour map (PNG).

Plots a plane monitor as it is, or a plane cut out of a 3D monitor with --slice z=0.0 (the nearest
node plane). Axes in um, colour bar, title with the time in fs. Optional overlays: contours of the
permittivity when the file has a geometry dataset (--eps-contour; see docs/postproc.md for the
layout it looks for, skipped silently when absent) and the inner CPML faces as dashed lines when
the file records the root attribute pml_cells (skipped when absent).
Doesn't: interpolate between nodes, plot lines or points, or combine components (|E|).

Example: plot_snapshot.py out/dipole.h5 --monitor xy --component Ez --last --out ez.png
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yee_h5  # noqa: E402
from yee_h5 import YeeError  # noqa: E402

LABELS = ("x", "y", "z")


def add_plane_args(p):
    """Options shared with animate.py: which plane, colours, overlays, image size."""
    p.add_argument("run", metavar="RUN.h5", help="the run's HDF5 file")
    p.add_argument("--monitor", required=True, help="snapshot monitor name")
    p.add_argument("--component", default=None,
                   help="field component (Ex .. Hz); default: the monitor's first one")
    p.add_argument("--slice", default=None, metavar="AXIS=VALUE",
                   help="plane of a 3D monitor, e.g. z=0.0 (um; nearest node plane)")
    p.add_argument("--cmap", default="RdBu_r", help="matplotlib colour map (default RdBu_r)")
    p.add_argument("--symmetric", action=argparse.BooleanOptionalAction, default=None,
                   help="colour scale -max..max (default: when the values take both signs)")
    p.add_argument("--vmax", type=float, default=None,
                   help="fix the colour scale's upper end (and -vmax with --symmetric)")
    p.add_argument("--percentile", type=float, default=100.0, metavar="P",
                   help="colour scale from the P-th percentile of |values| (e.g. 99 so that a "
                        "point source does not wash out the rest; default 100 = the maximum)")
    p.add_argument("--eps-contour", action="store_true",
                   help="draw permittivity contours when the file has a geometry dataset")
    p.add_argument("--no-pml", action="store_true",
                   help="do not mark the CPML faces even when the file records them")
    yee_h5.add_image_size(p, (800, 600))


def color_limits(values, symmetric, vmax, percentile=100.0):
    """(vmin, vmax) of the colour scale: the range of the values, or of the central
    `percentile` per cent of them (by magnitude for a symmetric scale)."""
    import numpy as np
    finite = values[np.isfinite(values)]
    if not finite.size:
        finite = np.zeros(1)
    lo, hi = float(finite.min()), float(finite.max())
    if symmetric is None:
        symmetric = lo < 0.0 < hi
    if percentile < 100.0:
        if symmetric:
            m = float(np.percentile(np.abs(finite), percentile))
            lo, hi = -m, m
        else:
            lo, hi = (float(v) for v in np.percentile(finite, [100.0 - percentile, percentile]))
    if symmetric:
        m = vmax if vmax is not None else max(abs(lo), abs(hi))
        m = m if m > 0 else 1.0
        return -m, m
    if vmax is not None:
        hi = vmax
    if hi <= lo:
        hi = lo + (abs(lo) if lo else 1.0)
    return lo, hi


def eps_levels(values):
    """Contour levels between the permittivity plateaus of a plane: midpoints between the
    values that cover at least 1% of the nodes (interfaces are subpixel-averaged, so
    intermediate values appear only in thin layers)."""
    import numpy as np
    v = np.round(values[np.isfinite(values)], 4)
    if v.size == 0:
        return []
    vals, counts = np.unique(v, return_counts=True)
    plateaus = vals[counts >= max(1, 0.01 * v.size)]
    return [0.5 * (a + b) for a, b in zip(plateaus[:-1], plateaus[1:])]


def draw_eps(ax, run, plane, component):
    """Contours of the permittivity in the plotted plane; does nothing when the file has no
    geometry dataset or the plane lies outside it. Returns whether it drew."""
    eps = run.eps_datasets()
    if not eps:
        return False
    comp = component if component in eps else ("Ez" if "Ez" in eps else sorted(eps)[0])
    data, coords = eps[comp]
    idx = yee_h5.nearest(coords[plane.normal], plane.position)
    if idx is None:
        return False
    cut = yee_h5.cut_plane(data, coords, plane.normal, idx)
    levels = eps_levels(cut.values)
    if not levels or len(cut.u) < 2 or len(cut.v) < 2:
        return False
    ax.contour(cut.u, cut.v, cut.values, levels=levels, colors="k", linewidths=0.8)
    return True


def draw_pml(ax, run, plane):
    """Dashed lines on the inner faces of the CPML, when the file records pml_cells."""
    pml = run.pml_cells()
    if pml is None or run.n is None or run.dx is None or run.origin is None:
        return False

    def edge(axis, cell):
        # the cell edges from /mesh (a graded axis), else origin + cell dx
        if run.mesh is not None:
            return run.mesh[axis][cell]
        return run.origin[axis] + cell * run.dx[axis]
    drew = False
    for axis, line in ((plane.u_axis, ax.axvline), (plane.v_axis, ax.axhline)):
        lo_cells, hi_cells = pml[2 * axis], pml[2 * axis + 1]
        if lo_cells > 0:
            line(edge(axis, lo_cells), color="0.4", ls="--", lw=0.8)
            drew = True
        if hi_cells > 0:
            line(edge(axis, run.n[axis] - hi_cells), color="0.4", ls="--", lw=0.8)
            drew = True
    return drew


def uneven(c):
    """True when node coordinates c are not evenly spaced (a graded axis)."""
    d = np.diff(np.asarray(c, dtype=float))
    return len(d) > 1 and float(np.max(d) - np.min(d)) > 1e-9 * float(np.max(np.abs(d)))


def cell_edges(c):
    """Edges of the cells around nodes c: midway between nodes, half a spacing past the ends."""
    c = np.asarray(c, dtype=float)
    if len(c) < 2:
        return np.array([c[0] - 0.5, c[0] + 0.5])
    mid = 0.5 * (c[1:] + c[:-1])
    return np.concatenate(([c[0] - 0.5 * (c[1] - c[0])], mid, [c[-1] + 0.5 * (c[-1] - c[-2])]))


def plane_title(run, frame, plane):
    where = "%s = %.4g um" % (LABELS[plane.normal], plane.position)
    return "%s  %s on '%s' (%s)\nt = %.2f fs (step %d)" % (
        run.name, frame.component, frame.monitor, where, frame.time_fs, frame.step)


def new_figure(args):
    """An empty figure of exactly args.size pixels; checks args.cmap first."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    if args.cmap not in matplotlib.colormaps:
        raise YeeError("unknown colour map '%s'; e.g. RdBu_r, seismic, viridis, magma, gray "
                       "(all: matplotlib.colormaps)" % args.cmap)
    w, h = args.size
    fig, ax = plt.subplots(figsize=(w / args.dpi, h / args.dpi), dpi=args.dpi,
                           layout="constrained")
    return fig, ax


def draw_plane(fig, ax, run, frame, plane, args, vlim):
    """The colour map of a plane with axes, colour bar and overlays; returns the image."""
    if uneven(plane.u) or uneven(plane.v):
        # a graded mesh: each node's own cell (imshow would stretch unequal cells)
        im = ax.pcolormesh(cell_edges(plane.u), cell_edges(plane.v), plane.values,
                           cmap=args.cmap, vmin=vlim[0], vmax=vlim[1], shading="flat")
        ax.set_aspect("equal")
    else:
        im = ax.imshow(plane.values, origin="lower", extent=plane.extent(), cmap=args.cmap,
                       vmin=vlim[0], vmax=vlim[1], interpolation="nearest", aspect="equal")
    ax.set_xlabel("%s (um)" % LABELS[plane.u_axis])
    ax.set_ylabel("%s (um)" % LABELS[plane.v_axis])
    fig.colorbar(im, ax=ax, label="%s (normalized units)" % frame.component, shrink=0.9)
    ext = plane.extent()
    if args.eps_contour:
        draw_eps(ax, run, plane, frame.component)
    if not args.no_pml:
        draw_pml(ax, run, plane)
    ax.set_xlim(ext[0], ext[1])
    ax.set_ylim(ext[2], ext[3])
    return im


def main(argv=None, prog="plot_snapshot.py"):
    """The command; prog is the name its usage and errors give (the installed command passes
    its own, e.g. yee-plot-spectrum: the name the user typed)."""
    p = argparse.ArgumentParser(
        prog=prog,
        description="Plot one frame of a yee snapshot monitor (a plane, or a --slice of a 3D "
                    "monitor) to a PNG with axes in um and the time in fs.")
    add_plane_args(p)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--frame", type=int, default=None,
                       help="frame number, 0 = first written, -1 = last")
    which.add_argument("--step", type=int, default=None, help="the frame written at this step")
    which.add_argument("--last", action="store_true", help="the last written frame (default)")
    p.add_argument("--out", default=None,
                   help="output image (default <run>_<monitor>_<component>.png next to RUN.h5)")
    args = p.parse_args(argv)

    if not 0.0 < args.percentile <= 100.0:
        p.error("--percentile must be in (0, 100]")
    slice_spec = yee_h5.parse_slice(args.slice)
    with yee_h5.Run(args.run) as run:
        k = run.frame_index(args.monitor, args.component, frame=args.frame, step=args.step)
        frame = run.frame(args.monitor, args.component, k)
        plane = yee_h5.frame_plane(frame, slice_spec)
        out = args.out or os.path.join(os.path.dirname(os.path.abspath(args.run)), "%s_%s_%s.png"
                                       % (run.name, frame.monitor, frame.component))
        fig, ax = new_figure(args)
        draw_plane(fig, ax, run, frame, plane, args,
                   color_limits(plane.values, args.symmetric, args.vmax, args.percentile))
        ax.set_title(plane_title(run, frame, plane), fontsize=10)
        try:
            fig.savefig(out, dpi=args.dpi)
        except (OSError, ValueError) as e:
            raise YeeError("cannot write '%s': %s" % (out, e))
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    yee_h5.run_main("plot_snapshot.py", main)
