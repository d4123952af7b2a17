"""Comm.from_mpi inside an mpi4py program (test_mpi.py starts it under
each MPI's mpiexec): manycoll's collectives against MPI's on the same
ranks."""
import sys

import numpy as np
from mpi4py import MPI

import manycoll

world = MPI.COMM_WORLD
comm = manycoll.Comm.from_mpi(world)
bad = []
if (comm.rank, comm.size) != (world.Get_rank(), world.Get_size()):
    bad.append("ranks %s vs MPI %s" % ((comm.rank, comm.size),
                                      (world.Get_rank(), world.Get_size())))
for n in (1, 1000, 100000):
    x = np.arange(n, dtype=np.float64) * (world.Get_rank() + 1)
    want = np.empty_like(x)
    world.Allreduce(x, want)
    if not np.array_equal(comm.allreduce(x), want):
        bad.append("allreduce n=%d differs from MPI_Allreduce" % n)
    got = comm.allgather(np.array([world.Get_rank()], np.int32))
    if got.ravel().tolist() != list(range(world.Get_size())):
        bad.append("allgather %s" % got.ravel())
# a sub-communicator: even and odd ranks
sub = world.Split(world.Get_rank() % 2, world.Get_rank())
c2 = manycoll.Comm.from_mpi(sub)
s = c2.allreduce(np.array([world.Get_rank()], np.int64))[0]
want = sub.allreduce(world.Get_rank())
if s != want:
    bad.append("sub-communicator allreduce %d, MPI %d" % (s, want))
c2.free()
sub.Free()
comm.barrier()
print("rank %d: %s" % (world.Get_rank(), "; ".join(bad) or "ok"), flush=True)
sys.exit(1 if bad else 0)
