#!/usr/bin/env python3
"""Expected-output tests of `manycoll sim`: simulated time is deterministic,
so the numbers of every run are fixed (tests/data/sim_golden.json), and a
run repeated gives the same output bit for bit (checked on the hand-picked
runs and every 8th generated one).

The runs are a few hand-picked ones (contention models, jitter, a 64-core
mesh) and, generated from the registry (`manycoll info --json`), every
registered algorithm with its defaults and with each of its registered
variants, on a chip with MPBs (scc48) and a cache-coherent one (xeonphi60),
13 ranks, root 12, a few sizes, results checked. A new algorithm or
variant has no golden numbers until they are generated: the test fails and
says so.

    sim_golden.py MANYCOLL [--update | --hand-picked | --sample K]

--update (`make golden`) rewrites the golden file from the current
simulator: do it for a new algorithm or variant, or when a change of the
cost model is intended, and say so in the commit. --hand-picked runs only
the hand-picked runs (the ASan+UBSan build: the generated ones check
numbers, which the normal build does). --sample K runs every K-th
generated run (the radix heap's check in make test; all of them in `make
repro`)."""
import json
import os
import subprocess
import sys

HAND_PICKED = [
    "--platform scc48 --coll bcast --algo binomial --sizes 32,8K",
    "--platform scc48 --coll bcast --algo scatter-allgather --sizes 32K "
    "--contention none",
    "--platform scc48 --coll allreduce --algo ring --sizes 4K --root 0",
    "--platform tilepro64 --coll barrier",
    "--platform mesh8x8 --coll alltoall --sizes 1K --contention all",
    "--platform scc48 --coll reduce --sizes 1K --root 47 --jitter 3",
]
# the generated runs: small chips, a few sizes (one line, several MPB
# chunks on scc48's 8 KiB MPBs)
PLATFORMS = ["scc48", "xeonphi60"]
GENERATED = "--platform {plat} --ranks 13 --root 12 --coll {coll} " \
            "--algo {spec} --sizes 8,1000,20000"
# fields that must not change (wall-clock ones are left out): algo is the
# algorithm asked for, ran the one that ran (a fallback where the asked one
# cannot serve the 13 ranks: no single copy, no grid, no known places)
FIELDS = ["algo", "ran", "bytes", "lat_us", "bw_MBps", "done_min_us",
          "done_max_us", "done_stdev_us", "events", "ops", "lines"]
GOLDEN = os.path.join(os.path.dirname(__file__), "data", "sim_golden.json")
REGENERATE = "run `make golden` (tests/sim_golden.py MANYCOLL --update) " \
             "and commit tests/data/sim_golden.json"


def registry(mc):
    """(coll, spec) of every algorithm and each of its variants"""
    out = subprocess.run([mc, "info", "--json"], capture_output=True,
                         text=True, check=True).stdout
    specs = []
    for line in out.splitlines():
        a = json.loads(line)
        if "algo" not in a:
            continue  # an environment variable
        specs.append((a["coll"], a["algo"]))
        specs += [(a["coll"], f"{a['algo']}:{v}") for v in a["variants"]]
    if not specs:
        raise SystemExit("sim_golden: `manycoll info --json` lists no "
                         "algorithms")
    return specs


def cases(mc, hand_picked_only, sample=1):
    if hand_picked_only:
        return HAND_PICKED
    generated = [GENERATED.format(plat=p, coll=c, spec=s)
                 for c, s in registry(mc) for p in PLATFORMS]
    return HAND_PICKED + generated[::sample]


def run(mc, case):
    p = subprocess.run([mc, "sim", "--json", "--check"] + case.split(),
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: manycoll sim {case}: exit status "
                         f"{p.returncode}\n{p.stderr}")
    rows = [json.loads(line) for line in p.stdout.splitlines()
            if line.startswith("{")]
    for r in rows:
        # every core's first run is an event, and it comes before the end;
        # so does its time
        if not (r["ranks"] <= r["start_events"] <= r["events"] and
                0 < r["start_wall_s"] <= r["wall_s"] + 0.0005):
            raise SystemExit(f"FAIL: manycoll sim {case}: start_events "
                             f"{r['start_events']}, start_wall_s "
                             f"{r['start_wall_s']} against {r['ranks']} "
                             f"ranks, {r['events']} events, wall_s "
                             f"{r['wall_s']}")
    return [{k: r[k] for k in FIELDS} for r in rows]


def write(got):
    """one case per line, so that a change shows as a small diff"""
    with open(GOLDEN, "w") as f:
        f.write("{\n")
        keys = sorted(got)
        for i, k in enumerate(keys):
            f.write(f" {json.dumps(k)}: {json.dumps(got[k], sort_keys=True)}"
                    f"{',' if i + 1 < len(keys) else ''}\n")
        f.write("}\n")


def main():
    mc = sys.argv[1]
    hand = "--hand-picked" in sys.argv
    sample = int(sys.argv[sys.argv.index("--sample") + 1]) \
        if "--sample" in sys.argv else 1
    got = {}
    for i, case in enumerate(cases(mc, hand, sample)):
        first = run(mc, case)
        # determinism: the hand-picked runs and every 8th generated one
        # run twice (all of them agree with the golden file anyway, which
        # an earlier run wrote)
        if i < len(HAND_PICKED) or i % 8 == 0:
            second = run(mc, case)
            if first != second:
                print(f"NOT DETERMINISTIC: {case}\n  {first}\n  {second}")
                return 1
        if not first:
            print(f"FAIL: manycoll sim {case} printed no results")
            return 1
        got[case] = first
    if "--update" in sys.argv and not hand and sample == 1:
        write(got)
        print(f"wrote {GOLDEN}: {len(got)} runs")
        return 0
    with open(GOLDEN) as f:
        want = json.load(f)
    bad = 0
    for case in got:
        if case not in want:
            bad += 1
            print(f"NO GOLDEN NUMBERS: manycoll sim {case}\n"
                  f"  (a new algorithm or variant?) {REGENERATE}")
        elif got[case] != want[case]:
            bad += 1
            print(f"CHANGED: manycoll sim {case}\n  now:    {got[case]}\n"
                  f"  golden: {want[case]}")
    for case in [] if hand or sample > 1 else want:
        if case not in got:
            bad += 1
            print(f"STALE: the golden file has manycoll sim {case}, which "
                  f"no registered algorithm or variant runs; {REGENERATE}")
    ok = sum(1 for c in got if want.get(c) == got[c])
    print(f"sim_golden: {len(got)} runs ({len(HAND_PICKED)} hand-picked, "
          f"{len(got) - len(HAND_PICKED)} from the registry), a sample "
          f"repeated identically; {ok} match the golden numbers")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
