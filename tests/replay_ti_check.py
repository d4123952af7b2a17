#!/usr/bin/env python3
"""manycoll replay of SimGrid time-independent traces (src/replay/read_ti.c).

    replay_ti_check.py MANYCOLL TMPDIR

Writes a trace of a known 4-rank program (computation, a ring of
isend/irecv with waitall, an allreduce, a bcast from rank 2, an alltoall,
a gatherv, a barrier, a blocking send/recv pair waited with wait), once as
one file of actions and once as a file naming a file per rank, and checks:

- both forms replay alike on scc48 (the same rows, the same times);
- each site's calls and bytes are the program's (datatype ids: 0 double,
  1 int; none: bytes);
- the computation is the trace's flops at 1 ns each, times
  --compute-scale, and sleep's seconds;
- an isend never waited is not replayed, a wait of nothing is ignored;
- forcing an allreduce algorithm changes the allreduce's time and not
  the calls before it;
- --ranks 16 replays it (without the pair's send and receive, which
  neighbouring ranks do not both make) on 16 ranks;
- a bad line, an unknown action and a missing rank file are errors that
  name the file and line;
- the same program as SimGrid wrote traces before tags (3.1x: "send
  PEER SIZE", a bare "wait", "Isend", "allReduce", "waitAll") replays
  alike;
- a trace SimGrid 3.32 wrote (tests/data/simgrid_ti: `smpirun -np 4
  -platform platform.xml -hostfile H -trace-ti
  --cfg=tracing/filename:ti.txt ./program`, program.c built with
  smpicc; the rank files renamed rank-N.txt) replays with the program's
  calls and bytes.
"""
import json
import os
import subprocess
import sys

P = 4
FLOPS = 250000          # each rank's compute, 250 us at 1 ns per flop
SLEEP = 0.0001          # rank 0 sleeps 100 us


def actions(r, pair=True):
    """rank r's lines (pair: with rank 0's and 1's send and receive)"""
    right, left = (r + 1) % P, (r - 1) % P
    a = [f"{r} init", f"{r} compute {FLOPS}",
         f"{r} isend {right} 7 128 0",       # 128 doubles: 1 KiB
         f"{r} irecv {left} 7 128 0",
         f"{r} waitall",
         f"{r} allreduce 4 100 1",           # 4 ints: 16 B, 100 flops
         f"{r} bcast 256 2",                 # 256 bytes from rank 2
         f"{r} alltoall 8 8 0 0",            # 8 doubles a block
         f"{r} gatherv {r + 1} 1 2 3 4 0 1 1",   # ints, root 0
         f"{r} barrier"]
    if pair and r == 0:
        a += ["0 send 1 3 1000", "0 sleep %g" % SLEEP,
              "0 isend 3 9 64",              # never waited: not replayed
              "0 wait 5 6 7"]                # waits for nothing
    if pair and r == 1:
        a += ["1 irecv 0 3 1000", "1 wait 0 1 3"]
    return a + [f"{r} finalize"]


def old_actions(r):
    """rank r's lines as SimGrid wrote them before tags (3.1x): PEER SIZE
    [DT], a bare wait (the request posted last), camel-case names; the
    program of actions() without the isend never waited and the wait of
    nothing, which a bare wait cannot say"""
    right, left = (r + 1) % P, (r - 1) % P
    a = [f"{r} init", f"{r} compute {FLOPS}",
         f"{r} Isend {right} 128 0", f"{r} Irecv {left} 128 0",
         f"{r} waitAll", f"{r} allReduce 4 100 1", f"{r} bcast 256 2",
         f"{r} allToAll 8 8 0 0", f"{r} gatherV {r + 1} 1 2 3 4 0 1 1",
         f"{r} barrier"]
    if r == 0:
        a += ["0 send 1 1000", "0 sleep %g" % SLEEP]
    if r == 1:
        a += ["1 Irecv 0 1000", "1 wait"]
    return a + [f"{r} finalize"]


def run(mc, trace, *extra, ok=True):
    p = subprocess.run([mc, "replay", trace, "--platform", "scc48",
                        "--json", *extra], capture_output=True, text=True,
                       timeout=120)
    if ok and p.returncode != 0:
        sys.exit(f"FAIL: replay {trace} {' '.join(extra)}: {p.stderr}")
    if not ok:
        return p
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]


def sites(rows):
    return {(r["coll"], r["bytes"]): r for r in rows if r["coll"] != "total"}


def simgrid_trace(mc):
    """the sites of program.c's trace, as SimGrid wrote it"""
    here = os.path.dirname(os.path.abspath(__file__))
    got = sites(run(mc, os.path.join(here, "data", "simgrid_ti", "ti.txt")))
    want = {("p2p", 2048): (3, 4),      # 3 ring steps of 128 doubles
            ("allreduce", 8): (3, 4),   # 1 double
            ("bcast", 256): (1, 4),     # 64 ints
            ("alltoall", 64): (1, 4),   # blocks of 16 ints
            ("p2p", 80): (1, 2),        # 10 doubles, rank 0 to 1
            ("barrier", 0): (1, 4)}
    have = {k: (r["calls"], r["ranks"]) for k, r in got.items()}
    return [] if have == want else [f"SimGrid's trace: {have}, want {want}"]


