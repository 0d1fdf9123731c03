"""yee.result -- a finished run's HDF5 file (docs/output.md) as numpy arrays with coordinates
and units. Every reader opens the file, reads what it returns and closes it: a Result holds no
open handle, so the file can be moved or rewritten between calls.

Units: lengths um, times in c-units (1 um / c, `*_fs` in fs), frequencies in c/um (`*_thz` in
THz), fields normalized with eps0 = mu0 = c = 1 and H stored as eta0*H.
"""
import ctypes
from types import SimpleNamespace

import h5py
import numpy as np

from . import _lib
from .errors import RunError

C_UM_THZ = 299.792458            # model/config.h YEE_C_UM_THZ
TIME_UNIT_FS = 3.3356409519815204  # model/config.h YEE_TIME_UNIT_FS


def _axes(dset, shape_zyx):
    """x, y, z node coordinates (um) of a dataset: the datasets its attribute `coordinates`
    names (/coordinates/<its path>/x|y|z, true positions on a graded mesh), else origin + i
    spacing from its attributes (files of earlier yee versions)."""
    ref = dset.attrs.get("coordinates")
    if ref is not None:
        g = dset.file.get(ref.decode() if isinstance(ref, bytes) else str(ref))
        if g is not None and all(k in g for k in "xyz"):
            c = tuple(np.asarray(g[k][()], dtype=float) for k in "xyz")
            if [len(v) for v in c] == list(shape_zyx)[::-1]:
                return c
    o = dset.attrs["origin"]
    h = dset.attrs["spacing"]
    nz, ny, nx = shape_zyx
    return (o[0] + h[0] * np.arange(nx), o[1] + h[1] * np.arange(ny),
            o[2] + h[2] * np.arange(nz))


