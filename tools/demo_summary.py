#!/usr/bin/env python3
"""The end of `make demo`: what its numbers say, in a few sentences.

    demo_summary.py DIR RANKS

DIR holds `sim` (tools/sim_table.py --json output) and bench-COLL (the
text of `manycoll bench`, one per collective)."""
import json
import os
import sys


def bench_rows(path):
    """{bytes: (p50_us, algorithm)} from manycoll bench's text table"""
    rows = {}
    with open(path) as f:
        for line in f:
            cols = line.split()
            if len(cols) >= 10 and cols[0].isdigit():
                rows[int(cols[0])] = (float(cols[4]), cols[9])
    return rows


def main():
    d, ranks = sys.argv[1], sys.argv[2]
    sim = {}
    with open(os.path.join(d, "sim")) as f:
        for line in f:
            if line.startswith("{"):
                r = json.loads(line)
                sim[(r["algo"].split(":")[0], r["bytes"])] = r
    oc, bi = sim[("ocbcast", 32)], sim[("binomial", 32)]
    big = max(b for (_, b) in sim)
    ocb, sag = sim[("ocbcast", big)], sim[("scatter-allgather", big)]
    same = oc["lat_us"] < bi["lat_us"] and ocb["bw_MBps"] > sag["bw_MBps"]
    ar = bench_rows(os.path.join(d, "bench-allreduce"))
    small, large = min(ar), max(ar)
    print("== what this run shows ==")
    print(f"- On the simulated SCC, OC-Bcast broadcast one cache line in "
          f"{oc['lat_us']:.1f} us against {bi['lat_us']:.1f} us for the "
          f"binomial tree ({bi['lat_us'] / oc['lat_us']:.2f}x), and "
          f"{big >> 10} KiB at {ocb['bw_MBps']:.1f} MB/s against "
          f"{sag['bw_MBps']:.1f} MB/s for scatter-allgather "
          f"({ocb['bw_MBps'] / sag['bw_MBps']:.1f}x): "
          f"{'the paper' if same else 'not the paper'}'s ordering, from "
          f"the same algorithm code that runs on shared memory "
          f"(docs/papers/ocbcast.md compares every number).")
    print(f"- On this machine, {ranks} ranks: an allreduce of {small} bytes "
          f"took {ar[small][0]:.2f} us (median) with {ar[small][1]}, one of "
          f"{large >> 10} KiB {ar[large][0]:.0f} us with {ar[large][1]}: "
          f"the library picks an algorithm per size (`manycoll info "
          f"--tuning -n {ranks}` says which and why).")
    print("- Next: docs/guide.md to write a program; `manycoll sim --help` "
          "for other chips; `LD_PRELOAD` of libmanycoll_mpi for MPI "
          "programs (docs/mpi.md).")


if __name__ == "__main__":
    main()
