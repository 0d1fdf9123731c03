#!/bin/sh
# usage: run_fuzz.sh SOURCE_DIR WORK_DIR SECONDS
# Builds the deck fuzzer with clang (libFuzzer + AddressSanitizer + UBSan) in WORK_DIR/build and
# runs it for SECONDS on a corpus seeded from inputs/, tests/deck/ and tests/fuzz/corpus/.
# Exits non-zero when it finds a crash; the input that crashed is left in WORK_DIR/crash-*:
# add it to tests/fuzz/corpus/ (and a deck test) once fixed. For longer runs by hand:
#   sh tests/fuzz/run_fuzz.sh . /tmp/fuzz 3600
set -eu
src=$(cd "$1" && pwd)
work=$2
seconds=$3
command -v clang >/dev/null 2>&1 || { echo "run_fuzz: clang not found (scripts/install-deps.sh)"; exit 1; }
mkdir -p "$work/corpus"
cmake -S "$src" -B "$work/build" -DCMAKE_C_COMPILER=clang -DYEE_FUZZ=ON -DYEE_CUDA=OFF \
    -DYEE_NATIVE=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" --target yee_fuzz_deck -j 2 > "$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log"; exit 1; }
cp "$src"/inputs/*.cfg "$src"/tests/deck/*.cfg "$src"/tests/fuzz/corpus/* "$work/corpus/" 2>/dev/null || true
cd "$work"
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export LSAN_OPTIONS=suppressions=$src/tests/lsan.supp
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
./build/tests/yee_fuzz_deck -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 corpus > fuzz.log 2>&1 || status=$?
tail -25 fuzz.log
if [ "$status" -ne 0 ]; then
    echo "FAIL fuzz_deck (exit $status; the crashing input is $work/crash-*)"
    exit 1
fi
echo "PASS fuzz_deck ($seconds s, no crash)"
