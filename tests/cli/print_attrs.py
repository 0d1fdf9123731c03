#!/usr/bin/python3
"""Print root attributes of a yee HDF5 file, `name=value` each, numbers rounded to 4 significant
digits: print_attrs.py FILE NAME... (for PASS_REGEX tests)."""
import sys

import h5py

with h5py.File(sys.argv[1], "r") as f:
    print(" ".join("%s=%.4g" % (n, float(f.attrs[n])) for n in sys.argv[2:]))
