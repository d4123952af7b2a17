#!/usr/bin/env python3
"""Redraws the NoCMsg paper's figures from the simulator (Figs. 6-10 against
task count, Fig. 16, Figs. 11-15 against message size), log time axes as
the paper draws them.

    tests/nocmsg_repro.py build/manycoll --full --out /tmp/nocmsg.json
    python3 tools/plot_nocmsg.py /tmp/nocmsg.json docs/papers

writes nocmsg_tasks.png, nocmsg_fig16.png and nocmsg_sizes.png."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TASKS = [4, 9, 16, 25, 36, 49]
FIG16 = {"mesh": [13.57, 16.29, 25.43, 26.71, 30.29, 33.00],
         "recursive-doubling": [4, 6, 10, 26, 51, 56]}
NAMES = {"mesh-rounds": "NoCMsg rounds", "pairwise": "pairwise exchange",
         "mesh-tree": "NoCMsg tree", "dissemination": "dissemination",
         "binomial": "binomial tree", "mesh-2step": "NoCMsg 2-step",
         "mesh": "NoCMsg reduce+bcast",
         "recursive-doubling": "recursive doubling"}


def tasks(d, out):
    fig, axes = plt.subplots(1, 5, figsize=(17, 3.6))
    for ax, (coll, runs) in zip(axes, d["by_tasks"].items()):
        for algo, lat in runs.items():
            style = "-o" if algo.startswith("mesh") else ":s"
            ax.semilogy(TASKS, lat, style, label=NAMES.get(algo, algo))
        ax.set_title(f"{coll}, single packet (8 B)")
        ax.set_xlabel("tasks (2x2 .. 7x7 grids)")
        ax.set_xticks(TASKS)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("time [us], simulated")
    fig.suptitle("Figs. 6-10 redrawn: simulated tilepro64-udn "
                 "(solid: NoCMsg, dotted: contention-oblivious)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "nocmsg_tasks.png"), dpi=110)


def fig16(d, out):
    fig, ax = plt.subplots(figsize=(6, 4))
    for algo, lat in d["fig16"].items():
        ax.semilogy(TASKS, lat, "-o", label=f"{NAMES[algo]} (simulated)")
        ax.semilogy(TASKS, FIG16[algo], "--x", label=f"{NAMES[algo]} "
                    "(paper)")
    ax.axvline(4, color="grey", lw=0.5)
    ax.annotate("fitted here", (4, 4), xytext=(6, 2.5), fontsize=8)
    ax.set_xlabel("tasks")
    ax.set_ylabel("allreduce time [us]")
    ax.set_xticks(TASKS)
    ax.set_title("Fig. 16: allreduce variants")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "nocmsg_fig16.png"), dpi=110)


def sizes(d, out):
    colls = list(d["by_size"])
    fig, axes = plt.subplots(1, len(colls), figsize=(4.2 * len(colls), 3.8))
    for ax, coll in zip(axes, colls):
        for name, pts in d["by_size"][coll].items():
            algo, grid = name.split()
            style = "-" if algo.startswith("mesh") else ":"
            w, h = (int(v) for v in grid.split("x"))
            n = w * h
            label = ("N" if algo.startswith("mesh") else "O") + str(n)
            color = {4: "C0", 16: "C1", 49: "C2"}.get(n, "C3")
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], style + "o",
                      ms=3, color=color, label=label)
        ax.set_title(coll)
        ax.set_xlabel("message [bytes]")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    axes[0].set_ylabel("time [us], simulated")
    fig.suptitle("Figs. 11-15 redrawn: N = NoCMsg (solid), O = "
                 "contention-oblivious (dotted: pairwise, binomial, recursive "
                 "doubling), by task count, one colour per grid")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "nocmsg_sizes.png"), dpi=110)


def main():
    d = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    tasks(d, out)
    fig16(d, out)
    sizes(d, out)


if __name__ == "__main__":
    main()
