#!/bin/sh
# usage: valgrind.sh YEE DECK OUTDIR [OPTION...]
# One small run of DECK under valgrind memcheck: no invalid access, no use of uninitialised
# values and no definitely-lost memory in yee's own code (Open MPI, PMIx, hwloc, HDF5 and
# libconfig frames are suppressed by tests/valgrind.supp and Open MPI's own file). The OPTIONs
# (`--set key=value`) shorten the run; without any, a coarse grid and 15 fs (a deck that gives
# simulation.time).
# Needs a build without -march=native (valgrind does not decode every AVX-512 instruction):
# `make test-valgrind` makes one.
set -u
yee=$1
deck=$2
out=$3
shift 3
[ $# -eq 0 ] &&
    set -- --set grid.resolution=8 --set boundary.pml.cells=5 --set simulation.time=15
here=$(cd "$(dirname "$0")" && pwd)
supp=""
[ -f /usr/share/openmpi/openmpi-valgrind.supp ] &&
    supp="--suppressions=/usr/share/openmpi/openmpi-valgrind.supp"
OMP_NUM_THREADS=1 valgrind --error-exitcode=3 --leak-check=full --show-leak-kinds=definite \
    --errors-for-leak-kinds=definite $supp --suppressions="$here/valgrind.supp" \
    "$yee" run "$deck" "$@" --out "$out" --quiet \
    > "$out.log" 2>&1
rc=$?
grep -E "ERROR SUMMARY|definitely lost|Invalid|uninitialised" "$out.log" | head -20
if [ $rc -ne 0 ]; then
    echo "FAIL valgrind $deck (exit $rc; log $out.log)"
    exit 1
fi
echo "PASS valgrind $deck (0 errors)"
