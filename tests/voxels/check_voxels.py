#!/usr/bin/python3
"""usage: check_voxels.py YEE DIR -- `yee check DECK --geometry OUT` for box.cfg, voxels_eps.cfg
and voxels_index.cfg of DIR (written by make_voxels.py), run from another folder so the voxel
file must be found relative to the deck. The rasterized permittivity (/snapshots/geometry/Ex, Ey,
Ez) of each voxel deck must equal the box's bit for bit, with subpixel averaging on and off, and
the box must actually be there (eps 4 inside, averaged values at its faces)."""
import os
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import checks  # noqa: E402
from checks import check  # noqa: E402

yee, d = sys.argv[1], os.path.abspath(sys.argv[2])


def geometry(deck, subpixel):
    out = os.path.join(d, "geo_%s_%s" % (deck, subpixel))
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([yee, "check", os.path.join(d, deck + ".cfg"), "--geometry", out,
                        "--set", "grid.subpixel=%s" % subpixel],
                       cwd="/", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        raise SystemExit("FAIL voxels_geometry: yee check %s exited %d" % (deck, r.returncode))
    with h5py.File(os.path.join(out, deck + "_geometry.h5"), "r") as f:
        return {c: f["/snapshots/geometry/" + c][0] for c in ("Ex", "Ey", "Ez")}


for subpixel in ("true", "false"):
    ref = geometry("box", subpixel)
    ez = ref["Ez"]
    averaged = int(((ez > 1.001) & (ez < 3.999)).sum())
    check("box_reference_subpixel_%s" % subpixel,
          ez.max() == 4.0 and ez.min() == 1.0 and (averaged > 0) == (subpixel == "true"),
          "eps %g..%g, %d averaged Ez nodes" % (ez.min(), ez.max(), averaged))
    for deck in ("voxels_eps", "voxels_index"):
        got = geometry(deck, subpixel)
        for c in ("Ex", "Ey", "Ez"):
            same = got[c].shape == ref[c].shape and np.array_equal(got[c], ref[c])
            ndiff = int((got[c] != ref[c]).sum()) if got[c].shape == ref[c].shape else -1
            check("%s_%s_subpixel_%s" % (deck, c, subpixel), same,
                  "%d nodes differ from box.cfg" % ndiff)
print("%s voxels_geometry" % ("PASS" if checks.failures == 0 else "FAIL"))
sys.exit(1 if checks.failures else 0)
