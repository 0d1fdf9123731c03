#!/usr/bin/python3
"""Runs inputs/sweep_slab.cfg with `yee sweep` and checks summary.csv: 6 jobs ok, and the
transmittance T = P(eps, d) / P(1, d) at 1 um against the Airy formula within 0.01 for every
film (the same bound as validation/slab at 40 cells/um).

usage: check_slab_example.py YEE DECK WORKDIR
"""
import csv
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "validation"))
from planewave import airy_slab  # noqa: E402

yee, deck, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
subprocess.run([yee, "sweep", deck, "--out", work, "--jobs", "2"], check=True)
with open(os.path.join(work, "summary.csv")) as fp:
    rows = list(csv.DictReader(fp))
fail = 0
ok = len(rows) == 6 and all(r["status"] == "ok" for r in rows)
print("%s sweep_slab_jobs (%d rows, statuses %s)" % ("PASS" if ok else "FAIL", len(rows),
                                                     sorted({r["status"] for r in rows})))
fail += not ok
ref = {float(r["d"]): float(r["P_1um"]) for r in rows if float(r["eps"]) == 1.0}
for r in rows:
    eps, d = float(r["eps"]), float(r["d"])
    if eps == 1.0:
        continue
    T = float(r["P_1um"]) / ref[d]
    _, t = airy_slab(np.sqrt(eps), d, np.array([1.0]))
    err = abs(T - abs(t[0]) ** 2)
    good = err < 0.01
    fail += not good
    print("%s sweep_slab_T eps=%g d=%g (T=%.5f, Airy %.5f, err=%.2e, tol=1e-2)"
          % ("PASS" if good else "FAIL", eps, d, T, abs(t[0]) ** 2, err))
sys.exit(1 if fail else 0)
