"""A sweep written as a Python loop over the module gives the numbers `yee sweep` gives for
inputs/sweep_slab.cfg: the deck is the same deck with the parameters filled in by Python, and
P_1um is the flux interpolated at 1 um as app/sweep.c does (docs/sweeps.md "Results")."""
import csv
import itertools

import pytest

import yee


def slab_deck(eps, d):
    """inputs/sweep_slab.cfg with ${eps} and ${d} replaced (its sweep section dropped)."""
    return {
        "simulation": {"name": "slab", "time": 150.0},
        "grid": {"size": [0.025, 0.025, 10.0], "resolution": 40.0},
        "boundary": {"x": "periodic", "y": "periodic", "z": "cpml", "pml": {"cells": 20}},
        "materials": [{"name": "film", "epsilon": eps}],
        "geometry": [{"type": "box", "material": "film", "center": [0.0, 0.0, 0.0125 + d / 2],
                      "size": [1.0, 1.0, d]}],
        "sources": [{"type": "planewave", "min": [-1.0, -1.0, -3.0], "max": [1.0, 1.0, 6.0],
                     "direction": [0.0, 0.0, 1.0], "polarization": [1.0, 0.0, 0.0],
                     "wavelength": 1.0, "bandwidth": 0.3}],
        "monitors": [{"type": "flux", "name": "trans", "min": [-1.0, -1.0, 2.5],
                      "max": [1.0, 1.0, 2.5], "wavelength_min": 0.9, "wavelength_max": 1.1,
                      "nfreq": 21}],
    }


def at_frequency(freq, value, f):
    """Linear interpolation on the segment holding f (app/sweep.c flux_result)."""
    for k in range(len(freq) - 1):
        f0, f1 = freq[k], freq[k + 1]
        if min(f0, f1) <= f <= max(f0, f1):
            t = 0.0 if f1 == f0 else (f - f0) / (f1 - f0)
            return value[k] + min(max(t, 0.0), 1.0) * (value[k + 1] - value[k])
    raise ValueError("%g outside the spectrum" % f)


def test_python_loop_equals_yee_sweep(root, run_cli, tmp_path):
    run_cli("sweep", "%s/inputs/sweep_slab.cfg" % root, "--out", tmp_path / "sweep")
    with open(tmp_path / "sweep" / "summary.csv") as f:
        rows = list(csv.DictReader(f))
    assert [r["status"] for r in rows] == ["ok"] * 6
    # product mode: the last parameter varies fastest, as nested loops
    for job, (eps, d) in enumerate(itertools.product([1.0, 2.25, 4.0], [0.25, 0.5]), 1):
        row = rows[job - 1]
        assert float(row["eps"]) == eps and float(row["d"]) == d
        res = yee.Deck.from_dict(slab_deck(eps, d)).run(str(tmp_path / ("job%d" % job)))
        s = res.flux("trans")
        p = at_frequency(s.frequency, s.flux, 1.0 / 1.0)    # wavelength 1 um -> 1 c/um
        assert p == pytest.approx(float(row["P_1um"]), rel=1e-12, abs=0), row
