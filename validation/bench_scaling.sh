#!/bin/sh
# Weak and strong scaling of yee on CPU ranks of this machine (not run by CI):
#   sh validation/bench_scaling.sh [SIZE] [STEPS] [RANKS...]
# Strong: the same SIZE^3 grid on 1, 2, 4 ranks (or RANKS); weak: SIZE^3 cells per rank. One
# OpenMP thread per rank, so ranks stand for cores. Efficiency = rate(N) / (N * rate(1)), rates
# in total Mcells/s. Each line also gives the share of time the slowest rank waited for halo
# messages, with the exchange overlapped with the interior update (the default) and without it
# (YEE_HALO_OVERLAP=0), as an A/B within one run of this script.
set -eu
cd "$(dirname "$0")/.."
yee=${YEE:-build/yee}
size=${1:-96}
steps=${2:-40}
shift 2 2>/dev/null || shift $#
ranks=${*:-1 2 4}
mpi="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && mpi="$mpi --allow-run-as-root"
# prints "rate wait" for: ranks, overlap (1/0), extra flags
run() {
    YEE_HALO_OVERLAP=$2 OMP_NUM_THREADS=1 $mpi -np "$1" -x OMP_NUM_THREADS -x YEE_HALO_OVERLAP \
        "$yee" bench --backend cpu --size "$size" --steps "$steps" --repeat 5 --json $3 |
        tr -d '\n' | sed 's/.*"mcells_per_s": \([0-9.]*\).*"halo_wait_fraction": \([0-9.]*\).*/\1 \2/'
}
echo "size $size^3 (per rank when weak), $steps steps, 1 thread per rank; wait = halo wait share"
echo "ranks   strong Mcells/s  eff   wait | no overlap  wait  ||  weak Mcells/s  eff   wait | no overlap  wait"
set -- $(run 1 1 "")
s1=$1
for n in $ranks; do
    set -- $(run "$n" 1 "") $(run "$n" 0 "") $(run "$n" 1 --weak) $(run "$n" 0 --weak)
    awk -v n="$n" -v s="$1" -v sw="$2" -v so="$3" -v sow="$4" -v w="$5" -v ww="$6" -v wo="$7" \
        -v wow="$8" -v s1="$s1" 'BEGIN {
        printf "%5d  %15.1f %4.0f%% %5.1f%% | %10.1f %5.1f%% || %13.1f %4.0f%% %5.1f%% | %10.1f %5.1f%%\n",
            n, s, 100*s/(n*s1), 100*sw, so, 100*sow, w, 100*w/(n*s1), 100*ww, wo, 100*wow }'
done