class Result:
    """The output of one run: h5 is the path of <out_dir>/<name>.h5. stopped is True when the
    progress callback stopped the run (message says at which step)."""

    def __init__(self, h5, stopped=False, message=""):
        self.h5 = h5
        self.stopped = stopped
        self.message = message

    def __repr__(self):
        return "Result(%r%s)" % (self.h5, ", stopped" if self.stopped else "")

    def _open(self):
        return h5py.File(self.h5, "r")

    @property
    def attrs(self):
        """The root attributes (run description: n, dx, dt, steps, deck text, ...)."""
        with self._open() as f:
            return {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}

    def names(self, group):
        """The monitors of one kind: group is "probes", "flux", "dft" or "snapshots"."""
        with self._open() as f:
            return sorted(f[group].keys()) if group in f else []

    def probe(self, name):
        """A probe's time series: values (nsteps, ncomp), components, times (nsteps, ncomp,
        c-units; E and H are half a step apart) and times_fs, position (ncomp, 3) um of the
        node sampled, dt; p["Ez"] is one component's column."""
        with self._open() as f:
            d = f["probes"][name]
            values = d[()]
            comps = d.attrs["components"].split(",")
            t0 = np.asarray(d.attrs["t0"], dtype=float)
            dt = float(d.attrs["dt"])
            position = np.asarray(d.attrs["position"], dtype=float).reshape(len(comps), 3)
        times = t0[None, :] + dt * np.arange(values.shape[0])[:, None]
        p = SimpleNamespace(name=name, values=values, components=comps, times=times,
                            times_fs=times * TIME_UNIT_FS, position=position, dt=dt)
        return _Series(p)

    def flux(self, name):
        """A flux monitor's spectrum: frequency (c/um), frequency_thz, wavelength_um (vacuum),
        flux, and reference / normalized when the deck named a reference run (else None)."""
        with self._open() as f:
            g = f["flux"][name]
            fr = g["frequency"][()]
            return SimpleNamespace(
                name=name, frequency=fr, frequency_thz=fr * C_UM_THZ, wavelength_um=1.0 / fr,
                flux=g["flux"][()],
                reference=g["reference"][()] if "reference" in g else None,
                normalized=g["normalized"][()] if "normalized" in g else None)

    def dft(self, name, comp):
        """A DFT monitor's field of one component: values complex (nfreq, nz, ny, nx) at the
        component's own Yee nodes x, y, z (um), frequency (c/um) and frequency_thz."""
        with self._open() as f:
            g = f["dft"][name]
            re, im = g[comp + "_re"], g[comp + "_im"]
            values = re[()] + 1j * im[()]
            x, y, z = _axes(re, values.shape[1:])
            fr = g["frequency"][()]
        return SimpleNamespace(name=name, component=comp, values=values, x=x, y=y, z=z,
                               frequency=fr, frequency_thz=fr * C_UM_THZ)

    def snapshot(self, name, comp):
        """A snapshot monitor's frames of one component: frames (nframes, nz, ny, nx) of the
        frames written, steps, times (c-units), times_fs, node coordinates x, y, z (um)."""
        with self._open() as f:
            d = f["snapshots"][name][comp]
            nw = int(d.attrs["frames_written"])
            frames = d[:nw]
            x, y, z = _axes(d, d.shape[1:])
            if "labels" in d.attrs:
                lab = f[d.attrs["labels"]]
                steps, times, tfs = lab["steps"][:nw], lab["times"][:nw], lab["times_fs"][:nw]
            else:  # files of earlier yee versions: labels as attributes
                steps = np.asarray(d.attrs["steps"])[:nw]
                times = np.asarray(d.attrs["times"])[:nw]
                tfs = np.asarray(d.attrs["times_fs"])[:nw]
        return SimpleNamespace(name=name, component=comp, frames=frames, steps=steps,
                               times=times, times_fs=tfs, x=x, y=y, z=z)

    def resonances(self, probe, component=None, fmin_thz=None, fmax_thz=None, start_fs=0.0,
                   modes=100, max_error=1e-2, min_q=10.0):
        """Modes of a probe's series by harminv, as `yee resonances RUN.h5 --probe P` finds
        them (the same C function, through libyee): from start_fs on, in [fmin_thz, fmax_thz]
        (default: the whole band), with `modes` basis functions; modes with an error above
        max_error or |Q| below min_q dropped. Returns arrays sorted by frequency: freq_thz,
        freq (c/um), wavelength_um, decay_per_fs, q, amplitude, error."""
        p = self.probe(probe)
        col = 0 if not component else [c.lower() for c in p.components].index(component.lower())
        start = start_fs / TIME_UNIT_FS
        t0 = p.times[0, col]
        first = min(max(int(np.ceil((start - t0) / p.dt)), 0), p.values.shape[0])
        x = np.ascontiguousarray(p.values[first:, col], dtype=np.float64)
        lo = fmin_thz / C_UM_THZ if fmin_thz and fmin_thz > 0 else -1.0
        hi = fmax_thz / C_UM_THZ if fmax_thz and fmax_thz > 0 else -1.0
        L = _lib.lib()
        err = ctypes.create_string_buffer(4096)
        room, found = 64, ctypes.c_int(0)
        while True:
            out = np.zeros((room, 5))
            rc = L.yee_capi_harminv(x.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), 1,
                                    len(x), p.dt, lo, hi, modes, max_error, min_q,
                                    out.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), room,
                                    ctypes.byref(found), err, len(err))
            if rc != _lib.OK:
                raise RunError("%s: probe %s: %s" % (self.h5, probe, err.value.decode()))
            if found.value <= room:
                break
            room = found.value
        m = out[:found.value]
        return SimpleNamespace(freq_thz=m[:, 0] * C_UM_THZ, freq=m[:, 0],
                               wavelength_um=1.0 / m[:, 0], decay_per_fs=m[:, 1] / TIME_UNIT_FS,
                               q=m[:, 2], amplitude=m[:, 3], error=m[:, 4])


class _Series(SimpleNamespace):
    def __init__(self, p):
        super().__init__(**vars(p))

    def __getitem__(self, comp):
        """One component's column, by name (case-insensitive)."""
        i = [c.lower() for c in self.components].index(comp.lower())
        return self.values[:, i]
