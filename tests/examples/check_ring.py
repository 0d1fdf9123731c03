#!/usr/bin/python3
"""tests/examples: inputs/ring.cfg -- the whispering-gallery resonances of a silicon ring.

Runs the deck, then `yee resonances RUN.h5 --probe ring --start 40 --fmin 160 --fmax 240` on
both probe components (the older separate program yee-resonances next to yee when the subcommand
is missing), as docs/tutorials/ring.md does, and checks: at least one resonance with Q > 50; at
least three distinct resonances (1 THz apart) with Q > 50; and that they form a comb: the
smallest spacing is the free spectral range FSR, every spacing is a whole number of FSRs within
15%, and the group index c / (FSR 2 pi R) at R = 1 um lies in 3.5 - 5 (a silicon wire: ~4.2).
Without the inner cylinder or the silicon there is no such comb. Exits 1 on FAIL.
"""
import math
import os
import subprocess

import numpy as np

import excommon as ex

RADIUS_UM = 1.0


def resonances_cmd(yee):
    """`yee resonances` when yee has the subcommand, else the yee-resonances program."""
    r = subprocess.run([yee, "resonances", "--help"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode == 0 and "probe" in r.stdout:
        return [yee, "resonances"]
    alt = os.path.join(os.path.dirname(os.path.abspath(yee)), "yee-resonances")
    if os.path.exists(alt):
        return [alt]
    raise SystemExit("FAIL neither `yee resonances` nor %s exists" % alt)


def modes(text):
    """[(freq_THz, Q)] of `yee resonances` output."""
    out = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            cols = line.split()
            out.append((float(cols[0]), float(cols[4])))
    return out


def main():
    a = ex.parser(__doc__).parse_args()
    os.makedirs(a.work, exist_ok=True)
    ex.yee_run(a, "ring.cfg")
    h5 = os.path.join(a.work, "ring.h5")
    cmd = resonances_cmd(a.yee)
    found = []
    for comp in ("Ey", "Ex"):
        text = ex.run(cmd + [h5, "--probe", "ring", "--component", comp, "--start", "40",
                             "--fmin", "160", "--fmax", "240"])
        print(text)
        with open(os.path.join(a.work, "modes_%s.txt" % comp), "w") as fp:
            fp.write(text)
        found += modes(text)
    good = sorted(f for f, q in found if q > 50)
    merged = []
    for f in good:  # one entry per resonance seen in either component
        if not merged or f - merged[-1] > 1.0:
            merged.append(f)
    c = ex.Checks()
    qmax = max([q for _, q in found] + [0.0])
    c.check("ring_resonance_Q", qmax > 50, qmax, 50, "largest Q of any resonance must be > 50")
    c.check("ring_resonance_count", len(merged) >= 3, len(merged), 3,
            "distinct resonances with Q > 50 in 160-240 THz: %s" %
            ", ".join("%.2f" % f for f in merged))
    if len(merged) >= 2:
        gaps = np.diff(merged)
        fsr = gaps.min()
        ratios = gaps / fsr
        err = float(np.max(np.abs(ratios - np.round(ratios))))
        c.below("ring_comb", err, 0.15, "spacings / FSR %.2f THz: %s" %
                (fsr, ", ".join("%.2f" % r for r in ratios)))
        ng = ex.C_UM_THZ / (fsr * 2 * math.pi * RADIUS_UM)
        c.within("ring_group_index", [ng], 3.5, 5.0, "group index c / (FSR 2 pi R)")
    else:
        c.check("ring_comb", False, float("nan"), 0.15, "fewer than two resonances")
    c.done()


if __name__ == "__main__":
    main()
