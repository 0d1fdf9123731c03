"""check_pml.py RUN.h5 POSTPROC_DIR -- the CPML outline of plot_snapshot.py: the run file, which
records the root attribute pml_cells, must plot differently from the same plot with --no-pml,
and a copy with pml_cells removed must plot the same either way."""
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np
from PIL import Image


def plot(script, run, out, *extra):
    subprocess.run([sys.executable, script, run, "--monitor", "xy", "--out", out, *extra],
                   check=True, stdout=subprocess.DEVNULL)
    return np.asarray(Image.open(out).convert("RGB"), dtype=int)


def main(run, postproc):
    script = os.path.join(postproc, "plot_snapshot.py")
    base = os.path.splitext(run)[0]
    bare = base + "_nopml.h5"
    shutil.copyfile(run, bare)
    with h5py.File(bare, "r+") as f:
        if "pml_cells" not in f.attrs:
            sys.exit("check_pml: the run file has no pml_cells attribute")
        del f.attrs["pml_cells"]
    same = (plot(script, bare, base + "_a.png") == plot(script, bare, base + "_b.png", "--no-pml"))
    if not same.all():
        sys.exit("check_pml: a file without pml_cells plots differently with --no-pml")
    diff = (plot(script, run, base + "_c.png") != plot(script, run, base + "_d.png", "--no-pml"))
    if not diff.any():
        sys.exit("check_pml: pml_cells drew nothing")
    print("ok: CPML outline drawn (%d pixels differ) and skipped without pml_cells" %
          diff.any(axis=2).sum())


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
