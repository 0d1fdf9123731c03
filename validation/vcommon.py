"""Helpers shared by the validation checkers (validation/<case>/check_*.py)."""
import subprocess


def run(cmd):
    """Run a command (yee, yee resonances); on failure show its output and fail the test."""
    print("+ " + " ".join(cmd), flush=True)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        raise SystemExit("FAIL command exited %d: %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


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
