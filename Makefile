# HeadLens front door: `make run`, `make test`, `make bench`. CMake presets do the work.
JOBS ?= $(shell nproc)
# CI builds treat warnings as errors.
WERROR := $(if $(CI),ON,OFF)
CONFIGURE_FLAGS := -DHEADLENS_WERROR=$(WERROR)

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
SOAK_CHANGES ?= 5000
soak: build
	QT_QPA_PLATFORM=offscreen HEADLENS_SOAK_CHANGES=$(SOAK_CHANGES) ./build/release/tests/tst_soak

bench: build
	cmake --build --preset release --target headlens-bench -j $(JOBS)
	./build/release/app/bench/headlens-bench --json build/release/bench.json

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf build
