#!/usr/bin/env python3
"""Draws ping-pong throughput curves written by `manycoll sim --coll
pingpong --json` the way Reble et al. draw theirs (vSCC, Fig. 6): MB/s
(bytes over the half round trip) against the message size, one curve per
file, on a chip in the left panel and between chips in the right one
(by the rows' "locality").

    manycoll sim --platform vscc240 --coll pingpong --pair 0,1 \\
        --sizes 32,64,...,64K --json > chip.json
    manycoll sim --platform vscc240 --coll pingpong --pair 0,48 \\
        --scheme lp_lg --sizes 32,64,...,64K --json > lp_lg.json
    python3 tools/plot_pingpong.py OUT.png chip.json=RCCE lp_lg.json=lp/lg

A file may be named FILE=LABEL; the label is otherwise the rows' scheme
(and "piped" where iRCCE's pipelining was on)."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def curve(arg):
    path, _, label = arg.partition("=")
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if not rows or any(r.get("coll") != "pingpong" for r in rows):
        sys.exit(f"plot_pingpong: {path}: not rows of manycoll sim --coll "
                 "pingpong --json")
    rows.sort(key=lambda r: r["bytes"])
    if not label:
        label = rows[0]["scheme"] + (" piped" if rows[-1]["piped"] else "")
    other = rows[0]["locality"] == "other-chip"
    return other, label, [r["bytes"] for r in rows], [r["MBps"] for r in rows]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    curves = [curve(a) for a in argv[2:]]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    titles = ("on one chip", "between two chips")
    for i, ax in enumerate(axes):
        for other, label, x, y in curves:
            if other == bool(i):
                ax.plot(x, y, marker=".", label=label)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("throughput (MB/s)")
        ax.set_title(titles[i])
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[1], dpi=110)


if __name__ == "__main__":
    main(sys.argv)
