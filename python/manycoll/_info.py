"""What the library offers: platforms, collectives, algorithms."""
import glob
import os

from ._core import ArgumentError, algo_table, coll_table

COLLECTIVES = tuple(c["name"] for c in coll_table())
_registry = None


def _records():
    global _registry
    if _registry is None:
        _registry = algo_table()  # the records of `manycoll info --json`
    return _registry


def collectives():
    """The collectives' names, as manycoll.sim.run and Comm.set_algo take
    them."""
    return list(COLLECTIVES)


def algorithms(coll=None):
    """The registered algorithms of collective `coll` (all when None), as
    dicts: coll, algo, desc, commutative_only, params (name, default, min,
    max, help)."""
    if coll is not None and coll not in COLLECTIVES:
        raise ArgumentError("algorithms: unknown collective '%s' (one of %s)"
                            % (coll, ", ".join(COLLECTIVES)))
    return [r for r in _records()
            if "algo" in r and (coll is None or r["coll"] == coll)]


def _data_dirs():
    dirs = [os.environ.get("MC_DATA_DIR"),
            os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")]
    return [d for d in dirs if d]


def platforms():
    """The names of the simulated platforms (platforms/*.json) that
    manycoll.sim.run takes; a path to a platform file works too."""
    names = set()
    for d in _data_dirs():
        for f in glob.glob(os.path.join(d, "platforms", "*.json")):
            names.add(os.path.basename(f)[:-5])
    return sorted(names)
