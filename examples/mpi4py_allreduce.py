"""manycoll's allreduce inside an mpi4py program: docs/python.md.

    mpiexec -n 4 python3 examples/mpi4py_allreduce.py
"""
import numpy as np
from mpi4py import MPI

import manycoll

world = MPI.COMM_WORLD
comm = manycoll.Comm.from_mpi(world)        # this node's ranks, no MPI in C
x = np.arange(1000, dtype=np.float64) * (world.Get_rank() + 1)
mine = comm.allreduce(x)
theirs = np.empty_like(x)
world.Allreduce(x, theirs)
assert np.array_equal(mine, theirs)
if world.Get_rank() == 0:
    print("manycoll and MPI agree on %d ranks" % comm.size)
