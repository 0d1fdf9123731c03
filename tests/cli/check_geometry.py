"""usage: check_geometry.py DIR -- the output of `yee check tests/postproc/small.cfg --geometry
DIR`: a glass sphere (eps 2.25) in vacuum gives Ez permittivities of exactly 1 outside, 2.25
inside and averaged values in between at the interface, and the VTK files exist."""
import os
import sys

import h5py

d = sys.argv[1]
with h5py.File(os.path.join(d, "small_geometry.h5"), "r") as f:
    e = f["/snapshots/geometry/Ez"][0]
lo, hi = float(e.min()), float(e.max())
between = int(((e > 1.01) & (e < 2.24)).sum())
vtk = all(os.path.isfile(os.path.join(d, f"small_geometry_eps{c}.vtk")) for c in ("Ex", "Ey", "Ez"))
ok = abs(lo - 1) < 1e-6 and abs(hi - 2.25) < 1e-4 and between > 0 and vtk
print(f"{'PASS' if ok else 'FAIL'} cli_check_geometry (eps range {lo:.6g}..{hi:.6g}, "
      f"{between} averaged nodes, vtk files {'present' if vtk else 'missing'})")
sys.exit(0 if ok else 1)
