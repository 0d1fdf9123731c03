"""End-to-end check of `yee run inputs/dipole.cfg`: the HDF5 file opens in h5py with the
layout docs/output.md promises, the fields are finite and non-trivial, the probes saw the pulse
arrive in the right order, the XDMF sidecar parses, and VTK's own reader loads a snapshot.

usage: check_dipole_run.py OUTDIR
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np

failures = 0


def check(name, ok, detail=""):
    global failures
    print(f"{'PASS' if ok else 'FAIL'} {name} {detail}")
    failures += 0 if ok else 1


out = sys.argv[1]
path = os.path.join(out, "dipole.h5")
with h5py.File(path, "r") as f:
    n = f.attrs["n"]
    dt = float(f.attrs["dt"])
    check("root attributes", list(n) == [80, 80, 80] and abs(f.attrs["dx"][0] - 0.05) < 1e-12,
          f"(n={list(n)}, dx={list(f.attrs['dx'])})")
    steps = int(f.attrs["steps"])
    xy = f["/snapshots/xy/Ez"]
    nw = int(xy.attrs["frames_written"])
    # Ez nodes of the z = 0 plane: x, y at integer nodes 0..79 (node 80 is the high wall)
    check("xy snapshot shape", xy.shape == (steps // 20, 1, 80, 80),
          f"(shape={xy.shape}, frames_written={nw})")
    frames = xy[:nw]
    check("snapshot frames written", nw == steps // 20, f"(nw={nw}, steps={steps})")
    check("snapshot finite", bool(np.isfinite(frames).all()))
    peak = float(np.abs(frames).max())
    check("snapshot non-trivial", peak > 1e-6, f"(max |Ez|={peak:.3g})")
    near = f["/probes/near"]
    far = f["/probes/far"]
    comps = near.attrs["components"]
    comps = comps.decode() if isinstance(comps, bytes) else comps
    check("probe components", comps == "Ez,Hy", f"({comps})")
    check("probe length", near.shape == (steps, 2), f"({near.shape})")
    ez_near = near[:, 0]
    ez_far = far[:, 0]
    # arrival: time the signal first exceeds 10% of its peak; far probe is 0.9 um farther
    t_near = np.argmax(np.abs(ez_near) > 0.1 * np.abs(ez_near).max()) * dt
    t_far = np.argmax(np.abs(ez_far) > 0.1 * np.abs(ez_far).max()) * dt
    delay = t_far - t_near
    check("pulse travels at c", 0.6 < delay < 1.2, f"(delay={delay:.3f} um/c for 0.9 um)")
    check("far field weaker", np.abs(ez_far).max() < np.abs(ez_near).max(),
          f"({np.abs(ez_far).max():.3g} < {np.abs(ez_near).max():.3g})")

xmf = os.path.join(out, "dipole.xmf")
root = ET.parse(xmf).getroot()
items = [d.text.strip() for d in root.iter("DataItem") if d.text and ".h5:" in d.text]
check("xdmf references the h5", len(items) > 0 and all(i.startswith("dipole.h5:/snapshots/")
                                                       for i in items), f"({len(items)} items)")

vtks = sorted(glob.glob(os.path.join(out, "dipole_xz_Ez_*.vtk")))
check("vtk files written", len(vtks) == steps // 40, f"({len(vtks)} files)")
if vtks:
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
    r = vtk.vtkStructuredPointsReader()
    r.SetFileName(vtks[-1])
    r.Update()
    img = r.GetOutput()
    arr = vtk_to_numpy(img.GetPointData().GetArray("Ez"))
    dims = img.GetDimensions()
    with h5py.File(path, "r") as f:
        step = int(vtks[-1].rsplit("_", 1)[1].split(".")[0])
        # the xz snapshot frame at the same step must hold the same numbers
        xz = f["/snapshots/xz/Ez"]
        fi = list(f["/snapshot_labels/xz/Ez/steps"][:]).index(step)
        ref = xz[fi].ravel()
    check("vtk matches hdf5", dims[1] == 1 and arr.size == ref.size and np.array_equal(arr, ref),
          f"(dims={dims}, n={arr.size})")

sys.exit(1 if failures else 0)
