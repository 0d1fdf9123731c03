"""Run one deck on one rank and on several rank counts and splits; require the same output.

usage: ranks_agree.py --yee YEE --mpiexec "mpirun --oversubscribe ..." --deck DECK --work DIR
                      [--ranks N ...] [--splits AxBxC ...] [--budget CELL_STEPS] [--expect TEXT]
                      [--threads T]

The deck is shortened to about BUDGET cell updates (tests/backends_agree.py), run on one rank,
then under MPI on each rank count (the automatic split) and each explicit split. Every field
dataset (snapshots, probes, DFT fields) must be identical byte for byte to the one-rank run and
the flux spectra within 1e-12 relative (tests/mpi/same_fields.py); some dataset must be
non-zero. --expect: each MPI run must print TEXT (e.g. that it took fused steps, so a split
the fast path should take cannot pass by running the halo path). One OpenMP thread per rank
(--threads: T in the MPI runs, the one-rank run keeping one): the ranks share the machine's
cores.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from backends_agree import shortening  # noqa: E402
from same_fields import compare  # noqa: E402


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        print(p.stdout)
        sys.exit(f"FAIL exit {p.returncode}: {' '.join(cmd)}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--yee", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--deck", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--ranks", type=int, nargs="*", default=[2, 3, 5, 6, 7])
    ap.add_argument("--splits", nargs="*", default=[])
    ap.add_argument("--budget", type=float, default=2e7)
    ap.add_argument("--expect", default=None)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    os.environ["OMP_NUM_THREADS"] = "1"
    os.environ["OMP_WAIT_POLICY"] = "passive"
    shorten, steps = shortening(args.yee, args.deck, args.budget, 40)
    name = os.path.splitext(os.path.basename(args.deck))[0]
    print(f"{args.deck}: {steps} steps ({' '.join(shorten) or 'the whole deck'})")
    shutil.rmtree(args.work, ignore_errors=True)
    base = [args.yee, "run", args.deck] + ([] if args.expect else ["--quiet"]) + shorten
    ref_dir = os.path.join(args.work, "r1")
    run(base + ["--out", ref_dir])
    h5 = None
    for f in os.listdir(ref_dir):
        if f.endswith(".h5"):
            h5 = f
    if h5 is None:
        sys.exit(f"FAIL {args.deck}: the one-rank run wrote no HDF5 file")
    cases = [(str(n), n, []) for n in args.ranks]
    for split in args.splits:
        px, py, pz = (int(v) for v in split.split("x"))
        cases.append((split, px * py * pz, ["--ranks", split]))
    nfail = 0
    for label, np_, extra in cases:
        out = os.path.join(args.work, "r" + label)
        os.environ["OMP_NUM_THREADS"] = str(args.threads)
        log = run(shlex.split(args.mpiexec) + ["-np", str(np_)] + base + extra + ["--out", out])
        if args.expect and args.expect not in log:
            print(log)
            print(f"FAIL {name} on {label} ranks: the run did not print '{args.expect}'")
            nfail += 1
        fails, top = compare(os.path.join(ref_dir, h5), os.path.join(out, h5),
                             f"{name} {label} ranks", every_dataset_nonzero=False)
        if top == 0.0:
            print(f"FAIL {name}: every dataset is zero, the comparison shows nothing")
            fails += 1
        nfail += fails
        print(f"{'FAIL' if fails else 'PASS'} {name} on {label} ranks: "
              f"{'differs' if fails else 'same output as one rank'}")
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
