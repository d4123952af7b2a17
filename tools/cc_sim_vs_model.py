#!/usr/bin/env python3
"""The cache-coherence min-max models (Ramos & Hoefler, Table 4.1) against
the same algorithms run on the simulated Xeon Phi (platform xeonphi60),
2 to 60 cores: barrier (dissemination with the optimiser's m), small
broadcast and small reduction (the optimiser's trees), 8 bytes; through
the Python package (manycoll.model.optimize, manycoll.sim.run).

    cc_sim_vs_model.py MANYCOLL [OUT.png] [--ranks 2,4,...]

MANYCOLL (build/manycoll) says which build's package to use when none is
installed.

Prints, per collective and rank count, the model's [min, max] and the
simulated latency, and whether it lands inside; draws the bounds as a band
and the simulation as points (the report's Figures 4.4-4.8 in spirit)."""
import sys

from mcpy import manycoll

CASES = [("barrier", "barrier", "dissemination-m"),
         ("bcast-small", "bcast", "cc-tree"),
         ("reduce-small", "reduce", "cc-tree")]


def main():
    mc = manycoll(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2].endswith(".png") \
        else None
    ranks = list(range(2, 61, 2)) + [3, 5, 7, 9, 15, 31, 47, 59]
    if "--ranks" in sys.argv:
        ranks = [int(x) for x in sys.argv[sys.argv.index("--ranks") + 1]
                 .split(",")]
    ranks = sorted(set(ranks))
    results = {}
    for model_coll, coll, algo in CASES:
        bounds = {r["ranks"]: r for r in mc.model.optimize(
            "xeonphi60", model_coll, ranks="2-60")}
        rows = []
        for n in ranks:
            sim = mc.sim.run("xeonphi60", coll, algo=algo, ranks=n,
                             sizes=[8], contention="all")[0]
            b = bounds[n]
            lat = sim["lat_us"] * 1000
            inside = b["min_ns"] <= lat <= b["max_ns"]
            rows.append((n, b["min_ns"], b["max_ns"], lat, inside,
                         sim["algo"]))
        results[model_coll] = rows
        ins = sum(r[4] for r in rows)
        print(f"## {model_coll} ({coll} {algo}, 8 bytes): {ins}/{len(rows)} "
              "simulated latencies inside the model's [min, max]")
        print(f"{'ranks':>5} {'min_ns':>9} {'max_ns':>9} {'sim_ns':>9}  "
              "inside  algorithm")
        for n, lo, hi, lat, inside, a in rows:
            print(f"{n:>5} {lo:>9.1f} {hi:>9.1f} {lat:>9.1f}  "
                  f"{'yes' if inside else 'NO':>6}  {a}")
    if out:
        plot(results, out)


def plot(results, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for ax, (name, rows) in zip(axes, results.items()):
        n = [r[0] for r in rows]
        ax.fill_between(n, [r[1] / 1000 for r in rows],
                        [r[2] / 1000 for r in rows], alpha=0.25,
                        label="model [min, max]")
        ax.plot(n, [r[3] / 1000 for r in rows], "o", ms=4,
                label="simulated xeonphi60")
        ax.set_title(name + " (8 bytes)")
        ax.set_xlabel("cores")
        ax.set_ylabel("latency (us)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Ramos & Hoefler min-max models vs the simulator "
                 "(tools/cc_sim_vs_model.py)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
