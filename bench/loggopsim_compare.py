#!/usr/bin/env python3
"""manycoll's simulator beside LogGOPSim on the same schedules and costs.

    bench/loggopsim_compare.py --loggopsim-src PATH [--max-cores N]
        [--build DIR] [--manycoll build/manycoll] [--rows FILE]

PATH is a checkout of the public spcl/LogGOPSim repository. Its simulator
and txt2bin are built from it into DIR (default /tmp/manycoll-loggopsim),
outside this tree; nothing of it is copied here. The build needs g++,
gengetopt, re2c and libgraphviz-dev (LogGOPSim links libcgraph).

What is compared, per core count (square meshes, 1,024 to N cores):

* the schedule: manycoll's own binomial broadcast (src/coll/
  bcast_binomial.c: the root hands the upper half to its first child,
  farthest child first) of 8 bytes, and its dissemination barrier
  (round r: flag to me + 2^r, wait for me - 2^r), written as GOAL with
  every message of manycoll's protocol: a broadcast edge is the data
  (put into the sender's MPB, then a flag at the child), the child's get
  and its acknowledgement flag, which the parent waits for before its
  next child;
* the costs: one set for both. manycoll runs a mesh with SCC costs and no
  distance term (L_hop = 0) and no contention, which is what LogGP
  models; LogGP's o, L and the two local copies (calc) are read off a
  two-core manycoll trace: o = a flag write, L = the rest of the flag's
  way to the waiting core, put and get as traced;
* the outputs: the completion time each predicts (they must agree), the
  wall time and peak memory of each simulation (LogGOPSim's run on its
  binary schedule; making the schedule is not counted).

What manycoll simulates that LogGOPSim does not is in docs/simulator.md.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

SIZES = [1024, 4096, 16384, 65536, 262144, 1048576]


def run(cmd, **kw):
    """runs cmd; returns (stdout, wall seconds, peak RSS in MB)"""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n"
                 f"{p.stderr[-2000:]}")
    return p.stdout + p.stderr, time.perf_counter() - t0


def rss_of(cmd):
    """runs cmd; returns (its output, wall seconds, its peak RSS in MB)"""
    with tempfile.TemporaryFile("w+") as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{text[-2000:]}")
    return text, wall, ru.ru_maxrss / 1024.0


def build_loggopsim(src, out):
    """LogGOPSim and txt2bin from the checkout at src, into out"""
    lgs = os.path.join(out, "LogGOPSim")
    if os.path.exists(os.path.join(lgs, "LogGOPSim")):
        return lgs
    os.makedirs(out, exist_ok=True)
    subprocess.run(["cp", "-r", os.path.join(src, "src", "LogGOPSim"), out],
                   check=True)
    steps = [
        ["gengetopt", "-F", "loggopsim_cmdline", "-i",
         "loggopsim_cmdline.ggo"],
        ["gengetopt", "-F", "txt2bin_cmdline", "-i", "txt2bin_cmdline.ggo"],
        ["re2c", "-o", "txt2bin.cpp", "txt2bin.re"],
        ["g++", "-O3", "-std=c++11", "-w", "LogGOPSim.cpp",
         "loggopsim_cmdline.c", "-o", "LogGOPSim", "-lcgraph"],
        ["g++", "-O3", "-w", "txt2bin.cpp", "txt2bin_cmdline.c", "-o",
         "txt2bin"],
    ]
    for s in steps:
        subprocess.run(s, cwd=lgs, check=True)
    return lgs


def platform(path, cores):
    """a square mesh with SCC costs, no distance term, no contention"""
    x = 1
    while x * x < cores:
        x *= 2
    y = cores // x
    assert x * y == cores, cores
    p = {
        "name": f"loggp-{cores}",
        "description": "a mesh with SCC costs and no distance term",
        "source": "scc48's costs (Petrovic et al., Table 1), L_hop = 0: "
                  "the uniform latency LogGP assumes",
        "topology": {"kind": "mesh", "x": x, "y": y, "cores_per_tile": 1},
        "line_bytes": 32, "mpb_bytes": 8192, "p2p_chunk_bytes": 8032,
        "outstanding": 1, "flags": "rcce",
        "memory_controllers": [[0, 0]],
        "costs_us": {"L_hop": 0, "o_mpb": 0.126, "o_mem_w": 0.461,
                     "o_mem_r": 0.208, "o_put_mpb": 0.069, "o_get_mpb": 0.33,
                     "o_put_mem": 0.19, "o_get_mem": 0.095,
                     "o_reduce_elem": 0.01},
        "contention": {"mpb": False, "mpb_service_us": 0.013, "link": False,
                       "link_us": 0.004, "mc": False, "mc_service_us": 0.005},
    }
    with open(path, "w") as f:
        json.dump(p, f)


def calibrate(mc, tmp):
    """LogGP's o and L and the two copies, in ns, from a 2-core trace"""
    plat = os.path.join(tmp, "loggp-2.json")
    platform(plat, 2)
    trace = os.path.join(tmp, "t2.json")
    run([mc, "sim", "--platform", plat, "--coll", "bcast", "--algo",
         "binomial", "--sizes", "8", "--contention", "none", "--trace",
         trace])
    ev = [e for e in json.load(open(trace))["traceEvents"] if e["ph"] == "X"]
    ns = lambda v: int(round(v * 1000))
    first = lambda core, name: next(e for e in ev
                                    if e["tid"] == core and e["name"] == name)
    put, flag = first(0, "put"), first(0, "flag")
    wait, get = first(1, "wait"), first(1, "get")
    o = ns(flag["dur"])
    c = {"put": ns(put["dur"]), "get": ns(get["dur"]), "o": o,
         "L": ns(wait["ts"] + wait["dur"]) - ns(put["dur"]) - 2 * o}
    if c["L"] < 0:
        sys.exit(f"calibration: negative L from the trace: {c}")
    return c


