#!/bin/bash
# validation/bench_peers.sh -- yee, openEMS and Meep side by side on the same problem: an N^3 grid
# of 0.05 um cells, vacuum, a 10-cell PML inside the grid on all six faces, one Ez dipole
# (Gaussian pulse) in the middle, STEPS time steps, the same number of cores for each. Prints
# Mcells/s (N^3 * steps / seconds of time stepping, setup excluded, median of REPEAT runs) and
# the memory each holds per cell. Not run by CI (minutes, and the peers are optional packages).
#
# usage: validation/bench_peers.sh [N [STEPS [THREADS [REPEAT]]]]   (default 128 50 2 3)
#   YEE=path/to/yee (default build/yee)
# Peers (Debian 12): apt-get install openems python3-openems python3-meep-mpi-default
#   openEMS: its fastest engine (multithreaded, compressed operator + SSE) with THREADS threads,
#            float fields; memory = peak RSS growth of the run.
#   Meep:    the Debian build has no OpenMP, so THREADS MPI ranks (mpirun -np THREADS) stand in for
#            the threads; double fields, real (not complex) fields, Courant 0.5 (its default;
#            Mcells/s counts steps, not simulated time); memory = peak RSS growth summed over ranks.
#   yee:     `yee bench --threads THREADS` (float, Courant 0.99); memory = what the backend holds.
# A peer that is not installed is reported as such, never skipped silently.
# The decks users run (Meep's bend, ring and Mie-sphere tutorials), whole programs side by side
# with their results: validation/peers/bench_decks.py (docs/performance.md).
set -u
N=${1:-128}
STEPS=${2:-50}
THREADS=${3:-2}
REPEAT=${4:-3}
YEE=${YEE:-build/yee}
PY=${PYTHON:-/usr/bin/python3}
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
work=$(mktemp -d /tmp/yee_peers.XXXXXX)
trap 'rm -rf "$work"' EXIT
cells=$((N * N * N))
rows=()

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# ---- yee ----
if "$YEE" bench --size "$N" --steps "$STEPS" --threads "$THREADS" --repeat $((REPEAT > 3 ? REPEAT : 3)) \
    --json >"$work/yee.json" 2>"$work/yee.err"; then
    rows+=("$("$PY" - "$work/yee.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
print("yee %s (float, %d threads)|%.1f|%.1f|%.0f" % (
    r["backend"], d["problem"]["threads"], r["mcells_per_s"], r["bytes_per_cell"],
    r["bytes_per_cell"] * d["problem"]["cells"] / 2**20))
EOF
)")
else
    rows+=("yee: failed ($(tail -1 "$work/yee.err"))|-|-|-")
fi

