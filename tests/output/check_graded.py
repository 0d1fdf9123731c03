#!/usr/bin/env python3
"""Output files on a graded mesh: run tests/output/graded.cfg (z graded, x and y uniform) and the
same deck without grid.refine (uniform), then check with h5py, xml.etree and VTK's own reader:

- /mesh/x|y|z hold the cell edges: strictly increasing, z graded (narrowest < widest), x and y
  uniform and equal to the uniform run's;
- every snapshot and DFT dataset names its /coordinates/<path> group (attribute `coordinates`),
  whose x, y, z equal the nodes of its component's staggering on the mesh lines, uniform axes
  included; uniform-run coordinates are origin + i spacing;
- the XDMF sidecar: 3DRectMesh + VXVYVZ (X, Y, Z items naming those datasets) for grids across the
  graded axis, 3DCoRectMesh + ORIGIN_DXDYDZ for the others and for every grid of the uniform run;
- the run's legacy VTK files: RECTILINEAR_GRID with the coordinates and values of the file
  across the graded axis, STRUCTURED_POINTS otherwise; `yee export-vtk` writes them byte for byte;
- the Python readers (postproc/yee_h5.py, python/yee/result.py) return those coordinates.
With --mpi MPIEXEC..., the graded deck also runs on 2 ranks and its mesh, coordinates, attributes
and XDMF must equal the 1-rank run's.

usage: check_graded.py YEE DECK WORKDIR [--mpi MPIEXEC...]
Prints PASS/FAIL lines; exit 0 when every check passes.
"""
import filecmp
import glob
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import checks  # noqa: E402
from checks import check  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
COMP = {"Ex": 0, "Ey": 1, "Ez": 2, "Hx": 3, "Hy": 4, "Hz": 5}
TOL = 1e-12  # um: node positions computed two ways (model/nodes.c, here) agree to rounding


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        print(p.stdout + p.stderr)
    return p.returncode


def staggered(comp, axis):
    c = COMP[comp]
    return axis == c if c < 3 else axis != c - 3


def expected_nodes(mesh, comp, axis, origin, n):
    """The n nodes of comp along axis from the mesh lines, starting at the node nearest origin."""
    m = mesh[axis]
    nodes = 0.5 * (m[:-1] + m[1:]) if staggered(comp, axis) else m[:-1]
    lo = int(np.argmin(np.abs(nodes - origin)))
    return nodes[lo:lo + n]


def field_datasets(f):
    """(path, component) of every snapshot and DFT field dataset."""
    out = []
    for mon in f.get("snapshots", {}):
        for comp in f["snapshots"][mon]:
            out.append(("/snapshots/%s/%s" % (mon, comp), comp))
    for mon in f.get("dft", {}):
        for key in f["dft"][mon]:
            if re.fullmatch(r"[EH][xyz]_(re|im)", key):
                out.append(("/dft/%s/%s" % (mon, key), key[:2]))
    return out


def check_mesh(f, g_uniform, tag):
    mesh = []
    for a, name in enumerate("xyz"):
        path = "/mesh/" + name
        if not check("%s %s present" % (tag, path), path in f):
            return None
        m = f[path][()]
        n = int(f.attrs["n"][a])
        check("%s %s: n+1 increasing edges" % (tag, path),
              m.dtype == np.float64 and m.shape == (n + 1,) and bool(np.all(np.diff(m) > 0)),
              "%d values for n=%d" % (len(m), n))
        mesh.append(m)
    w = np.diff(mesh[2])
    if tag == "graded":
        check("graded /mesh/z graded", w.min() < 0.5 * w.max(),
              "widths %.4g .. %.4g um" % (w.min(), w.max()))
        for a in (0, 1):
            check("graded /mesh/%s equals the uniform run's" % "xy"[a],
                  np.allclose(mesh[a], g_uniform["/mesh/" + "xy"[a]][()], rtol=0, atol=TOL))
    else:
        for a in range(3):
            want = f.attrs["origin"][a] + f.attrs["dx"][a] * np.arange(len(mesh[a]))
            check("uniform /mesh/%s is origin + i dx" % "xyz"[a],
                  np.allclose(mesh[a], want, rtol=0, atol=TOL))
    return mesh


