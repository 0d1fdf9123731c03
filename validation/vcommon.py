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
