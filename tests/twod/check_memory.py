#!/usr/bin/env python3
"""A 2-D run of one polarization stores three field components, not six: the memory `yee run`
reports for the TM run of rod2d.cfg (at 200 cells/um, so that the fields outweigh the fixed
buffers) is at most 0.62 of the same run with simulation.polarization = "both" (fields 12 of
27 bytes per cell, material bytes kept: 0.56 for large grids). twod_polarization_tm checks that
its fields are those of the run of both.

Usage: check_memory.py YEE DECK WORK"""
import os
import re
import subprocess
import sys

UNITS = {"B": 1, "KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3}
TM = ["--set", 'sources[1].component="Ez"', "--set", 'monitors[0].components=["Ez","Hx","Hy"]',
      "--set", 'monitors[2].components=["Ez"]', "--set", "grid.resolution=200",
      "--set", "simulation.time=0.3"]


def run_bytes(yee, deck, out, extra):
    """The backend memory from the `done:` line of yee run."""
    text = subprocess.run([yee, "run", deck, "--out", out] + TM + extra, check=True,
                          capture_output=True, text=True).stdout
    m = re.search(r"^done: .*, ([0-9.]+) (B|KiB|MiB|GiB); wrote", text, re.M)
    if not m:
        sys.exit("FAIL: no memory in the done line of yee run:\n" + text)
    return float(m.group(1)) * UNITS[m.group(2)]


def main():
    yee, deck, work = sys.argv[1:4]
    one = run_bytes(yee, deck, os.path.join(work, "tm"), [])
    both = run_bytes(yee, deck, os.path.join(work, "both"),
                     ["--set", 'simulation.polarization="both"'])
    ratio = one / both
    print("backend memory: tm %.0f bytes, both %.0f bytes, ratio %.3f (bound 0.62)"
          % (one, both, ratio))
    if not ratio <= 0.62:
        sys.exit("FAIL: a TM run keeps %.3f of the memory of a run of both polarizations" % ratio)
    print("PASS twod_polarization_memory")


if __name__ == "__main__":
    main()
