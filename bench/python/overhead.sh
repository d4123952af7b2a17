#!/bin/sh
# bench/python/overhead.sh [BUILD]: per-call cost of an 8-byte allreduce
# from Python (docs/benchmarks.md, "Python binding: per-call overhead").
# Builds the nanobind candidate (bench/python) and a limited-API (stable
# ABI) build of manycoll._core in BUILD-abi3, mpi4py for each MPI, then
# runs overhead.py on 2 ranks: under Open MPI with the full-API and the
# limited-API binding, and under MPICH. Needs `make build` and
# `pip install nanobind`.
set -e
build=${1:-build}
py=$(python3 -c 'import sys; print(sys.executable)')
cmake -S bench/python -B "$build/bench-python" -DCMAKE_BUILD_TYPE=Release \
    -DPython_EXECUTABLE="$py" >/dev/null
cmake --build "$build/bench-python" -j 2 >/dev/null
cmake -S . -B "$build-abi3" -DMC_PYTHON=ON -DMC_BENCH_MPI=OFF \
    -DPython_EXECUTABLE="$py" -DMC_PY_LIMITED_API=0x030B0000 >/dev/null
cmake --build "$build-abi3" -j 2 --target manycoll_py >/dev/null
python/tests/build_mpi4py.sh "$py" "$build"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 MC_TUNING=none
rounds=${ROUNDS:-101}
run() { # mpi package-dir label
    PYTHONPATH="$2/python:$build/bench-python:$build/mpi4py-$1" \
        "mpiexec.$1" -n 2 "$py" bench/python/overhead.py --rounds "$rounds" \
        --calls 2000 --label "$3"
}
run openmpi "$build" "Open MPI, full API"
run openmpi "$build-abi3" "Open MPI, limited API (abi3)"
run mpich "$build" "MPICH, full API"
