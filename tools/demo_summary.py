#!/usr/bin/env python3
"""The end of `make demo`: what its numbers say, in a few sentences.

    demo_summary.py DIR RANKS

DIR holds `sim` (the table of `manycoll sim` with several --algo),
bench-COLL (the text of `manycoll bench`, one per collective), rep-1 ...
(`manycoll bench --coll allreduce --json`, repeated) and `load`
(/proc/loadavg before and after the repetitions).

A time measured on a shared or loaded machine can be off by 100x from
one minute to the next, and it is the first number a newcomer sees about
their machine: the summary quotes the median of the repetitions with
their spread, and no per-call time at all when the spread is too wide
for one to mean anything."""
import glob
import json
import os
import statistics
import sys

# no time is quoted above these: the repetitions' medians max/min, and
# within the repetitions the median of p90/p50 (calls that waited for a
# CPU)
TOO_WIDE = 2.0
TOO_TAILED = 3.0


def sim_table(path):
    """{(algo, bytes): (lat_us, MB/s)} from manycoll sim's side-by-side
    table: a line of algorithm names, a line of column names, the rows
    (bytes, then lat_us MB/s for the first algorithm and lat_us MB/s
    ratio for each other)"""
    with open(path) as f:
        lines = [ln.split() for ln in f if ln.strip()
                 and not ln.startswith("#")]
    algos = [a.split(":")[0] for a in lines[0]]
    out = {}
    for c in lines[2:]:
        for i, a in enumerate(algos):
            at = 1 if i == 0 else 3 * i
            out[(a, int(c[0]))] = (float(c[at]), float(c[at + 1]))
    return out


def bench_rows(path):
    """{bytes: algorithm} from manycoll bench's text table"""
    rows = {}
    with open(path) as f:
        for line in f:
            cols = line.split()
            if len(cols) >= 10 and cols[0].isdigit():
                rows[int(cols[0])] = cols[9]
    return rows


def repetitions(d):
    """{bytes: [(p50_us, p90_us) of each repetition]}"""
    reps = {}
    for path in sorted(glob.glob(os.path.join(d, "rep-*"))):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                reps.setdefault(r["bytes"], []).append((r["p50_us"],
                                                        r["p90_us"]))
    return reps


def unsteady(reps):
    """why the repetitions of one size do not give one time, or None"""
    ps = [p for p, _ in reps]
    lo, hi = min(ps), max(ps)
    if lo <= 0 or hi / lo > TOO_WIDE:
        return (f"the {len(ps)} repetitions' medians ranged from {lo:.2f} "
                f"to {hi:.2f} us")
    tail = statistics.median(p90 / p50 for p50, p90 in reps)
    if tail > TOO_TAILED:
        return (f"in each repetition the slowest tenth of the calls took "
                f"{tail:.0f}x the median or more")
    return None


def load(d):
    """the 1-minute load averages before and after the repetitions (the
    demo's own ranks add little: a few seconds of the minute)"""
    try:
        with open(os.path.join(d, "load")) as f:
            return [float(ln.split()[0]) for ln in f if ln.strip()]
    except (OSError, ValueError, IndexError):
        return []


def timing(size, reps, busy):
    """one size's sentence: the median and spread, or why not"""
    what = f"{size} bytes" if size < 1024 else f"{size >> 10} KiB"
    ps = [p for p, _ in reps]
    why = unsteady(reps) or (busy and "the ranks waited for busy CPUs "
                             f"(they took {min(ps):.2f} to {max(ps):.2f} "
                             "us)")
    if why:
        return f"an allreduce of {what}: no time to quote, {why}"
    return (f"an allreduce of {what} took {statistics.median(ps):.2f} us "
            f"(median of {len(ps)} repetitions of 200 calls; their "
            f"medians {min(ps):.2f} to {max(ps):.2f} us)")


def main():
    d, ranks = sys.argv[1], sys.argv[2]
    sim = sim_table(os.path.join(d, "sim"))
    oc, bi = sim[("ocbcast", 32)], sim[("binomial", 32)]
    big = max(b for (_, b) in sim)
    ocb, sag = sim[("ocbcast", big)], sim[("scatter-allgather", big)]
    same = oc[0] < bi[0] and ocb[1] > sag[1]
    print("== what this run shows ==")
    print(f"- On the simulated SCC, OC-Bcast broadcast one cache line in "
          f"{oc[0]:.1f} us against {bi[0]:.1f} us for the binomial tree "
          f"({bi[0] / oc[0]:.2f}x), and {big >> 10} KiB at {ocb[1]:.1f} "
          f"MB/s against {sag[1]:.1f} MB/s for scatter-allgather "
          f"({ocb[1] / sag[1]:.1f}x): "
          f"{'the paper' if same else 'not the paper'}'s ordering, from "
          f"the same algorithm code that runs on shared memory "
          f"(docs/papers/ocbcast.md compares every number). Simulated "
          f"times are the same on every run and every machine.")
    ar = bench_rows(os.path.join(d, "bench-allreduce"))
    reps = repetitions(d)
    small, large = min(reps), max(reps)
    la = load(d)
    cpus = os.cpu_count() or 1
    # more runnable processes than CPUs: the ranks wait for them
    busy = bool(la) and max(la) > cpus
    state = (f"load average {max(la):.1f} on {cpus} CPUs"
             f"{': busy' if busy else ''}" if la else
             "load average unknown")
    wide = any(unsteady(r) for r in reps.values())
    print(f"- On this machine ({state}), {ranks} ranks: "
          f"{timing(small, reps[small], busy)}; "
          f"{timing(large, reps[large], busy)}. "
          f"The library picks an algorithm per size ({ar.get(small, '?')} "
          f"at {small} bytes, {ar.get(large, '?')} at {large >> 10} KiB; "
          f"`manycoll info --tuning -n {ranks}` says why).")
    print(f"- {'These times mean little. ' if busy or wide else ''}"
          f"Times measured on a shared or loaded machine vary by 10x or "
          f"more from one minute to the next (the ranks wait for CPUs, and "
          f"move between them). To measure properly: an idle machine, many "
          f"more calls (`manycoll bench -n {ranks} --coll allreduce --sizes "
          f"8 --iters 20000`), repeated, and algorithms compared in the "
          f"same run (several --algo interleave call by call); "
          f"docs/benchmarks.md says how its numbers were taken.")
    print("- Next: docs/guide.md to write a program; `manycoll sim --help` "
          "for other chips; `LD_PRELOAD` of libmanycoll_mpi for MPI "
          "programs (docs/mpi.md).")


if __name__ == "__main__":
    main()
