#!/usr/bin/python3
"""Meep's Mie-scattering tutorial (python/examples/mie_scattering.py), as Meep documents it but
with 50 frequencies: a dielectric sphere (radius 1, index 2) in a cube of side
2 (dpml + dair + r) with dpml = dair = wvl_max / 2, an Ez plane source at the inner face of the
low-x PML (is_integrated), a closed flux box at +-r around the sphere, mirror symmetries Y and Z
(phase -1); the empty run saves the box's incident fields and flux, the sphere run subtracts them
(load_minus_flux_data). Writes JSON: frequencies (c/um), the scattering efficiency
Q_sca = P_sca / (I_inc pi r^2), I_inc the empty run's flux through one face over its area, and
the wall time after `import meep` (both runs).

usage: sphere_meep.py RESOLUTION OUT.json"""
import json
import sys
import time

import meep as mp
import numpy as np

res, out = float(sys.argv[1]), sys.argv[2]
t0 = time.time()
r = 1.0
wvl_min, wvl_max = 2 * np.pi * r / 10, 2 * np.pi * r / 2
frq_min, frq_max = 1 / wvl_max, 1 / wvl_min
frq_cen, dfrq, nfrq = 0.5 * (frq_min + frq_max), frq_max - frq_min, 50
dpml = dair = 0.5 * wvl_max
s = 2 * (dpml + dair + r)
cell = mp.Vector3(s, s, s)
pml = [mp.PML(thickness=dpml)]
sym = [mp.Mirror(mp.Y), mp.Mirror(mp.Z, phase=-1)]
src = [mp.Source(mp.GaussianSource(frq_cen, fwidth=dfrq, is_integrated=True),
                 center=mp.Vector3(-0.5 * s + dpml), size=mp.Vector3(0, s, s), component=mp.Ez)]


def box(sim):
    faces = []
    for c, sz in ((mp.Vector3(x=-r), mp.Vector3(0, 2 * r, 2 * r)),
                  (mp.Vector3(x=+r), mp.Vector3(0, 2 * r, 2 * r)),
                  (mp.Vector3(y=-r), mp.Vector3(2 * r, 0, 2 * r)),
                  (mp.Vector3(y=+r), mp.Vector3(2 * r, 0, 2 * r)),
                  (mp.Vector3(z=-r), mp.Vector3(2 * r, 2 * r, 0)),
                  (mp.Vector3(z=+r), mp.Vector3(2 * r, 2 * r, 0))):
        faces.append(sim.add_flux(frq_cen, dfrq, nfrq, mp.FluxRegion(center=c, size=sz)))
    return faces


sim = mp.Simulation(resolution=res, cell_size=cell, boundary_layers=pml, sources=src,
                    k_point=mp.Vector3(), symmetries=sym)
faces = box(sim)
sim.run(until_after_sources=10)
freqs = np.array(mp.get_flux_freqs(faces[0]))
data = [sim.get_flux_data(f) for f in faces]
inc = np.array(mp.get_fluxes(faces[0]))
intensity = inc / (2 * r) ** 2
sim.reset_meep()
sim = mp.Simulation(resolution=res, cell_size=cell, boundary_layers=pml, sources=src,
                    k_point=mp.Vector3(), symmetries=sym,
                    geometry=[mp.Sphere(material=mp.Medium(index=2.0), center=mp.Vector3(),
                                        radius=r)])
faces = box(sim)
for f, d in zip(faces, data):
    sim.load_minus_flux_data(f, d)
sim.run(until_after_sources=100)
fl = [np.array(mp.get_fluxes(f)) for f in faces]
p_sca = fl[0] - fl[1] + fl[2] - fl[3] + fl[4] - fl[5]
q_sca = -p_sca / intensity / (np.pi * r ** 2)
if mp.am_master():  # under mpirun (meep-mpi) the fluxes are summed on every rank
    json.dump({"time": time.time() - t0, "freq": freqs.tolist(), "q_sca": q_sca.tolist(),
               "meep": mp.__version__, "ranks": mp.count_processors()}, open(out, "w"))
