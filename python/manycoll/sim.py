"""The chip simulator as functions that return plain data.

    rows = manycoll.sim.run("scc48", "bcast", algo="ocbcast",
                            sizes=[32, 1024, 32768])
    rows = manycoll.sim.sweep(["scc48", "mesh8x8"], "allreduce",
                              sizes=[8, 1024, 65536])

A row is a dict with the fields of `manycoll sim --json` (platform, coll,
algo, ranks, root, bytes, lat_us, bw_MBps, done_min_us, done_max_us,
done_stdev_us, events, ops, lines, contention, jitter, check, and the
simulation's own wall_s, events_per_s, start_events and start_wall_s),
made by the same code: a C call (tools/data.h) that fills the records
the command prints (docs/simulator.md explains the fields). Threads may
simulate at once: the call holds no shared state and releases the GIL.
"""
from ._core import ArgumentError, Error, parse_size, sim_data


class SimulationError(Error):
    """A simulated collective failed (a core reported an error or a wrong
    result); the message names the ranks and why."""


def _sizes(sizes):
    """sizes as the command's list items: ints (bytes), or strings it
    parses ("3K", "1M"; model also "96L" and ranges "1L-192L")"""
    if isinstance(sizes, str):
        sizes = sizes.split(",")
    return [s.strip() if isinstance(s, str) else str(int(s)) for s in sizes]


def _contention_arg(contention):
    if contention is None:
        return None
    if contention is True:
        return "all"
    if contention is False:
        return "none"
    if isinstance(contention, str):
        return contention
    parts = list(contention)
    return ",".join(parts) if parts else "none"


def run(platform, coll, algo=None, sizes=(32, 1024, 32768, 1 << 20),
        ranks=None, root=0, contention=None, jitter=None, iters=1,
        dtype=None, op=None, check=False):
    """Simulates collective `coll` on `platform` (a name from
    manycoll.platforms(), "meshXxY", or a platform file's path), one fresh
    simulation per message size in bytes; returns one dict per size.

    algo: "name[:k=v,...]" (manycoll.algorithms(coll)); None: what the
    library would select. ranks: cores used (None: all). contention:
    None (the platform's default), "all", "none", True/False, or some of
    "mpb", "link", "mc". jitter: a seed for random per-operation jitter.
    iters: calls measured per size, back to back in one simulation
    (--iters; rank 0's average per call is rank0_avg_us). dtype, op: for reductions (default float64, "sum").
    check: every core verifies its result (slower). sizes may hold
    strings the command parses ("3K", "1M") or be one ("32,3K,1M")."""
    sizes = [parse_size(s) for s in _sizes(sizes)]
    if coll == "barrier":
        sizes = sizes[:1] or [0]
    if not sizes:
        raise ArgumentError("run: argument 'sizes' is empty")
    if jitter is not None and int(jitter) < 0:
        raise ArgumentError("jitter: %d is not a seed >= 0" % int(jitter))
    rows, rc, msg, bad_args = sim_data(
        platform, coll, algo=algo, sizes=sizes,
        ranks=0 if ranks is None else int(ranks), root=int(root),
        contention=_contention_arg(contention),
        jitter=None if jitter is None else int(jitter), iters=int(iters),
        dtype=dtype, op=op, check=bool(check))
    if rc and bad_args:
        raise ArgumentError(msg)
    if rc:
        raise SimulationError("manycoll sim: %s" % msg)
    return rows


def sweep(platforms, colls, algos=None, sizes=(32, 1024, 32768, 1 << 20),
          **kw):
    """Runs the grid platforms x colls x algos x sizes (each a name or a
    list); returns all rows, as run() gives them. algos=None: every
    registered algorithm of each collective (manycoll.algorithms), and one
    that cannot run on a platform gives a row with an "error" field
    instead. Other keywords go to run()."""
    from ._info import algorithms

    def as_list(x):
        return [x] if isinstance(x, str) or x is None else list(x)

    rows = []
    for plat in as_list(platforms):
        for coll in as_list(colls):
            names = as_list(algos)
            if algos is None:
                names = [a["algo"] for a in algorithms(coll)]
            for algo in names:
                try:
                    rows += run(plat, coll, algo=algo, sizes=sizes, **kw)
                except ArgumentError as e:
                    if algos is not None:
                        raise
                    # an algorithm that cannot run here (e.g. needs a
                    # cache-coherent chip) is left out of a full sweep
                    rows.append({"platform": plat, "coll": coll,
                                 "algo": algo, "error": str(e)})
    return rows
