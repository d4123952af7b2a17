#!/usr/bin/env python3
"""The NoCMsg paper (Yagna, Patil, Mueller: Efficient and Predictable Group
Communication for Manycore NoCs) reproduced on the simulated TilePro64's
message network (platforms/tilepro64-udn.json) and the simulated SCC.

    nocmsg_repro.py MANYCOLL [--full] [--out DATA.json]

Checks, in the order of docs/papers/nocmsg.md:

  exact      no data train and no notification of a NoCMsg algorithm
             waits for a link on a full grid (2x2, 4x4, 7x7; 8 B, 4 KiB,
             64 KiB); the contention-oblivious baselines and the literal
             reading of Algorithm 1 do wait with multi-packet messages
  fitted     the two parameters fitted to Fig. 16's 4-task column
             (tools/nocmsg_fit.py) still give 4 us and 13.57 us
  predicted  Fig. 16's reduce+bcast column for 9..49 tasks within 30%;
             the 7x7 single-packet alltoall within 30% of 761 us; the
             broadcast flat up to 256 B and bandwidth-bound beyond 128 KB;
             the broadcast's run-to-run variance below the binomial tree's
             and the 4 KiB alltoall's below pairwise exchange's under the
             same jitter (21 runs); on the SCC: broadcast throughput 1.5-6x
             the binomial tree's, the barrier's odd core of every tile
             done before its even one
  reported   what the model does not reproduce (recursive doubling's
             growth, the crossovers, the other variances, ...): printed
             beside the paper's numbers, not asserted

--full adds the sweeps the figures of the doc are drawn from (every grid,
messages to 1 MiB: minutes); --out writes every number measured as JSON
(tools/plot_nocmsg.py draws it)."""
import json
import subprocess
import sys

PLAT = "tilepro64-udn"
GRIDS = ["2x2", "3x3", "4x4", "5x5", "6x6", "7x7"]
TASKS = [4, 9, 16, 25, 36, 49]
FIG16 = {"mesh": [13.57, 16.29, 25.43, 26.71, 30.29, 33.00],
         "recursive-doubling": [4, 6, 10, 26, 51, 56]}
TABLE1 = {"alltoall": [0.7, 0.4, 0.7, 5.6, 1.3, 1.6],
          "barrier": [0.5, 0.8, 0.4, 1.6, 1.1, 5.6],
          "bcast": [0, 0, 0.2, 0.24, 0.53, 0.12],
          "reduce": [0.2, 0.12, 1.1, 1.06, 3.96, 7.27],
          "allreduce": [1.34, 2.29, 2.49, 26.77, 31.55, 50.82]}
TABLE2 = {"alltoall": [3, 984, 18, 2277, 133330, 622903],
          "barrier": [750, 303, 29385, 1838, 2911, 32117],
          "bcast": [7, 57, 259, 4541, 3004, 3869],
          "reduce": [545, 686, 21, 2007, 9980, 3431],
          "allreduce": [11, 51, 49, 3839, 5536, 7517]}
# NoCMsg's algorithm and the contention-oblivious one, per collective
PAIRS = {"alltoall": ("mesh-rounds", "pairwise"),
         "barrier": ("mesh-tree", "dissemination"),
         "bcast": ("mesh-tree", "binomial"),
         "reduce": ("mesh-2step", "binomial"),
         "allreduce": ("mesh", "recursive-doubling")}
JITTER = "11"

MC = None
DATA = {}
FAILS = []


def sim(coll, algo, sizes="8", grid="7x7", plat=PLAT, extra=()):
    args = [MC, "sim", "--platform", plat, "--grid", grid, "--coll", coll,
            "--algo", algo, "--sizes", sizes, "--json"] + list(extra)
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"FAILED: {' '.join(args)}\n{out.stderr}")
    return [json.loads(l) for l in out.stdout.splitlines() if l[:1] == "{"]


def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what)
    if not ok:
        FAILS.append(what)


def report(what):
    print("  --    " + what)


