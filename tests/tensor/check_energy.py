#!/usr/bin/python3
"""tests/tensor: the off-diagonal subpixel terms keep the energy of a closed cavity.

usage: check_energy.py YEE DECK WORKDIR

Runs DECK (tests/tensor/cavity.cfg: an eps-12 sphere in a PEC box, grid.subpixel_tensor on,
about 40,000 steps) and reads the probe's Hz and Hx series. The box is lossless and closed and
the sources end early, so the RMS over each quarter of the run after the first must stay within
10% of the second quarter's (shorter windows see the modes' beats): a coupling that is not symmetric has growing modes (the one-sided
mean grew 1.4e4-fold in energy by step 38,100; the yee run itself then stops with its
blow-up error, which fails this test too). Measured: 3.0%.
Prints PASS/FAIL; exit 1 on FAIL.
"""
import os
import subprocess
import sys

import h5py
import numpy as np

yee, deck, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
p = subprocess.run([yee, "run", deck, "--out", work, "--quiet"], capture_output=True, text=True)
if p.returncode != 0:
    print("FAIL cavity: yee run exited %d: %s" % (p.returncode, (p.stdout + p.stderr).strip()))
    sys.exit(1)
with h5py.File(os.path.join(work, "cavity.h5"), "r") as f:
    v = np.asarray(f["probes/p"])
n = len(v) // 4
rms = np.sqrt(np.mean(v[: 4 * n].reshape(4, n, -1) ** 2, axis=1)).sum(axis=1)
drift = np.max(np.abs(rms[1:] / rms[1] - 1))
ok = drift < 0.10
print("%s cavity: %d steps, probe RMS per quarter of the run after the first within %.1f%% of "
      "the second quarter's (tolerance 10%%): %s" % ("PASS" if ok else "FAIL", len(v), 100 * drift,
                                                   " ".join("%.4g" % r for r in rms[1:])))
sys.exit(0 if ok else 1)
