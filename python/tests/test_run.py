"""The module runs decks as `yee run` does: the same bits, errors with file:line, a progress
callback that can stop the run, decks from dicts."""
import os
import re

import h5py
import numpy as np
import pytest

import yee

SETS = ["simulation.time=15.0"]   # the pulse (delay 8.8 fs) is under way: nonzero probes


def test_same_bits_as_yee_run(root, run_cli, tmp_path):
    deck = os.path.join(root, "inputs", "dipole.cfg")
    cli_out, mod_out = tmp_path / "cli", tmp_path / "module"
    args = []
    for s in SETS:
        args += ["--set", s]
    run_cli("run", deck, "--out", cli_out, "--quiet", *args)
    d = yee.Deck.from_file(deck)
    for s in SETS:
        d.set(s)
    res = d.run(str(mod_out))
    assert not res.stopped and res.h5 == str(mod_out / "dipole.h5")
    with h5py.File(cli_out / "dipole.h5", "r") as f:
        for name in ("near", "far"):
            want = f["probes"][name][()]
            got = res.probe(name)
            assert got.values.dtype == want.dtype and got.values.shape == want.shape
            assert np.array_equal(got.values, want), name   # bit for bit (no NaN here)
            assert np.abs(want).max() > 0
        want = f["snapshots/xy/Ez"][()]
    snap = res.snapshot("xy", "Ez")
    assert np.array_equal(snap.frames, want)
    assert snap.x[0] == pytest.approx(-2.0) and snap.x[1] - snap.x[0] == pytest.approx(0.05)
    p = res.probe("near")
    assert p["ez"] is not None and p.times_fs.shape == p.values.shape
    assert p.times[1, 0] - p.times[0, 0] == pytest.approx(p.dt)


def test_override_by_value_matches_string(root, tmp_path):
    d = yee.Deck.from_file(os.path.join(root, "inputs", "dipole.cfg"))
    d.set("simulation.time", 5).set("grid.resolution", 10)
    assert d.overrides == ["simulation.time=5", "grid.resolution=10"]
    d.set("grid.resolution", 12.5)           # the same key again: the last one counts
    assert d.overrides == ["simulation.time=5", "grid.resolution=12.5"]
    info = d.check(str(tmp_path))
    assert info["name"] == "dipole" and info["h5"] == str(tmp_path / "dipole.h5")
    assert info["steps"] > 0 and info["dt"] > 0


def small_deck(name="box"):
    return {
        "simulation": {"name": name, "time": 6.0, "courant": 0.99},
        "grid": {"size": [2.0, 2.0, 2.0], "resolution": 10},
        "boundary": {"pml": {"cells": 6}},
        "sources": [{"type": "dipole", "component": "Ez", "position": [0.0, 0.0, 0.0],
                     "wavelength": 1.0, "bandwidth": 0.5, "delay": 1.0}],
        "monitors": [{"type": "probe", "name": "p", "position": [0.2, 0.0, 0.0],
                      "components": ["Ez"]}],
    }


def test_deck_from_dict_runs(tmp_path):
    res = yee.Deck.from_dict(small_deck()).run(str(tmp_path))
    p = res.probe("p")
    steps = int(res.attrs["steps"])
    assert p.values.shape == (steps, 1) and np.abs(p["Ez"]).max() > 0
    deck_text = res.attrs["deck"]
    assert "resolution = 10;" in deck_text and "time = 6.0;" in deck_text
    assert os.path.exists(tmp_path / "deck.cfg")        # the text the run read


def test_libconfig_text_keeps_types():
    t = yee.to_libconfig({"a": {"i": 3, "f": 2.0, "e": 1e-7, "b": True, "s": 'x "q" \\',
                                "mix": [1, 2.5], "ints": [1, 2], "big": 2**40,
                                "strs": ["Ex", "Ey"], "l": [{"k": 1}, {"k": 2}]}})
    assert "i = 3;" in t and "f = 2.0;" in t and "e = 1e-07;" in t and "b = true;" in t
    assert 's = "x \\"q\\" \\\\";' in t
    assert "mix = [1.0, 2.5];" in t and "ints = [1, 2];" in t and "big = 1099511627776L;" in t
    assert 'strs = ["Ex", "Ey"];' in t and re.search(r"l = \(\s*\{\s*k = 1;", t)
    assert yee.format_value(np.float64(3)) == "3.0" and yee.format_value(np.int32(3)) == "3"
    with pytest.raises(ValueError):
        yee.to_libconfig({"a": float("nan")})


