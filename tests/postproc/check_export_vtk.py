#!/usr/bin/python3
"""usage: check_export_vtk.py RUN.h5 EXPORT_DIR RUN_VTK_DIR -- checks `yee export-vtk RUN.h5
--all --out EXPORT_DIR`: every written frame of every snapshot dataset has its file
<run>_<monitor>_<Comp>_<step 6 digits>.vtk; VTK's own reader gives the dataset's dimensions,
origin and spacing and, bit for bit, the values of that HDF5 frame; and a file the run wrote
itself (`vtk = true`, in RUN_VTK_DIR) is byte-identical to the exported one. Prints PASS/FAIL."""
import os
import sys

import h5py
import numpy as np
import vtk
from vtk.util import numpy_support

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import checks  # noqa: E402
from checks import check  # noqa: E402


def read_vtk(path):
    r = vtk.vtkStructuredPointsReader()
    r.SetFileName(path)
    r.ReadAllScalarsOn()
    r.Update()
    img = r.GetOutput()
    arr = img.GetPointData().GetScalars()
    vals = numpy_support.vtk_to_numpy(arr) if arr is not None else None
    return img, arr, vals


def main(run, export_dir, run_vtk_dir):
    expected, same_as_run = set(), 0
    with h5py.File(run, "r") as f:
        name = f.attrs["name"]
        for mon in f["/snapshots"]:
            for comp, d in f["/snapshots"][mon].items():
                nw = int(d.attrs["frames_written"])
                for fr in range(nw):
                    step = int(f["/snapshot_labels/%s/%s/steps" % (mon, comp)][fr])
                    if step < 0:
                        continue
                    fname = "%s_%s_%s_%06d.vtk" % (name, mon, comp, step)
                    expected.add(fname)
                    path = os.path.join(export_dir, fname)
                    if not os.path.isfile(path):
                        check(fname, False, "missing")
                        continue
                    img, arr, vals = read_vtk(path)
                    want = d[fr]  # (nz, ny, nx); C order is x fastest, as VTK orders points
                    dims_ok = tuple(img.GetDimensions()) == tuple(want.shape[::-1])
                    geo_ok = (np.array_equal(img.GetOrigin(), d.attrs["origin"]) and
                              np.array_equal(img.GetSpacing(), d.attrs["spacing"]))
                    name_ok = arr is not None and arr.GetName() == comp
                    # bit for bit: compare the raw bits, so -0.0 and NaN count too
                    bits_ok = (vals is not None and vals.dtype == want.dtype and
                               vals.size == want.size and
                               np.array_equal(vals.view(np.uint8), want.ravel().view(np.uint8)))
                    check(fname, dims_ok and geo_ok and name_ok and bits_ok,
                          "dims %s origin/spacing %s name %s values %s" %
                          (dims_ok, geo_ok, name_ok, bits_ok))
                    own = os.path.join(run_vtk_dir, fname)
                    if os.path.isfile(own):
                        with open(own, "rb") as a, open(path, "rb") as b:
                            same = a.read() == b.read()
                        check(fname + " == the run's own file", same)
                        same_as_run += same
    written = {n for n in os.listdir(export_dir) if n.endswith(".vtk")}
    check("export_vtk_file_set", written == expected,
          "extra %s, missing %s" % (sorted(written - expected), sorted(expected - written)))
    check("export_vtk_compared_with_run_files", same_as_run > 0, "%d files" % same_as_run)
    print("%s export_vtk (%d files, %d byte-identical to the run's own)" %
          ("PASS" if checks.failures == 0 else "FAIL", len(expected), same_as_run))
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
