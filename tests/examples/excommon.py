"""Helpers shared by the example-deck checkers (tests/examples/check_*.py, tests/examples.cmake):
running yee on a deck of inputs/, reading flux spectra and CSV files, and the PASS|FAIL lines.

Each checker runs its deck exactly as the deck's header and docs/tutorials/<deck>.md say (plus
any --set given on its own command line, which is how a broken feature is shown to fail the
check), then checks physical sanity of the result. Exit status 1 when any check fails.
"""
import argparse
import csv
import os
import subprocess
import sys

import h5py
import numpy as np

C_UM_THZ = 299.792458


def parser(doc):
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--yee", required=True, help="the yee executable")
    ap.add_argument("--inputs", required=True, help="the inputs/ folder of the repository")
    ap.add_argument("--work", required=True, help="folder for the runs (created)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="extra --set for the main run (to show that a broken setup fails)")
    return ap


def run(cmd):
    """Run a command; on failure show its output and fail the test."""
    print("+ " + " ".join("'%s'" % c if (" " in c or '"' in c) else c for c in cmd), flush=True)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        raise SystemExit("FAIL command exited %d: %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def yee_run(a, deck, *sets, extra=True):
    """yee run inputs/<deck> --out <work> --quiet --set ... (plus the checker's own --set)."""
    cmd = [a.yee, "run", os.path.join(a.inputs, deck), "--out", a.work, "--quiet"]
    for s in list(sets) + (a.set if extra else []):
        cmd += ["--set", s]
    run(cmd)


def flux(path, monitor, what="flux"):
    """(frequency THz, values) of /flux/<monitor>/<what> of a run file."""
    with h5py.File(path, "r") as f:
        g = f["flux"][monitor]
        return np.asarray(g["frequency_thz"][()]), np.asarray(g[what][()])


def csv_column(path, column):
    with open(path) as fp:
        return np.array([float(row[column]) for row in csv.DictReader(fp)])


class Checks:
    """Collects checks; each prints `PASS|FAIL name (err=..., tol=...; what)`."""

    def __init__(self):
        self.nfail = 0

    def check(self, name, ok, err, tol, what):
        self.nfail += not ok
        print("%s %s (err=%.4g, tol=%.4g; %s)" % ("PASS" if ok else "FAIL", name, err, tol, what),
              flush=True)

    def below(self, name, err, tol, what):
        """Passes when err < tol (NaN fails)."""
        self.check(name, bool(err < tol), err, tol, what)

    def within(self, name, values, lo, hi, what):
        """Passes when every value lies in [lo, hi]; err is how far the worst one lies outside."""
        values = np.asarray(values)
        err = max(lo - values.min(), values.max() - hi, 0.0)
        self.check(name, bool(err == 0.0 and np.all(np.isfinite(values))), err, 0.0,
                   "%s in [%g, %g]: %.4g .. %.4g" % (what, lo, hi, values.min(), values.max()))

    def done(self):
        sys.exit(1 if self.nfail else 0)


def table(freq_thz, cols, every=5):
    """Prints a few rows of the spectra: wavelength and each named column."""
    names = list(cols)
    print("%10s %10s" % ("f THz", "wl um") + "".join(" %10s" % n for n in names))
    for q in range(0, len(freq_thz), every):
        print("%10.2f %10.4f" % (freq_thz[q], C_UM_THZ / freq_thz[q]) +
              "".join(" %10.4f" % cols[n][q] for n in names))
