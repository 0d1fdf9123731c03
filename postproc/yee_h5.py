"""yee_h5 -- read a yee run file (<name>.h5) for the postproc scripts: the one place that knows
the HDF5 layout of docs/output.md.

What it does: open a run, list snapshot monitors and probes, give one frame of a snapshot
component with its physical coordinates (um) and time (fs), cut a plane out of a 3D frame, give a
probe's time series with times in fs, and find an optional permittivity dataset (geometry) and the
CPML thickness when the file records them.
What it doesn't: plot anything, write files, or run simulations. Mistakes (a missing file, monitor,
component or frame) raise YeeError with a message for the user; the scripts print it and exit 1.

Units: lengths um, times fs, frequencies THz (f_THz = C_UM_THZ * f in c/um).
"""
import os

import numpy as np

C_UM_THZ = 299.792458  # 1 c/um in THz
TIME_UNIT_FS = 3.33564095198152  # 1 c-unit of time (1 um / c) in fs
AXES = "xyz"


class YeeError(Exception):
    """A user mistake or an unreadable file; str(e) is the message to print."""


def _str(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def _names(items):
    return ", ".join(items) if items else "(none)"


class Frame:
    """One frame of one snapshot component.

    data: array (nz, ny, nx) (NumPy order [k, j, i]); x, y, z: node coordinates (um) of each axis;
    time_fs, step: when it was written; monitor, component, index: where it came from.
    """

    def __init__(self, data, coords, time_fs, step, monitor, component, index):
        self.data = data
        self.x, self.y, self.z = coords
        self.time_fs = time_fs
        self.step = step
        self.monitor = monitor
        self.component = component
        self.index = index

    def coords(self, axis):
        return (self.x, self.y, self.z)[axis]

    def plane_normal(self):
        """Axis (0..2) with a single node, the normal of a plane monitor; None for a 3D box.

        A line or point monitor (two or three single-node axes) raises YeeError."""
        single = [a for a in range(3) if self.data.shape[2 - a] == 1]
        if len(single) == 1:
            return single[0]
        if not single:
            return None
        raise YeeError("monitor '%s' is a %s (%d x %d x %d nodes), not a plane or a box" %
                       (self.monitor, "line" if len(single) == 2 else "point",
                        self.data.shape[2], self.data.shape[1], self.data.shape[0]))


class Plane:
    """A 2D cut of a frame: values[v, u] with u, v the in-plane axes (u horizontal).

    u_axis, v_axis, normal: axis numbers (0=x, 1=y, 2=z); u, v: node coordinates (um);
    position: coordinate (um) of the plane along the normal."""

    def __init__(self, values, u_axis, v_axis, u, v, normal, position):
        self.values = values
        self.u_axis, self.v_axis = u_axis, v_axis
        self.u, self.v = u, v
        self.normal = normal
        self.position = position

    def extent(self):
        """imshow extent: half the end spacings beyond the first and last nodes (on a graded
        mesh the nodes are not evenly spaced: imshow then stretches the image)."""
        def edges(c):
            lo = (c[1] - c[0]) if len(c) > 1 else 1.0
            hi = (c[-1] - c[-2]) if len(c) > 1 else 1.0
            return c[0] - 0.5 * lo, c[-1] + 0.5 * hi
        return (*edges(self.u), *edges(self.v))


def parse_slice(text):
    """'z=0.5' -> (2, 0.5); raises YeeError on anything else."""
    if text is None:
        return None
    name, sep, value = text.partition("=")
    name = name.strip().lower()
    try:
        if not sep or name not in ("x", "y", "z"):
            raise ValueError
        return AXES.index(name), float(value)
    except ValueError:
        raise YeeError("bad --slice '%s': expected x=VALUE, y=VALUE or z=VALUE (um)" % text)


def nearest(coords, value):
    """Index of the node nearest to value, or None when value lies outside the nodes (by more
    than half the spacing at that end; nodes may be unevenly spaced on a graded mesh)."""
    coords = np.asarray(coords, dtype=float)
    c = np.sort(coords)
    lo = c[1] - c[0] if len(c) > 1 else 0.0
    hi = c[-1] - c[-2] if len(c) > 1 else 0.0
    if value < c[0] - 0.5 * lo - 1e-9 or value > c[-1] + 0.5 * hi + 1e-9:
        return None
    return int(np.argmin(np.abs(coords - value)))


def cut_plane(data, coords, normal, index):
    """Plane of a (nz, ny, nx) array at node `index` along axis `normal` (coords: x, y, z)."""
    u_axis, v_axis = [a for a in range(3) if a != normal]
    values = np.take(data, index, axis=2 - normal)  # remaining axes: (v, u) in [k, j, i] order
    return Plane(values, u_axis, v_axis, coords[u_axis], coords[v_axis], normal,
                 float(coords[normal][index]))


def frame_plane(frame, slice_spec=None):
    """The plane to plot from a frame: the monitor's own plane, or the cut slice_spec = (axis,
    value) of a 3D box (which must then be given)."""
    normal = frame.plane_normal()
    coords = (frame.x, frame.y, frame.z)
    if slice_spec is None:
        if normal is None:
            raise YeeError("monitor '%s' is a 3D box (%d x %d x %d nodes); choose a plane with "
                           "--slice x=VALUE, y=VALUE or z=VALUE (um)" %
                           (frame.monitor, len(frame.x), len(frame.y), len(frame.z)))
        return cut_plane(frame.data, coords, normal, 0)
    axis, value = slice_spec
    if normal is not None and axis != normal:
        raise YeeError("monitor '%s' is already a plane of constant %s; --slice can only pick "
                       "a plane of a 3D box" % (frame.monitor, AXES[normal]))
    idx = nearest(coords[axis], value)
    if idx is None:
        c = coords[axis]
        raise YeeError("--slice %s=%g is outside monitor '%s' (%s from %g to %g um)" %
                       (AXES[axis], value, frame.monitor, AXES[axis], c.min(), c.max()))
    return cut_plane(frame.data, coords, axis, idx)


class Run:
    """An open run file. Use as a context manager or call close()."""

    def __init__(self, path):
        try:
            import h5py
        except ImportError:
            raise YeeError("h5py is missing: install the Debian packages python3-h5py, "
                           "python3-numpy and python3-matplotlib and use /usr/bin/python3")
        if not os.path.exists(path):
            raise YeeError("cannot open '%s': no such file" % path)
        try:
            self.f = h5py.File(path, "r")
        except OSError as e:
            raise YeeError("cannot open '%s' as an HDF5 file: %s" % (path, e))
        self.path = path
        a = self.f.attrs
        self.name = _str(a["name"]) if "name" in a else os.path.splitext(os.path.basename(path))[0]
        self.n = np.asarray(a["n"], dtype=int) if "n" in a else None
        self.dx = np.asarray(a["dx"], dtype=float) if "dx" in a else None
        self.origin = np.asarray(a["origin"], dtype=float) if "origin" in a else None
        # cell edges (um) per axis, (x, y, z): /mesh (graded meshes too); older files: None
        m = self.f.get("mesh")
        self.mesh = (tuple(np.asarray(m[k][()], dtype=float) for k in AXES)
                     if m is not None and all(k in m for k in AXES) else None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.f.close()

    # ---- snapshots ----
    def snapshots(self):
        """Names of the snapshot monitors (including 'geometry' when the run wrote one)."""
        g = self.f.get("snapshots")
        return sorted(g.keys()) if g is not None else []

    def components(self, monitor):
        if monitor not in self.snapshots():
            raise YeeError("no snapshot monitor '%s' in %s; available: %s" %
                           (monitor, self.path, _names(self.snapshots())))
        return sorted(self.f["snapshots"][monitor].keys())

    def _dataset(self, monitor, component):
        comps = self.components(monitor)
        if component is None:
            return self.f["snapshots"][monitor][comps[0]], comps[0]
        match = [c for c in comps if c.lower() == component.lower()]
        if not match:
            raise YeeError("snapshot monitor '%s' has no component '%s'; available: %s" %
                           (monitor, component, _names(comps)))
        return self.f["snapshots"][monitor][match[0]], match[0]

    def frames_info(self, monitor, component=None):
        """(frames_written, steps[:nw], times_fs[:nw]) of a snapshot component."""
        ds, comp = self._dataset(monitor, component)
        nw = int(ds.attrs.get("frames_written", ds.shape[0]))
        # labels are datasets under /snapshot_labels; files of earlier yee versions have them as
        # attributes of the snapshot (limited to ~8000 frames by HDF5's object header)
        labels = self.f.get("snapshot_labels/%s/%s" % (monitor, comp))
        src = labels if labels is not None else ds.attrs
        steps = np.asarray(src["steps"][:nw]) if "steps" in src else np.arange(nw)
        times = (np.asarray(src["times_fs"][:nw]) if "times_fs" in src
                 else np.full(nw, np.nan))
        return nw, steps, times

    def frame_index(self, monitor, component=None, frame=None, step=None):
        """Index of the frame chosen by frame number (negative counts from the last written) or
        by time step; the last written frame when neither is given."""
        nw, steps, _ = self.frames_info(monitor, component)
        if nw == 0:
            raise YeeError("snapshot monitor '%s' has no frames written" % monitor)
        if step is not None:
            hits = np.nonzero(steps == step)[0]
            if len(hits) == 0:
                shown = ", ".join(str(int(s)) for s in steps[:20]) + (" ..." if nw > 20 else "")
                raise YeeError("snapshot monitor '%s' has no frame at step %d; steps written: %s"
                               % (monitor, step, shown))
            return int(hits[0])
        if frame is None:
            return nw - 1
        k = frame + nw if frame < 0 else frame
        if not 0 <= k < nw:
            raise YeeError("frame %d out of range: snapshot monitor '%s' has %d frames written "
                           "(0 .. %d)" % (frame, monitor, nw, nw - 1))
        return k

    def frame(self, monitor, component=None, index=-1):
        """Frame `index` (negative: from the last written) of a snapshot component."""
        ds, comp = self._dataset(monitor, component)
        nw, steps, times = self.frames_info(monitor, comp)
        k = self.frame_index(monitor, comp, frame=index)
        data = np.asarray(ds[k], dtype=float)
        return Frame(data, self._coords(ds, data.shape), float(times[k]), int(steps[k]),
                     monitor, comp, k)

    def frames(self, monitor, component=None):
        """All written frames: (data (nw, nz, ny, nx), coords (x, y, z), steps, times_fs)."""
        ds, comp = self._dataset(monitor, component)
        nw, steps, times = self.frames_info(monitor, comp)
        if nw == 0:
            raise YeeError("snapshot monitor '%s' has no frames written" % monitor)
        data = np.asarray(ds[:nw], dtype=float)
        return data, self._coords(ds, data.shape[1:]), steps, times

    @staticmethod
    def _coords(ds, shape):
        """Node coordinates (x, y, z) of a dataset of shape (nz, ny, nx): the datasets its
        attribute `coordinates` names (/coordinates/<its path>/x|y|z; true positions on a graded
        mesh), else origin + i spacing from its attributes (files of earlier yee versions)."""
        ref = ds.attrs.get("coordinates")
        g = ds.file.get(_str(ref)) if ref is not None else None
        if g is not None and all(k in g for k in AXES):
            c = tuple(np.asarray(g[k][()], dtype=float) for k in AXES)
            if all(len(c[a]) == shape[2 - a] for a in range(3)):
                return c
        o = np.asarray(ds.attrs.get("origin", (0.0, 0.0, 0.0)), dtype=float)
        h = np.asarray(ds.attrs.get("spacing", (1.0, 1.0, 1.0)), dtype=float)
        return tuple(o[a] + h[a] * np.arange(shape[2 - a]) for a in range(3))

    # ---- probes ----
    def probes(self):
        g = self.f.get("probes")
        return sorted(g.keys()) if g is not None else []

    def probe(self, name, component=None):
        """(t_fs, values, component, position_um) of one component of a probe (default: its
        first component)."""
        if name not in self.probes():
            raise YeeError("no probe '%s' in %s; available: %s" %
                           (name, self.path, _names(self.probes())))
        ds = self.f["probes"][name]
        comps = _str(ds.attrs["components"]).split(",")
        if component is None:
            col = 0
        else:
            low = [c.lower() for c in comps]
            if component.lower() not in low:
                raise YeeError("probe '%s' has no component '%s'; available: %s" %
                               (name, component, _names(comps)))
            col = low.index(component.lower())
        dt = float(ds.attrs["dt"])
        t0 = float(np.atleast_1d(ds.attrs["t0"])[col])
        values = np.asarray(ds[:, col], dtype=float)
        t_fs = (t0 + dt * np.arange(len(values))) * TIME_UNIT_FS
        pos = np.atleast_2d(ds.attrs["position"])[col] if "position" in ds.attrs else None
        return t_fs, values, comps[col], pos

    # ---- geometry and boundaries (optional: absent in files that do not record them) ----
    def eps_datasets(self):
        """Permittivity datasets, {component: (data (nz, ny, nx), (x, y, z))}.

        Looked up, first hit wins: /geometry/eps_<Comp> (or /geometry/<Comp>) and
        /snapshots/geometry/<Comp> (written by output.geometry = true); each a 3D (nz, ny, nx)
        or 1-frame 4D (1, nz, ny, nx) array with origin/spacing attributes as snapshots have.
        Empty when the file has none."""
        import h5py
        found = {}
        for group in ("geometry", "snapshots/geometry"):
            g = self.f.get(group)
            if not isinstance(g, h5py.Group):
                continue
            for key, ds in g.items():
                if not isinstance(ds, h5py.Dataset) or ds.ndim not in (3, 4):
                    continue
                comp = key[4:] if key.lower().startswith("eps_") else key
                if comp in found:
                    continue
                data = np.asarray(ds[0] if ds.ndim == 4 else ds[()], dtype=float)
                found[comp] = (data, self._coords(ds, data.shape))
        return found

    def pml_cells(self):
        """CPML thickness in cells, [x_low, x_high, y_low, y_high, z_low, z_high], from the root
        attribute pml_cells (one int or six); None when the file does not record it."""
        a = self.f.attrs.get("pml_cells")
        if a is None:
            return None
        a = np.atleast_1d(np.asarray(a, dtype=int)).ravel()
        if len(a) == 1:
            return [int(a[0])] * 6
        if len(a) == 6:
            return [int(v) for v in a]
        if len(a) == 3:
            return [int(a[i // 2]) for i in range(6)]
        return None


def add_frequency_range(parser, title):
    """The --fmin/--fmax (THz) and --wl-min/--wl-max (um) options of the spectrum plots."""
    r = parser.add_argument_group(title)
    r.add_argument("--fmin", type=float, default=None, metavar="THZ")
    r.add_argument("--fmax", type=float, default=None, metavar="THZ")
    r.add_argument("--wl-min", type=float, default=None, metavar="UM",
                   help="shortest wavelength (sets --fmax)")
    r.add_argument("--wl-max", type=float, default=None, metavar="UM",
                   help="longest wavelength (sets --fmin)")


def check_frequency_range(parser, args):
    """Rejects (parser.error) one end given both ways and wavelengths <= 0."""
    if args.fmin is not None and args.wl_max is not None or \
            args.fmax is not None and args.wl_min is not None:
        parser.error("give the range as --fmin/--fmax or as --wl-min/--wl-max, not both for one end")
    for name in ("wl_min", "wl_max"):
        if getattr(args, name) is not None and getattr(args, name) <= 0:
            parser.error("--%s must be > 0" % name.replace("_", "-"))


def requested_range(args):
    """(lo, hi) in THz as the options give them; None for an end they leave open."""
    lo = args.fmin if args.fmin is not None else (
        C_UM_THZ / args.wl_max if args.wl_max is not None else None)
    hi = args.fmax if args.fmax is not None else (
        C_UM_THZ / args.wl_min if args.wl_min is not None else None)
    return lo, hi


def parse_size(text):
    """'800x600' -> (800, 600) pixels (an argparse type)."""
    import argparse
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 50 or h < 50 or w > 10000 or h > 10000:
            raise ValueError
        return w, h
    except ValueError:
        raise argparse.ArgumentTypeError(
            "expected WIDTHxHEIGHT in pixels (50..10000), e.g. 800x600")


def add_image_size(parser, default):
    """The options every plot script takes for its image: --size WxH (pixels; default the
    (width, height) given) and --dpi."""
    parser.add_argument("--size", type=parse_size, default=default, metavar="WxH",
                        help="image size in pixels (default %dx%d)" % default)
    parser.add_argument("--dpi", type=int, default=100, help="dots per inch (default 100)")


def open_result(path, kind, command):
    """A file a yee command wrote (root attribute yee_file = kind: "bands", "farfield"), opened
    read-only with h5py; YeeError when it cannot be opened or is not one."""
    import h5py
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise YeeError("cannot open '%s': %s" % (path, e))
    if _str(f.attrs.get("yee_file", "")) != kind:
        f.close()
        raise YeeError("%s is not a file of %s (no yee_file = %s attribute)"
                       % (path, command, kind))
    return f


def save_figure(fig, path, dpi):
    """fig.savefig(path) with a YeeError naming the file when it cannot be written."""
    try:
        fig.savefig(path, dpi=dpi)
    except (OSError, ValueError) as e:
        raise YeeError("cannot write '%s': %s" % (path, e))


def run_main(prog, main):
    """Call main(); print a YeeError as 'prog: error: message' and exit 1 (no traceback)."""
    import sys
    try:
        sys.exit(main())
    except YeeError as e:
        print("%s: error: %s" % (prog, e), file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
