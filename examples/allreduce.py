"""Allreduce of a numpy array: docs/python.md's first example.

    pip install .
    manycoll run -n 4 python3 examples/allreduce.py
"""
import numpy as np

import manycoll

comm = manycoll.init()                      # the job of `manycoll run`
x = np.full(1000, comm.rank + 1, dtype=np.float64)
total = comm.allreduce(x)                   # sum over the ranks
want = comm.size * (comm.size + 1) / 2
assert (total == want).all(), total[:4]
comm.allreduce(x, op=manycoll.MAX, in_place=True)
assert (x == comm.size).all()
if comm.rank == 0:
    print("allreduce on %d ranks: %g (expected %g)" % (comm.size, total[0],
                                                      want))
