#!/usr/bin/env python3
"""Draws a `manycoll sim --trace` file (Chrome/Perfetto trace JSON) as a
PNG timeline: one row per core, a bar per operation (put, get, flag,
wait, copy, reduce). The same file opens in ui.perfetto.dev.

    plot_trace.py TRACE.json OUT.png [--cores N] [--title TEXT]"""
import argparse
import json

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"put": "tab:blue", "get": "tab:orange", "flag": "tab:green",
          "wait": "0.85", "copy": "tab:purple", "reduce": "tab:red",
          "get_reduce": "tab:brown"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--cores", type=int, default=16)
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    with open(a.trace) as f:
        ev = json.load(f)["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M"}
    spans = [e for e in ev if e["ph"] == "X" and e["tid"] < a.cores]
    fig, ax = plt.subplots(figsize=(12, 0.32 * a.cores + 1.2))
    for name, color in COLORS.items():
        bars = [(e["ts"], e["dur"]) for e in spans if e["name"] == name]
        rows = [e["tid"] for e in spans if e["name"] == name]
        for (ts, dur), row in zip(bars, rows):
            ax.broken_barh([(ts, dur)], (row - 0.4, 0.8), color=color,
                           linewidth=0)
        ax.bar(0, 0, color=color, label=name)  # legend entry
    tids = sorted(t for t in names if t < a.cores)
    ax.set_yticks(tids)
    ax.set_yticklabels([names[t] for t in tids], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("virtual time (us)")
    ax.set_title(a.title or a.trace)
    ax.legend(loc="lower right", fontsize=7, ncol=len(COLORS))
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)


if __name__ == "__main__":
    main()
