"""manycoll.replay: an MPI run's OTF2 recording replayed on a simulated
chip, as data (docs/replay.md).

    rows = manycoll.replay("build/traces/cg4", platform="scc48", ranks=48)
    manycoll.plot.replay(rows).savefig("cg.png")

One dict per call site (comm, coll, size_class, bytes, calls, ranks, algo,
sim_us, measured_us; with best=True also best, best_us, gain: calls and
times per rank of the `ranks` that made such calls, bytes per call), the
last one the
total (coll "total": calls, bytes, sim_us, measured_us, run_sim_us,
comm_share, unreplayed_us, ranks, recorded_ranks, platform, wall_s): the
fields of `manycoll replay --json`, made by the same C call
(src/replay/data.h).
"""
from ._core import ArgumentError, replay_data


def _algos(algo):
    """--algo values: "coll=algo[:k=v]", a list of them, or a dict
    {coll: "algo[:k=v]"}"""
    if algo is None:
        return []
    if isinstance(algo, str):
        return [algo]
    if isinstance(algo, dict):
        return ["%s=%s" % kv for kv in algo.items()]
    return [str(a) for a in algo]


def replay(archive, platform, ranks=None, algo=None, compute_scale=1.0,
           best=False, map=None):
    """Replays the OTF2 archive `archive` (its traces.otf2 anchor file or
    its directory, as MC_MPI_TRACE writes it) on `platform` (a name,
    "meshXxY" or a platform file). ranks: None for the recorded size, or
    more (weak scaling). algo: forced algorithms ("allreduce=ring", a list,
    or {"allreduce": "ring"}). compute_scale: the computation between MPI
    calls times this. best: try every algorithm per call site. map:
    "linear" or a file of cores, one per rank. Returns the rows (a list of
    dicts, the total last); errors raise manycoll.Error (ArgumentError for
    a wrong argument or an archive that cannot be replayed,
    UnsupportedError in a build without OTF2) with the library's
    message."""
    if compute_scale < 0:
        raise ArgumentError("compute_scale: %g is not >= 0" % compute_scale)
    return replay_data(str(archive), str(platform), map=map,
                       ranks=0 if ranks is None else int(ranks),
                       compute_scale=float(compute_scale),
                       algos=_algos(algo), best=bool(best))
