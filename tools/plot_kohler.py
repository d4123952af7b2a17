#!/usr/bin/env python3
"""Redraws Kohler et al.'s Fig. 9 a-f from the simulator: each collective's
latency on core 0 against the vector size (doubles), one curve per stack
of optimisations, on the simulated SCC (scc48-kohler).

    tools/kohler_sweep.py build/manycoll --sizes 528-600 -o /tmp/kohler.jsonl
    python3 tools/plot_kohler.py /tmp/kohler.jsonl docs/papers

writes kohler_fig9.png."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PANELS = [("allgather", "a) Allgather"), ("alltoall", "b) Alltoall"),
          ("reduce_scatter_block", "c) ReduceScatter (block per rank)"),
          ("bcast", "d) Broadcast"), ("reduce", "e) Reduce"),
          ("allreduce", "f) Allreduce")]
STYLE = {"blocking": ("RCCE_comm, blocking", "-", "k"),
         "ircce": ("iRCCE non-blocking", "--", "tab:blue"),
         "light": ("lightweight non-blocking", "-", "tab:orange"),
         "balanced": ("lightweight + balanced", "-", "tab:green"),
         "mpb": ("MPB-direct (balanced)", ":", "tab:red")}


def main():
    rows = [json.loads(line) for line in open(sys.argv[1])]
    out = sys.argv[2] if len(sys.argv) > 2 else "."
    fig, axes = plt.subplots(2, 3, figsize=(15, 7.5))
    for ax, (coll, title) in zip(axes.flat, PANELS):
        for stack, (label, ls, color) in STYLE.items():
            pts = sorted((r["n"], r["us"]) for r in rows
                         if r["coll"] == coll and r["stack"] == stack)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], ls,
                        color=color, label=label, lw=1.2)
        for m in range(528, 601, 48):
            ax.axvline(m, color="grey", lw=0.5, alpha=0.5)
        ax.set_title(title)
        ax.set_xlabel("vector size (doubles)")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("latency on core 0 [us], simulated")
    axes[1][0].set_ylabel("latency on core 0 [us], simulated")
    axes[1][2].legend(fontsize=8)
    fig.suptitle("Kohler et al., Fig. 9 redrawn: the simulated SCC "
                 "(scc48-kohler), 48 ranks; grey lines at multiples of 48")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "kohler_fig9.png"), dpi=100)


if __name__ == "__main__":
    main()