def check_coordinates(f, mesh, tag):
    """Every field dataset's coordinate group; returns {path: (x, y, z)}."""
    coords = {}
    paths = field_datasets(f)
    check("%s field datasets found" % tag, len(paths) >= 10, "%d" % len(paths))
    for path, comp in paths:
        d = f[path]
        ref = text(d.attrs.get("coordinates", ""))
        if not check("%s %s names its coordinates" % (tag, path),
                     ref == "/coordinates" + path and ref in f, repr(ref)):
            continue
        shape = d.shape[1:][::-1]  # nx, ny, nz
        got, ok, detail = [], True, ""
        for a, name in enumerate("xyz"):
            v = f[ref][name]
            ok = ok and v.dtype == np.float64 and v.shape == (shape[a],)
            c = v[()]
            want = expected_nodes(mesh, comp, a, d.attrs["origin"][a], shape[a])
            err = float(np.max(np.abs(c - want))) if len(want) == len(c) else np.inf
            ok = ok and err <= TOL and abs(c[0] - d.attrs["origin"][a]) <= TOL
            detail += "%s err=%.2g " % (name, err)
            got.append(c)
        check("%s %s coordinates are the %s nodes" % (tag, path, comp), ok, detail + "tol=1e-12")
        coords[path] = tuple(got)
    return coords


def check_graded_spacing(coords):
    z = coords["/snapshots/box/Ez"][2]
    w = np.diff(z)
    check("box Ez z nodes unevenly spaced", w.min() < 0.5 * w.max(),
          "spacings %.4g .. %.4g um" % (w.min(), w.max()))
    z = coords["/dft/d/Ex_re"][2]
    w = np.diff(z)
    check("dft Ex z nodes unevenly spaced", w.min() < 0.8 * w.max(),
          "spacings %.4g .. %.4g um" % (w.min(), w.max()))


def check_xmf(h5path, f, graded_axes_of):
    """graded_axes_of(path) -> True when that snapshot's grid must be a 3DRectMesh."""
    tag = os.path.basename(h5path)
    xmf = h5path[:-3] + ".xmf"
    try:
        root = ET.parse(xmf).getroot()
    except (OSError, ET.ParseError) as e:
        check("%s xmf parses" % tag, False, str(e))
        return 0, 0
    check("%s xmf parses" % tag, root.tag == "Xdmf")
    base = os.path.basename(h5path)
    nrect = nco = 0
    for grid in root.iter("Grid"):
        if grid.get("GridType") != "Uniform":
            continue
        try:
            ok, dpath, kind = xmf_grid_ok(grid, f, base, graded_axes_of)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as e:
            ok, dpath, kind = False, grid.get("Name"), "malformed: %r" % e
        nrect += kind == "3DRectMesh"
        nco += kind == "3DCoRectMesh"
        if not check("%s xmf grid of %s" % (tag, dpath), ok, kind):
            break
    return nrect, nco


def xmf_grid_ok(grid, f, base, graded_axes_of):
    """(ok, dataset path, topology type) of one uniform grid of the sidecar."""
    src = grid.find("Attribute").find("DataItem").findall("DataItem")[1]
    dpath = src.text.strip().split(":", 1)[1]
    shape = f[dpath].shape[1:]  # nz, ny, nx
    topo, geo = grid.find("Topology"), grid.find("Geometry")
    ok = [int(x) for x in topo.get("Dimensions").split()] == list(shape)
    if graded_axes_of(dpath):
        items = geo.findall("DataItem")
        ok = ok and topo.get("TopologyType") == "3DRectMesh"
        ok = ok and geo.get("GeometryType") == "VXVYVZ" and len(items) == 3
        for a, it in enumerate(items):  # X, Y, Z: one array per axis, x first
            fname, cpath = it.text.strip().split(":", 1)
            ok = ok and it.get("Name") == "XYZ"[a] and it.get("Format") == "HDF"
            ok = ok and fname == base and cpath == "/coordinates%s/%s" % (dpath, "xyz"[a])
            ok = ok and cpath in f and int(it.get("Dimensions")) == shape[2 - a]
            ok = ok and int(it.get("Precision")) == 8 and f[cpath].dtype == np.float64
    else:
        ok = ok and topo.get("TopologyType") == "3DCoRectMesh"
        ok = ok and geo.get("GeometryType") == "ORIGIN_DXDYDZ"
        org = [float(x) for x in geo.findall("DataItem")[0].text.split()]
        ok = ok and np.allclose(org[::-1], f[dpath].attrs["origin"], rtol=0, atol=0)
    return ok, dpath, topo.get("TopologyType")


