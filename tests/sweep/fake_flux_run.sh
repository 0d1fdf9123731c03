#!/bin/sh
# Stands in for `yee` in a sweep (YEE_SWEEP_EXE) until flux monitors run for real: writes the HDF5
# layout of a flux monitor (see fake_flux_run.py). YEE_TEST_PYTHON: a python3 with h5py.
exec "${YEE_TEST_PYTHON:-/usr/bin/python3}" "$(dirname "$0")/fake_flux_run.py" "$@"
