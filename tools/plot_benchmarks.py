#!/usr/bin/env python3
"""Draws docs/img/benchmarks.png from a bench/compare results directory.

    python3 tools/plot_benchmarks.py RESULTS_DIR [-o FILE.png]

RESULTS_DIR is what bench/compare wrote (its last line names it): one
<mpi>-n<ranks>[-oversub].jsonl per run, one JSON object per case. Plotted
is the paired ratio MPI/manycoll (median over iterations of the two calls'
ratio in the same iteration): above 1, manycoll is faster. Panels: each
MPI at the normal rank count over message sizes, and the oversubscribed
runs as bars per collective.
"""
import argparse
import glob
import json
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

COLLS = ["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
         "reduce_scatter_block"]
LABELS = {"openmpi": "Open MPI", "mpich": "MPICH"}
ORDER = {"openmpi": 0, "mpich": 1}
FLOOR = 1 / 16  # the oversubscribed panel's lower limit
RATIO_FMT = FuncFormatter(lambda v, _: f"{v:.3g}")


def run_key(item):
    return (ORDER.get(item[0][0], 9), item[0])


def load(d):
    runs = {}
    for path in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
        m = re.match(r"(\w+)-n(\d+)(-oversub)?\.jsonl$", os.path.basename(path))
        if not m:
            continue
        with open(path) as f:
            rows = [json.loads(x) for x in f if x.startswith("{")]
        runs[(m.group(1), int(m.group(2)), bool(m.group(3)))] = rows
    return runs


def size_label(b):
    return f"{b >> 20}M" if b >= 1 << 20 else f"{b >> 10}K" if b >= 1024 \
        else str(b)


def sizes_panel(ax, rows, title):
    sizes = sorted({r["bytes"] for r in rows if r["coll"] != "barrier"})
    for c in COLLS:
        pts = sorted((r["bytes"], r["ratio_paired"]) for r in rows
                     if r["coll"] == c)
        if c == "barrier" and pts:  # one point: draw it at the smallest size
            pts = [(sizes[0] if sizes else 8, pts[0][1])]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=c,
                    markersize=4)
    ax.axhline(1, color="black", linewidth=0.8)
    ax.axhline(2, color="gray", linewidth=0.8, linestyle="--")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([size_label(s) for s in sizes])
    ax.yaxis.set_major_formatter(RATIO_FMT)
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax.set_xlabel("message size (bytes per rank block)")
    ax.set_ylabel("MPI time / manycoll time (paired median)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="major", alpha=0.3)


def oversub_panel(ax, over):
    width = 0.8 / max(1, len(over))
    for i, ((mpi, n), rows) in enumerate(sorted(over.items(),
                                                key=run_key)):
        xs, ys = [], []
        for j, c in enumerate(COLLS):
            r = next((x for x in rows if x["coll"] == c), None)
            if r:
                xs.append(j + i * width)
                ys.append(r["ratio_paired"])
        # bars below the axis are drawn at its bottom; the label says more
        ax.bar(xs, [max(y, FLOOR) for y in ys], width,
               label=f"{LABELS.get(mpi, mpi)}, {n} ranks")
        for x, y in zip(xs, ys):
            ax.text(x, max(y, FLOOR) * 1.08,
                    f"{y:.2g}" if y >= 0.01 else "<0.01", ha="center",
                    fontsize=6)
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_yscale("log", base=2)
    ax.set_ylim(FLOOR, 8)
    ax.yaxis.set_major_formatter(RATIO_FMT)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(COLLS))])
    ax.set_xticklabels(COLLS, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("MPI time / manycoll time (paired median)")
    ax.set_title("oversubscribed (more ranks than CPUs), smallest size",
                 fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(True, axis="y", alpha=0.3)


def revision(results):
    """the manycoll revision and date of a results directory (meta.json)"""
    try:
        with open(os.path.join(results, "meta.json")) as f:
            meta = json.load(f)
    except (OSError, ValueError):
        return ""
    return " ".join(str(meta[k]) for k in ("manycoll", "date") if k in meta)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("-o", "--output", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
        "img", "benchmarks.png"))
    a = ap.parse_args()
    runs = load(a.results)
    normal = {k: v for k, v in runs.items() if not k[2]}
    over = {(k[0], k[1]): v for k, v in runs.items() if k[2]}
    if not normal:
        raise SystemExit(f"plot_benchmarks: no bench/compare results in "
                         f"{a.results}")
    npanels = len(normal) + (1 if over else 0)
    fig, axes = plt.subplots(1, npanels, figsize=(5.2 * npanels, 4.6),
                             squeeze=False)
    axes = axes[0]
    for ax, ((mpi, n, _), rows) in zip(axes, sorted(normal.items(),
                                                    key=run_key)):
        sizes_panel(ax, rows, f"manycoll vs {LABELS.get(mpi, mpi)}, "
                              f"{n} ranks (> 1: manycoll faster)")
    axes[0].legend(fontsize=7, loc="best")
    if over:
        oversub_panel(axes[-1], over)
    fig.suptitle(f"manycoll {revision(a.results)} vs MPI, interleaved in "
                 f"the same processes", fontsize=11)
    fig.tight_layout()
    fig.savefig(a.output, dpi=110)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    main()
