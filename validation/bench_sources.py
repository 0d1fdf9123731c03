#!/usr/bin/python3
"""validation/bench_sources.py -- what a plane-wave source and a flux box cost (issue 21's target:
a 128^3 run with a TFSF box and a closed 50-frequency flux box steps at no less than 60 % of the
plain benchmark problem's rate, measured in the same run of this script). Not run by CI.

The decks (written to the work directory): 128^3 cells (6.4 um at 20 cells/um), 10-cell CPML,
STEPS steps, 2 threads unless OMP_NUM_THREADS says otherwise:
  plain       the benchmark problem: one Gaussian dipole
  tfsf        an oblique plane wave (direction 0.8, 0.6, 0) on a 4 um total-field box
  tfsf+box    the same plus a closed flux box of +-2.5 um (6 faces of 100^2 nodes), 50
              frequencies, sampled every k-th step (the automatic decimation, docs/deck.md)
  every step  the same with the sums taken every step (YEE_DFT_EVERY=1)
Each round runs the four in turn; the rate is the run's own Mcells/s (the stepping, setup and
output excluded). Printed: the median rate of each over the rounds and the median over rounds of
each one's rate divided by that round's plain rate (ratios of neighbouring runs vary less than
rates on a shared machine).
usage: bench_sources.py [--yee build/yee] [--repeat 5] [--steps 600] [--work DIR]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

COMMON = """simulation = {{ name = "{name}"; steps = {steps}; courant = 0.99; }};
grid = {{ size = [6.4, 6.4, 6.4]; resolution = 20.0; }};
boundary = {{ x = "cpml"; y = "cpml"; z = "cpml"; pml = {{ cells = 10; }}; }};
"""
DIPOLE = """sources = ( { type = "dipole"; component = "Ez"; position = [0.0, 0.0, 0.0];
              profile = "gaussian"; wavelength = 1.0; bandwidth = 0.3; } );
"""
PLANEWAVE = """sources = ( { type = "planewave"; min = [-2.0, -2.0, -2.0]; max = [2.0, 2.0, 2.0];
              direction = [0.8, 0.6, 0.0]; polarization = [0.0, 0.0, 1.0];
              wavelength = 1.0; bandwidth = 0.3; } );
"""
FLUX_BOX = """monitors = ( { type = "flux"; name = "box"; min = [-2.5, -2.5, -2.5];
               max = [2.5, 2.5, 2.5]; wavelength_min = 0.8; wavelength_max = 1.25;
               nfreq = 50; } );
"""
# (label, deck name, deck body, extra environment)
CASES = [
    ("plain", "plain", DIPOLE, {}),
    ("tfsf", "tfsf", PLANEWAVE, {}),
    ("tfsf+box", "tfsf_box", PLANEWAVE + FLUX_BOX, {}),
    ("every step", "tfsf_box", PLANEWAVE + FLUX_BOX, {"YEE_DFT_EVERY": "1"}),
]


def rate(yee, deck, out, env):
    """The run's own Mcells/s (its `done:` line)."""
    p = subprocess.run([yee, "run", deck, "--out", out], capture_output=True, text=True,
                       env=dict(os.environ, **env))
    m = re.search(r"([0-9.]+) Mcells/s", p.stdout)
    if p.returncode or not m:
        sys.exit("yee run %s failed (%d):\n%s%s" % (deck, p.returncode, p.stdout, p.stderr))
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--yee", default=os.path.join(ROOT, "build", "yee"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--work", default=None)
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="yee_bench_sources_")
    os.makedirs(work, exist_ok=True)
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    decks = {}
    for _, name, body, _ in CASES:
        path = os.path.join(work, name + ".cfg")
        with open(path, "w") as f:
            f.write(COMMON.format(name=name, steps=a.steps) + body)
        decks[name] = path
    rates = {label: [] for label, _, _, _ in CASES}
    ratios = {label: [] for label, _, _, _ in CASES}
    for r in range(a.repeat):
        this = {}
        for label, name, _, env in CASES:
            this[label] = rate(a.yee, decks[name], os.path.join(work, "out"), env)
            rates[label].append(this[label])
        for label in this:
            ratios[label].append(this[label] / this["plain"])
        print("round %d: %s" % (r + 1, ", ".join("%s %.0f" % kv for kv in this.items())),
              flush=True)
    print("\n128^3, %d steps, %s threads, %d rounds (medians)" %
          (a.steps, os.environ["OMP_NUM_THREADS"], a.repeat))
    print("%-12s %10s %16s" % ("deck", "Mcells/s", "of plain (same round)"))
    for label, _, _, _ in CASES:
        print("%-12s %10.0f %16.2f" % (label, statistics.median(rates[label]),
                                       statistics.median(ratios[label])))


if __name__ == "__main__":
    main()
