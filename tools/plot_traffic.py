#!/usr/bin/env python3
"""Draws traffic matrices written by `manycoll sim --traffic FILE` the way
Reble et al. draw NPB BT's (vSCC, Fig. 8): bytes from rank (row) to rank
(column) on a log colour scale, the pairs on different chips on a grey
background, chip boundaries as lines. One panel per file.

    manycoll sim --platform vscc240 --coll bcast --sizes 4K --traffic a.json
    manycoll sim --platform vscc240 --coll bcast --sizes 4K --hier \\
        --traffic b.json
    python3 tools/plot_traffic.py OUT.png a.json b.json"""
import json
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def panel(ax, d):
    m = np.array(d["matrix"], dtype=float)
    chip = d["chip"]
    n = len(chip)
    # grey behind the pairs on different chips (the paper's grey boxes)
    other = np.array([[chip[a] != chip[b] for b in range(n)]
                      for a in range(n)], dtype=float)
    ax.imshow(other, cmap=mcolors.ListedColormap(["white", "#dddddd"]),
              interpolation="nearest", origin="upper")
    shown = np.ma.masked_where(m <= 0, m)
    hi = max(m.max(), 1.0)
    im = ax.imshow(shown, cmap="viridis", interpolation="nearest",
                   origin="upper", norm=mcolors.LogNorm(vmin=1, vmax=hi))
    for r in range(1, n):
        if chip[r] != chip[r - 1]:
            ax.axhline(r - 0.5, color="black", lw=0.6)
            ax.axvline(r - 0.5, color="black", lw=0.6)
    total, inter = d["total_bytes"], d["inter_chip_bytes"]
    share = inter / total if total else 0.0
    algo = d["algo"] if len(d["algo"]) < 48 else d["algo"][:45] + "..."
    ax.set_title(f"{d['coll']} {d['bytes']} B on {d['platform']}\n{algo}\n"
                 f"{total / 1e6:.2f} MB moved, {share:.1%} between chips",
                 fontsize=8)
    ax.set_xlabel("to rank")
    ax.set_ylabel("from rank")
    return im


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, files = sys.argv[1], sys.argv[2:]
    data = [json.load(open(f)) for f in files]
    fig, axes = plt.subplots(1, len(data), figsize=(4.6 * len(data), 4.4),
                             squeeze=False)
    for ax, d in zip(axes[0], data):
        im = panel(ax, d)
        fig.colorbar(im, ax=ax, shrink=0.8, label="bytes")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"plot_traffic: wrote {out} ({len(data)} panels; largest pair "
          f"{max(max(map(max, d['matrix'])) for d in data):.0f} bytes, "
          f"log scale from {math.log10(1):.0f})")


if __name__ == "__main__":
    main()
