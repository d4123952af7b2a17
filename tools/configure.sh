#!/bin/sh
# configure.sh BUILD_DIR CMAKE_ARGS...: cmake's configure step for the
# Makefile, quietly. Its whole output goes to BUILD_DIR/configure.log;
# what manycoll's configure says about this machine (the libraries found,
# the MPI variants built and skipped, and why) is printed; on failure, the
# error, which names the package to install.
set -u
build=$1
shift
mkdir -p "$build"
log="$build/configure.log"
if cmake -S . -B "$build" "$@" >"$log" 2>&1; then
    grep '^-- manycoll: ' "$log" | sed 's/^-- manycoll: /   /' | sort -u
    exit 0
fi
echo "configure failed (the whole log: $log):" >&2
sed -n '/CMake Error/,$p' "$log" | grep -v '^-- Configuring incomplete' >&2
exit 1