def exact():
    print("exact: link waits (data trains, notifications)")
    nocmsg = [("alltoall", "mesh-rounds"), ("barrier", "mesh-tree"), ("barrier", "mesh-tree:tree=1"),
              ("bcast", "mesh-tree"), ("bcast", "mesh-tree:sn=0"),
              ("reduce", "mesh-2step"), ("allreduce", "mesh"),
              ("allreduce", "mesh:sn=0")]
    for coll, algo in nocmsg:
        worst = 0
        for g in ("2x2", "4x4", "7x7"):
            for d in sim(coll, algo, "8,4K,64K", g):
                worst += d["link_waits"] + d["flag_link_waits"]
        check(worst == 0, f"{coll}:{algo} on 2x2, 4x4, 7x7 (8 B, 4 KiB, "
              f"64 KiB): {worst} waits")
    d = sim("alltoall", "mesh-rounds:barrier=1", "4K")[0]
    check(d["link_waits"] == 0, f"alltoall:mesh-rounds:barrier=1 on 7x7 "
          f"(4 KiB): no data train waits; the dissemination barrier's "
          f"notifications do, {d['flag_link_waits']} times")
    base = [("alltoall", "pairwise", "4K"), ("alltoall", "mesh-rounds:rounds=2",
                                             "4K"),
            ("bcast", "binomial", "64K"), ("reduce", "binomial", "64K"),
            ("allreduce", "recursive-doubling", "4K"),
            ("allreduce", "reduce-bcast", "4K")]
    for coll, algo, size in base:
        d = sim(coll, algo, size)[0]
        DATA.setdefault("waits", {})[f"{coll}:{algo}"] = d["link_waits"]
        check(d["link_waits"] > 0, f"{coll}:{algo} on 7x7 ({size}): "
              f"{d['link_waits']} packets waited, {d['link_wait_us']:.1f} us "
              f"in all")


def fig16():
    print("Fig. 16: allreduce, single packet (8 B), average [us]")
    got = {a: [sim("allreduce", a, grid=g)[0]["lat_us"] for g in GRIDS]
           for a in FIG16}
    DATA["fig16"] = got
    print(f"  {'tasks':>6} {'reduce+bcast':>14} {'paper':>7}   "
          f"{'rec. doubling':>14} {'paper':>7}")
    for i, n in enumerate(TASKS):
        print(f"  {n:>6} {got['mesh'][i]:>14.2f} {FIG16['mesh'][i]:>7}   "
              f"{got['recursive-doubling'][i]:>14.2f} "
              f"{FIG16['recursive-doubling'][i]:>7}")
    for a, name in (("recursive-doubling", "recursive doubling"),
                    ("mesh", "reduce+bcast")):
        check(abs(got[a][0] / FIG16[a][0] - 1) < 0.01,
              f"fitted: {name} on 4 tasks {got[a][0]:.2f} us (paper "
              f"{FIG16[a][0]})")
    for i in range(1, 6):
        r = got["mesh"][i] / FIG16["mesh"][i]
        check(0.7 <= r <= 1.3, f"predicted: reduce+bcast, {TASKS[i]} tasks: "
              f"{got['mesh'][i]:.2f} us, {r:.2f}x the paper's")
    rd = [got["recursive-doubling"][i] / FIG16["recursive-doubling"][i]
          for i in range(1, 6)]
    report("recursive doubling, 9..49 tasks: " +
           ", ".join(f"{x:.2f}x" for x in rd) + " the paper's (OperaMPI's "
           "growth is not modelled)")
    report(f"reduce+bcast / recursive doubling at 49: "
           f"{got['mesh'][5] / got['recursive-doubling'][5]:.2f} (paper "
           f"0.59)")


