"""Per-call cost of an 8-byte allreduce (one float64, SUM) from Python,
against the same call from C and against mpi4py's Allreduce, on the same
ranks, interleaved. Run by bench/python/overhead.sh (docs/benchmarks.md).

Every round runs each variant for a batch of --calls calls (after a
barrier, in a rotating order); a batch's time / calls is one sample; the
report gives each variant's median over the rounds, and the median over
rounds of (variant - C) measured in the same round; p25 beside each: on a
shared machine a batch that lost the CPU is slow, never fast, so the
lower quartile shows the undisturbed cost.

  C          mc_allreduce in a C loop (mc_nb.Comm.c_loop): the floor
  cython     manycoll.Comm.allreduce(x, y)          (the package's binding)
  nb-ndarray mc_nb.Comm.allreduce(x, y)             nanobind, nb::ndarray
  nb-raw     mc_nb.Comm.allreduce_raw(x, y)         nanobind, Py_buffer
  mpi4py     MPI.COMM_WORLD.Allreduce(x, y)         (mpi4py, this MPI)
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np
from mpi4py import MPI

import manycoll
import mc_nb


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=41)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--label", default="")
    a = ap.parse_args()
    world = MPI.COMM_WORLD
    comm = manycoll.Comm.from_mpi(world)
    nbc = mc_nb.Comm(comm)
    x = np.ones(1)
    y = np.zeros(1)
    n = a.calls

    def py_batch(f):
        rng = range(n)
        t0 = time.perf_counter()
        for _ in rng:
            f(x, y)
        return time.perf_counter() - t0

    variants = {
        "C": lambda: nbc.c_loop(n),
        "cython": lambda: py_batch(comm.allreduce),
        "nb-ndarray": lambda: py_batch(nbc.allreduce),
        "nb-raw": lambda: py_batch(nbc.allreduce_raw),
        "mpi4py": lambda: py_batch(world.Allreduce),
    }
    names = list(variants)
    for name in names:  # warm up, and check the results
        y[0] = 0
        variants[name]()
        assert name == "C" or y[0] == comm.size, (name, y)
    samples = {k: [] for k in names}
    for r in range(a.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            comm.barrier()
            world.Barrier()
            samples[name].append(variants[name]() / n * 1e6)
    if comm.rank == 0:
        report(samples, comm.size, a)


def report(samples, size, a):
    c = samples["C"]
    print("# 8-byte allreduce, %d ranks, %d rounds x %d calls, %s" %
          (size, a.rounds, a.calls, a.label))
    print("%-11s %10s %8s %14s %8s" % ("variant", "median us", "p25",
                                       "minus C (us)", "p25"))
    for name, s in samples.items():
        d = [v - cv for v, cv in zip(s, c)]
        row = {"variant": name, "ranks": size, "label": a.label,
               "median_us": statistics.median(s), "p25_us": p25(s),
               "minus_c_us": statistics.median(d), "minus_c_p25_us": p25(d),
               "python": sys.version.split()[0]}
        print("%-11s %10.3f %8.3f %14.3f %8.3f" % (
            name, row["median_us"], row["p25_us"], row["minus_c_us"],
            row["minus_c_p25_us"]))
        print(json.dumps(row), file=sys.stderr)


def p25(xs):
    return statistics.quantiles(xs, n=4)[0]


if __name__ == "__main__":
    main()
