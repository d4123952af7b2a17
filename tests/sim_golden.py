#!/usr/bin/env python3
"""Expected-output tests of `manycoll sim`: simulated time is deterministic,
so the numbers of a few runs are fixed (tests/data/sim_golden.json), and a
run repeated gives the same output bit for bit.

    sim_golden.py MANYCOLL [--update]

--update rewrites the golden file from the current simulator: do it only
when a change of the cost model is intended, and say so in the commit."""
import json
import os
import subprocess
import sys

CASES = [
    "--platform scc48 --coll bcast --algo binomial --sizes 32,8K",
    "--platform scc48 --coll bcast --algo scatter-allgather --sizes 32K "
    "--contention none",
    "--platform scc48 --coll allreduce --algo ring --sizes 4K --root 0",
    "--platform tilepro64 --coll barrier",
    "--platform mesh8x8 --coll alltoall --sizes 1K --contention all",
    "--platform scc48 --coll reduce --sizes 1K --root 47 --jitter 3",
]
# fields that must not change (wall-clock ones are left out)
FIELDS = ["algo", "bytes", "lat_us", "bw_MBps", "done_min_us",
          "done_max_us", "done_stdev_us", "events", "ops", "lines"]
GOLDEN = os.path.join(os.path.dirname(__file__), "data", "sim_golden.json")


def run(mc, case):
    out = subprocess.run([mc, "sim", "--json", "--check"] + case.split(),
                         capture_output=True, text=True, check=True).stdout
    return [{k: json.loads(line)[k] for k in FIELDS}
            for line in out.splitlines() if line.startswith("{")]


def main():
    mc = sys.argv[1]
    got = {}
    for case in CASES:
        first, second = run(mc, case), run(mc, case)
        if first != second:
            print(f"NOT DETERMINISTIC: {case}\n  {first}\n  {second}")
            return 1
        got[case] = first
    if "--update" in sys.argv:
        with open(GOLDEN, "w") as f:
            json.dump(got, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"wrote {GOLDEN}")
        return 0
    with open(GOLDEN) as f:
        want = json.load(f)
    bad = 0
    for case in CASES:
        if got[case] != want.get(case):
            bad += 1
            print(f"CHANGED: manycoll sim {case}\n  now:    {got[case]}\n"
                  f"  golden: {want.get(case)}")
    print(f"sim_golden: {len(CASES)} runs, each repeated identically; "
          f"{len(CASES) - bad} match the golden numbers")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