def alltoall():
    print("alltoall, 7x7, single packet (paper: 761 us)")
    modes = {"compact": "mesh-rounds", "modh": "mesh-rounds:rounds=1",
             "literal": "mesh-rounds:rounds=2"}
    got = {m: sim("alltoall", a)[0]["lat_us"] for m, a in modes.items()}
    DATA["a2a7x7"] = got
    check(0.7 <= got["compact"] / 761 <= 1.3,
          f"rounds=0 (312 rounds): {got['compact']:.0f} us, "
          f"{got['compact'] / 761:.2f}x the paper's")
    report(f"rounds=1 (924 rounds): {got['modh']:.0f} us; rounds=2 (84 "
           f"rounds, Algorithm 1 as printed): {got['literal']:.0f} us")
    sizes = "8,64,256,1K,4K,8K"
    m = sim("alltoall", "mesh-rounds", sizes)
    p = sim("alltoall", "pairwise", sizes)
    DATA["a2a_sizes"] = {"bytes": [d["bytes"] for d in m],
                         "mesh": [d["lat_us"] for d in m],
                         "pairwise": [d["lat_us"] for d in p]}
    report("NoCMsg / pairwise exchange, 8 B..8 KiB: " +
           ", ".join(f"{a['lat_us'] / b['lat_us']:.1f}" for a, b in zip(m, p))
           + " (the paper: NoCMsg better up to 256 B-4 KB)")


def bcast():
    print("broadcast on the static network")
    b = sim("bcast", "mesh-tree", "8,64,256,128K,256K,512K,1M")
    lat = {d["bytes"]: d["lat_us"] for d in b}
    check(lat[256] / lat[8] <= 1.2, f"flat up to 256 B: {lat[8]:.2f} -> "
          f"{lat[256]:.2f} us")
    slope = (lat[1 << 20] - lat[1 << 19]) / (lat[1 << 18] - lat[1 << 17]) / 4
    check(0.8 <= slope <= 1.2, f"bandwidth-bound beyond 128 KB: the time per "
          f"byte from 512 KB to 1 MB is {slope:.2f}x that from 128 to 256 KB")
    sn = [sim("bcast", "mesh-tree", grid=g)[0]["lat_us"] for g in GRIDS]
    sw = [sim("bcast", "mesh-tree:sn=0", grid=g)[0]["lat_us"] for g in GRIDS]
    DATA["bcast_grids"] = {"sn": sn, "software": sw}
    report(f"2x2 -> 7x7: {sn[5] / sn[0]:.2f}x on the static network, "
           f"{sw[5] / sw[0]:.2f}x forwarded by the cores (paper: 3.5x)")


def variance():
    print(f"variance of 21 runs, 8 B, jitter {JITTER} [us^2] "
          f"(NoCMsg / contention-oblivious; paper Table 1 / Table 2)")
    runs = ["--runs", "21", "--jitter", JITTER]
    table = {}
    for coll, (ours, base) in PAIRS.items():
        table[coll] = {
            a: [sim(coll, a, grid=g, extra=runs)[0]["run_var_us2"]
                for g in GRIDS] for a in (ours, base)}
        row = "  ".join(f"{x:.3g}/{y:.3g}" for x, y in
                        zip(table[coll][ours], table[coll][base]))
        print(f"  {coll:<10} {row}")
    DATA["variance"] = table
    bc = table["bcast"]
    check(all(bc["mesh-tree"][i] < bc["binomial"][i] for i in (3, 4, 5)),
          "broadcast: below the binomial tree's at 25, 36, 49 tasks")
    for coll in ("alltoall", "barrier", "reduce", "allreduce"):
        ours, base = PAIRS[coll]
        n = sum(table[coll][ours][i] < table[coll][base][i] for i in (3, 4, 5))
        report(f"{coll}: below {base}'s at {n} of 25, 36, 49 tasks")
    m = sim("alltoall", "mesh-rounds", "4K", extra=runs)[0]["run_var_us2"]
    p = sim("alltoall", "pairwise", "4K", extra=runs)[0]["run_var_us2"]
    DATA["variance_a2a_4k"] = {"mesh-rounds": m, "pairwise": p}
    check(m < p, f"alltoall, 4 KiB, 7x7: {m:.0f} against pairwise {p:.0f}")


