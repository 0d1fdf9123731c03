"""Helpers of the checkers that compare two runs (tests/mirror, tests/twod)."""
import numpy as np


def close(name, ref, other, tol, what):
    """Prints `PASS|FAIL name: max |other - ref| / max |ref| = ...` (what names the two, e.g.
    "whole - eighth") and returns whether the shapes match, ref is not all zero and the largest
    difference is within tol of ref's largest value."""
    ref, other = np.asarray(ref, dtype=float), np.asarray(other, dtype=float)
    if ref.shape != other.shape:
        print("FAIL %s: shape %s against %s (%s)" % (name, ref.shape, other.shape, what))
        return False
    top = float(np.max(np.abs(ref)))
    err = float(np.max(np.abs(other - ref))) / top if top > 0 else float("nan")
    ok = top > 0 and err <= tol
    print("%s %s: max |%s| / max = %.3g (tol %g; max %.4g)"
          % ("PASS" if ok else "FAIL", name, what, err, tol, top))
    return ok


def yee_and_work():
    """The two options these checkers take: --yee (the program) and --work (a scratch folder)."""
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--yee", required=True)
    ap.add_argument("--work", required=True)
    return ap.parse_args()
