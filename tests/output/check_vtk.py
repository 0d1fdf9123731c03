#!/usr/bin/env python3
"""Read a legacy VTK file written by vtk_roundtrip with VTK's own reader and check every value.

Usage: check_vtk.py FILE.vtk     (prints PASS/FAIL lines, exits non-zero on failure)
"""
import os
import sys

import numpy as np
import vtk
from vtk.util import numpy_support

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import checks  # noqa: E402
from checks import check  # noqa: E402


def main(path):
    with open(path, "rb") as f:
        head = f.read(512)
    lines = head.split(b"\n")
    check("vtk_header", lines[0] == b"# vtk DataFile Version 3.0" and lines[2] == b"BINARY"
          and lines[3] == b"DATASET STRUCTURED_POINTS", repr(lines[:4]))
    check("vtk_title_one_line", lines[1] == b"roundtrip second line", repr(lines[1]))

    reader = vtk.vtkStructuredPointsReader()
    reader.SetFileName(path)
    reader.ReadAllScalarsOn()
    reader.Update()
    img = reader.GetOutput()
    check("vtk_dimensions", tuple(img.GetDimensions()) == (5, 4, 3), str(img.GetDimensions()))
    org = np.array(img.GetOrigin())
    spc = np.array(img.GetSpacing())
    err_o = float(np.max(np.abs(org - [-0.5, 0.25, 1.0])))
    err_s = float(np.max(np.abs(spc - [0.1, 0.2, 0.3])))
    check("vtk_origin", err_o <= 1e-12, "err=%g, tol=1e-12" % err_o)
    check("vtk_spacing", err_s <= 1e-12, "err=%g, tol=1e-12" % err_s)
    arr = img.GetPointData().GetScalars()
    if arr is None:
        check("vtk_scalars_present", False)
        return
    check("vtk_scalar_name", arr.GetName() == "E_x", repr(arr.GetName()))
    vals = numpy_support.vtk_to_numpy(arr)
    k, j, i = np.meshgrid(np.arange(3), np.arange(4), np.arange(5), indexing="ij")
    want = (100 * k + 10 * j + i + 0.5).ravel()  # x fastest, as VTK orders points
    if vals.shape != want.shape:
        check("vtk_values", False, "shape %s != %s" % (vals.shape, want.shape))
        return
    err = float(np.max(np.abs(vals.astype(np.float64) - want)))
    check("vtk_roundtrip", err == 0.0, "err=%g, tol=0" % err)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_vtk.py FILE.vtk")
    main(sys.argv[1])
    print("FAIL vtk (%d checks failed)" % checks.failures if checks.failures
          else "PASS vtk (all checks)")
    sys.exit(1 if checks.failures else 0)
