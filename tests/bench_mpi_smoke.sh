#!/bin/sh
# bench_mpi_smoke.sh MPIEXEC PROGRAM
# Runs bench/mpi_compare at 2 ranks on a few tiny cases and checks only
# that every case ran and verified (both libraries' results agree with each
# other and with the expected values). Never looks at timings. Exits 77
# (skipped) when MPI was not found at configure time or mpiexec is missing.
mpiexec=$1; prog=$2
if [ "$prog" = none ] || [ ! -x "$prog" ]; then
    echo "bench_mpi_smoke: SKIP: mpicc was not found when configuring"
    exit 77
fi
if ! command -v "$mpiexec" >/dev/null 2>&1; then
    echo "bench_mpi_smoke: SKIP: no mpiexec ('$mpiexec')"
    exit 77
fi
# Open MPI: allowed as root (CI containers), and on a one-core machine
# two ranks are an oversubscription it would otherwise refuse. MPICH
# ignores these variables.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# --help: the usage with every option docs/mpi.md uses, exit 0
if ! "$mpiexec" -n 1 "$prog" --help >"$out" || ! grep -q -- '--sides A,B' "$out"
then
    echo "bench_mpi_smoke: mpi_compare --help: not exit 0 with --sides" >&2
    cat "$out"
    exit 1
fi
"$mpiexec" -n 2 "$prog" --colls barrier,bcast,allreduce,alltoall,reduce_scatter_block \
    --sizes 8,1K --iters 20 --warmup 2 --json --quiet >"$out"
status=$?
cat "$out"
if [ "$status" -ne 0 ]; then
    echo "bench_mpi_smoke: mpi_compare exited with status $status" >&2
    exit 1
fi
# barrier once, the four others at two sizes each
want=9
got=$(grep -c '"verified":true' "$out")
if [ "$got" -ne "$want" ]; then
    echo "bench_mpi_smoke: $got verified cases, expected $want" >&2
    exit 1
fi
echo "bench_mpi_smoke: $got cases verified"
