#!/usr/bin/python3
"""tests/examples: postproc/plot_flux.py on the grating runs of examples_grating (--work: that
test's folder). Checks that the tutorial's command writes a PNG of the asked size that is not
blank, that its CSV holds R, T and R + T equal to the runs' /flux/*/normalized, that --divide
with another run's monitor reproduces normalized, and that a wrong monitor exits 1 with a
message naming the monitors, without a traceback. Exits 1 on FAIL.
"""
import argparse
import csv
import os
import subprocess
import sys

import numpy as np
from PIL import Image

import excommon as ex


def tool(a, *args):
    cmd = [sys.executable, os.path.join(a.postproc, "plot_flux.py")] + list(args)
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def columns(path):
    with open(path) as fp:
        rows = list(csv.reader(fp))
    return rows[0], np.array([[float(v) for v in r] for r in rows[1:]])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--postproc", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    h5 = os.path.join(a.work, "grating.h5")
    ref = os.path.join(a.work, "grating_ref.h5")
    png, out_csv = os.path.join(a.work, "rt.png"), os.path.join(a.work, "rt.csv")
    c = ex.Checks()
    r = tool(a, h5, "--normalized", "--sum", "--label", "R", "--label", "T", "--sum-label",
             "R + T", "--size", "700x420", "--out", png, "--csv", out_csv)
    print(r.stdout)
    c.check("plot_flux_runs", r.returncode == 0, r.returncode, 0, "exit status")
    if r.returncode == 0:
        im = Image.open(png)
        px = np.asarray(im.convert("RGB"), dtype=float)
        c.check("plot_flux_png", im.size == (700, 420) and px.var() > 0, px.var(), 0,
                "700x420 pixels (got %dx%d), pixel variance > 0" % im.size)
        head, data = columns(out_csv)
        _, rr = ex.flux(h5, "refl", "normalized")
        f, tt = ex.flux(h5, "trans", "normalized")
        c.check("plot_flux_csv_header", head == ["freq_THz", "wavelength_um", "R", "T", "R + T"],
                0, 0, "header %s" % ",".join(head))
        err = max(np.max(np.abs(data[:, 0] - f)) / f.max(),
                  np.max(np.abs(data[:, 2] - rr)), np.max(np.abs(data[:, 3] - tt)),
                  np.max(np.abs(data[:, 4] - rr - tt)))
        c.below("plot_flux_csv_values", err, 1e-6, "CSV vs /flux/*/normalized and their sum")
    r = tool(a, h5, "--monitor", "trans", "--divide", ref + ":trans", "--out",
             os.path.join(a.work, "div.png"), "--csv", os.path.join(a.work, "div.csv"))
    print(r.stdout)
    if r.returncode == 0:
        _, data = columns(os.path.join(a.work, "div.csv"))
        _, tt = ex.flux(h5, "trans", "normalized")
        c.below("plot_flux_divide", np.max(np.abs(data[:, 2] - tt)), 1e-6,
                "--divide grating_ref.h5:trans vs normalized")
    else:
        c.check("plot_flux_divide", False, r.returncode, 0, "exit status")
    r = tool(a, h5, "--monitor", "tran", "--out", os.path.join(a.work, "bad.png"))
    print(r.stdout)
    ok = (r.returncode == 1 and "no flux monitor 'tran'" in r.stdout and
          "refl, trans" in r.stdout and "Traceback" not in r.stdout)
    c.check("plot_flux_error", ok, r.returncode, 1, "a wrong monitor: exit 1, names refl, trans")
    c.done()


if __name__ == "__main__":
    main()
