#!/usr/bin/python3
"""Meep's ring-resonator tutorial (python/examples/ring.py), as Meep documents it: a ring of
index 3.4 (width 1, inner radius 1) in air, 2-D, resolution 10, an Ez Gaussian source (fcen
0.15, fwidth 0.1) at (r + 0.1, 0), mirror symmetry in y, harminv of Ez there after the sources,
until 300 after them. Writes JSON: the modes (frequency c/um, Q, |amplitude|) and the wall
time of the whole script after `import meep` (setup, run, harminv).

usage: ring_meep.py RESOLUTION OUT.json"""
import json
import sys
import time

import meep as mp

res, out = float(sys.argv[1]), sys.argv[2]
t0 = time.time()
n, w, r, pad, dpml = 3.4, 1, 1, 4, 2
sxy = 2 * (r + w + pad + dpml)
geometry = [mp.Cylinder(radius=r + w, material=mp.Medium(index=n)), mp.Cylinder(radius=r)]
fcen, df = 0.15, 0.1
sources = [mp.Source(mp.GaussianSource(fcen, fwidth=df), mp.Ez, mp.Vector3(r + 0.1))]
sim = mp.Simulation(cell_size=mp.Vector3(sxy, sxy), geometry=geometry, sources=sources,
                    resolution=res, symmetries=[mp.Mirror(mp.Y)],
                    boundary_layers=[mp.PML(dpml)])
h = mp.Harminv(mp.Ez, mp.Vector3(r + 0.1), fcen, df)
sim.run(mp.after_sources(h), until_after_sources=300)
modes = [[m.freq, m.Q, abs(m.amp)] for m in h.modes]
if mp.am_master():  # under mpirun (meep-mpi) every rank has the modes; one writes them
    json.dump({"time": time.time() - t0, "modes": modes, "meep": mp.__version__,
               "ranks": mp.count_processors()},
              open(out, "w"))
