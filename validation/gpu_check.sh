#!/usr/bin/env bash
# The one device check of yee (issue 3), for a machine with an NVIDIA GPU, run from the repo root:
#   bash validation/gpu_check.sh
# 1. builds yee with the CUDA backend for this GPU (Release, float);
# 2. runs the `gpu` tests (those the emulated build runs in CI, now on the device): every op of
#    kernels/backend.h against the CPU backend, every example and validation deck bit for bit,
#    parity after 500 steps, checkpoints, and CUDA ranks with host and device halo buffers;
# 2b. runs compute-sanitizer (memcheck, racecheck, synccheck) over the op-by-op test and short runs
#    of decks that use every kernel (CPML, PEC, periodic, dispersive, one cell wide, TFSF, DFT,
#    snapshots, two MPI ranks): what the emulation cannot see (device faults, races inside a
#    kernel, illegal barriers) (docs/design.md "The CUDA emulation");
# 3. runs the validation cases with the default backend (auto = CUDA here), so the physics
#    checks of docs/validation.md also hold on the GPU;
# 4. prints `yee info` and `yee bench` for both backends, including the device's measured copy
#    bandwidth (cudaMemcpy device-to-device in the same process) and the fraction achieved.
# Where the machine lacks Open MPI, parallel HDF5, libconfig or libharminv (the lent H100/H200
# machines do, and reach no package archive), it uses .gpu/bundle.tgz made here beforehand by
# validation/gpu_bundle.sh (YEE_FORCE_BUNDLE=1 uses the bundle even where the libraries exist,
# to test it). Meant to finish in under 8 minutes on an H100.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stamp() { echo "== $* ($(( $(date +%s) - start )) s)"; }

cmake_extra=()
if [ -n "${YEE_FORCE_BUNDLE:-}" ] || ! pkg-config --exists libconfig hdf5-openmpi harminv 2>/dev/null; then
    if [ ! -f .gpu/bundle.tgz ]; then
        echo "gpu_check: missing libraries and no .gpu/bundle.tgz (run validation/gpu_bundle.sh)"
        exit 1
    fi
    root=/tmp/yee-bundle
    rm -rf "$root" && mkdir -p "$root" && tar xzf .gpu/bundle.tgz -C "$root"
    export OPAL_PREFIX=$root/usr           # relocated Open MPI finds its components here
    export PATH=$root/usr/bin:$PATH
    export LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu/hdf5/openmpi:$root/usr/lib:$root/usr/lib/x86_64-linux-gnu/blas:$root/usr/lib/x86_64-linux-gnu/lapack${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export PKG_CONFIG=$root/usr/bin/pkgconf
    export PKG_CONFIG_LIBDIR=$root/usr/lib/x86_64-linux-gnu/pkgconfig:$root/usr/share/pkgconfig
    export PKG_CONFIG_SYSROOT_DIR=$root
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    cmake_extra+=(-DMPI_C_COMPILER=$root/usr/bin/mpicc.openmpi -DPKG_CONFIG_EXECUTABLE=$root/usr/bin/pkgconf)
    stamp "using the carried library bundle in $root"
fi
export PATH=/usr/local/cuda/bin:$PATH

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
archs=${cap:-90}

stamp "configure and build (CUDA arch $archs)"
mkdir -p build-gpu
log=build-gpu/build.log
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DYEE_CUDA=ON -DYEE_CUDA_ARCHS="$archs" \
    "${cmake_extra[@]}" > $log 2>&1 &&
    cmake --build build-gpu -j "$(nproc)" >> $log 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    tail -40 $log
    echo "gpu_check: build failed"
    exit 1
fi
./build-gpu/yee info

stamp "gpu tests (every op and deck against the CPU backend, parity, checkpoints, CUDA ranks)"
# the _deferred variants differ from the others only in the emulated build
(cd build-gpu && ctest -L gpu -E _deferred -j 4 --output-on-failure --timeout 300 2>&1 |
    grep -E "^(PASS|FAIL|SKIP)|tests passed|Failed|Skipped|\*\*\*")
gpu_rc=${PIPESTATUS[0]}

stamp "compute-sanitizer over the op-by-op test and short deck runs"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/compute-sanitizer/compute-sanitizer)
if [ -x "$san" ]; then
    short=(--quiet --backend cuda)
    checked() { # LABEL COMMAND...: a line per run; a failure sets san_rc
        local label=$1
        shift
        local out
        out=$(timeout 240 "$@" 2>&1)
        local rc=$?
        if [ $rc -eq 0 ]; then
            echo "PASS compute-sanitizer $label"
        else
            echo "FAIL compute-sanitizer $label (exit $rc)"
            echo "$out" | grep -E "=========|rror" | head -20
            san_rc=1
        fi
    }
    sanitize() { # TOOL LABEL COMMAND...
        local tool=$1 label=$2
        shift 2
        checked "$tool: $label" "$san" --tool "$tool" --error-exitcode 9 "$@"
    }
    san_rc=0
    rm -rf build-gpu/sanitize
    for tool in memcheck racecheck synccheck; do
        sanitize $tool "op-by-op test" ./build-gpu/tests/yee_test_gpu_ops
    done
    # box.cfg is 120 steps long; the others, given as a time in fs, are cut to a few hundred steps
    sanitize memcheck tests/mpi/box.cfg ./build-gpu/yee run tests/mpi/box.cfg "${short[@]}" \
        --out build-gpu/sanitize/box
    for deck in validation/drude/drude.cfg validation/tfsf/tfsf.cfg \
                validation/slab/slab_flux.cfg inputs/dipole.cfg; do
        sanitize memcheck "$deck" ./build-gpu/yee run "$deck" "${short[@]}" \
            --set simulation.time=10 --out build-gpu/sanitize/"$(basename "$deck" .cfg)"
    done
    checked "memcheck: tests/mpi/box.cfg on 2 ranks" mpirun --oversubscribe --allow-run-as-root \
        -np 2 "$san" --tool memcheck --error-exitcode 9 ./build-gpu/yee run tests/mpi/box.cfg \
        "${short[@]}" --ranks 2x1x1 --out build-gpu/sanitize/mpi
    [ $san_rc -ne 0 ] && gpu_rc=1
else
    echo "gpu_check: compute-sanitizer not found (looked on PATH and in /usr/local/cuda)"
fi

stamp "validation cases on the default backend (auto: CUDA)"
(cd build-gpu && ctest -L validation -j 4 --output-on-failure --timeout 300 2>&1 | grep -E "^PASS|^FAIL|tests passed|Failed")

stamp "yee bench, CUDA, 512^3"
./build-gpu/yee bench --backend cuda --size 512 --steps 200 --repeat 5
stamp "yee bench, CUDA, 256^3"
./build-gpu/yee bench --backend cuda --size 256 --steps 200 --repeat 5
stamp "yee bench, CUDA, 2 ranks on this machine's GPUs, 256^3 per rank (halo exchange, weak)"
mpirun --oversubscribe --allow-run-as-root -np 2 ./build-gpu/yee bench --backend cuda --size 256 \
    --steps 200 --repeat 3 --weak --ranks 2x1x1
stamp "yee bench, CPU ($(nproc) threads), 128^3"
OMP_PROC_BIND=close OMP_PLACES=cores ./build-gpu/yee bench --backend cpu --size 128 --steps 50 --repeat 3
stamp "done"
exit $gpu_rc
