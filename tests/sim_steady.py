#!/usr/bin/env python3
"""A simulated collective called again and again costs the same each time:
the chip's state (lines' owners and writes in flight, port calendars,
link reservations) carries absolute times, and a model that mixed them
with times counted from the start of an operation made every call wait
for all the earlier ones (the coherent chips without contention did: an
8-byte allreduce cost 2.6 us a call over 10 calls, 157 us over 1,000).

Per built-in platform kind, with and without contention, the mean per
call over 10 and over 400 calls must agree within 10 %, and so must rank
0's mean and the mean of all calls.

    sim_steady.py MANYCOLL"""
import json
import subprocess
import sys

PLATFORMS = ["scc48", "scc48-cached", "tilepro64", "tilepro64-udn",
             "xeonphi60", "vscc240", "mesh8x8"]
CASES = [("allreduce", "8"), ("bcast", "1K")]
SHORT, LONG, TOL = 10, 400, 0.10


def per_call(mc, plat, cont, coll, size, iters):
    cmd = [mc, "sim", "--platform", plat, "--ranks", "4", "--coll", coll,
           "--sizes", size, "--iters", str(iters), "--warmup", "0",
           "--contention", cont, "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        sys.exit(f"sim_steady: {' '.join(cmd)} failed:\n{out.stderr}")
    row = json.loads(out.stdout.splitlines()[0])
    return row["iter_mean_us"], " ".join(cmd)


def main():
    mc = sys.argv[1]
    bad = 0
    for plat in PLATFORMS:
        for cont in ("all", "none"):
            for coll, size in CASES:
                a, _ = per_call(mc, plat, cont, coll, size, SHORT)
                b, cmd = per_call(mc, plat, cont, coll, size, LONG)
                ok = abs(b - a) <= TOL * a
                bad += not ok
                print(f"{'ok ' if ok else 'BAD'} {plat:14s} contention "
                      f"{cont:4s} {coll:9s} {size:>3s}: {a:9.3f} us a call "
                      f"over {SHORT}, {b:9.3f} over {LONG}"
                      + ("" if ok else f"  ({cmd})"))
    if bad:
        sys.exit(f"sim_steady: {bad} cases cost more per call the more "
                 "calls there are")
    print("sim_steady: every case costs the same per call")


if __name__ == "__main__":
    main()
