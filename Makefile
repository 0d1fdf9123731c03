# Thin wrapper around CMake. `make run` installs what is missing, builds and runs the example
# deck; `make test` builds and runs every test. BUILD, CMAKE_ARGS and JOBS may be overridden.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
OUT ?= out

.PHONY: all deps configure build run test test-asan test-valgrind clean

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

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# AddressSanitizer + UBSan build of the CPU solver; runs the unit, deck and output tests and the
# cavity validation. Leak detection is off here: LeakSanitizer's stop-the-world tracer crashes
# on Open MPI's threads; leaks are checked by the fuzzer (no MPI) and by valgrind (tests/valgrind).
ASAN_BUILD ?= build-asan
ASAN_TESTS ?= unit|deck
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DYEE_SANITIZE=ON -DYEE_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -L "$(ASAN_TESTS)" -E "fuzz|valgrind"
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -R "validation_cavity"

# valgrind memcheck on one small run (a build without -march=native: valgrind does not decode
# every AVX-512 instruction).
VG_BUILD ?= build-vg
test-valgrind: deps
	cmake -S . -B $(VG_BUILD) -DYEE_NATIVE=OFF -DYEE_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(VG_BUILD) -j $(JOBS) --target yee
	sh tests/valgrind.sh $(VG_BUILD)/yee inputs/dipole.cfg $(VG_BUILD)/valgrind-dipole

clean:
	rm -rf $(BUILD) $(OUT) $(ASAN_BUILD) $(VG_BUILD)