def test_misspelled_key_is_a_deck_error(root, tmp_path):
    d = small_deck()
    d["grid"]["resoltion"] = d["grid"].pop("resolution")
    with pytest.raises(yee.DeckError) as e:
        yee.Deck.from_dict(d).run(str(tmp_path))
    msg = str(e.value)
    assert re.search(r"deck\.cfg:\d+: error: grid\.resoltion: unknown key", msg), msg
    assert "resolution" in msg                            # the hint
    # an override names the --set argument instead of a line
    with pytest.raises(yee.DeckError) as e:
        yee.Deck.from_file(os.path.join(root, "inputs", "dipole.cfg")).set(
            "grid.resoltion", 20).check()
    assert "--set grid.resoltion=20: error: grid.resoltion" in str(e.value), str(e.value)


def test_run_error_for_missing_backend(tmp_path):
    with pytest.raises(yee.RunError) as e:
        yee.Deck.from_dict(small_deck()).run(str(tmp_path), backend="no-such")
    assert "no-such" in str(e.value)


def test_progress_is_called_and_stops_the_run(tmp_path):
    seen = []
    res = yee.Deck.from_dict(small_deck()).run(str(tmp_path / "all"),
                                               progress=lambda s, n: seen.append((s, n)))
    steps = int(res.attrs["steps"])
    assert seen and seen[-1] == (steps, steps)
    assert [s for s, _ in seen] == sorted(s for s, _ in seen) and len(seen) >= 2
    stop_at = seen[0][0]
    res = yee.Deck.from_dict(small_deck()).run(str(tmp_path / "stop"),
                                               progress=lambda s, n: s >= stop_at)
    assert res.stopped and "at step %d of %d" % (stop_at, steps) in res.message
    assert res.probe("p").values.shape[0] == stop_at   # the file holds the steps done

    def boom(s, n):
        raise KeyError("from the callback")
    with pytest.raises(KeyError):
        yee.Deck.from_dict(small_deck()).run(str(tmp_path / "boom"), progress=boom)


def test_dft_is_the_transform_of_the_probe(tmp_path):
    """Result.dft of a one-node DFT monitor equals the DFT of a probe's series at that node,
    sum of v(t) exp(2 pi i f t) dt over the run (yee's convention, docs/postproc.md), at the
    monitor's frequencies; its coordinates are the Yee node's."""
    deck = small_deck("dft")
    deck["simulation"]["time"] = 60.0     # the pulse has passed: the sums are complete
    src = deck["sources"][0]
    src["profile"] = "ricker"     # no net charge left behind: the field decays to zero
    del src["bandwidth"], src["delay"]
    deck["monitors"].append({"type": "dft", "name": "d", "components": ["Ez"],
                             "min": [0.2, 0.0, 0.0], "max": [0.2, 0.0, 0.0],
                             "wavelength_min": 0.8, "wavelength_max": 1.25, "nfreq": 5})
    res = yee.Deck.from_dict(deck).run(str(tmp_path))
    d = res.dft("d", "Ez")
    assert d.values.shape == (5, 1, 1, 1) and d.values.dtype == np.complex128
    assert d.frequency[0] == pytest.approx(0.8) and d.frequency[-1] == pytest.approx(1.25)
    assert np.allclose(d.frequency_thz, d.frequency * 299.792458)
    # Ez's node (i, j, k + 1/2) nearest the point, dx = 0.1
    assert (d.x[0], d.y[0], d.z[0]) == pytest.approx((0.2, 0.0, 0.05))
    p = res.probe("p")
    t, v = p.times[:, 0], p.values[:, 0].astype(float)
    want = np.array([np.sum(v * np.exp(2j * np.pi * f * t)) * p.dt for f in d.frequency])
    got = d.values[:, 0, 0, 0]
    err = np.abs(got - want).max() / np.abs(want).max()
    assert np.abs(want).max() > 0 and err < 1e-5, err   # measured 1e-6 (decimated sums)
