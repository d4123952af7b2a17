#!/usr/bin/env python3
"""Simulates several algorithms of one collective (manycoll.sim.run) and
prints them side by side: latency (us) and throughput (MB/s) per size.

    sim_table.py MANYCOLL PLATFORM COLL SIZES ALGO [ALGO ...]

MANYCOLL (build/manycoll) says which build's Python package to use when
none is installed."""
import sys

from mcpy import manycoll


def main():
    mc, plat, coll, sizes = sys.argv[1:5]
    algos = sys.argv[5:]
    sim = manycoll(mc).sim
    res = {}
    for a in algos:
        res[a] = {r["bytes"]: r for r in sim.run(plat, coll, algo=a,
                                                 sizes=sizes)}
    w = max(18, max(len(a) for a in algos) + 2)
    print(f"{'bytes':>9}" + "".join(f"{a:>{w}}" for a in algos))
    print(f"{'':>9}" + "".join(f"{'us    MB/s':>{w}}" for _ in algos))
    for b in sorted(next(iter(res.values()))):
        cells = "".join(f"{res[a][b]['lat_us']:>{w - 9}.1f} "
                        f"{res[a][b]['bw_MBps']:>7.2f}" for a in algos)
        print(f"{b:>9}" + cells)


if __name__ == "__main__":
    main()