def scc():
    print("SCC (scc48, 6x4 tiles of 2 cores, MPBs)")
    sizes = "1K,16K,64K,256K"
    bw = {a: max(d["bw_MBps"] for d in sim("bcast", a, sizes, "6x4", "scc48"))
          for a in ("mesh-tree", "binomial", "scatter-allgather")}
    DATA["scc_bcast_MBps"] = bw
    r = bw["mesh-tree"] / bw["binomial"]
    check(1.5 <= r <= 6, f"broadcast: {bw['mesh-tree']:.1f} MB/s at most, "
          f"{r:.1f}x the binomial tree's ({bw['scatter-allgather']:.1f} "
          f"MB/s scatter-allgather)")
    for coll, ours, base in (("reduce", "mesh-2step", "binomial"),
                             ("allreduce", "mesh", "reduce-bcast"),
                             ("alltoall", "mesh-rounds", "pairwise")):
        a = max(d["bw_MBps"] for d in sim(coll, ours, sizes, "6x4", "scc48"))
        b = max(d["bw_MBps"] for d in sim(coll, base, sizes, "6x4", "scc48"))
        report(f"{coll}: {a:.2f} against {base} {b:.2f} MB/s ({a / b:.2f}x)")
    out = subprocess.run(
        [MC, "sim", "--platform", "scc48", "--grid", "6x4", "--coll",
         "barrier", "--algo", "mesh-tree", "--trace", "/dev/stdout"],
        capture_output=True, text=True, check=True).stdout
    ev = json.loads(out[out.index("{"):out.rindex("}") + 1])["traceEvents"]
    end = {}
    for e in ev:
        if e.get("ph") == "X":
            end[e["tid"]] = max(end.get(e["tid"], 0), e["ts"] + e["dur"])
    odd = sum(end[2 * t + 1] < end[2 * t] for t in range(24))
    DATA["scc_barrier_done_us"] = [end[k] for k in sorted(end)]
    check(odd == 24, f"barrier: the odd core of {odd} of 24 tiles is done "
          f"before its even sibling")
    grids = {8: "2x2", 16: "4x2", 24: "6x2", 32: "4x4", 48: "6x4"}
    t = {n: sim("bcast", "mesh-tree", "236K", g, "scc48")[0]["lat_us"]
         for n, g in grids.items()}
    DATA["scc_bcast_236k"] = t
    report(f"236 KB broadcast, 16 -> 48 cores: {t[48] / t[16]:.2f}x "
           f"(paper: flat)")


def full():
    """the sweeps the figures are drawn from"""
    print("full sweeps (figures)")
    for coll, (ours, base) in PAIRS.items():
        DATA.setdefault("by_tasks", {})[coll] = {
            a: [sim(coll, a, grid=g)[0]["lat_us"] for g in GRIDS]
            for a in (ours, base)}
    sizes = "8,64,256,1K,4K,16K,64K,256K,1M"
    for coll, algos in (("alltoall", ("mesh-rounds", "pairwise")),
                        ("bcast", ("mesh-tree", "binomial")),
                        ("reduce", ("mesh-2step", "binomial")),
                        ("allreduce", ("mesh", "recursive-doubling"))):
        for g in ("2x2", "4x4", "7x7"):
            for a in algos:
                r = sim(coll, a, sizes, g)
                DATA.setdefault("by_size", {}).setdefault(coll, {})[
                    f"{a} {g}"] = [(d["bytes"], d["lat_us"]) for d in r]


def main():
    global MC
    MC = sys.argv[1]
    exact()
    fig16()
    alltoall()
    bcast()
    variance()
    scc()
    if "--full" in sys.argv:
        full()
    if "--out" in sys.argv:
        with open(sys.argv[sys.argv.index("--out") + 1], "w") as f:
            json.dump(DATA, f, indent=1)
    print(f"nocmsg_repro: {len(FAILS)} check(s) failed" if FAILS else
          "nocmsg_repro: every check holds")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
