# Thin wrapper around CMake. `make run` installs what is missing, builds and runs the example
# deck; `make test` builds and runs every test. BUILD, CMAKE_ARGS and JOBS may be overridden.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
OUT ?= out

.PHONY: all deps configure build run test test-emulated test-asan test-valgrind test-mutation clean

all: build

deps:
	sh scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_ARGS)

configure: $(BUILD)/CMakeCache.txt

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

# The example ends with pictures: the spectrum at the far probe and the xy plane at 13 fs.
run: build
	$(BUILD)/yee run inputs/dipole.cfg --out $(OUT)
	/usr/bin/python3 postproc/plot_spectrum.py $(OUT)/dipole.h5 --probe far --out $(OUT)/dipole_spectrum.png
	/usr/bin/python3 postproc/plot_snapshot.py $(OUT)/dipole.h5 --monitor xy --step 140 --percentile 99 --out $(OUT)/dipole_xy.png

# Every test of the main build (where no GPU is present its `gpu` tests skip), then the `gpu` tests
# again against the CUDA backend emulated on the CPU (-DYEE_CUDA=EMULATE, kernels/cuda/emu), where
# none skips: the real .cu code runs in every CI run.
test: build test-emulated
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

EMU_BUILD ?= build-emu
test-emulated: deps
	cmake -S . -B $(EMU_BUILD) -DYEE_CUDA=EMULATE $(CMAKE_ARGS)
	cmake --build $(EMU_BUILD) -j $(JOBS)
	cd $(EMU_BUILD) && ctest --output-on-failure -j $(JOBS) -L gpu

# AddressSanitizer + UBSan build of the solver with the emulated CUDA backend; runs the unit, deck
# and output tests, the `gpu` tests once (eager: every deck on both backends, the op-by-op
# comparison, CUDA ranks) and the cavity validation. Leak detection is off here: LeakSanitizer's
# stop-the-world tracer crashes on Open MPI's threads; leaks are checked by the fuzzer (no MPI)
# and by valgrind (tests/valgrind).
ASAN_BUILD ?= build-asan
ASAN_TESTS ?= unit|deck|gpu
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DYEE_SANITIZE=ON -DYEE_CUDA=EMULATE -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -L "$(ASAN_TESTS)" -E "fuzz|valgrind|deferred"
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -R "validation_cavity"

# Mutation testing of the physics (tests/mutation): one small bug at a time in a scratch copy,
# rebuilt incrementally in $(MUTATION_BUILD), against the tests that ought to catch it. Slow (all
# mutants: tens of minutes); .ci/run runs the cheap subset (MUTATION_ARGS=--ci).
MUTATION_BUILD ?= build-mutation
MUTATION_ARGS ?=
test-mutation: deps
	/usr/bin/python3 tests/mutation/run.py --work $(MUTATION_BUILD) $(MUTATION_ARGS)

# valgrind memcheck on two small runs (a build without -march=native: valgrind does not decode
# every AVX-512 instruction): the dipole example, and the deck that puts every kind of source and
# monitor inside the fused steps (TFSF lists, probes, DFT fields held by the sweep, snapshots).
VG_BUILD ?= build-vg
test-valgrind: deps
	cmake -S . -B $(VG_BUILD) -DYEE_NATIVE=OFF -DYEE_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(VG_BUILD) -j $(JOBS) --target yee
	sh tests/valgrind.sh $(VG_BUILD)/yee inputs/dipole.cfg $(VG_BUILD)/valgrind-dipole
	sh tests/valgrind.sh $(VG_BUILD)/yee tests/schedules_deck.cfg $(VG_BUILD)/valgrind-schedules \
	    --set simulation.steps=60

clean:
	rm -rf $(BUILD) $(OUT) $(EMU_BUILD) $(ASAN_BUILD) $(VG_BUILD)
