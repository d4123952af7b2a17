#!/bin/sh
# make demo: what manycoll does, in one run.
#  1. broadcast on the simulated 48-core Intel SCC: OC-Bcast against the
#     RCCE_comm binomial and scatter-allgather broadcasts (the OC-Bcast
#     paper's comparison, docs/papers/ocbcast.md), side by side by
#     `manycoll sim` with three --algo
#  2. every collective measured on this machine's cores (manycoll bench),
#     then the 8-byte and 1 MiB allreduce measured again, 5 times, with
#     the load average before and after: the summary quotes their median
#     and spread, or refuses to when the spread says the number means
#     nothing
#  3. what to take away, computed from 1 and 2 (tools/demo_summary.py)
set -e
build=${1:-build}
mc="$build/manycoll"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sim="--platform scc48 --coll bcast --algo ocbcast:k=7 --algo binomial
     --algo scatter-allgather --sizes 32,3K,3104,32K,1M"
echo "== simulated Intel SCC (scc48, 48 cores): broadcast from core 0 =="
echo "   (manycoll sim" $sim")"
# the progress on stderr is shown only if the simulation fails
"$mc" sim $sim > "$out/sim" 2> "$out/sim.err" || { cat "$out/sim.err"; exit 1; }
cat "$out/sim"
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
# the summary's numbers: 5 repetitions, the machine's load around them
cat /proc/loadavg > "$out/load" 2>/dev/null || :
for r in 1 2 3 4 5; do
    "$mc" bench -n "$n" --coll allreduce --sizes 8,1M --iters 200 --json \
        > "$out/rep-$r"
done
cat /proc/loadavg >> "$out/load" 2>/dev/null || :
python3 tools/demo_summary.py "$out" "$n"
