#!/usr/bin/env python3
"""Plots for docs/papers/cachecoh.md.

usage: python3 tools/cachecoh_plot.py PROFILE.json OUTDIR [MANYCOLL]

  OUTDIR/cachecoh_multiline.png  multi-line ping-pong of the calibrated
        profile: medians with quartiles per size and the fitted
        T_N = o*N + q - p/N, with the relative error per point
  OUTDIR/cachecoh_drift.png  medians of consecutive tenths of the raw
        samples (samples are stored in time order): how the vCPUs' host
        placement moves the costs during one calibration
  OUTDIR/cachecoh_bounds.png  min-max model bounds of the optimised small
        broadcast, small reduction and barrier on xeonphi60, 2..60 threads
        (`manycoll model optimize --json`)
"""
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def quantile(v, q):
    s = sorted(v)
    return s[int(q * (len(s) - 1))]


def multiline(prof, out):
    fits = prof["multiline"]
    fig, axes = plt.subplots(2, 1, figsize=(7, 7), sharex=True,
                             gridspec_kw={"height_ratios": [3, 1]})
    for f in fits:
        pts = f["points"]
        x = [p["x"] for p in pts]
        med = [p["median"] for p in pts]
        lo = [p["median"] - quantile(p["samples"], 0.25) for p in pts]
        hi = [quantile(p["samples"], 0.75) - p["median"] for p in pts]
        line = axes[0].errorbar(x, med, yerr=[lo, hi], fmt="o", ms=3,
                                capsize=2, label="%s measured" % f["states"])
        xs = [1 + i * 0.25 for i in range(int((max(x) - 1) * 4) + 1)]
        ys = [f["o"] * n + f["q"] - f["p"] / n for n in xs]
        axes[0].plot(xs, ys, "-", color=line[0].get_color(), lw=1,
                     label="%s: %.1fN %+.0f %+.0f/N (R² %.3f)"
                     % (f["states"], f["o"], f["q"], -f["p"], f["r2"]))
        axes[1].plot(x, [100 * p["rel_err"] for p in pts], "o-", ms=3,
                     color=line[0].get_color())
    axes[0].set_ylabel("half round trip (ns)")
    axes[0].set_title("multi-line ping-pong, %s" % prof["name"])
    axes[0].legend(fontsize=7)
    axes[1].set_ylabel("rel. error (%)")
    axes[1].set_xlabel("lines N")
    axes[1].axhline(0, color="gray", lw=0.5)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cachecoh_multiline.png"), dpi=110)


def drift(prof, out):
    series = []
    for s in prof["lines"]:
        if s["states"] in ("E", "I") and s.get("samples"):
            series.append(("line %s %s" % (s["states"], s["location"]),
                           s["samples"]))
    for s in prof["pingpong"]:
        if s["states"] in ("E-E", "I-E"):
            series.append(("ping-pong %s" % s["states"], s["samples"]))
    for f in prof["multiline"]:
        if f["states"] == "E-E":
            for p in f["points"]:
                if p["x"] in (1, 128):
                    series.append(("multi-line E-E N=%d" % p["x"],
                                   p["samples"]))
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, v in series:
        n = len(v)
        med = [sorted(v[i * n // 10:(i + 1) * n // 10])[
            (n // 10) // 2] for i in range(10)]
        ax.plot(range(1, 11), med, "o-", ms=3, label=name)
    ax.set_yscale("log")
    ax.set_xlabel("tenth of the run (samples in time order)")
    ax.set_ylabel("median of the tenth (ns)")
    ax.set_title("drift within one calibration run, %s" % prof["name"])
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cachecoh_drift.png"), dpi=110)


def bounds(mc, out):
    fig, ax = plt.subplots(figsize=(7, 4))
    for coll, color in (("bcast-small", "C0"), ("reduce-small", "C1"),
                        ("barrier", "C2")):
        txt = subprocess.run([mc, "model", "optimize", "--profile",
                              "xeonphi60", "--coll", coll, "--ranks", "2-60",
                              "--json"], check=True, capture_output=True,
                             text=True).stdout
        rows = [json.loads(line) for line in txt.splitlines()]
        x = [r["ranks"] for r in rows]
        lo = [r["min_ns"] / 1000 for r in rows]
        hi = [r["max_ns"] / 1000 for r in rows]
        ax.fill_between(x, lo, hi, alpha=0.2, step="mid", color=color)
        ax.plot(x, lo, "-", drawstyle="steps-mid", color=color, lw=2,
                label="%s: min (thick) .. max" % coll)
        ax.plot(x, hi, "-", drawstyle="steps-mid", lw=0.7, color=color)
    ax.set_xlabel("threads")
    ax.set_ylabel("model time (µs)")
    ax.set_title("min-max models at the optimised parameters, xeonphi60")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cachecoh_bounds.png"), dpi=110)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    prof = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    mc = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
        here, "..", "build", "manycoll")
    os.makedirs(out, exist_ok=True)
    multiline(prof, out)
    drift(prof, out)
    bounds(mc, out)


if __name__ == "__main__":
    main()
