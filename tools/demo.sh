#!/bin/sh
# make demo: what manycoll does, in one run.
#  1. broadcast on the simulated 48-core Intel SCC: OC-Bcast against the
#     RCCE_comm binomial and scatter-allgather broadcasts (the OC-Bcast
#     paper's comparison, docs/papers/ocbcast.md)
#  2. every collective measured on this machine's cores (manycoll bench)
#  3. what to take away, computed from 1 and 2 (tools/demo_summary.py)
set -e
build=${1:-build}
mc="$build/manycoll"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== simulated Intel SCC (scc48, 48 cores): broadcast from core 0 =="
echo "   (manycoll sim --platform scc48 --coll bcast --algo A --sizes ...)"
python3 tools/sim_table.py --json "$mc" scc48 bcast 32,3K,3104,32K,1M \
    ocbcast:k=7 binomial scatter-allgather > "$out/sim"
grep -v '^{' "$out/sim"
echo "   paper (measured on the SCC): 1 line OC-Bcast k=7 16.6 us, binomial"
echo "   21.6 us; peak throughput OC-Bcast about 3x scatter-allgather"
echo
n=$(nproc)
[ "$n" -lt 2 ] && n=2
echo "== this machine: $n ranks, one per core (manycoll bench) =="
echo "   (columns: manycoll bench --help; a call's time is its slowest rank's)"
for coll in barrier bcast reduce allreduce allgather alltoall \
            reduce_scatter_block gather scatter; do
    "$mc" bench -n "$n" --coll "$coll" --sizes 8,1K,64K,1M --iters 200 |
        tee "$out/bench-$coll"
    echo
done
python3 tools/demo_summary.py "$out" "$n"
