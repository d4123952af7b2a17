"""Failing peers for test_coll.py: `kill` (rank 1 dies by SIGKILL),
`late` (rank 1 comes after the others' timeout), `op` (a Python op that
raises)."""
import os
import signal
import sys
import time

import numpy as np

import manycoll

comm = manycoll.init()
me = comm.rank
x = np.ones(4)
mode = sys.argv[1]
comm.barrier()
t0 = time.monotonic()
try:
    if mode == "kill" and me == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    if mode == "late" and me == 1:
        time.sleep(3)
        sys.exit(0)
    if mode == "op":
        def bad(a, b):
            raise ZeroDivisionError("in a Python op")
        comm.allreduce(x, op=manycoll.Op(bad, commutative=True))
        print("rank %d: no exception" % me)
    else:
        comm.allreduce(x)
        print("rank %d: no exception" % me)
except manycoll.PeerDeadError:
    print("rank %d: PeerDeadError after %.2f" % (me, time.monotonic() - t0))
except manycoll.TimeoutError:
    print("rank %d: TimeoutError after %.2f" % (me, time.monotonic() - t0))
except ZeroDivisionError:
    print("rank %d: ZeroDivisionError raised" % me)
if mode == "op":
    comm.barrier()  # the communicator still works