def bisect_children(v, n):
    """children of vrank v in manycoll's binomial tree (n a power of two:
    the bisection is the binomial tree), farthest first"""
    assert n & (n - 1) == 0, n
    d = (v & -v) // 2 if v else n // 2
    kids = []
    while d >= 1:
        kids.append(v + d)
        d //= 2
    return kids


def goal_bcast(path, n, c):
    with open(path, "w") as f:
        f.write(f"num_ranks {n}\n\n")
        for v in range(n):
            out, k = [], 0

            def op(text, dep):
                nonlocal k
                k += 1
                out.append(f"l{k}: {text}")
                if dep:
                    out.append(f"l{k} requires l{dep}")
                return k

            last = 0
            if v:
                parent = v - (v & -v)
                last = op(f"recv 8b from {parent} tag 0", 0)
                last = op(f"calc {c['get']}", last)
                last = op(f"send 1b to {parent} tag 1", last)
            for kid in bisect_children(v, n):
                last = op(f"calc {c['put']}", last)
                last = op(f"send 8b to {kid} tag 0", last)
                last = op(f"recv 1b from {kid} tag 1", last)
            f.write(f"rank {v} {{\n" + "\n".join(out) + "\n}\n\n")


def goal_barrier(path, n):
    rounds = (n - 1).bit_length()
    with open(path, "w") as f:
        f.write(f"num_ranks {n}\n\n")
        for v in range(n):
            out, last = [], 0
            for r in range(rounds):
                d = 1 << r
                s, w = 2 * r + 1, 2 * r + 2
                out.append(f"l{s}: send 1b to {(v + d) % n} tag {r}")
                if last:
                    out.append(f"l{s} requires l{last}")
                out.append(f"l{w}: recv 1b from {(v - d) % n} tag {r}")
                out.append(f"l{w} requires l{s}")
                last = w
            f.write(f"rank {v} {{\n" + "\n".join(out) + "\n}\n\n")


def manycoll_run(mc, plat, coll):
    algo = "binomial" if coll == "bcast" else "dissemination"
    text, wall, mb = rss_of([mc, "sim", "--platform", plat, "--coll", coll,
                             "--algo", algo, "--sizes", "8",
                             "--contention", "none"])
    row = [l.split() for l in text.splitlines() if l[:1].isdigit()]
    return float(row[0][4]) * 1000, wall, mb  # done_max, ns


def loggopsim_run(lgs, goal, c):
    binf = goal[:-5] + ".bin"
    run([os.path.join(lgs, "txt2bin"), "-i", goal, "-o", binf])
    text, wall, mb = rss_of([os.path.join(lgs, "LogGOPSim"), "-f", binf,
                             "-L", str(c["L"]), "-o", str(c["o"]), "-g", "0",
                             "-G", "0", "-S", "1000000000", "-b"])
    line = next(l for l in text.splitlines() if "Maximum finishing" in l)
    os.unlink(binf)
    return float(line.split(":")[1].split()[0]), wall, mb


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loggopsim-src", required=True)
    ap.add_argument("--build", default="/tmp/manycoll-loggopsim")
    ap.add_argument("--manycoll", default="build/manycoll")
    ap.add_argument("--max-cores", type=int, default=1048576)
    ap.add_argument("--colls", default="bcast,barrier")
    ap.add_argument("--rows", help="also write the rows as JSON lines")
    a = ap.parse_args()
    lgs = build_loggopsim(a.loggopsim_src, a.build)
    tmp = tempfile.mkdtemp(prefix="mc-lgs-")
    c = calibrate(a.manycoll, tmp)
    print(f"costs from a 2-core manycoll trace: o = {c['o']} ns, "
          f"L = {c['L']} ns, put = {c['put']} ns, get = {c['get']} ns")
    print("| collective | cores | completion, manycoll | LogGOPSim | "
          "wall, manycoll | LogGOPSim | ratio | memory, manycoll | "
          "LogGOPSim |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = open(a.rows, "w") if a.rows else None
    for n in [s for s in SIZES if s <= a.max_cores]:
        plat = os.path.join(tmp, f"loggp-{n}.json")
        platform(plat, n)
        for coll in a.colls.split(","):
            goal = os.path.join(tmp, f"{coll}-{n}.goal")
            if coll == "bcast":
                goal_bcast(goal, n, c)
            else:
                goal_barrier(goal, n)
            lt, lw, lm = loggopsim_run(lgs, goal, c)
            os.unlink(goal)
            mt, mw, mm = manycoll_run(a.manycoll, plat, coll)
            print(f"| {coll} | {n:,} | {mt / 1000:.3f} us | "
                  f"{lt / 1000:.3f} us | {mw:.2f} s | {lw:.2f} s | "
                  f"{mw / lw:.2f} | {mm:.0f} MB | {lm:.0f} MB |", flush=True)
            if rows:
                rows.write(json.dumps({"coll": coll, "cores": n,
                    "manycoll_ns": mt, "loggopsim_ns": lt,
                    "manycoll_wall_s": mw, "loggopsim_wall_s": lw,
                    "manycoll_mb": mm, "loggopsim_mb": lm}) + "\n")
                rows.flush()
    os.unlink(plat)


if __name__ == "__main__":
    main()
