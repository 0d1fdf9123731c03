#!/bin/sh
# plot_errors.sh PYTHON PLOT_BANDS DIR -- postproc/plot_bands.py in DIR (a yee bands output with
# one k point): a run file is refused as not a bands file, a --labels list of the wrong length
# by count, both with exit 1; a right one draws a PNG.
py=$1 plot=$2
cd "$3" || exit 1
fail() { echo "FAIL $*"; exit 1; }
"$py" "$plot" k-000/rods.h5 > e1.txt 2>&1
[ $? -eq 1 ] && grep -q 'k-000/rods.h5 is not a file of yee bands' e1.txt ||
    fail "run file: $(cat e1.txt)"
"$py" "$plot" bands.h5 --labels G,X > e2.txt 2>&1
[ $? -eq 1 ] && grep -q -- "--labels gives 2 names for the path's 1 corners" e2.txt ||
    fail "labels: $(cat e2.txt)"
"$py" "$plot" bands.h5 --labels X --out b.png > /dev/null && [ -s b.png ] || fail "no b.png"
echo "PASS plot_bands errors"
