# `make deps` installs what the build needs with apt-get, dnf or brew
# (tools/deps.sh: prints the packages and the command first; `make deps
# DEPS=--print` prints only). The two commands of the README:
#   make demo   builds, then runs the main job
#   make test   builds with gcc and runs every test but the long ones;
#               builds with clang, ASan and UBSan (clang's warnings as
#               errors too) and runs the tests labelled asan there; runs
#               the thread tests under TSan
# and `make install PREFIX=DIR`. `make golden` rewrites the golden outputs
# (tests/sim_golden.py, tests/select_golden.py); `make docs` rewrites the
# generated parts of docs/ (the rule table of docs/selection.md, from
# src/select/select.c; the test select_rules_doc checks it); `make mutants` puts
# deliberate bugs back one at a time, in a scratch copy, and checks that
# the tests catch each (tests/mutants/run.py; not part of `make test`).
# `make repro` runs the long tests (label long: the full paper sweeps, the
# thousand-core walk); CI runs it after `make test`. `make icount-check`
# counts instructions and cache lines touched per small call (barrier,
# 8-byte allreduce, bcast, reduce at 2 ranks, under valgrind) against
# bench/icount_baseline.json and names the calls that regressed
# (bench/icount_check.py; ICOUNT_ARGS=--rewrite records a new baseline).

BUILD ?= build
ASAN_BUILD ?= build-asan
CLANG_BUILD ?= build-clang
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
# the Python package (python/, docs/python.md): built and tested when
# $(PYTHON) has Cython; CI says MC_PYTHON=ON so that a missing one fails
PYTHON ?= python3
MC_PYTHON ?= $(shell $(PYTHON) -c 'import Cython' >/dev/null 2>&1 && echo ON || echo OFF)
PYTHON_EXE := $(shell $(PYTHON) -c 'import sys; print(sys.executable)' 2>/dev/null)

FUZZ_BUILD ?= build-fuzz
TSAN_BUILD ?= build-tsan
FUZZ_RUNS ?= 10000
CHAOS_FAULTS ?= 500
FUZZ_CC ?= $(shell command -v clang-14 || command -v clang)

.PHONY: all deps build build-asan build-clang demo test test-fast install clean \
	python-deps golden docs mutants fuzz tsan chaos repro icount-check

all: build

# the packages: tools/deps.sh [--print] [--yes] [build mpi python test]
DEPS ?=
deps:
	@./tools/deps.sh $(DEPS)

# warnings are errors here and in CI (MC_WERROR), not in a user's own
# cmake build
BUILD_ARGS = -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMC_WERROR=ON \
	-DMC_PYTHON=$(MC_PYTHON) -DPython_EXECUTABLE=$(PYTHON_EXE)
build:
	@./tools/configure.sh $(BUILD) $(BUILD_ARGS)
	@cmake --build $(BUILD) -j $(JOBS)

# ASan+UBSan, compiled by clang where there is one: the same build is the
# check of clang's warnings (as errors)
ASAN_CC ?= $(shell command -v clang-14 || command -v clang || echo cc)
build-asan:
	@CC=$(ASAN_CC) ./tools/configure.sh $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMC_SANITIZE=ON -DMC_WERROR=ON -DMC_BENCH_MPI=OFF >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

# the library, tools and tests compiled by clang without sanitizers,
# warnings as errors (only built; make test's ASan build is clang's too)
build-clang:
	@./tools/configure.sh $(CLANG_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMC_WERROR=ON -DMC_BENCH_MPI=OFF >/dev/null
	@cmake --build $(CLANG_BUILD) -j $(JOBS)

# the demo builds the library and the command only, a line per stage
# (the compiler's output in $(BUILD)/demo-build.log, shown on failure)
demo:
	@echo "== configuring ($(BUILD)/configure.log)"
	@./tools/configure.sh $(BUILD) $(BUILD_ARGS)
	@echo "== building the library and the command ($(BUILD)/demo-build.log)"
	@cmake --build $(BUILD) -j $(JOBS) --target manycoll_cmd \
	    >$(BUILD)/demo-build.log 2>&1 || { tail -30 $(BUILD)/demo-build.log; exit 1; }
	@./tools/demo.sh $(BUILD)

test-fast: build
	cd $(BUILD) && ctest --output-on-failure -j 2

test: build build-asan tsan
	cd $(BUILD) && ctest --output-on-failure -j 2 -LE long
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j 2 -L asan

# the long tests (label long), in the gcc build
repro: build
	cd $(BUILD) && ctest --output-on-failure -j 2 -L long

ICOUNT_ARGS ?=
icount-check:
	@./tools/configure.sh $(BUILD) $(BUILD_ARGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target manycoll icount_calls \
	    $(if $(findstring --mpi,$(ICOUNT_ARGS)),icount_calls_mpi_$(lastword $(ICOUNT_ARGS)) manycoll_mpi_$(lastword $(ICOUNT_ARGS))) \
	    >$(BUILD)/icount-build.log 2>&1 || { tail -30 $(BUILD)/icount-build.log; exit 1; }
	@bench/icount_check.py --build $(BUILD) $(ICOUNT_ARGS)

# what the Python package's build and tests need, into $(PYTHON)'s
# site-packages, and mpi4py for each installed MPI into $(BUILD)
python-deps:
	$(PYTHON) -m pip install -q numpy pytest ml_dtypes cython \
	    "scikit-build-core>=0.10" matplotlib
	python/tests/build_mpi4py.sh $(PYTHON_EXE) $(BUILD)

golden: build
	python3 tests/sim_golden.py $(BUILD)/manycoll --update
	python3 tests/select_golden.py $(BUILD)/manycoll --update

docs: build
	python3 tests/rules_doc.py $(BUILD)/tests/rules_doc docs/selection.md --update

mutants:
	python3 tests/mutants/run.py

# libFuzzer (clang, ASan+UBSan) on the platform, profile and tuning-file
# readers and the command line: FUZZ_RUNS inputs per target (tests/fuzz/)
fuzz:
	@test -n "$(FUZZ_CC)" || { echo "make fuzz needs clang (apt-get install clang libclang-rt-14-dev)"; exit 1; }
	@CC=$(FUZZ_CC) cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMC_SANITIZE=ON -DMC_FUZZ=ON -DMC_BENCH_MPI=OFF >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_platform fuzz_tuning fuzz_profile fuzz_args
	@tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_RUNS)

# ThreadSanitizer on the thread tests only (tests/harden.cmake)
tsan:
	@cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMC_TSAN=ON -DMC_BENCH_MPI=OFF -DMC_LTO=OFF >/dev/null
	@cmake --build $(TSAN_BUILD) -j $(JOBS) --target manycoll_cmd test_threads
	cd $(TSAN_BUILD) && ctest --output-on-failure -L tsan

# fault injection: CHAOS_FAULTS kills, stops and exits at random points of
# every collective, split and create (tests/harden/chaos.py)
chaos: build
	python3 tests/harden/chaos.py --build $(BUILD) --faults $(CHAOS_FAULTS)

# the installed files only (target installable), not the tests
install:
	@./tools/configure.sh $(BUILD) $(BUILD_ARGS)
	@cmake --build $(BUILD) -j $(JOBS) --target installable
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(CLANG_BUILD) $(FUZZ_BUILD) $(TSAN_BUILD)
