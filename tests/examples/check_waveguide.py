#!/usr/bin/python3
"""tests/examples: inputs/waveguide.cfg -- a straight lossless guide transmits what it is fed.

Runs the deck as docs/tutorials/waveguide.md does and checks, over the whole 1.3 - 1.8 um band
(the TE-like mode is guided everywhere in it): T = P_end / P_start within 5% of 1, both fluxes
positive (power flows +x), and the CSV the run writes equals the HDF5 spectrum. Prints
PASS|FAIL lines; exits 1 on FAIL.
"""
import os

import numpy as np

import excommon as ex


def main():
    a = ex.parser(__doc__).parse_args()
    os.makedirs(a.work, exist_ok=True)
    ex.yee_run(a, "waveguide.cfg")
    h5 = os.path.join(a.work, "waveguide.h5")
    f, p_start = ex.flux(h5, "start")
    _, p_end = ex.flux(h5, "end")
    t = p_end / p_start
    ex.table(f, {"P_start": p_start / p_start.max(), "P_end": p_end / p_start.max(), "T": t})
    c = ex.Checks()
    band = "1.3-1.8 um, %d frequencies" % len(f)
    c.within("waveguide_flux_positive", np.concatenate([p_start, p_end]) / p_start.max(),
             1e-3, 10.0, "P_start, P_end / max P_start (power flows +x)")
    c.below("waveguide_transmission", np.max(np.abs(t - 1)), 0.05,
            "max |P_end/P_start - 1| over " + band)
    c.below("waveguide_band", abs(f[0] - ex.C_UM_THZ / 1.8) + abs(f[-1] - ex.C_UM_THZ / 1.3),
            1e-6, "first and last frequency (THz) vs wavelength_max/min of the deck")
    csv_end = ex.csv_column(os.path.join(a.work, "waveguide_end_flux.csv"), "flux")
    c.below("waveguide_csv", np.max(np.abs(csv_end - p_end)) / p_end.max(), 1e-8,
            "waveguide_end_flux.csv vs /flux/end/flux")
    c.done()


if __name__ == "__main__":
    main()
