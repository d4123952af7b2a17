#!/usr/bin/env python3
"""Wall time and peak memory against simulated cores, log-log, for
manycoll's simulator and LogGOPSim, from the rows that
bench/loggopsim_compare.py --rows FILE writes.

    bench/plot_scaling.py ROWS OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(11, 4.2))
    style = {"bcast": "o-", "barrier": "s--"}
    for coll in sorted({r["coll"] for r in rows}):
        rs = sorted((r for r in rows if r["coll"] == coll),
                    key=lambda r: r["cores"])
        x = [r["cores"] for r in rs]
        for sim, color in (("manycoll", "C0"), ("loggopsim", "C1")):
            label = f"{'manycoll' if sim == 'manycoll' else 'LogGOPSim'}, " \
                    f"{coll}"
            ax_t.plot(x, [r[f"{sim}_wall_s"] for r in rs], style[coll],
                      color=color, label=label)
            ax_m.plot(x, [r[f"{sim}_mb"] for r in rs], style[coll],
                      color=color, label=label)
    for ax, what in ((ax_t, "wall time (s)"), (ax_m, "peak memory (MB)")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("simulated cores")
        ax.set_ylabel(what)
        ax.grid(True, which="both", alpha=0.3)
    ax_t.legend(fontsize=8)
    fig.suptitle("8-byte binomial broadcast and dissemination barrier, the "
                 "same schedule and costs (bench/loggopsim_compare.py)",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
