#!/usr/bin/python3
"""validation/peers/bench_decks.py -- yee and Meep side by side on decks users run (issue 21):
the wall time of each whole program to the same result at the same resolution, with both
results printed beside the times so the reader sees both computed the same thing. Not run by
CI (minutes; Meep is an optional package): `python3 validation/peers/bench_decks.py`.

  ring    Meep's ring-resonator tutorial, 2-D, 10 cells/um, harminv of Ez after the source
          (ring_meep.py; yee: ring2d.cfg + `yee resonances`), both with the mirror in y.
  sphere  Meep's Mie-scattering tutorial with 50 frequencies, 3-D, 10 cells/um, both with
          mirror symmetry in y and z (sphere_meep.py: plane source, flux box and
          load_minus_flux_data, two runs; yee: sphere.cfg, TFSF box + closed flux box in the
          scattered field and an empty run for the incident intensity). Q_sca of both against
          Mie (validation/mie/mie.py).
  bend    Meep's bend-flux tutorial, 2-D, 20 cells/um (validation/bend2d/check_bend2d.py
          --repeat, which prints its own table).

Each program runs REPEAT times, yee and Meep in turn; the medians are reported. Meep runs
serial, as Debian's python3-meep ships it, or with --meep-ranks N on N MPI ranks (Debian's
python3-meep-mpi-default, which replaces python3-meep; its build has no OpenMP, so ranks are how
Meep uses the cores); yee with the threads OpenMP gives it (all cores).
usage: bench_decks.py [--yee build/yee] [--repeat 3] [--only ring,sphere,bend] [--work DIR]
                      [--tensor] [--meep-ranks N]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "validation", "mie"))
sys.path.insert(0, os.path.join(ROOT, "validation"))
import mie  # noqa: E402
from vcommon import meep_command, meep_installed, meep_ranks_checked  # noqa: E402

C_UM_THZ = 299.792458


def run(cmd):
    """Runs cmd, returns its wall seconds; stops the benchmark on failure."""
    t0 = time.time()
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if p.returncode:
        sys.exit("failed (%d): %s\n%s%s" % (p.returncode, " ".join(map(str, cmd)), p.stdout,
                                            p.stderr))
    return time.time() - t0, p.stdout


# ---- ring ----

def ring_yee(yee, work):
    out = os.path.join(work, "yee_ring")
    t_run, _ = run([yee, "run", os.path.join(HERE, "ring2d.cfg"), "--out", out, "--quiet"])
    # after Meep's source (10 / fwidth = 100 a/c), Meep's harminv band fcen +- fwidth / 2
    t_h, text = run([yee, "resonances", os.path.join(out, "ring2d.h5"), "--probe", "p",
                     "--component", "Ez", "--start", "%.3f" % (100 * 1e3 / C_UM_THZ),
                     "--fmin", "%.4f" % (0.1 * C_UM_THZ), "--fmax", "%.4f" % (0.2 * C_UM_THZ)])
    modes = []
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 7 and re.match(r"^[0-9.]", f[0]):
            modes.append((float(f[1]), float(f[4]), float(f[5])))
    return t_run + t_h, modes


def ring_meep(work, ranks):
    out = os.path.join(work, "meep_ring.json")
    t, _ = run(meep_command(os.path.join(HERE, "ring_meep.py"), ranks) + ["10", out])
    d = json.load(open(out))
    return t, [tuple(m) for m in d["modes"]], d


def ring_table(yee_modes, meep_modes):
    rows = []
    for f, q, amp in sorted(meep_modes):
        if not yee_modes:
            rows.append((f, q, None, None))
            continue
        g = min(yee_modes, key=lambda m: abs(m[0] - f))
        rows.append((f, q, g[0], g[1]))
    return rows


# ---- sphere ----

def sphere_yee(yee, work, extra=()):
    deck = os.path.join(HERE, "sphere.cfg")
    ref, out = os.path.join(work, "yee_sphere_ref"), os.path.join(work, "yee_sphere")
    t1, _ = run([yee, "run", deck, "--out", ref, "--quiet", "--set", "simulation.name=ref",
                 "--set", 'geometry[0].material="air"', "--set", "simulation.time=59.54"])
    ref_h5 = os.path.join(ref, "ref.h5")
    t2, _ = run([yee, "run", deck, "--out", out, "--quiet",
                 "--set", 'monitors[0].reference="%s"' % ref_h5,
                 "--set", 'monitors[0].reference_monitor="incident"'] + list(extra))
    with h5py.File(os.path.join(out, "sphere.h5"), "r") as f:
        freq = f["flux/scat/frequency"][:]
        q = f["flux/scat/normalized"][:] * 4.0 / np.pi     # A = 4 um^2, pi r^2 = pi
    return t1 + t2, freq, q


def sphere_meep(work, ranks):
    out = os.path.join(work, "meep_sphere.json")
    t, _ = run(meep_command(os.path.join(HERE, "sphere_meep.py"), ranks) + ["10", out])
    d = json.load(open(out))
    return t, np.array(d["freq"]), np.array(d["q_sca"]), d


def q_mie(freq):
    return np.array([mie.q_sca(2 * np.pi * f * 1.0, 2.0) for f in freq])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--yee", default=os.path.join(ROOT, "build", "yee"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="ring,sphere,bend")
    ap.add_argument("--work", default=None)
    ap.add_argument("--tensor", action="store_true",
                    help="yee's sphere with grid.subpixel_tensor = true (Meep averages the full "
                         "tensor by default)")
    ap.add_argument("--meep-ranks", type=int, default=1,
                    help="run Meep under mpirun on this many ranks (Meep's MPI build)")
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="yee_decks.")
    os.makedirs(work, exist_ok=True)
    only = a.only.split(",")
    if not meep_installed():
        sys.exit("Meep is not installed (apt-get install python3-meep): nothing to compare")
    meep_ranks_checked(a.meep_ranks)
    ranks = "serial" if a.meep_ranks <= 1 else "%d ranks" % a.meep_ranks
    report = []
    if "ring" in only:
        ty, tm = [], []
        for _ in range(a.repeat):
            t, ymodes = ring_yee(a.yee, work)
            ty.append(t)
            t, mmodes, info = ring_meep(work, a.meep_ranks)
            tm.append(t)
        print("ring (2-D, 10 cells/um, Meep %s, %s): modes, Meep against yee"
              % (info["meep"], ranks))
        print("%10s %10s %10s %10s %10s" % ("f Meep", "Q Meep", "f yee", "Q yee", "df/f"))
        for f, q, g, qy in ring_table(ymodes, mmodes):
            print("%10.5f %10.1f %10s %10s %10s" % (
                f, q, "-" if g is None else "%.5f" % g, "-" if qy is None else "%.1f" % qy,
                "-" if g is None else "%.1e" % abs(g / f - 1)))
        my, mm = statistics.median(ty), statistics.median(tm)
        print("ring: yee %.2f s, Meep %.2f s (median of %d): Meep / yee = %.1f\n"
              % (my, mm, a.repeat, mm / my))
        report.append(("ring", my, mm))
    if "sphere" in only:
        ty, tm = [], []
        for _ in range(a.repeat):
            t, fy, qy = sphere_yee(a.yee, work, ["--set", "grid.subpixel_tensor=true"]
                                   if a.tensor else [])
            ty.append(t)
            t, fm, qm, info = sphere_meep(work, a.meep_ranks)
            tm.append(t)
        print("sphere (3-D, 10 cells/um, Meep %s, %s): Q_sca" % (info["meep"], ranks))
        print("%8s %8s %8s %8s %8s" % ("f c/um", "Mie", "yee", "f c/um", "Meep"))
        for k in range(0, len(fy), 7):
            print("%8.3f %8.4f %8.4f %8.3f %8.4f" % (fy[k], q_mie([fy[k]])[0], qy[k], fm[k],
                                                     qm[k]))
        ey = np.max(np.abs(qy - q_mie(fy))) / np.max(q_mie(fy))
        em = np.max(np.abs(qm - q_mie(fm))) / np.max(q_mie(fm))
        print("max |Q_sca - Mie| / max Mie: yee %.3f, Meep %.3f" % (ey, em))
        my, mm = statistics.median(ty), statistics.median(tm)
        print("sphere: yee %.2f s, Meep %.2f s (median of %d): Meep / yee = %.1f\n"
              % (my, mm, a.repeat, mm / my))
        report.append(("sphere", my, mm))
    if "bend" in only:
        p = subprocess.run([sys.executable, os.path.join(ROOT, "validation", "bend2d",
                                                         "check_bend2d.py"),
                            "--yee", a.yee, "--deck",
                            os.path.join(ROOT, "validation", "bend2d", "bend2d.cfg"),
                            "--work", os.path.join(work, "bend"), "--repeat", str(a.repeat),
                            "--meep-ranks", str(a.meep_ranks)],
                           capture_output=True, text=True)
        print(p.stdout)
    for name, my, mm in report:
        print("%-8s yee %8.2f s   Meep (%s) %8.2f s   Meep / yee %.1f"
              % (name, my, ranks, mm, mm / my))
    return 0


if __name__ == "__main__":
    sys.exit(main())
