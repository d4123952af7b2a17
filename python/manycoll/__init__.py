"""manycoll: collective communication for many-core chips, from Python.

Collectives on numpy arrays (any buffer-protocol or DLPack object)::

    import numpy as np, manycoll
    comm = manycoll.init()                 # under `manycoll run -n 4 ...`
    x = np.full(1000, comm.rank, dtype=np.float64)
    total = comm.allreduce(x)              # op=manycoll.SUM by default

Three ways to a communicator: manycoll.init() under `manycoll run` (or
`python -m manycoll run`), manycoll.Comm.from_mpi(mpi4py_comm) inside an MPI
program, manycoll.Comm.create_shm(job, rank, size) under any launcher.

The simulator and the models as data: manycoll.sim.run(...),
manycoll.sim.sweep(...), manycoll.model.predict(...), manycoll.platforms(),
manycoll.algorithms(coll); an MPI run's recording replayed on a simulated
chip: manycoll.replay(archive, platform=...); manycoll.plot draws them
(matplotlib).
See docs/python.md.
"""
import os as _os

_here = _os.path.dirname(_os.path.abspath(__file__))
# the platform files of the wheel (or of the build tree's staged package)
if _os.path.isdir(_os.path.join(_here, "data", "platforms")):
    _os.environ.setdefault("MC_DATA_DIR", _os.path.join(_here, "data"))

from ._core import (  # noqa: E402
    ArgumentError, BAND, BOR, BXOR, Comm, DTYPES, Error, LAND, LOR, MAX,
    MIN, Op, PROD, PeerDeadError, SUM, TimeoutError, UnsupportedError, init,
    job_name)
from . import model, plot, sim  # noqa: E402 (plot imports matplotlib lazily)
from ._info import algorithms, collectives, platforms  # noqa: E402
from ._replay import replay  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "ArgumentError", "BAND", "BOR", "BXOR", "Comm", "DTYPES", "Error",
    "LAND", "LOR", "MAX", "MIN", "Op", "PROD", "PeerDeadError", "SUM",
    "TimeoutError", "UnsupportedError", "algorithms", "collectives", "init",
    "job_name", "model", "platforms", "plot", "replay", "sim",
]
