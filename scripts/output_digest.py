"""Digest of what a yee run wrote: one SHA-256 over every HDF5 dataset and attribute (names,
shapes, types and bytes, in sorted order) and every other output file's bytes, so two runs can
be compared by one line even where the HDF5 files differ in their own bookkeeping (object
timestamps). Used to show that a change of structure changes no result.

usage: output_digest.py OUTDIR...        prints "<sha256>  OUTDIR" per directory
"""
import hashlib
import os
import sys

import h5py
import numpy as np


def digest_h5(path, h):
    with h5py.File(path, "r") as f:
        names = []
        f.visit(names.append)
        for name in [""] + sorted(names):
            obj = f[name] if name else f
            h.update(f"object {name}\n".encode())
            for key in sorted(obj.attrs):
                v = np.asarray(obj.attrs[key])
                h.update(f"attr {key} {v.dtype} {v.shape}\n".encode())
                h.update(v.tobytes())
            if isinstance(obj, h5py.Dataset):
                v = obj[...]
                h.update(f"data {v.dtype} {v.shape}\n".encode())
                h.update(np.ascontiguousarray(v).tobytes())


def digest_dir(d):
    h = hashlib.sha256()
    for root, _, files in sorted(os.walk(d)):
        for name in sorted(files):
            path = os.path.join(root, name)
            h.update(f"file {os.path.relpath(path, d)}\n".encode())
            if name.endswith(".h5"):
                digest_h5(path, h)
            else:
                with open(path, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()


if __name__ == "__main__":
    for d in sys.argv[1:]:
        print(f"{digest_dir(d)}  {d}")
