# Thin wrapper around CMake. `make run` installs what is missing, builds and runs the example
# deck; `make test` builds and runs every test. BUILD, CMAKE_ARGS and JOBS may be overridden.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
OUT ?= out

.PHONY: all deps configure build run test test-validation clean

all: build

deps:
	sh scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_ARGS)

configure: $(BUILD)/CMakeCache.txt

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/yee run inputs/dipole.cfg --out $(OUT)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD) $(OUT)
