"""The analytic models as functions that return plain data.

predict(): the OC-Bcast paper's LogP put/get models of a broadcast on a
platform (`manycoll model --platform ... --json`): rows with the fields of
manycoll.sim.run plus "source": "model" and "mode", so the two plot on the
same axes. cc_predict() and optimize(): the cache-coherence min-max models
of Ramos & Hoefler on a calibration profile (`manycoll model predict` and
`manycoll model optimize`). The rows come from C calls (tools/data.h)
that fill the records the command prints. See docs/papers/.
"""
from ._core import ArgumentError, cc_data, ocb_data
from .sim import SimulationError, _sizes


def _rows(result, what):
    rows, rc, msg, bad_args = result
    if rc and bad_args:
        raise ArgumentError(msg)
    if rc:
        raise SimulationError("manycoll model %s: %s" % (what, msg))
    return rows


def predict(platform, coll="bcast", algo="ocbcast", sizes=(32, 1024, 32768),
            ranks=None, root=0, mode="paper"):
    """Predicted latency (lat_us) and throughput (bw_MBps) of broadcast
    `algo` ("ocbcast[:k=..,chunk=..]", "binomial", "scatter-allgather")
    on `platform` for each size in bytes; mode "paper" (every access at
    distance 1, as the paper) or "layout" (the platform's distances).
    sizes may hold strings in the command's syntax: "96L" (cache lines),
    "1L-192L" (a range), "3K"."""
    if mode not in ("paper", "layout"):
        raise ArgumentError("mode: '%s' is not paper or layout" % mode)
    return _rows(ocb_data(platform, coll, algo, ",".join(_sizes(sizes)),
                          ranks=0 if ranks is None else int(ranks),
                          root=int(root), layout=mode == "layout"),
                 "--platform")


def _ranks_arg(ranks):
    if isinstance(ranks, (str, int)):
        return str(ranks)
    return ",".join(str(int(r)) for r in ranks)


def cc_predict(profile, coll, ranks, **params):
    """A min-max model of Table 4.1 (Ramos & Hoefler) for collective
    `coll` at each rank count, on calibration profile `profile` (a name
    from platforms/profiles or a path); params: k="4,4,3", m=M, lines=N
    as the command's --k, --m, --lines."""
    return _rows(cc_data(profile, coll, _ranks_arg(ranks), **params),
                 "predict")


def optimize(profile, coll, ranks="2-60", **variant):
    """The tree shapes that minimise the cache-coherence model of `coll`
    (bcast-small, reduce-small or barrier) per rank count; variant
    options as the command's (state="E", contention="fit", ...)."""
    return _rows(cc_data(profile, coll, _ranks_arg(ranks), optimize=True,
                         **variant), "optimize")
