#!/usr/bin/env python3
"""Check a file written by h5_roundtrip: layout, analytic values, attributes and the XDMF sidecar.

Usage: check_h5.py FILE.h5 [--same-as REF.h5]
The expectations mirror h5_roundtrip.c (values 1000 f + 100 k + 10 j + i + 0.25 c + 10000 m).
With --same-as, every dataset and attribute must also equal those of REF.h5 (1-rank vs 2-rank).
Prints PASS/FAIL lines and exits non-zero on any failure.
"""
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import checks  # noqa: E402
from checks import check  # noqa: E402

TIME_FS = 3.3356409519815204
COMP = {"Ex": 0, "Ey": 1, "Ez": 2, "Hx": 3, "Hy": 4, "Hz": 5}
DT = 0.05
N = [6, 5, 7]
DX = [0.1, 0.2, 0.25]
ORIGIN = [-1.0, 0.0, 1.5]
# monitor -> (index m, components, shape (nx, ny, nz), nframes reserved); 3 frames written
MONITORS = {"vol": (0, ["Ex", "Hz"], (5, 4, 6), 4), "plane": (1, ["Ey"], (5, 4, 1), 3)}
WRITTEN = 3
STEPS = [10, 20, 30]


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def close(a, b, tol=1e-12):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol))


def comp_origin(c, m):
    """Origin of component c in monitor m, as h5_roundtrip staggers it."""
    o = []
    for a in range(3):
        half = (a == c) if c < 3 else (a != c - 3)
        o.append(ORIGIN[a] + (0.5 * DX[a] if half else 0.0) + 0.01 * m)
    return o


def check_root(f):
    a = f.attrs
    dtype = np.float64 if text(a["precision"]) == "double" else np.float32
    check("root_attrs",
          text(a["yee_version"]) != "" and text(a["name"]) == "roundtrip"
          and text(a["deck"]).startswith("# roundtrip deck\n") and "\u00b5m" in text(a["deck"])
          and list(a["n"]) == N and close(a["dx"], DX) and close(a["origin"], ORIGIN)
          and close(a["dt"], DT) and close(a["dt_fs"], DT * TIME_FS) and int(a["steps"]) == 30
          and text(a["precision"]) in ("float", "double") and "c-units" in text(a["units"]),
          ", ".join("%s=%r" % (k, a[k]) for k in ("name", "n", "dx", "dt", "precision")))
    # the cell edges of each axis, n + 1 of them (uniform here: origin + i dx)
    ok = all("/mesh/" + x in f and f["/mesh/" + x].dtype == np.float64 and
             close(f["/mesh/" + x][()], ORIGIN[a] + DX[a] * np.arange(N[a] + 1))
             for a, x in enumerate("xyz"))
    check("mesh_lines", ok)
    return dtype


def check_snapshots(f, dtype):
    for mon, (m, comps, shape, nframes) in MONITORS.items():
        nx, ny, nz = shape
        for cname in comps:
            c = COMP[cname]
            path = "/snapshots/%s/%s" % (mon, cname)
            if path not in f:
                check(path, False, "missing")
                continue
            d = f[path]
            check(path + " shape/type", d.shape == (nframes, nz, ny, nx) and d.dtype == dtype,
                  "%s %s" % (d.shape, d.dtype))
            fr, k, j, i = np.meshgrid(np.arange(WRITTEN), np.arange(nz), np.arange(ny),
                                      np.arange(nx), indexing="ij")
            want = 1000.0 * fr + 100.0 * k + 10.0 * j + i + 0.25 * c + 10000.0 * m
            got = d[:WRITTEN].astype(np.float64)
            err = float(np.max(np.abs(got - want)))
            check(path + " values", err == 0.0, "err=%g, tol=0" % err)
            a = dict(d.attrs)
            # frame labels are datasets under /snapshot_labels (io/h5out.h), not attributes
            lab = f["/snapshot_labels/%s/%s" % (mon, cname)]
            check(path + " labels are not attributes", "steps" not in a and "times" not in a,
                  str(sorted(a)))
            check(path + " labels path", a.get("labels") == "/snapshot_labels/%s/%s"
                  % (mon, cname), str(a.get("labels")))
            a.update({k: lab[k][:] for k in ("steps", "times", "times_fs")})
            steps = list(STEPS) + [-1] * (nframes - WRITTEN)
            times = [s * DT for s in STEPS]
            ok = (close(a["origin"], comp_origin(c, m)) and close(a["spacing"], DX)
                  and list(a["steps"]) == steps and int(a["frames_written"]) == WRITTEN
                  and len(a["times"]) == nframes and close(a["times"][:WRITTEN], times)
                  and close(a["times_fs"][:WRITTEN], [t * TIME_FS for t in times], 1e-9)
                  and bool(np.all(np.isnan(a["times"][WRITTEN:]))))
            check(path + " attrs", ok, "steps=%s frames_written=%s origin=%s"
                  % (list(a["steps"]), a["frames_written"], list(a["origin"])))
            # node coordinates as datasets, uniform axes too (io/h5out.h)
            cpath = "/coordinates" + path
            ok = text(a.get("coordinates", "")) == cpath and cpath in f
            for ax, (name, n) in enumerate(zip("xyz", shape)):
                ok = ok and close(f[cpath][name][()],
                                  comp_origin(c, m)[ax] + DX[ax] * np.arange(n))
            check(path + " coordinates", ok, cpath)


