#!/usr/bin/env python3
"""Redraws Figures 6 and 8 of Petrovic et al., SPAA'12 (OC-Bcast) on scc48:
model curves from manycoll.model.predict and simulator points from
manycoll.sim.run (the Python package), on the same axes.

    python3 tools/plot_ocbcast.py [--manycoll build/manycoll]
                                           [--out docs/papers]

writes
  ocbcast_fig6.png  modelled latency, 1-192 cache lines (a) and 1-24 (b,
                    the paper's zoom-in), OC-Bcast k = 2, 7, 47 and
                    binomial: model (paper mode, d = 1) as lines, the
                    simulator (contention on) as points
  ocbcast_fig8.png  (a) latency up to 2 x 96 lines, (b) throughput from 1
                    line to 1 MiB (log x), OC-Bcast k = 2, 7, 47, binomial,
                    scatter-allgather: the simulator as points, the model
                    in paper mode (solid) and layout mode (dotted)

An algorithm the simulator does not know (yet) is skipped and reported;
the model curves are drawn regardless. P = 48, root 0, 32-byte lines.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from mcpy import manycoll  # noqa: E402

LINE = 32
OCB = [("ocbcast:k=2", "k=2", "tab:blue"), ("ocbcast:k=7", "k=7", "tab:red"),
       ("ocbcast:k=47", "k=47", "tab:green")]
BIN = [("binomial", "binomial", "tab:purple")]
SAG = [("scatter-allgather", "s-ag", "tab:orange")]
SIM_LINES = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 80, 96, 97, 112, 128, 144,
             160, 176, 192]
skipped = []


def model(mc, algo, sizes, mode="paper"):
    try:
        return mc.model.predict("scc48", "bcast", algo, sizes, mode=mode)
    except mc.Error as e:
        sys.exit(f"plot_ocbcast: model {algo} failed: {e}")


def sim(mc, algo, sizes):
    """simulated rows for a list of byte sizes, or None (skipped)"""
    try:
        return mc.sim.run("scc48", "bcast", algo=algo, sizes=sizes)
    except mc.Error as e:
        skipped.append(f"sim {algo}: {e}")
        return None


def lines_of(rows):
    return [r["bytes"] / LINE for r in rows]


def latency_panel(ax, mc, algos, hi, sim_cache, model_modes):
    for algo, label, color in algos:
        for mode, style in model_modes:
            rows = model(mc, algo, f"1L-{hi}L", mode)
            ax.plot(lines_of(rows), [r["lat_us"] for r in rows], style,
                    color=color, lw=1.4 if mode == "paper" else 1,
                    label=f"{label} model" + ("" if mode == "paper"
                                              else " (layout)"))
        rows = sim_cache.get(algo)
        if rows:
            pts = [r for r in rows if r["bytes"] <= hi * LINE]
            ax.plot(lines_of(pts), [r["lat_us"] for r in pts], "o",
                    color=color, ms=3.5, mfc="none", label=f"{label} sim")
    ax.set_xlabel("message size (cache lines of 32 bytes)")
    ax.set_ylabel("latency (us)")
    ax.grid(alpha=0.3)


def figure6(mc, out, sim_cache):
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    latency_panel(axes[0], mc, OCB + BIN, 192, sim_cache, [("paper", "-")])
    axes[0].set_title("(a) modelled broadcast latency, 1-192 lines")
    latency_panel(axes[1], mc, OCB + BIN, 24, sim_cache, [("paper", "-")])
    axes[1].set_title("(b) zoom-in, 1-24 lines")
    axes[0].legend(fontsize=7, ncol=2)
    fig.suptitle("Figure 6 redrawn: model (d = 1, lines) and simulator "
                 "(points), scc48, P = 48")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "ocbcast_fig6.png"), dpi=120)
    plt.close(fig)


def throughput_sizes():
    sizes = sorted({int(LINE * 2 ** (i / 8)) // LINE * LINE
                    for i in range(0, 8 * 15 + 1)} | {96 * LINE, 97 * LINE})
    return [s for s in sizes if s <= 1 << 20]


def figure8(mc, out, sim_cache):
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    modes = [("paper", "-"), ("layout", ":")]
    latency_panel(axes[0], mc, OCB + BIN, 192, sim_cache, modes)
    axes[0].set_title("(a) latency, up to 2 x 96 lines")
    axes[0].legend(fontsize=6, ncol=2)
    ax = axes[1]
    sim_sizes = [LINE * 2 ** i for i in range(16)] + [97 * LINE, 1 << 20]
    sizes = ",".join(str(s) for s in throughput_sizes())
    for algo, label, color in OCB + BIN + SAG:
        for mode, style in modes:
            rows = model(mc, algo, sizes, mode)
            ax.plot([r["bytes"] for r in rows], [r["bw_MBps"] for r in rows],
                    style, color=color, lw=1.4 if mode == "paper" else 1,
                    label=f"{label} model" + ("" if mode == "paper"
                                              else " (layout)"))
        rows = sim(mc, algo, sorted(set(sim_sizes)))
        if rows:
            ax.plot([r["bytes"] for r in rows], [r["bw_MBps"] for r in rows],
                    "o", color=color, ms=3.5, mfc="none", label=f"{label} sim")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("throughput (MB/s = bytes/us)")
    ax.set_title("(b) throughput, 1 line to 1 MiB")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    fig.suptitle("Figure 8 redrawn: simulator (points, contention on) and "
                 "model (paper d = 1 solid, layout dotted), scc48, P = 48")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "ocbcast_fig8.png"), dpi=120)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manycoll", default="build/manycoll",
                    help="the build whose Python package to use, when none "
                         "is installed")
    ap.add_argument("--out", default="docs/papers")
    a = ap.parse_args()
    mc = manycoll(a.manycoll)
    os.makedirs(a.out, exist_ok=True)
    sim_cache = {}
    for algo, _, _ in OCB + BIN:
        sim_cache[algo] = sim(mc, algo, [m * LINE for m in SIM_LINES])
    figure6(mc, a.out, sim_cache)
    figure8(mc, a.out, sim_cache)
    for s in skipped:
        print(f"skipped {s}")
    print(f"wrote {a.out}/ocbcast_fig6.png, {a.out}/ocbcast_fig8.png")


if __name__ == "__main__":
    main()
