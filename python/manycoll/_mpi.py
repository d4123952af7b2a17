"""Comm.from_mpi: a manycoll communicator from an mpi4py communicator.

MPI is used only here, through mpi4py, to agree on things: the ranks that
share this node (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED) and a job
name that one of them makes and broadcasts. The collectives then run on
manycoll's shared-memory transport, with no MPI at the C level.
"""
from ._core import Comm, job_name


def from_mpi(comm, node_local=False):
    """The manycoll communicator of the ranks of `comm` (an
    mpi4py.MPI.Comm) on this node, ranked in the order of their ranks in
    `comm`. Collective over `comm`.

    When `comm` spans several nodes, manycoll's collectives would cover
    one node only: that raises NotImplementedError unless node_local=True,
    which asks for exactly that (the node's communicator; combine the nodes
    yourself through MPI)."""
    from mpi4py import MPI

    node = comm.Split_type(MPI.COMM_TYPE_SHARED, key=comm.Get_rank())
    try:
        leader = node.Get_rank() == 0
        nodes = comm.allreduce(1 if leader else 0, op=MPI.SUM)
        if nodes > 1 and not node_local:
            raise NotImplementedError(
                "Comm.from_mpi: the communicator spans %d nodes; manycoll "
                "has no multi-node collectives yet. Pass node_local=True "
                "for the communicator of this node's ranks." % nodes)
        job = node.bcast(job_name() if leader else None, root=0)
        c = Comm.create_shm(job, node.Get_rank(), node.Get_size())
    finally:
        node.Free()
    return c
