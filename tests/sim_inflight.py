#!/usr/bin/env python3
"""A coherent chip whose cores keep k lines in flight (the platform's
`outstanding`) overlaps a multi-line copy's lines: m lines of cost R end
at R + (m - 1) R / k, not m R (src/sim/cost_cc.c). The same 2-core
xeonphi60 with k = 1 and k = 4, a ping-pong, with contention off (the
closed form) and on (line by line):

  - one line (64 bytes): nothing to overlap, the same time (an op that
    ended at its last line's issue, not at its end, would be faster);
  - 64 KiB (1,024 lines): k = 4 is between 3.8 and 4.0 times as fast
    (k ignored: 1; every line at once: hundreds).

    sim_inflight.py MANYCOLL"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def platform(k, d):
    with open(os.path.join(HERE, "..", "platforms", "xeonphi60.json")) as f:
        p = json.load(f)
    p["name"] = "cc2-inflight-%d" % k
    p["topology"]["stops"] = 2
    p["outstanding"] = k
    path = os.path.join(d, "cc2-%d.json" % k)
    with open(path, "w") as f:
        json.dump(p, f)
    return path


def half_rtt(mc, plat, cont):
    cmd = [mc, "sim", "--platform", plat, "--coll", "pingpong", "--sizes",
           "64,64K", "--contention", cont, "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        sys.exit(f"sim_inflight: {' '.join(cmd)} failed:\n{out.stderr}")
    rows = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    return {r["bytes"]: r["half_rtt_us"] for r in rows}


def check(mc, d, cont):
    one, four = (half_rtt(mc, platform(k, d), cont) for k in (1, 4))
    bad = []
    if one[64] != four[64]:
        bad.append(f"64 bytes: k = 1 {one[64]} us, k = 4 {four[64]} us "
                   "(one line: must be the same)")
    ratio = one[65536] / four[65536]
    if not 3.8 <= ratio <= 4.0:
        bad.append(f"64 KiB: k = 1 {one[65536]} us, k = 4 {four[65536]} "
                   f"us, ratio {ratio:.3f} (want 3.8 to 4.0)")
    for b in bad:
        print(f"sim_inflight: contention {cont}: {b}")
    print(f"sim_inflight: contention {cont}: 64 B {one[64]} / {four[64]} "
          f"us, 64 KiB {one[65536]} / {four[65536]} us (k = 1 / 4), "
          f"ratio {ratio:.3f}")
    return len(bad)


def main():
    mc = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        bad = sum(check(mc, d, cont) for cont in ("none", "all"))
    sys.exit(1 if bad else 0)


main()