def vtk_header(path):
    with open(path, "rb") as fp:
        return fp.read(200).split(b"\n")


def check_vtk(h5path, f, coords, graded):
    import vtk
    from vtk.util import numpy_support
    d = os.path.dirname(h5path)
    run_name = text(f.attrs["name"])
    files = sorted(glob.glob(os.path.join(d, run_name + "_box_*.vtk")))
    check("%s box VTK files" % run_name, len(files) == 6, "%d files" % len(files))
    for path in files:
        comp, step = re.search(r"_box_(\w\w)_(\d+)\.vtk$", path).groups()
        dpath = "/snapshots/box/" + comp
        shape = f[dpath].shape[1:][::-1]
        lines = vtk_header(path)
        if not graded:
            check("%s is STRUCTURED_POINTS" % os.path.basename(path),
                  lines[3] == b"DATASET STRUCTURED_POINTS", repr(lines[3]))
            continue
        ok = lines[3] == b"DATASET RECTILINEAR_GRID"
        ok = ok and lines[4] == ("DIMENSIONS %d %d %d" % shape).encode()
        ok = ok and lines[5] == ("X_COORDINATES %d double" % shape[0]).encode()
        check("%s says RECTILINEAR_GRID with its counts" % os.path.basename(path), ok,
              repr(lines[3:6]))
        r = vtk.vtkRectilinearGridReader()
        r.SetFileName(path)
        r.ReadAllScalarsOn()
        r.Update()
        g = r.GetOutput()
        got = [numpy_support.vtk_to_numpy(c) for c in
               (g.GetXCoordinates(), g.GetYCoordinates(), g.GetZCoordinates())]
        ok = tuple(g.GetDimensions()) == tuple(shape)
        ok = ok and all(np.array_equal(got[a], coords[dpath][a]) for a in range(3))
        steps = f["/snapshot_labels/box/%s/steps" % comp][()]
        frame = int(np.nonzero(steps == int(step))[0][0])
        vals = numpy_support.vtk_to_numpy(g.GetPointData().GetScalars())
        ok = ok and np.array_equal(vals, f[dpath][frame].ravel())
        check("%s read by VTK: coordinates and values of the file" % os.path.basename(path), ok,
              "tol=0")
    for path in glob.glob(os.path.join(d, run_name + "_xy_*.vtk")):
        check("%s (one z node) is STRUCTURED_POINTS" % os.path.basename(path),
              vtk_header(path)[3] == b"DATASET STRUCTURED_POINTS")


def check_export(yee, h5path):
    d = os.path.dirname(h5path)
    out = os.path.join(d, "export")
    shutil.rmtree(out, ignore_errors=True)
    rc = run([yee, "export-vtk", h5path, "--all", "--out", out, "--quiet"])
    same, n = True, 0
    for path in glob.glob(os.path.join(d, "*_box_*.vtk")) + glob.glob(os.path.join(d, "*_xy_*.vtk")):
        n += 1
        other = os.path.join(out, os.path.basename(path))
        same = same and os.path.exists(other) and filecmp.cmp(path, other, shallow=False)
    check("%s: yee export-vtk writes the run's VTK files byte for byte" % os.path.basename(h5path),
          rc == 0 and same and n == 8, "exit %d, %d files" % (rc, n))


def check_python(h5path, coords):
    sys.path.insert(0, os.path.join(SRC, "postproc"))
    sys.path.insert(0, os.path.join(SRC, "python"))
    import yee_h5
    from yee.result import Result
    with yee_h5.Run(h5path) as r:
        fr = r.frame("box", "Ez")
        ok = all(np.array_equal(fr.coords(a), coords["/snapshots/box/Ez"][a]) for a in range(3))
        eps = r.eps_datasets()
        ok = ok and all(np.array_equal(eps["Ez"][1][a], coords["/snapshots/geometry/Ez"][a])
                        for a in range(3))
        ok = ok and r.mesh is not None and len(r.mesh[2]) == int(r.n[2]) + 1
    check("postproc/yee_h5.py reads the node coordinates", ok)
    res = Result(h5path)
    d = res.dft("d", "Ex")
    s = res.snapshot("box", "Hy")
    ok = all(np.array_equal(v, w) for v, w in zip((d.x, d.y, d.z), coords["/dft/d/Ex_re"]))
    ok = ok and all(np.array_equal(v, w) for v, w in zip((s.x, s.y, s.z),
                                                         coords["/snapshots/box/Hy"]))
    check("python/yee result reads the node coordinates", ok)


