#!/bin/sh
# make demo: what manycoll does, in one run.
#  1. every collective measured on this machine's cores (manycoll bench)
set -e
build=${1:-build}
mc="$build/manycoll"
n=$(nproc)
[ "$n" -lt 2 ] && n=2
echo "== manycoll on this machine: $n ranks, one per core (manycoll bench) =="
for coll in barrier bcast reduce allreduce allgather alltoall \
            reduce_scatter_block gather scatter; do
    "$mc" bench -n "$n" --coll "$coll" --sizes 8,1K,64K,1M --iters 200
    echo
done
