#!/usr/bin/python3
"""usage: make_voxels.py DIR -- the fixture of tests/voxels.cmake: copies the decks of
tests/voxels/ into DIR and writes DIR/data/voxels.h5, whose datasets the decks read:
  epsilon    float64 (6, 4, 7) = (nz, ny, nx): 4 in voxels k = 1..3, j = 1, i = 1..2 and 1
             elsewhere (box.cfg's box, with the block of voxels_eps.cfg)
  index      int32 (6, 4, 7): the same pattern as indices, 0 and 1
  bad_index  int32 (6, 4, 7): index with a 2 at [k, j, i] = [0, 1, 2] (out of range of 2 names)
  low        float64 (6, 4, 7): epsilon with 0.5 at [1, 2, 3]
  flat       float64 (4, 4): not 3-D
  many       float64 (1, 1, 300): 300 distinct permittivities (more than the table holds)"""
import os
import shutil
import sys

import h5py
import numpy as np

out = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
shutil.rmtree(out, ignore_errors=True)
os.makedirs(os.path.join(out, "data"))
for name in os.listdir(here):
    if name.endswith(".cfg"):
        shutil.copy(os.path.join(here, name), out)

index = np.zeros((6, 4, 7), np.int32)  # [k, j, i], x fastest
index[1:4, 1:2, 1:3] = 1
eps = np.where(index == 1, 4.0, 1.0)
bad = index.copy()
bad[0, 1, 2] = 2
low = eps.copy()
low[1, 2, 3] = 0.5
with h5py.File(os.path.join(out, "data", "voxels.h5"), "w") as f:
    f["epsilon"] = eps
    f["index"] = index
    f["bad_index"] = bad
    f["low"] = low
    f["flat"] = np.ones((4, 4))
    f["many"] = (1.0 + 0.01 * np.arange(300)).reshape(1, 1, 300)
print("PASS voxels_setup (%s)" % out)
