#!/bin/sh
# build_mpi4py.sh PYTHON DIR: mpi4py built from source against each
# installed MPI (mpicc.openmpi, mpicc.mpich) into DIR/mpi4py-<mpi>, for
# test_mpi.py. A pip cache would hand the second MPI the first one's
# build, hence --no-cache-dir.
py=$1; dir=$2
set -e
for mpi in openmpi mpich; do
    command -v mpicc.$mpi >/dev/null 2>&1 || continue
    [ -d "$dir/mpi4py-$mpi/mpi4py" ] && continue
    echo "building mpi4py for $mpi into $dir/mpi4py-$mpi"
    MPICC=mpicc.$mpi "$py" -m pip install -q --no-cache-dir \
        --no-binary mpi4py --target "$dir/mpi4py-$mpi" mpi4py
done
