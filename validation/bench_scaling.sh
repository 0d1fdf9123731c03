#!/bin/sh
# Weak and strong scaling of yee on CPU ranks of this machine (not run by CI):
#   sh validation/bench_scaling.sh [SIZE] [STEPS]
# Strong: the same SIZE^3 grid on 1, 2, 4 ranks; weak: SIZE^3 cells per rank. One OpenMP thread
# per rank, so ranks stand for cores. Efficiency = rate(N) / (N * rate(1)) for weak scaling and
# rate(N) / (N * rate(1)) for strong scaling as well (rates are total Mcells/s).
set -eu
cd "$(dirname "$0")/.."
yee=${YEE:-build/yee}
size=${1:-96}
steps=${2:-40}
mpi="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && mpi="$mpi --allow-run-as-root"
rate() { # ranks, extra flags
    OMP_NUM_THREADS=1 $mpi -np "$1" -x OMP_NUM_THREADS "$yee" bench --backend cpu \
        --size "$size" --steps "$steps" --repeat 5 --json $2 |
        sed -n 's/.*"mcells_per_s": \([0-9.]*\).*/\1/p'
}
echo "ranks  strong Mcells/s  efficiency   weak Mcells/s  efficiency   (size $size^3, $steps steps)"
s1=$(rate 1 "")
w1=$s1
for n in 1 2 4; do
    s=$(rate $n "")
    w=$(rate $n "--weak")
    awk -v n=$n -v s=$s -v w=$w -v s1=$s1 -v w1=$w1 'BEGIN {
        printf "%5d  %15.1f  %9.0f%%   %13.1f  %9.0f%%\n", n, s, 100*s/(n*s1), w, 100*w/(n*w1) }'
done