def main():
    mc, tmp = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(tmp, "ranks"), exist_ok=True)
    one = os.path.join(tmp, "one.txt")
    ring = os.path.join(tmp, "ring.txt")
    for path, pair in ((one, True), (ring, False)):
        with open(path, "w") as f:
            f.write("# one file for every rank\n")
            for line in zip(*[actions(r, pair) + [""] * 4
                              for r in range(P)]):
                f.write("\n".join(x for x in line if x) + "\n")
    main_file = os.path.join(tmp, "main.txt")
    with open(main_file, "w") as f:
        for r in range(P):
            with open(os.path.join(tmp, "ranks", f"r{r}.txt"), "w") as g:
                g.write("\n".join(actions(r)) + "\n")
            f.write(f"ranks/r{r}.txt\n")
    fails = []

    a, b = run(mc, one), run(mc, main_file)
    strip = [{k: v for k, v in r.items() if k not in ("wall_s",)} for r in a]
    if strip != [{k: v for k, v in r.items() if k not in ("wall_s",)}
                 for r in b]:
        fails.append("the one-file and the file-per-rank forms differ")

    s = sites(a)
    want = {("p2p", 128 * 8 * 2): 1,       # a ring step: sent + received
            ("allreduce", 16): 1, ("bcast", 256): 1,
            ("alltoall", 64): 1, ("barrier", 0): 1}
    for key, calls in want.items():
        if key not in s or s[key]["calls"] != calls:
            fails.append(f"site {key}: {s.get(key)} (want {calls} call)")
    if not any(c == "gatherv" for c, _ in s):
        fails.append(f"no gatherv site: {sorted(s)}")
    p2p1000 = [r for (c, n), r in s.items() if c == "p2p" and n == 1000]
    if len(p2p1000) != 1 or p2p1000[0]["ranks"] != 2:
        fails.append(f"the 1000-byte send/recv: {p2p1000}")
    if any(c == "p2p" and n == 64 for c, n in s):
        fails.append("the isend never waited was replayed")

    tot = a[-1]
    if tot["coll"] != "total" or tot["recorded_ranks"] != P:
        fails.append(f"total row: {tot}")
    comp = FLOPS * 1e-3 + 0.1              # us a rank, the allreduce's flops
    if not tot["run_sim_us"] >= comp + SLEEP * 1e6:
        fails.append(f"run {tot['run_sim_us']} us < the computation "
                     f"{comp + SLEEP * 1e6} us")
    c2 = run(mc, one, "--compute-scale", "2")[-1]
    grew = c2["run_sim_us"] - tot["run_sim_us"]
    if abs(grew - (comp + SLEEP * 1e6)) > 0.05 * comp:
        fails.append(f"--compute-scale 2 added {grew:.1f} us, not the "
                     f"{comp + SLEEP * 1e6:.1f} us of computation")

    # forcing the allreduce's algorithm changes its row; the calls before
    # it (the ring) are untouched (later ones start at other times)
    forced = sites(run(mc, one, "--algo", "allreduce=ring"))
    for key in (("allreduce", 16), ("p2p", 2048)):
        same = abs(forced[key]["sim_us"] - s[key]["sim_us"]) < 1e-6
        if key[0] == "allreduce" and (same or "ring" not in
                                      forced[key]["algo"]):
            fails.append(f"--algo allreduce=ring: {forced[key]}")
        if key[0] != "allreduce" and not same:
            fails.append(f"--algo allreduce=ring changed {key}: "
                         f"{s[key]['sim_us']} -> {forced[key]['sim_us']}")

    big = run(mc, ring, "--ranks", "16")[-1]
    if big["ranks"] != 16:
        fails.append(f"--ranks 16: {big}")

    for text, needle in (("0 init\n0 bcast lots\n", "line 2"),
                         ("0 init\n0 dance 3\n", "'dance'"),
                         ("0 init\n0 send 1 0 8 99\n", "datatype id"),
                         ("nowhere/r0.txt\n", "cannot open")):
        bad = os.path.join(tmp, "bad.txt")
        with open(bad, "w") as f:
            f.write(text)
        p = run(mc, bad, ok=False)
        if p.returncode == 0 or needle not in p.stderr or \
                "bad.txt" not in p.stderr:
            fails.append(f"{text!r}: status {p.returncode}, {p.stderr!r} "
                         f"(want an error with {needle!r})")

    # SimGrid before tags: the same program replays alike
    old = os.path.join(tmp, "old.txt")
    with open(old, "w") as f:
        for line in zip(*[old_actions(r) + [""] * 4 for r in range(P)]):
            f.write("\n".join(x for x in line if x) + "\n")
    # (events left out: the other trace's isend never waited makes one)
    o, n = ([{k: v for k, v in r.items() if k not in ("wall_s", "events")}
             for r in rows] for rows in (run(mc, old), a))
    if o != n:
        fails.append(f"the trace before tags replays otherwise: {o}")

    fails += simgrid_trace(mc)
    for f in fails:
        print("FAIL:", f)
    print(f"replay_ti_check: {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
