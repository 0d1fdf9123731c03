"""Plane-wave spectra from probe series (validation/slab, validation/drude).

A run with the structure and a reference run without it (same deck, the object's material set
to air) record Ex at probes in a 1 x 1-cell periodic cross-section. At a probe in front of the
structure the reflected wave is E_struct - E_ref; behind it the transmitted wave is E_struct.
Ratios of Fourier transforms give r(f) and t(f); the probes' time origin cancels in the ratios.
Frequencies in c/um (f_THz = 299.792458 f).
"""
import h5py
import numpy as np


def probe(path, name):
    """(series of the first component, dt in c-units) of probe `name`."""
    with h5py.File(path, "r") as f:
        d = f["probes"][name]
        return np.asarray(d[:, 0], dtype=float), float(d.attrs["dt"])


def spectrum(x, dt, freqs):
    """Discrete-time Fourier transform of x at freqs (c/um)."""
    t = np.arange(len(x)) * dt
    return np.exp(-2j * np.pi * np.outer(freqs, t)) @ x


def reflectance_transmittance(struct_h5, ref_h5, f, front="front", back="back"):
    """Power R and T at f (c/um) from the probes `front` and `back` of a run with the structure
    and of the reference run without it."""
    fs, dt = probe(struct_h5, front)
    fr, _ = probe(ref_h5, front)
    bs, _ = probe(struct_h5, back)
    br, _ = probe(ref_h5, back)
    R = np.abs(spectrum(fs - fr, dt, f) / spectrum(fr, dt, f)) ** 2
    T = np.abs(spectrum(bs, dt, f) / spectrum(br, dt, f)) ** 2
    return R, T


def airy_slab(n, d, f):
    """Complex r, t of a slab of index n, thickness d (um) in vacuum at normal incidence."""
    r12 = (1 - n) / (1 + n)
    t12, t21 = 2 / (1 + n), 2 * n / (1 + n)
    ph = np.exp(2j * np.pi * n * d * f)
    den = 1 - r12 ** 2 * ph ** 2
    return r12 - t12 * t21 * r12 * ph ** 2 / den, t12 * t21 * ph / den
