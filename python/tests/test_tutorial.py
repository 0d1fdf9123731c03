"""docs/tutorials/ring_python.py runs (shortened by YEE_RING_TIME) and writes its plot, and the
module's harminv (Result.resonances) finds the modes `yee resonances` prints for the same file."""
import os
import subprocess
import sys

import numpy as np
import pytest

import yee


def test_ring_tutorial_runs(root, run_cli, tmp_path):
    env = dict(os.environ, YEE_RING_TIME="100", YEE_RING_OUT=str(tmp_path))
    r = subprocess.run([sys.executable, os.path.join(root, "docs", "tutorials", "ring_python.py")],
                       env=env, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    png = tmp_path / "ring_python.png"
    assert png.exists() and png.stat().st_size > 10000 and "wrote" in r.stdout
    assert "step 1312 of 1312" in r.stdout     # the progress callback reached the end

    # the tutorial's resonances are those of the yee program (postproc/resonances.c)
    h5 = str(tmp_path / "ring.h5")
    text = run_cli("resonances", h5, "--probe", "ring", "--component", "Ey", "--start", "30")
    cli = np.array([[float(v) for v in line.split()] for line in text.splitlines()
                    if line and not line.startswith("#")]).reshape(-1, 7)
    m = yee.Result(h5).resonances("ring", component="Ey", start_fs=30)
    assert len(cli) >= 1 and len(m.freq_thz) == len(cli)
    assert m.freq_thz == pytest.approx(cli[:, 0], rel=1e-9)        # printed with 10 digits
    assert m.wavelength_um == pytest.approx(cli[:, 2], rel=1e-9)
    assert m.decay_per_fs == pytest.approx(cli[:, 3], rel=1e-5)    # printed with 6
    assert m.q == pytest.approx(cli[:, 4], rel=1e-5)
    assert m.amplitude == pytest.approx(cli[:, 5], rel=1e-5)
