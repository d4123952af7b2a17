"""Plots of simulator and model rows (matplotlib, an optional dependency:
pip install matplotlib).

    rows = manycoll.sim.sweep("scc48", "bcast", sizes=[2**k for k in
                              range(5, 21)])
    manycoll.plot.sizes(rows).savefig("bcast.png")

Rows are the dicts of manycoll.sim.run/sweep and manycoll.model.predict
(manycoll.replay's: plot.replay, predicted against recorded per collective);
lines are grouped by algorithm (and platform, when rows hold several),
model rows drawn dashed.
"""


def _plt():
    try:
        import matplotlib
        if matplotlib.get_backend().lower() not in ("agg", "pdf", "svg") \
                and not _has_display():
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("manycoll.plot needs matplotlib "
                          "(pip install matplotlib)") from None
    return plt


def _has_display():
    import os
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _key(r, by):
    return tuple(str(r.get(k, "")) for k in by)


def _name(spec):
    return str(spec).split(":")[0]


def _ran_instead(rs):
    """the algorithms that ran in place of the one asked for (the rows'
    `ran` where its name is not `algo`'s: a fallback), sorted"""
    return sorted({_name(r["ran"]) for r in rs
                   if r.get("ran") and _name(r["ran"]) != _name(r["algo"])})


def groups(rows, by=None):
    """{label: rows sorted by bytes}: one per algorithm (plus platform or
    source where the rows differ in them); rows with an "error" field are
    left out. An algorithm that fell back at some size (the rows' `ran`
    names another) is labelled "asked → ran", e.g. "direct → flat"."""
    rows = [r for r in rows if "error" not in r]
    if by is None:
        by = ["algo"]
        for k in ("platform", "coll", "ranks", "source"):
            if len({str(r.get(k, "")) for r in rows}) > 1:
                by.insert(0, k)
    keyed = {}
    for r in rows:
        keyed.setdefault(_key(r, by), []).append(r)
    out = {}
    for key, rs in keyed.items():
        words = []
        for k, v in zip(by, key):
            ran = _ran_instead(rs) if k == "algo" and v else []
            if ran:
                v = f"{v} \u2192 {'/'.join(ran)}"
            if v:
                words.append(v)
        out[" ".join(words)] = sorted(rs, key=lambda r: r["bytes"])
    return out


def _draw(ax, rows, field, ylabel, by, logy):
    for label, rs in groups(rows, by).items():
        style = "--" if rs[0].get("source") == "model" else "-"
        ax.plot([r["bytes"] for r in rs], [r[field] for r in rs], style,
                marker="o", markersize=3, label=label)
    ax.set_xscale("log", base=2)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    return ax


def latency(rows, ax=None, by=None, logy=True):
    """Latency (lat_us: first call to last return) against message size,
    one line per algorithm; returns the axes."""
    if ax is None:
        ax = _plt().subplots()[1]
    return _draw(ax, rows, "lat_us", "latency (us)", by, logy)


def throughput(rows, ax=None, by=None, logy=False):
    """Throughput (bw_MBps = bytes / latency) against message size."""
    if ax is None:
        ax = _plt().subplots()[1]
    return _draw(ax, rows, "bw_MBps", "throughput (MB/s)", by, logy)


def sizes(rows, title=None, by=None):
    """A figure of latency and throughput against size, side by side;
    returns it (fig.savefig("x.png") writes it)."""
    plt = _plt()
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    latency(rows, a, by)
    throughput(rows, b, by)
    if title is None:
        r0 = next((r for r in rows if "error" not in r), {})
        title = "%s on %s, %s ranks" % (r0.get("coll", "?"),
                                        r0.get("platform", "?"),
                                        r0.get("ranks", "?"))
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def replay_kinds(rows):
    """{collective kind: (predicted us, recorded us)} of manycoll.replay's
    rows, per rank over all ranks (the subtotals of `manycoll replay`): a
    site's times count for the share of the ranks that made its calls"""
    n = rows[-1]["ranks"]
    kinds = {}
    for r in rows[:-1]:
        p, m = kinds.get(r["coll"], (0.0, 0.0))
        w = r["ranks"] / n
        kinds[r["coll"]] = (p + w * r["sim_us"], m + w * r["measured_us"])
    return kinds


def replay(rows, ax=None, title=None):
    """Predicted (the replay on the simulated chip) against recorded time
    per collective kind, as bars side by side; rows are manycoll.replay's.
    Returns the figure (fig.savefig("replay.png") writes it)."""
    kinds = replay_kinds(rows)
    if ax is None:
        fig, ax = _plt().subplots(figsize=(1.6 * len(kinds) + 3, 4))
    else:
        fig = ax.figure
    names = sorted(kinds)
    x = range(len(names))
    ax.bar([i - 0.2 for i in x], [kinds[k][1] for k in names], 0.4,
           label="recorded")
    ax.bar([i + 0.2 for i in x], [kinds[k][0] for k in names], 0.4,
           label="predicted")
    ax.set_xticks(list(x))
    ax.set_xticklabels(names)
    ax.set_ylabel("time per rank (us)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    tot = rows[-1] if rows and rows[-1]["coll"] == "total" else {}
    if title is None:
        title = "replay on %s, %s ranks (recorded at %s)" % (
            tot.get("platform", "?"), tot.get("ranks", "?"),
            tot.get("recorded_ranks", "?"))
    ax.set_title(title)
    fig.tight_layout()
    return fig