# ---- openEMS ----
cat >"$work/peer_openems.py" <<'EOF'
import resource, sys, time
import numpy as np
from CSXCAD import ContinuousStructure
from openEMS import openEMS
N, steps, threads, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
dx = 0.05e-6
fdtd = openEMS(NrTS=steps, EndCriteria=0)       # run all steps, no energy end criterion
fdtd.SetGaussExcite(3e14, 0.9e14)
fdtd.SetBoundaryCond(['PML_10'] * 6)            # 10 PML cells inside the grid on every face
csx = ContinuousStructure()
fdtd.SetCSX(csx)
grid = csx.GetGrid()
grid.SetDeltaUnit(1)
for ax in 'xyz':                                # N mesh lines: openEMS holds N^3 cells
    grid.SetLines(ax, (np.arange(N) - N // 2) * dx)
exc = csx.AddExcitation('dipole', exc_type=0, exc_val=[0, 0, 1])
exc.AddBox([0, 0, 0], [0, 0, dx])
rss0 = [int(l.split()[1]) * 1024 for l in open('/proc/self/status') if l.startswith('VmRSS')][0]
fdtd.Run(path, cleanup=True, verbose=0, numThreads=threads)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print('PEER_MEM %d' % (peak - rss0), flush=True)
EOF
if "$PY" -c 'import openEMS, CSXCAD' 2>/dev/null; then
    : >"$work/oems.rates"
    for r in $(seq "$REPEAT"); do
        "$PY" "$work/peer_openems.py" "$N" "$STEPS" "$THREADS" "$work/oems_run" >"$work/oems.log" 2>&1
        # openEMS prints "Time for S iterations with C cells : T sec" for the time stepping
        t=$(sed -n 's/^Time for .* cells : \([0-9.e+-]*\) sec.*/\1/p' "$work/oems.log")
        [ -n "$t" ] && awk -v c="$cells" -v s="$STEPS" -v t="$t" 'BEGIN {print c * s / t / 1e6}' >>"$work/oems.rates"
    done
    engine=$(sed -n 's/^Create FDTD engine (\(.*\))/\1/p' "$work/oems.log" | head -1)
    mem=$(sed -n 's/^PEER_MEM //p' "$work/oems.log")
    if [ -s "$work/oems.rates" ] && [ -n "$mem" ]; then
        rows+=("openEMS ($engine, $THREADS threads)|$(median <"$work/oems.rates" | xargs printf '%.1f')|$(awk -v m="$mem" -v c="$cells" 'BEGIN {printf "%.1f|%.0f", m / c, m / 1048576}')")
    else
        rows+=("openEMS: run failed (see below)|-|-|-")
        tail -5 "$work/oems.log"
    fi
else
    rows+=("openEMS: not installed (apt-get install openems python3-openems)|-|-|-")
fi

# ---- Meep ----
cat >"$work/peer_meep.py" <<'EOF'
import resource, sys, time
import meep as mp
N, steps = int(sys.argv[1]), int(sys.argv[2])
res = 20                                        # 20 pixels per um: 0.05 um cells
L = N / res
rss0 = [int(l.split()[1]) * 1024 for l in open('/proc/self/status') if l.startswith('VmRSS')][0]
sim = mp.Simulation(cell_size=mp.Vector3(L, L, L), resolution=res,
                    boundary_layers=[mp.PML(10 / res)],
                    sources=[mp.Source(mp.GaussianSource(frequency=1.0, fwidth=0.3),
                                       component=mp.Ez, center=mp.Vector3())],
                    eps_averaging=False)
sim.init_sim()
for _ in range(max(1, steps // 10)):            # warm-up, as yee bench
    sim.fields.step()
t0 = time.time()
for _ in range(steps):
    sim.fields.step()
t = mp.max_to_all(time.time() - t0)
mem = mp.sum_to_all(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss0)
if mp.am_master():
    print('PEER_MEEP %.6f %d %d' % (t, mem, mp.count_processors()), flush=True)
EOF
if "$PY" -c 'import meep' >/dev/null 2>&1; then
    if "$PY" -c 'import meep, sys; sys.exit(0 if meep.with_mpi() else 1)' >/dev/null 2>&1; then
        launch=("${MPIRUN[@]}" -np "$THREADS")
        how="$THREADS MPI ranks"
    else
        launch=()
        how="1 process: serial build; install python3-meep-mpi-default for $THREADS ranks"
    fi
    : >"$work/meep.rates"
    for r in $(seq "$REPEAT"); do
        "${launch[@]}" "$PY" "$work/peer_meep.py" "$N" "$STEPS" >"$work/meep.log" 2>&1
        read -r t mem np < <(sed -n 's/^PEER_MEEP //p' "$work/meep.log")
        [ -n "${t:-}" ] && awk -v c="$cells" -v s="$STEPS" -v t="$t" 'BEGIN {print c * s / t / 1e6}' >>"$work/meep.rates"
    done
    if [ -s "$work/meep.rates" ]; then
        rows+=("Meep $("$PY" -c 'import meep; print("V", meep.__version__)' 2>/dev/null | sed -n 's/^V //p') (double, $how)|$(median <"$work/meep.rates" | xargs printf '%.1f')|$(awk -v m="$mem" -v c="$cells" 'BEGIN {printf "%.1f|%.0f", m / c, m / 1048576}')")
    else
        rows+=("Meep: run failed (see below)|-|-|-")
        tail -5 "$work/meep.log"
    fi
else
    rows+=("Meep: not installed (apt-get install python3-meep-mpi-default)|-|-|-")
fi

printf '\n%d^3 cells, 10-cell PML, 1 dipole, %d steps, %d cores, median of %d runs\n' \
    "$N" "$STEPS" "$THREADS" "$REPEAT"
printf '%-58s %10s %8s %9s\n' "code" "Mcells/s" "B/cell" "MiB"
for row in "${rows[@]}"; do
    IFS='|' read -r name rate bpc mib <<<"$row"
    printf '%-58s %10s %8s %9s\n' "$name" "$rate" "$bpc" "$mib"
done