def same_as_one_rank(one, many):
    """The mesh, coordinates, every attribute and the XDMF of the 2-rank file equal the 1-rank
    file's (the collective coordinate writes)."""
    with h5py.File(one, "r") as a, h5py.File(many, "r") as b:
        names = []
        a.visit(names.append)
        diffs = []
        for n in ["/"] + names:
            if n not in b:
                diffs.append(n + " missing")
                continue
            for k, v in a[n].attrs.items():
                if k == "deck":
                    continue
                w = b[n].attrs.get(k)
                eq = (text(v) == text(w) if isinstance(v, (str, bytes))
                      else np.array_equal(np.asarray(v), np.asarray(w), equal_nan=True))
                if not eq:
                    diffs.append("%s@%s" % (n, k))
            if isinstance(a[n], h5py.Dataset) and n.split("/")[0] in ("mesh", "coordinates"):
                if a[n][()].tobytes() != b[n][()].tobytes():
                    diffs.append(n)
        check("2 ranks: mesh, coordinates and attributes as on 1 rank", not diffs,
              "differs: %s" % diffs[:5] if diffs else "tol=0")
    check("2 ranks: XDMF as on 1 rank", filecmp.cmp(one[:-3] + ".xmf", many[:-3] + ".xmf",
                                                   shallow=False))


def main():
    args = sys.argv[1:]
    mpiexec = []
    if "--mpi" in args:
        i = args.index("--mpi")
        mpiexec = args[i + 1:]
        args = args[:i]
    if len(args) != 3:
        sys.exit("usage: check_graded.py YEE DECK WORKDIR [--mpi MPIEXEC...]")
    yee, deck, work = args
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # the uniform twin: the same deck without its grid.refine and grid.grading lines
    udeck = os.path.join(work, "uniform.cfg")
    with open(deck) as fp:
        src = fp.read()
    with open(udeck, "w") as fp:
        fp.write(re.sub(r"\n\s*(refine|grading)\s*=.*", "", src).replace('"graded"', '"uniform"'))
    g_h5 = os.path.join(work, "g", "graded.h5")
    u_h5 = os.path.join(work, "u", "uniform.h5")
    ok = check("graded run", run([yee, "run", deck, "--out", os.path.dirname(g_h5), "--quiet"])
               == 0)
    ok = check("uniform run", run([yee, "run", udeck, "--out", os.path.dirname(u_h5),
                                   "--quiet"]) == 0) and ok
    if not ok:
        sys.exit(1)
    with h5py.File(g_h5, "r") as g, h5py.File(u_h5, "r") as u:
        check("graded run has more z cells", int(g.attrs["n"][2]) > int(u.attrs["n"][2]),
              "%d vs %d" % (g.attrs["n"][2], u.attrs["n"][2]))
        gmesh = check_mesh(g, u, "graded")
        umesh = check_mesh(u, u, "uniform")
        if gmesh is None or umesh is None:
            sys.exit(1)
        gc = check_coordinates(g, gmesh, "graded")
        check_coordinates(u, umesh, "uniform")
        check_graded_spacing(gc)
        # across the graded z axis: every snapshot but the one-node xy plane
        nrect, nco = check_xmf(g_h5, g, lambda p: not p.startswith("/snapshots/xy/"))
        check("graded xmf: rectilinear and uniform grids", nrect > 0 and nco > 0,
              "%d 3DRectMesh, %d 3DCoRectMesh" % (nrect, nco))
        nrect, nco = check_xmf(u_h5, u, lambda p: False)
        check("uniform xmf: only 3DCoRectMesh", nrect == 0 and nco > 0, "%d grids" % nco)
        check_vtk(g_h5, g, gc, True)
        check_vtk(u_h5, u, None, False)
    check_export(yee, g_h5)
    check_export(yee, u_h5)
    check_python(g_h5, gc)
    if mpiexec:
        m_h5 = os.path.join(work, "m", "graded.h5")
        rc = run(mpiexec + ["-np", "2", yee, "run", deck, "--out", os.path.dirname(m_h5),
                            "--quiet"])
        if check("graded run on 2 ranks", rc == 0):
            same_as_one_rank(g_h5, m_h5)
    if checks.failures:
        print("FAIL graded output (%d checks failed)" % checks.failures)
        sys.exit(1)
    print("PASS graded output (all checks)")


if __name__ == "__main__":
    main()
