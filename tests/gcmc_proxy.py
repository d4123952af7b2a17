#!/usr/bin/env python3
"""The GCMC application proxy (src/app/gcmc.c) on both backends: as ranks of
`manycoll run` and on simulated cores (`manycoll sim --app gcmc`), with
different allreduce stacks and rank counts. The physics does not depend on
any of them, so every run must end with the same accepted moves and the
same energy (to rounding: the sums run in different orders).

    gcmc_proxy.py MANYCOLL"""
import json
import subprocess
import sys

OPTS = "cycles=4,particles=96,images=20"


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        print(f"FAILED ({out.returncode}): {' '.join(cmd)}\n{out.stderr}")
        sys.exit(1)
    rows = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    if len(rows) != 1:
        print(f"expected one JSON line from {' '.join(cmd)}:\n{out.stdout}")
        sys.exit(1)
    return rows[0]


def main():
    mc = sys.argv[1]
    runs = [
        run([mc, "run", "-n", "3", mc, "gcmc", "--algo",
             "ring:sync=0,balance=0,tail=1,fused=0", "--opts", OPTS]),
        run([mc, "run", "-n", "2", mc, "gcmc", "--algo", "ring-mpb",
             "--opts", OPTS]),
        run([mc, "sim", "--platform", "scc48-kohler", "--ranks", "7",
             "--app", "gcmc:" + OPTS, "--algo", "ring:sync=1"]),
        run([mc, "sim", "--platform", "scc48", "--ranks", "48",
             "--app", "gcmc:" + OPTS, "--algo", "ring-mpb"]),
    ]
    ref = runs[0]
    bad = 0
    for r in runs:
        same = (r["accepted"] == ref["accepted"] and
                abs(r["energy"] - ref["energy"]) <= 1e-9 * abs(ref["energy"]))
        if not same or r["total_us"] <= 0 or r["cycles"] != 4:
            bad += 1
            print(f"DIFFERENT: {r}\n  from:    {ref}")
    sims = [r for r in runs if r["on"] != "shm"]
    print(f"gcmc_proxy: {len(runs)} runs ({len(runs) - len(sims)} shm, "
          f"{len(sims)} simulated), {ref['accepted']} moves accepted, "
          f"energy {ref['energy']}: {'all the same' if not bad else 'FAILED'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
