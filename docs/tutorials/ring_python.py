# %% [markdown]
# # The silicon ring resonator from Python
#
# The ring of [ring.md](ring.md) (inputs/ring.cfg), run and analysed with the `yee` Python
# module only (docs/python.md): run the deck in this process, read the probe, find the
# whispering-gallery modes with harminv (the same C code as `yee resonances`), plot.
#
# Run as a script (`python3 docs/tutorials/ring_python.py`) or cell by cell in Jupyter or VS
# Code (the `# %%` markers). The full run (300 fs) takes 1-2 minutes on 2 cores. Environment:
# `YEE_RING_TIME` (fs) shortens it, `YEE_RING_OUT` is the output folder (default `out/`);
# tests/python.cmake runs this script with a short time so that it keeps working.

# %%
import os
import sys

try:
    import yee
except ImportError:  # in the source tree, without installing the module
    here = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
    sys.path.insert(0, os.path.join(here, "..", "..", "python"))
    import yee

import matplotlib
matplotlib.use("Agg")  # a PNG file; in Jupyter drop this line to see the figure inline
import matplotlib.pyplot as plt
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
DECK = os.path.join(HERE, "..", "..", "inputs", "ring.cfg")
OUT = os.environ.get("YEE_RING_OUT", "out")
print("yee", yee.version(), "from", yee.library_path())

# %% [markdown]
# ## Run
# The deck as it is, or shortened: `set` takes a key and a value as `yee run --set` does.
# The progress callback is called about every 1% of the run; returning True would stop it.

# %%
deck = yee.Deck.from_file(DECK)
if os.environ.get("YEE_RING_TIME"):
    deck.set("simulation.time", float(os.environ["YEE_RING_TIME"]))
info = deck.check(OUT)
print("%s: %d steps of %.4g fs -> %s" % (info["name"], info["steps"],
                                          info["dt"] * yee.TIME_UNIT_FS, info["h5"]))


def progress(step, steps, shown=[-1]):
    tenth = 10 * step // steps
    if tenth > shown[0]:  # one line per tenth of the run
        shown[0] = tenth
        print("  step %d of %d" % (step, steps), flush=True)


res = deck.run(OUT, progress=progress)

# %% [markdown]
# ## The probe and its modes
# Harminv on Ey from 40 fs on (after the source pulse), in 160-240 THz; modes whose frequency
# error estimate is above 1e-3 are dropped (a short run keeps fewer).

# %%
p = res.probe("ring")
ey = p["Ey"]
t_fs = p.times_fs[:, p.components.index("Ey")]
start = min(40.0, 0.5 * t_fs[-1])
modes = res.resonances("ring", component="Ey", start_fs=start, fmin_thz=160, fmax_thz=240,
                       max_error=1e-3)
print("%d modes" % len(modes.freq_thz))
print("  f (THz)   lambda (um)        Q")
for f, lam, q in zip(modes.freq_thz, modes.wavelength_um, modes.q):
    print("%9.3f %13.4f %9.0f" % (f, lam, q))

# %% [markdown]
# ## Plot
# Left: the probe's Ey. Right: its spectrum after `start` (Hann window, dB), with the modes.

# %%
keep = t_fs >= start
x = ey[keep] * np.hanning(keep.sum())
spec = np.abs(np.fft.rfft(x, 8 * len(x))) ** 2
f_thz = np.fft.rfftfreq(8 * len(x), d=p.dt * yee.TIME_UNIT_FS * 1e-15) / 1e12
band = (f_thz >= 160) & (f_thz <= 240)

fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
a.plot(t_fs, ey, lw=0.6)
a.axvline(start, color="gray", ls="--", lw=0.8)
a.set_xlabel("time (fs)")
a.set_ylabel("Ey at the probe")
a.set_title("ring probe")
b.plot(f_thz[band], 10 * np.log10(spec[band] / spec[band].max() + 1e-30), lw=0.8)
for f in modes.freq_thz:
    b.axvline(f, color="C3", lw=0.8, alpha=0.7)
b.set_xlabel("frequency (THz)")
b.set_ylabel("power (dB)")
b.set_title("spectrum after %.0f fs, %d harminv modes" % (start, len(modes.freq_thz)))
fig.tight_layout()
png = os.path.join(OUT, "ring_python.png")
fig.savefig(png, dpi=110)
print("wrote", png)
