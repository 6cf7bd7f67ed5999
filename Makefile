# HeadLens front door: `make run`, `make test`, `make bench`. CMake presets do the work.
JOBS ?= $(shell nproc)
# CI builds treat warnings as errors, and build each library from a few large files
# (CMake's unity build: core and ui in 47% less compiler time, since every file parsed Eigen's
# and Qt's templates again); an engineer's own build (cmake --preset) keeps one object per file,
# which rebuilds faster after an edit and catches a missing #include.
WERROR := $(if $(CI),ON,OFF)
UNITY := $(if $(CI),ON,OFF)
CONFIGURE_FLAGS := -DHEADLENS_WERROR=$(WERROR) -DCMAKE_UNITY_BUILD=$(UNITY) \
  -DCMAKE_UNITY_BUILD_BATCH_SIZE=12

.PHONY: all deps build run test test-asan soak bench format clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	cmake --preset release $(CONFIGURE_FLAGS) >/dev/null
	cmake --build --preset release -j $(JOBS)

run: build
	@./scripts/run.sh build/release

test: build
	ctest --preset release

test-asan: deps
	cmake --preset asan $(CONFIGURE_FLAGS) >/dev/null
	cmake --build --preset asan -j $(JOBS)
	ctest --preset asan

# The long soak: SOAK_CHANGES random edits through the window's controls (tst_soak; `make test`
# runs 400). It prints the resident memory and the longest event-loop hold it saw.
# Then KILLS kills of a process saving a workspace, a toy model and exports (tst_killedsaves;
# `make test` kills it 20 times).
SOAK_CHANGES ?= 5000
KILLS ?= 1000
soak: build
	QT_QPA_PLATFORM=offscreen HEADLENS_SOAK_CHANGES=$(SOAK_CHANGES) ./build/release/tests/tst_soak
	QT_QPA_PLATFORM=offscreen HEADLENS_KILLS=$(KILLS) ./build/release/tests/tst_killedsaves

bench: build
	cmake --build --preset release --target headlens-bench -j $(JOBS)
	./build/release/app/bench/headlens-bench --json build/release/bench.json

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf build
