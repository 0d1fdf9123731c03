"""Helpers shared by the validation checkers (validation/<case>/check_*.py)."""
import os
import subprocess
import sys


def run(cmd):
    """Run a command (yee, yee resonances); on failure show its output and fail the test."""
    print("+ " + " ".join(cmd), flush=True)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        raise SystemExit("FAIL command exited %d: %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def meep_command(script, ranks=1):
    """The command that runs a Meep script: python3 SCRIPT, or under mpirun on RANKS ranks
    (Meep's MPI build, Debian's python3-meep-mpi-default, splits its cell into chunks over the
    ranks; the serial python3-meep cannot, every rank would run the whole problem)."""
    cmd = [sys.executable, script]
    if ranks <= 1:
        return cmd
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    return ["mpirun", "--oversubscribe"] + root + ["-np", str(ranks)] + cmd


def meep_installed():
    """Whether Python finds Meep, without importing it: Meep's MPI build starts MPI on import,
    and an mpirun started by a process that has MPI running as a singleton fails."""
    import importlib.util
    return importlib.util.find_spec("meep") is not None


def meep_ranks_checked(ranks):
    """Exits with a message unless RANKS > 1 is backed by Meep's MPI build (asked of a child
    Python, for the reason meep_installed gives)."""
    if ranks > 1:
        probe = subprocess.run([sys.executable, "-c", "import meep; print('WITH_MPI', "
                                "int(meep.with_mpi()))"], capture_output=True, text=True)
        if "WITH_MPI 1" not in probe.stdout:
            sys.exit("--meep-ranks %d wants Meep's MPI build (apt-get install "
                     "python3-meep-mpi-default, which replaces python3-meep)" % ranks)


def arguments(deck=None):
    """The options every checker takes: --yee (the program), --deck (required unless a default
    deck is given) and --work (the folder the runs write to). Add a case's own options to the
    returned parser before parse_args()."""
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--yee", required=True)
    if deck:
        ap.add_argument("--deck", default=deck)
    else:
        ap.add_argument("--deck", required=True)
    ap.add_argument("--work", required=True)
    return ap


_FAILED = []


def check(name, err, tol, bound, note="", higher=False, fmt="%.4g", unit=""):
    """One checked figure, against two numbers:
      tol   the physical tolerance: what a user of the result needs;
      bound the regression bound: close to what the code achieves today (docs/validation.md,
            column "regression bound"), so that a change that makes the figure clearly worse
            fails even while it still meets the physical tolerance.
    Passes when err < tol and err < bound, or, with higher=True (figures where bigger is better:
    an order of convergence, a gain), err >= tol and err >= bound; NaN fails. Prints
    `PASS|FAIL name (err=..., tol=..., bound=...; note)` (values with fmt and unit), records a
    failure for exit_status() and returns whether it passed. A bound looser than tol is a bug in
    the checker."""
    if (bound < tol) if higher else (bound > tol):
        raise ValueError("%s: regression bound %r looser than the tolerance %r"
                         % (name, bound, tol))
    rel = ">=" if higher else "="
    if higher:
        ok_tol, ok_bound = err >= tol, err >= bound
    else:
        ok_tol, ok_bound = err < tol, err < bound
    f = lambda v: (fmt % v) + unit  # noqa: E731
    text = "err=%s, tol%s%s, bound%s%s" % (f(err), rel, f(tol), rel, f(bound))
    if not ok_tol:
        text += ": outside the physical tolerance"
    elif not ok_bound:
        text += ": outside the regression bound, within the physical tolerance"
    if note:
        text += "; " + note
    ok = ok_tol and ok_bound
    print("%s %s (%s)" % ("PASS" if ok else "FAIL", name, text), flush=True)
    if not ok:
        _FAILED.append(name)
    return ok


def fail(name, why):
    """A check that could not be evaluated (no resonance found, a reference too small...): prints
    `FAIL name (why)` and records the failure."""
    print("FAIL %s (%s)" % (name, why), flush=True)
    _FAILED.append(name)


def exit_status():
    """The checker's exit status: 1 (after a line naming the failed checks) if any check() or
    fail() failed, else 0."""
    if _FAILED:
        print("%d check(s) failed: %s" % (len(_FAILED), ", ".join(_FAILED)))
        return 1
    return 0
