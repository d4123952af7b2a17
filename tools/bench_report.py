#!/usr/bin/env python3
"""Markdown tables and the issue-6 target status from benchmark results.

    python3 tools/bench_report.py RESULTS_DIR [--icount FILE]
                     [--copy-gbs 40]

RESULTS_DIR is what bench/compare wrote; FILE holds the JSON lines of
`bench/icount --json`. Prints, in Markdown: the per-case table at the
normal rank count, the oversubscribed table, the instruction counts, and
one status line per target of issue 6 (met, or missed by how much). Used
to write docs/benchmarks.md, so that re-measuring after a change is: run
bench/compare and bench/icount, run this, paste.

Ratios are the paired medians (median over iterations of MPI time /
manycoll time of the same iteration): > 1 means manycoll is faster.
"""
import argparse
import glob
import json
import os
import re

COLLS = ["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
         "reduce_scatter_block"]
LABELS = {"openmpi": "Open MPI", "mpich": "MPICH"}
MIB = 1 << 20


def load(d):
    runs = {}
    for path in glob.glob(os.path.join(d, "*.jsonl")):
        m = re.match(r"(\w+)-n(\d+)(-oversub)?\.jsonl$", os.path.basename(path))
        if m:
            with open(path) as f:
                rows = [json.loads(x) for x in f if x.startswith("{")]
            runs[(m.group(1), int(m.group(2)), bool(m.group(3)))] = rows
    return runs


def us(t):
    return f"{t:.2f}" if t < 10 else f"{t:.1f}" if t < 1000 else f"{t:,.0f}"


def ratio(x):
    return f"{x:.2f}" if x >= 0.095 else f"{x:.3f}" if x >= 0.001 \
        else "<0.001"


def size(b):
    return f"{b >> 20} MiB" if b >= MIB else f"{b >> 10} KiB" \
        if b >= 1024 else f"{b} B"


def find(rows, coll, nbytes):
    return next((r for r in rows if r["coll"] == coll and
                 (coll == "barrier" or r["bytes"] == nbytes)), None)


def case_table(runs, title):
    mpis = sorted(runs, key=lambda k: k[0] != "openmpi")
    print(f"\n#### {title}\n")
    head = "| collective | size |"
    line = "|---|---:|"
    for k in mpis:
        lab = LABELS.get(k[0], k[0])
        head += f" manycoll p50 | {lab} p50 | ratio | paired | floor |"
        line += "---:|---:|---:|---:|---:|"
    print(head)
    print(line)
    keys = []
    for k in mpis:
        for r in runs[k]:
            if (r["coll"], r["bytes"]) not in keys:
                keys.append((r["coll"], r["bytes"]))
    keys.sort(key=lambda x: (COLLS.index(x[0]), x[1]))
    for coll, b in keys:
        out = f"| {coll} | {'-' if coll == 'barrier' else size(b)} |"
        for k in mpis:
            r = find(runs[k], coll, b)
            # the barrier floor reads the placement only for small messages
            # (after a large call it includes the ranks' skew)
            floor = r.get("sep_barrier_min_us") if r and b <= 8192 else None
            out += (f" {us(r['mc_p50_us'])} | {us(r['mpi_p50_us'])} | "
                    f"{ratio(r['ratio_p50'])} | **{ratio(r['ratio_paired'])}**"
                    f" | {'-' if floor is None else us(floor)} |"
                    if r else " - | - | - | - | - |")
        print(out)


def icount_table(rows):
    print("\n#### Instructions per call (callgrind; * = no two runs agreed "
          "within 1%, see bench/icount)\n")
    mpis = []
    for r in rows:
        if r["mpi"] not in mpis:
            mpis.append(r["mpi"])
    print("| collective | rank | " + " | ".join(
        f"manycoll ({m} run) | {m}" for m in mpis) + " |")
    print("|---|---:|" + "---:|---:|" * len(mpis))
    keys = sorted({(r["coll"], r["rank"]) for r in rows},
                  key=lambda k: (COLLS.index(k[0]), k[1]))
    for coll, rank in keys:
        cells = []
        for m in mpis:
            r = next(x for x in rows if x["mpi"] == m and x["coll"] == coll
                     and x["rank"] == rank)
            star = {k: "" if r.get(f"{k}_confirmed", True) else "*"
                    for k in ("mc", "mpi")}
            cells.append(f"{r['mc_instr_per_call']:,}{star['mc']} | "
                         f"{r['mpi_instr_per_call']:,}{star['mpi']}")
        who = "0 (root)" if rank == 0 else str(rank)
        what = coll if coll == "barrier" else f"{coll} {size(rows[0]['bytes'])}"
        print(f"| {what} | {who} | "
              + " | ".join(cells) + " |")


