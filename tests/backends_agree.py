"""Run one deck on two backends and require the same output, bit for bit.

usage: backends_agree.py --yee YEE --deck DECK --work DIR [--backends A B] [--budget CELL_STEPS]
                         [--min-steps N] [--expect TEXT]
Exits 77 (ctest: skipped) where a backend named is cuda and the CUDA backend is not built or
finds no device.

The deck is shortened to about BUDGET cell updates (steps = BUDGET / cells, at least
--min-steps, at most the deck's own length) through --set simulation.steps or simulation.time,
whichever the deck uses, and run twice: `--backend A` into DIR/A and `--backend B` into DIR/B
(default cpu and cuda; the environment passes through: YEE_CUDA_EMU_DEFER=1 runs the emulated
CUDA backend deferred). Every backend performs the same IEEE operations in the same order per
cell (kernels/yee_cell.h and stages.h, no fused multiply-add anywhere; cpu's tuned schedules
interleave cells, not operations), so every HDF5 dataset and attribute must be equal byte for
byte, and every other output file (CSV, VTK, XDMF) too. A comparison of zeros proves nothing:
some dataset must hold a non-zero value. --expect: a text B's run must print (to show it took
the path under test).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import h5py
import numpy as np


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def deck_length(yee, deck):
    """(cells, steps, simulated fs) from `yee check`."""
    rc, out = run([yee, "check", deck])
    if rc != 0:
        sys.exit(f"FAIL yee check {deck}:\n{out}")
    cells = int(re.search(r"= (\d+) cells", out).group(1))
    m = re.search(r"steps\s+(\d+) \(([0-9.eE+-]+) fs simulated\)", out)
    return cells, int(m.group(1)), float(m.group(2))


def shortening(yee, deck, budget, min_steps):
    """The --set that runs about budget / cells steps (the deck's own key: steps or time)."""
    cells, steps, fs = deck_length(yee, deck)
    short = max(min_steps, int(budget / cells))
    if short >= steps:
        return [], steps
    rc, out = run([yee, "check", deck, "--set", f"simulation.steps={short}"])
    if rc == 0:
        return ["--set", f"simulation.steps={short}"], short
    # the deck gives simulation.time: the same number of steps as a time (+1/2 step: no rounding)
    t = fs * (short + 0.5) / steps
    return ["--set", f"simulation.time={t:.9g}"], short


def same_attrs(a, b, where, problems):
    for key in sorted(set(a.attrs) | set(b.attrs)):
        if key not in a.attrs or key not in b.attrs:
            problems.append(f"{where}: attribute {key} only in one file")
            continue
        x, y = np.asarray(a.attrs[key]), np.asarray(b.attrs[key])
        if x.shape != y.shape or x.tobytes() != y.tobytes():
            problems.append(f"{where}: attribute {key} differs")


def compare_h5(p_cpu, p_cuda, problems):
    """Every dataset and attribute equal byte for byte; returns the largest |value| seen."""
    peak = 0.0
    with h5py.File(p_cpu, "r") as a, h5py.File(p_cuda, "r") as b:
        names_a, names_b = [], []
        a.visit(names_a.append)
        b.visit(names_b.append)
        if sorted(names_a) != sorted(names_b):
            problems.append(f"{p_cpu}: objects differ: {sorted(set(names_a) ^ set(names_b))}")
        same_attrs(a, b, "/", problems)
        for name in sorted(set(names_a) & set(names_b)):
            oa, ob = a[name], b[name]
            same_attrs(oa, ob, name, problems)
            if not isinstance(oa, h5py.Dataset):
                continue
            x, y = oa[...], ob[...]
            if x.shape != y.shape or x.dtype != y.dtype:
                problems.append(f"{name}: shape/type {y.shape} {y.dtype} != {x.shape} {x.dtype}")
                continue
            diff = int(np.count_nonzero(x.view(np.uint8) != y.view(np.uint8))) if x.size else 0
            if np.issubdtype(x.dtype, np.number) and x.size:
                peak = max(peak, float(np.nanmax(np.abs(x))))
            status = "PASS" if diff == 0 else "FAIL"
            print(f"{status} {name}: differing bytes={diff} of {x.nbytes}")
            if diff:
                problems.append(f"{name}: {diff} bytes differ")
    return peak


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--yee", required=True)
    ap.add_argument("--deck", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--budget", type=float, default=4e7, help="cell updates per run")
    ap.add_argument("--min-steps", type=int, default=40)
    ap.add_argument("--backends", nargs=2, default=["cpu", "cuda"])
    ap.add_argument("--expect", default=None)
    args = ap.parse_args()

    rc, info = run([args.yee, "info"])
    no_cuda = not re.search(r"^backends .*cuda", info, re.M) or re.search(r"^cuda\s+0 device",
                                                                            info, re.M)
    if "cuda" in args.backends and no_cuda:
        print("SKIP: no CUDA backend, or no device for it (see yee info)")
        sys.exit(77)
    shorten, steps = shortening(args.yee, args.deck, args.budget, args.min_steps)
    print(f"{args.deck}: {steps} steps ({' '.join(shorten) or 'the whole deck'})")
    shutil.rmtree(args.work, ignore_errors=True)
    for backend in args.backends:
        out = os.path.join(args.work, backend)
        quiet = [] if args.expect and backend == args.backends[1] else ["--quiet"]
        rc, log = run([args.yee, "run", args.deck, "--backend", backend, "--out", out] + quiet +
                      shorten)
        if rc != 0:
            sys.exit(f"FAIL {backend} run of {args.deck} (exit {rc}):\n{log}")
        if not quiet and args.expect not in log:
            sys.exit(f"FAIL {backend} run of {args.deck} does not say '{args.expect}':\n{log}")

    problems = []
    peak = 0.0
    cpu_dir, cuda_dir = (os.path.join(args.work, b) for b in args.backends)
    files = sorted(os.listdir(cpu_dir))
    if sorted(os.listdir(cuda_dir)) != files:
        problems.append(f"output files differ: {files} vs {sorted(os.listdir(cuda_dir))}")
    for f in files:
        pa, pb = os.path.join(cpu_dir, f), os.path.join(cuda_dir, f)
        if not os.path.isfile(pb):
            continue
        if f.endswith(".h5"):
            peak = max(peak, compare_h5(pa, pb, problems))
        else:
            with open(pa, "rb") as fa, open(pb, "rb") as fb:
                same = fa.read() == fb.read()
            print(f"{'PASS' if same else 'FAIL'} {f}: {'identical' if same else 'differs'}")
            if not same:
                problems.append(f"{f} differs")
    if peak == 0.0:
        problems.append("every dataset is zero: the comparison shows nothing")
    for p in problems:
        print(f"FAIL {p}")
    print(f"{'FAIL' if problems else 'PASS'} {args.deck}: {' and '.join(args.backends)} outputs "
          f"{'differ' if problems else 'identical'} after {steps} steps (max |value| {peak:.3g})")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
