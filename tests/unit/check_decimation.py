#!/usr/bin/python3
"""DFT decimation (solver/dft.c sample_every): flux spectra summed every k-th step (the
automatic k) equal the every-step sums to 1e-5 relative, each flux monitor of DECK: the slab
flux deck (k = 17), and tests/unit/decimation_broadband.cfg (k = 13, a pulse reaching 4x the
monitors' top frequency: a k that left out the monitors' frequency would differ by 2e-3).

usage: check_decimation.py YEE DECK WORKDIR
"""
import os
import subprocess
import sys

import h5py
import numpy as np

yee, deck, work = sys.argv[1:4]
out = {}
for k in ("0", "1"):  # 0: automatic; 1: every step
    d = os.path.join(work, "every%s" % k)
    os.makedirs(d, exist_ok=True)
    subprocess.run([yee, "run", deck, "--out", d, "--quiet"], check=True,
                   env=dict(os.environ, YEE_DFT_EVERY=k))
    h5 = [n for n in os.listdir(d) if n.endswith(".h5")][0]
    with h5py.File(os.path.join(d, h5), "r") as f:
        out[k] = {m: f["flux/%s/flux" % m][:] for m in f["flux"]}
fail = 0
for m in sorted(out["1"]):
    a, b = out["0"][m], out["1"][m]
    rel = float(np.max(np.abs(a - b)) / np.max(np.abs(b)))
    ok = rel < 1e-5 and not np.array_equal(a, b)  # equal bits would mean no decimation ran
    fail += not ok
    print("%s dft_decimation_%s (max rel diff=%.2e, tol=1e-05)" % ("PASS" if ok else "FAIL", m, rel))
sys.exit(1 if fail else 0)