def check_probe(f, dtype):
    path = "/probes/p1"
    if path not in f:
        check(path, False, "missing")
        return
    d = f[path]
    check(path + " shape/type", d.shape == (30, 2) and d.dtype == dtype, "%s" % (d.shape,))
    want = np.arange(30)[:, None] + 0.5 * np.arange(2)[None, :]
    err = float(np.max(np.abs(d[()].astype(np.float64) - want)))
    check(path + " values", err == 0.0, "err=%g, tol=0" % err)
    a = d.attrs
    check(path + " attrs", text(a["components"]) == "Ex,Ez"
          and close(a["position"], [[0.1, 0.2, 0.3], [0.15, 0.2, 0.35]])
          and close(a["t0"], [0.0, 0.5 * DT]) and close(a["dt"], DT),
          "components=%r" % text(a["components"]))


def check_xmf(h5path, f):
    xmf = h5path[:-3] + ".xmf" if h5path.endswith(".h5") else h5path + ".xmf"
    try:
        root = ET.parse(xmf).getroot()
    except (OSError, ET.ParseError) as e:
        check("xmf_parse", False, str(e))
        return
    check("xmf_parse", root.tag == "Xdmf" and root.find("Domain") is not None, root.tag)
    base = os.path.dirname(os.path.abspath(xmf))
    temporal = {g.get("Name"): g for g in root.find("Domain").findall("Grid")}
    check("xmf_monitors", sorted(temporal) == sorted(MONITORS), str(sorted(temporal)))
    for mon, (m, comps, shape, nframes) in MONITORS.items():
        g = temporal.get(mon)
        if g is None:
            continue
        steps = g.findall("Grid")
        ok = (g.get("GridType") == "Collection" and g.get("CollectionType") == "Temporal"
              and len(steps) == WRITTEN)
        check("xmf %s temporal" % mon, ok, "%d time steps" % len(steps))
        for fidx, sg in enumerate(steps):
            t = float(sg.find("Time").get("Value"))
            ok = (sg.get("CollectionType") == "Spatial" and abs(t - STEPS[fidx] * DT) < 1e-12)
            grids = sg.findall("Grid")
            ok = ok and sorted(x.get("Name") for x in grids) == sorted(comps)
            for ug in grids:
                cname = ug.get("Name")
                c = COMP.get(cname, -1)
                topo = ug.find("Topology")
                dims = [int(x) for x in topo.get("Dimensions").split()]
                ok = ok and topo.get("TopologyType") == "3DCoRectMesh"
                ok = ok and dims == [shape[2], shape[1], shape[0]]
                geo = ug.find("Geometry")
                items = geo.findall("DataItem")
                org = [float(x) for x in items[0].text.split()]
                spc = [float(x) for x in items[1].text.split()]
                ok = ok and geo.get("GeometryType") == "ORIGIN_DXDYDZ"
                ok = ok and close(org, comp_origin(c, m)[::-1]) and close(spc, DX[::-1])
                att = ug.find("Attribute")
                ok = ok and att.get("Center") == "Node" and att.get("Name") == cname
                slab = att.find("DataItem")
                sel, src = slab.findall("DataItem")
                ok = ok and slab.get("ItemType") == "HyperSlab"
                ok = ok and [int(x) for x in slab.get("Dimensions").split()] == dims
                rows = np.array([int(x) for x in sel.text.split()]).reshape(3, 4)
                ok = ok and list(rows[0]) == [fidx, 0, 0, 0] and list(rows[2]) == [1] + dims
                fname, dpath = src.text.strip().split(":", 1)
                ok = ok and "/" not in fname and os.path.exists(os.path.join(base, fname))
                ok = ok and dpath in f
                if dpath in f:
                    sdims = [int(x) for x in src.get("Dimensions").split()]
                    ok = ok and tuple(sdims) == f[dpath].shape
                    ok = ok and int(src.get("Precision")) == f[dpath].dtype.itemsize
                if not ok:
                    check("xmf %s frame %d %s" % (mon, fidx, cname), False, ET.tostring(ug)[:200])
                    break
            check("xmf %s frame %d" % (mon, fidx), ok)


def same_as(f, ref_path):
    """Every dataset and attribute of f equals those of the reference file, bit for bit."""
    with h5py.File(ref_path, "r") as r:
        names_f, names_r = [], []
        f.visit(names_f.append)
        r.visit(names_r.append)
        check("same_objects", sorted(names_f) == sorted(names_r))
        diffs = []
        for n in ["/"] + names_r:
            if n not in f:
                continue
            for k, v in r[n].attrs.items():
                w = f[n].attrs.get(k)
                if isinstance(v, (str, bytes)) or isinstance(w, (str, bytes)):
                    eq = text(v) == text(w)
                else:
                    eq = np.array_equal(np.asarray(v), np.asarray(w), equal_nan=True)
                if not eq:
                    diffs.append("%s@%s" % (n, k))
            if isinstance(r[n], h5py.Dataset):
                a = r[n][()]
                b = f[n][()]
                if a.shape != b.shape or a.tobytes() != b.tobytes():
                    diffs.append(n)
        check("same_as_reference", not diffs, "differs: %s" % diffs if diffs else "err=0, tol=0")


def main():
    args = sys.argv[1:]
    ref = None
    if "--same-as" in args:
        i = args.index("--same-as")
        ref = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit("usage: check_h5.py FILE.h5 [--same-as REF.h5]")
    path = args[0]
    with h5py.File(path, "r") as f:
        dtype = check_root(f)
        check_snapshots(f, dtype)
        check_probe(f, dtype)
        check_xmf(path, f)
        if ref:
            same_as(f, ref)
    name = "h5_roundtrip" + ("_mpi" if ref else "")
    if checks.failures:
        print("FAIL %s (%d checks failed)" % (name, checks.failures))
        sys.exit(1)
    print("PASS %s (err=0, tol=0)" % name)


if __name__ == "__main__":
    main()
