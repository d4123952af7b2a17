#!/usr/bin/env python3
"""What `manycoll sim --json` says ran where the algorithm asked for cannot
serve: `algo` names the one asked for, `ran` the fallback with the
fallback's own parameters (its defaults from `manycoll info --json`; none
of those below is automatic, so they run as they are), `why` the fallback
and its reason.

    sim_fallback.py MANYCOLL"""
import json
import subprocess
import sys

# (sim arguments, algorithm asked for, fallback that runs, words of why)
CASES = [
    # 256 tiles, more than mesh-rounds' maxtiles (64): pairwise exchange
    # with its own sync and tail, not mesh-rounds' barrier and rounds
    ("--platform mesh16x16 --coll alltoall --algo mesh-rounds:rounds=2 "
     "--sizes 8", "mesh-rounds", "pairwise",
     ["fallback of alltoall mesh-rounds", "maxtiles"]),
    # 13 cores of scc48 fill no grid: the binomial broadcast
    ("--platform scc48 --ranks 13 --coll bcast --algo mesh-tree:chunk=64 "
     "--sizes 1000", "mesh-tree", "binomial",
     ["fallback of bcast mesh-tree", "grid"]),
    # no single copy in the simulator: alltoall direct runs pairwise
    ("--platform scc48 --ranks 5 --coll alltoall --algo direct --sizes 64",
     "direct", "pairwise", ["fallback of alltoall direct", "single copy"]),
]


def defaults(mc, coll, algo):
    """"name:k=v,..." of algo's defaults, in its table's order"""
    out = subprocess.run([mc, "info", "--json"], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        a = json.loads(line)
        if a.get("coll") == coll and a.get("algo") == algo:
            kv = ",".join(f"{p['name']}={p['default']}" for p in a["params"])
            return algo + (":" + kv if kv else "")
    raise SystemExit(f"FAIL: manycoll info lists no {coll} {algo}")


def main():
    mc = sys.argv[1]
    bad = 0
    for args, asked, fallback, words in CASES:
        coll = args.split("--coll ")[1].split()[0]
        p = subprocess.run([mc, "sim", "--json"] + args.split(),
                           capture_output=True, text=True)
        if p.returncode != 0:
            print(f"FAIL: manycoll sim {args}: exit status {p.returncode}\n"
                  f"{p.stderr}")
            bad += 1
            continue
        want = defaults(mc, coll, fallback)
        for r in (json.loads(x) for x in p.stdout.splitlines()
                  if x.startswith("{")):
            if not r["algo"].startswith(asked + ":") and r["algo"] != asked:
                print(f"WRONG: {args}: algo {r['algo']}, not {asked}")
                bad += 1
            if r["ran"] != want:
                print(f"WRONG: {args}: ran {r['ran']}, not {want} (the "
                      f"fallback with its own defaults)")
                bad += 1
            if not all(w in r["why"] for w in words):
                print(f"WRONG: {args}: why '{r['why']}' does not say "
                      f"{words}")
                bad += 1
    if bad:
        return 1
    print(f"sim_fallback: {len(CASES)} fallbacks named, each with its own "
          f"parameters and why")
    return 0


if __name__ == "__main__":
    sys.exit(main())
