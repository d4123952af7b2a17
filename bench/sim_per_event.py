#!/usr/bin/env python3
"""What one simulated event costs, from a thousand cores to a million.

Runs `manycoll sim --platform meshNxN --coll C --algo A --sizes 8 --json`
for every mesh and collective, REPS rounds, the sizes interleaved within
each round (a round runs every size once, smallest first), and prints per
size the medians over the rounds of:

- us/event: the simulation's wall time over its events (creating the
  cores is not in it);
- start us/core: the wall time until every core had run once (its stack
  first touched, its communicator made) over the cores (start_wall_s,
  start_events of --json);
- after us/event: the rest of the events, the collective itself;
- peak memory of the process;

each with its ratio to the smallest mesh. With --callgrind N it also
counts, once, under valgrind's callgrind, the instructions executed
inside the event loop (mc_sim_run and all it calls: the engine, the cost
model and the cores' algorithm code) per event, for meshes up to NxN
(valgrind cannot reserve the default 256 KiB stacks of a quarter of a
million cores; those runs take --stack-size 16K, which does not change
what runs).

    bench/sim_per_event.py --manycoll build/manycoll [--meshes 32,64,...]
        [--colls bcast:binomial,barrier:dissemination] [--reps 3]
        [--callgrind 512] [--rows FILE]

Takes about 10 minutes with the default meshes (32 to 1024) and 3 rounds;
each callgrind count of a 262,144-core barrier about 10 minutes.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run_once(mc, mesh, coll, algo, extra=()):
    """the --json row and the process's peak memory in MB"""
    cmd = [mc, "sim", "--platform", f"mesh{mesh}x{mesh}", "--coll", coll,
           "--algo", algo, "--sizes", "8", "--json", *extra]
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            sys.exit(f"sim_per_event: {' '.join(cmd)}: exit {p.returncode}")
        out.seek(0)
        row = json.loads([l for l in out if l.startswith("{")][0])
    return row, ru.ru_maxrss / 1024.0


def measures(row):
    ev, sev = row["events"], row["start_events"]
    wall = ev / row["events_per_s"]  # wall_s has only 3 decimals
    swall = min(row["start_wall_s"], wall)
    return {"us_per_event": wall / ev * 1e6,
            "start_us_per_core": swall / sev * 1e6 if sev else 0.0,
            "after_us_per_event": (wall - swall) / (ev - sev) * 1e6
            if ev > sev else 0.0,
            "wall_s": wall, "events": ev, "start_events": sev}


def callgrind_ir(mc, mesh, coll, algo):
    with tempfile.TemporaryDirectory() as d:
        outf = os.path.join(d, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=mc_sim_run",
               f"--callgrind-out-file={outf}", mc, "sim", "--platform",
               f"mesh{mesh}x{mesh}", "--coll", coll, "--algo", algo,
               "--sizes", "8", "--json", "--stack-size", "16K"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"sim_per_event: callgrind: exit {p.returncode}\n"
                     f"{p.stderr[-2000:]}")
        row = json.loads([l for l in p.stdout.splitlines()
                          if l.startswith("{")][0])
        ir = next(int(l.split()[1]) for l in open(outf)
                  if l.startswith("totals:"))
    return ir / row["events"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manycoll", required=True)
    ap.add_argument("--meshes", default="32,64,128,256,512,1024")
    ap.add_argument("--colls", default="bcast:binomial,barrier:dissemination")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--callgrind", type=int, default=0,
                    help="count instructions per event up to this mesh side")
    ap.add_argument("--rows", help="write one JSON row per size here")
    a = ap.parse_args()
    meshes = [int(m) for m in a.meshes.split(",")]
    colls = [c.split(":") for c in a.colls.split(",")]
    got = {}
    for rep in range(a.reps):
        for mesh in meshes:
            for coll, algo in colls:
                row, mb = run_once(a.manycoll, mesh, coll, algo)
                m = measures(row)
                m["mb"] = mb
                got.setdefault((coll, mesh), []).append(m)
                print(f"# round {rep + 1}: {coll} {mesh * mesh} cores: "
                      f"{m['us_per_event']:.3f} us/event", file=sys.stderr)
    rows = []
    for coll, algo in colls:
        base = None
        print(f"\n{coll}:{algo}, 8 bytes, medians of {a.reps} interleaved "
              "rounds (ratio to the smallest mesh)")
        print("| cores | events | us/event | start us/core | after us/event "
              "| memory | instructions/event |")
        print("|---|---|---|---|---|---|---|")
        for mesh in meshes:
            ms = got[(coll, mesh)]
            med = {k: statistics.median(m[k] for m in ms) for k in ms[0]}
            if a.callgrind >= mesh:
                med["ir_per_event"] = callgrind_ir(a.manycoll, mesh, coll,
                                                   algo)
            base = base or med

            def r(k):
                return f"{med[k]:.3f} ({med[k] / base[k]:.2f}x)" \
                    if base.get(k) else f"{med[k]:.3f}"
            ir = f"{med['ir_per_event']:.0f} " \
                 f"({med['ir_per_event'] / base['ir_per_event']:.2f}x)" \
                if "ir_per_event" in med and "ir_per_event" in base else "-"
            print(f"| {mesh * mesh:,} | {med['events']:,.0f} | "
                  f"{r('us_per_event')} | {r('start_us_per_core')} | "
                  f"{r('after_us_per_event')} | {med['mb']:.0f} MB | {ir} |")
            rows.append({"coll": coll, "algo": algo, "cores": mesh * mesh,
                         **med})
    if a.rows:
        with open(a.rows, "w") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