def need(paired, factor):
    """'met' or 'missed: ...' for min(paired ratios) >= factor."""
    worst = min(paired.values())
    detail = ", ".join(f"{LABELS.get(m, m)} {ratio(v)}x"
                       for m, v in paired.items())
    if worst >= factor:
        return f"**met** ({detail})"
    return (f"**missed** by {factor / worst:.1f}x: manycoll is "
            f"{ratio(worst)}x the speed of the faster MPI, target {factor}x "
            f"({detail})")


def targets(runs, icount, copy_gbs):
    normal = {k[0]: v for k, v in runs.items() if not k[2]}
    over = {k[0]: v for k, v in runs.items() if k[2]}
    print("\n#### Status of the issue-6 targets\n")
    for coll in ("barrier", "bcast", "reduce", "allreduce"):
        p = {m: find(rows, coll, 8)["ratio_paired"]
             for m, rows in normal.items() if find(rows, coll, 8)}
        if p:
            print(f"- 8-byte {coll} at least 2x faster than the faster MPI: "
                  f"{need(p, 2)}")
    if icount:
        ar = [r for r in icount if r["coll"] == "allreduce"]
        worst = max(r["mc_instr_per_call"] for r in ar)
        st = "**met**" if worst <= 500 else \
            f"**missed** by {worst - 500:,} instructions ({worst / 500:.1f}x)"
        print(f"- at most 500 instructions per 8-byte allreduce: {st} "
              f"(manycoll {worst:,} on the worse rank)")
    bound = MIB / (copy_gbs * 1e9) * 1e6
    for coll, factor in (("allreduce", 4), ("bcast", 2)):
        p = {m: find(rows, coll, MIB)["ratio_paired"]
             for m, rows in normal.items() if find(rows, coll, MIB)}
        if not p:
            continue
        print(f"- 1 MiB {coll} at least {factor}x faster than the faster "
              f"MPI: {need(p, factor)}")
        ts = {m: find(rows, coll, MIB)["mc_p50_us"]
              for m, rows in normal.items()}
        t = min(ts.values())
        st = "**met**" if t <= 2 * bound else \
            f"**missed** by {t / (2 * bound):.1f}x"
        print(f"- 1 MiB {coll} within 2x of the copy bandwidth "
              f"({copy_gbs:g} GB/s: {bound:.0f} us, so <= {2 * bound:.0f} "
              f"us): {st} (manycoll median " + ", ".join(
                  f"{us(v)} us in the {LABELS.get(m, m)} run"
                  for m, v in ts.items()) + ")")
    if "openmpi" in over:
        slow = {r["coll"]: r["ratio_paired"] for r in over["openmpi"]
                if r["ratio_paired"] < 1}
        n = over["openmpi"][0]["ranks"] if over["openmpi"] else "?"
        if not slow:
            print(f"- oversubscribed ({n} ranks): every 8-byte collective no "
                  "slower than Open MPI with mpi_yield_when_idle: **met**")
        else:
            print(f"- oversubscribed ({n} ranks): every 8-byte collective no "
                  f"slower than Open MPI with mpi_yield_when_idle: **missed** "
                  f"for {len(slow)} of {len(over['openmpi'])}: " + ", ".join(
                      f"{c} by {1 / v:.1f}x" for c, v in slow.items()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--icount", default=None)
    ap.add_argument("--copy-gbs", type=float, default=40.0)
    a = ap.parse_args()
    runs = load(a.results)
    normal = {k: v for k, v in runs.items() if not k[2]}
    over = {k: v for k, v in runs.items() if k[2]}
    if normal:
        n = next(iter(normal))[1]
        case_table(normal, f"{n} ranks: median per-call time (us), "
                           "ratio = MPI/manycoll")
    if over:
        n = next(iter(over))[1]
        case_table(over, f"Oversubscribed: {n} ranks on "
                         f"{os.cpu_count()} CPUs")
    icount = None
    if a.icount:
        with open(a.icount) as f:
            icount = [json.loads(x) for x in f if x.startswith("{")]
        icount_table(icount)
    targets(runs, icount, a.copy_gbs)


if __name__ == "__main__":
    main()
