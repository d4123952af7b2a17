#!/usr/bin/env python3
"""The OC-Bcast paper's model in layout mode against the simulator without
contention: both price the same operations with the same formulas, so every
latency and per-rank return time must agree (to the printed 0.1 ns).

usage: ocbmodel_vs_sim.py MANYCOLL

Every case must run (exit status 0) in both, and both must print one row
per size, for the sizes asked, in order.
"""
import json
import subprocess
import sys

CASES = [
    # platform, algo, sizes (bytes), ranks, root
    ("scc48", "binomial", "32,100,3104,8064,20000", 48, 0),
    ("scc48", "binomial", "32,8064", 13, 5),
    ("scc48", "scatter-allgather", "32,3104,20000", 48, 0),
    ("scc48", "scatter-allgather", "1000,20000", 7, 3),
    ("scc48", "ocbcast:k=7", "32,3104,8064", 48, 0),
    ("scc48", "ocbcast:k=7", "32,5000", 48, 17),
    ("scc48", "ocbcast:k=2", "32,6176", 48, 0),
    ("scc48", "ocbcast:k=47", "32,3104", 48, 0),
    ("scc48", "ocbcast:k=3,leafdirect=1,chunk=1K", "32,5000", 11, 0),
    ("tilepro64", "ocbcast:k=7", "32,5000", 49, 0),
    ("tilepro64", "binomial", "32,5000", 49, 9),
]
FIELDS = ("lat_us", "done_min_us", "done_max_us", "done_stdev_us")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def rows(text):
    return [json.loads(l) for l in text.splitlines() if l.startswith("{")]


def main():
    mc = sys.argv[1]
    failures, compared = 0, 0
    for plat, algo, sizes, ranks, root in CASES:
        common = ["--platform", plat, "--coll", "bcast", "--algo", algo,
                  "--sizes", sizes, "--ranks", str(ranks), "--root",
                  str(root), "--json"]
        want = [int(b) for b in sizes.split(",")]
        out = {}
        for what, cmd in (("sim", ["sim", "--contention", "none"]),
                          ("model", ["model", "--mode", "layout"])):
            rc, text, err = run([mc, *cmd, *common])
            got = rows(text)
            if rc != 0 or [r.get("bytes") for r in got] != want:
                print(f"FAIL {what} {plat} {algo} {ranks} ranks root {root}: "
                      f"exit status {rc}, sizes "
                      f"{[r.get('bytes') for r in got]}, expected {want}: "
                      f"{err.strip()}")
                failures += 1
            out[what] = got
        if len(out["sim"]) != len(want) or len(out["model"]) != len(want):
            continue
        for s, m in zip(out["sim"], out["model"]):
            if m.get("source") != "model":
                print(f"FAIL model {algo}: source {m.get('source')!r}")
                failures += 1
            for f in FIELDS:
                if abs(s[f] - m[f]) > 2e-4:
                    print(f"FAIL {plat} {algo} {ranks} ranks root {root} "
                          f"{s['bytes']} B {f}: "
                          f"sim {s[f]} model {m[f]}")
                    failures += 1
            compared += 1
            print(f"ok {plat:9s} {algo:36s} {ranks:3d} ranks root {root:2d} "
                  f"{s['bytes']:6d} B "
                  f"{s['lat_us']:10.3f} us")
    total = sum(len(c[2].split(",")) for c in CASES)
    print(f"ocbmodel_vs_sim: {compared} of {total} sizes compared, "
          f"{failures} failures")
    return 1 if failures or compared != total else 0


if __name__ == "__main__":
    sys.exit(main())
