#!/usr/bin/env python3
"""Simulates several algorithms of one collective (`manycoll sim --json`)
and prints them side by side: latency (us) and throughput (MB/s) per size.

    sim_table.py MANYCOLL PLATFORM COLL SIZES ALGO [ALGO ...]
    sim_table.py --json ...   the same, then one JSON object per result

It runs the command itself, so `make demo` needs no Python package."""
import json
import subprocess
import sys


def simulate(mc, plat, coll, algo, sizes):
    out = subprocess.run([mc, "sim", "--platform", plat, "--coll", coll,
                          "--algo", algo, "--sizes", sizes, "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    if out.returncode != 0:
        sys.exit("sim_table.py: manycoll sim --algo %s failed:\n%s" %
                 (algo, out.stderr))
    return {r["bytes"]: r for r in map(json.loads, out.stdout.splitlines())}


def main():
    args = sys.argv[1:]
    as_json = args[:1] == ["--json"]
    mc, plat, coll, sizes = args[as_json:as_json + 4]
    algos = args[as_json + 4:]
    if not algos:
        sys.exit(__doc__)
    res = {a: simulate(mc, plat, coll, a, sizes) for a in algos}
    w = max(18, max(len(a) for a in algos) + 2)
    print(f"{'bytes':>9}" + "".join(f"{a:>{w}}" for a in algos))
    print(f"{'':>9}" + "".join(f"{'us    MB/s':>{w}}" for _ in algos))
    for b in sorted(next(iter(res.values()))):
        cells = "".join(f"{res[a][b]['lat_us']:>{w - 9}.1f} "
                        f"{res[a][b]['bw_MBps']:>7.2f}" for a in algos)
        print(f"{b:>9}" + cells)
    if as_json:
        for a in algos:
            for r in res[a].values():
                print(json.dumps(r))


if __name__ == "__main__":
    main()
