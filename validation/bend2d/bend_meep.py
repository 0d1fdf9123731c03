#!/usr/bin/python3
"""validation/bend2d -- Meep's own bend-flux tutorial (python/examples/bend-flux.py: a 90-degree
bend of an eps-12 waveguide in 2-D), the reference check_bend2d.py compares yee with.

usage: bend_meep.py RESOLUTION OUT.json
Runs the straight guide and the bend as the tutorial does (until_after_sources with
stop_when_fields_decayed(50, Ez, the transmission point, 1e-3)) and writes frequencies, the
straight guide's incident (refl plane) and transmitted fluxes, the bend's fluxes, T and R,
and the wall time of each run (setup included) to OUT.json.
"""
import json
import sys
import time

import meep as mp


def main():
    res, out = float(sys.argv[1]), sys.argv[2]
    sx, sy, pad, w, dpml = 16, 32, 4, 1, 1.0
    cell = mp.Vector3(sx, sy, 0)
    wvg_xcen, wvg_ycen = 0.5 * (sx - w - 2 * pad), -0.5 * (sy - w - 2 * pad)
    fcen, df, nfreq = 0.15, 0.1, 100
    sources = [mp.Source(mp.GaussianSource(fcen, fwidth=df), component=mp.Ez,
                         center=mp.Vector3(-0.5 * sx + dpml, wvg_ycen), size=mp.Vector3(0, w))]
    core = mp.Medium(epsilon=12)
    refl_fr = mp.FluxRegion(center=mp.Vector3(-0.5 * sx + dpml + 0.5, wvg_ycen),
                            size=mp.Vector3(0, 2 * w))
    t0 = time.time()
    sim = mp.Simulation(cell_size=cell, boundary_layers=[mp.PML(dpml)], sources=sources,
                        resolution=res,
                        geometry=[mp.Block(mp.Vector3(mp.inf, w, mp.inf),
                                           center=mp.Vector3(0, wvg_ycen), material=core)])
    refl = sim.add_flux(fcen, df, nfreq, refl_fr)
    pt = mp.Vector3(0.5 * sx - dpml - 0.5, wvg_ycen)
    tran = sim.add_flux(fcen, df, nfreq, mp.FluxRegion(center=pt, size=mp.Vector3(0, 2 * w)))
    sim.run(until_after_sources=mp.stop_when_fields_decayed(50, mp.Ez, pt, 1e-3))
    straight_refl_data = sim.get_flux_data(refl)
    straight_inc, straight_tran = mp.get_fluxes(refl), mp.get_fluxes(tran)
    t1 = time.time()
    sim.reset_meep()
    sim = mp.Simulation(cell_size=cell, boundary_layers=[mp.PML(dpml)], sources=sources,
                        resolution=res,
                        geometry=[mp.Block(mp.Vector3(sx - pad, w, mp.inf),
                                           center=mp.Vector3(-0.5 * pad, wvg_ycen), material=core),
                                  mp.Block(mp.Vector3(w, sy - pad, mp.inf),
                                           center=mp.Vector3(wvg_xcen, 0.5 * pad), material=core)])
    refl = sim.add_flux(fcen, df, nfreq, refl_fr)
    pt = mp.Vector3(wvg_xcen, 0.5 * sy - dpml - 0.5)
    tran = sim.add_flux(fcen, df, nfreq, mp.FluxRegion(center=pt, size=mp.Vector3(2 * w, 0)))
    sim.load_minus_flux_data(refl, straight_refl_data)
    sim.run(until_after_sources=mp.stop_when_fields_decayed(50, mp.Ez, pt, 1e-3))
    bend_refl, bend_tran = mp.get_fluxes(refl), mp.get_fluxes(tran)
    t2 = time.time()
    freq = mp.get_flux_freqs(refl)
    if not mp.am_master():  # under mpirun (meep-mpi) the fluxes are summed on every rank
        return
    json.dump({"freq": list(freq), "straight_inc": list(straight_inc),
               "straight_tran": list(straight_tran), "bend_refl": list(bend_refl),
               "bend_tran": list(bend_tran),
               "T": [b / s for b, s in zip(bend_tran, straight_tran)],
               "R": [-b / s for b, s in zip(bend_refl, straight_tran)],
               "seconds": [t1 - t0, t2 - t1], "meep_time": sim.meep_time(),
               "ranks": mp.count_processors()},
              open(out, "w"))


if __name__ == "__main__":
    main()
