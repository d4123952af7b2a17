"""Every collective, datatype, op, root and in-place form against numpy
references, on the ranks of `manycoll run` (test_coll.py starts it at 1-5
ranks). Each rank computes every rank's data, so each can check its own
result; prints one line per failure and exits 1 if any."""
import sys

import numpy as np

import manycoll

DTYPES = [n for n, (_, _, code) in manycoll.DTYPES.items()
          if code is not None]
COUNTS = [1, 7, 1000, 40000]  # 40000 x 8 bytes: beyond the MPB, single copy
OPS = {"SUM": np.add, "PROD": np.multiply, "MIN": np.minimum,
       "MAX": np.maximum, "BAND": np.bitwise_and, "BOR": np.bitwise_or,
       "BXOR": np.bitwise_xor, "LAND": np.logical_and, "LOR": np.logical_or}

comm = manycoll.init()
me, p = comm.rank, comm.size
failures = []


def data(rank, n, dt, salt):
    """rank's input: small values, so float sums and products are exact;
    the integers' extremes wrap the same way in numpy and in C"""
    rng = np.random.default_rng(rank * 7919 + n * 31 + salt)
    v = rng.integers(1, 4, n).astype(dt)
    if np.dtype(dt).kind in "iu" and n > 2:
        v[0] = np.iinfo(dt).max  # sums and products that wrap
        v[1] = np.iinfo(dt).min
    if np.dtype(dt).kind in "if" and n > 3 and rank % 2 == 0:
        v[3] = -1  # signed min/max differ from unsigned ones
    return v


def reference(opname, arrays, dt):
    f = OPS[opname]
    acc = arrays[0].copy()
    for a in arrays[1:]:
        acc = f(acc, a)
    return acc.astype(dt)


def check(what, got, want):
    if got is None or not np.array_equal(np.asarray(got).ravel(),
                                         np.asarray(want).ravel()):
        failures.append("rank %d: %s: got %s, want %s" %
                        (me, what, _short(got), _short(want)))


def _short(a):
    return None if a is None else np.asarray(a).ravel()[:6]


def ops_for(dt):
    if np.dtype(dt).kind == "c":
        return ["SUM", "PROD"]
    if np.dtype(dt).kind == "f":
        return ["SUM", "PROD", "MIN", "MAX"]
    return list(OPS)


def reductions(dt, n, salt):
    for opname in ops_for(dt):
        op = getattr(manycoll, opname)
        ins = [data(r, n, dt, salt) for r in range(p)]
        want = reference(opname, ins, dt)
        tag = "%s %s n=%d" % (opname, dt, n)
        check("allreduce " + tag, comm.allreduce(ins[me], op=op), want)
        y = np.empty(n, dt)
        comm.allreduce(ins[me], y, op)
        check("allreduce out " + tag, y, want)
        x = ins[me].copy()
        check("allreduce in_place " + tag,
              comm.allreduce(x, op=op, in_place=True), want)
        root = (n + salt) % p
        r = comm.reduce(ins[me], op=op, root=root)
        if me == root:
            check("reduce root=%d %s" % (root, tag), r, want)
        elif r is not None:
            failures.append("rank %d: reduce returned %r off root" % (me, r))
        x = ins[me].copy()
        r = comm.reduce(x, op=op, root=root, in_place=True)
        if me == root:
            check("reduce in_place " + tag, r, want)
        big = [data(r, n * p, dt, salt + 1) for r in range(p)]
        wantb = reference(opname, big, dt)[me * n:(me + 1) * n]
        check("reduce_scatter_block " + tag,
              comm.reduce_scatter_block(big[me], op=op), wantb)
        x = big[me].copy()
        comm.reduce_scatter_block(x, op=op, in_place=True)
        check("reduce_scatter_block in_place " + tag, x[:n], wantb)


def movers(dt, n, salt):
    tag = "%s n=%d" % (dt, n)
    ins = [data(r, n, dt, salt) for r in range(p)]
    root = salt % p
    buf = ins[me].copy() if me == root else np.zeros(n, dt)
    check("bcast root=%d %s" % (root, tag), comm.bcast(buf, root), ins[root])
    allg = np.concatenate(ins)
    check("allgather " + tag, comm.allgather(ins[me]), allg)
    x = np.zeros(n * p, dt)
    x[me * n:(me + 1) * n] = ins[me]
    check("allgather in_place " + tag, comm.allgather(x, in_place=True), allg)
    g = comm.gather(ins[me], root=root)
    if me == root:
        check("gather " + tag, g, allg)
        x = np.zeros(n * p, dt)
        x[root * n:(root + 1) * n] = ins[root]
    else:
        x = ins[me]
    g = comm.gather(x, root=root, in_place=True)
    if me == root:
        check("gather in_place " + tag, g, allg)
    blocks = [data(r, n * p, dt, salt + 2) for r in range(p)]
    want = np.concatenate([blocks[r][me * n:(me + 1) * n] for r in range(p)])
    check("alltoall " + tag, comm.alltoall(blocks[me]), want)
    x = blocks[me].copy()
    check("alltoall in_place " + tag, comm.alltoall(x, in_place=True), want)
    s = blocks[root] if me == root else None
    r = comm.scatter(s, None if me == root else np.empty(n, dt), root=root)
    check("scatter " + tag, r, blocks[root][me * n:(me + 1) * n])
    if me == root:
        x = blocks[root].copy()
        comm.scatter(x, root=root, in_place=True)
        check("scatter in_place " + tag, x, blocks[root])
    else:
        check("scatter in_place peer " + tag,
              comm.scatter(None, np.empty(n, dt), root=root, in_place=True),
              blocks[root][me * n:(me + 1) * n])


def shapes():
    """recvbuf allocation keeps the array's shape"""
    a = np.arange(6, dtype=np.int32).reshape(2, 3) + me
    g = comm.allgather(a)
    if g.shape != (p, 2, 3):
        failures.append("rank %d: allgather shape %s" % (me, g.shape))
    s = comm.reduce_scatter_block(np.ones((p, 4)))
    if s.shape != (4,) or not (s == p).all():
        failures.append("rank %d: reduce_scatter_block shape %s" %
                        (me, s.shape))
    if comm.allreduce(a).shape != (2, 3):
        failures.append("rank %d: allreduce shape" % me)
    if p > 1:  # per-rank blocks: the element count must divide by p
        for f in (comm.alltoall, comm.reduce_scatter_block):
            try:
                f(np.ones(p + 1))
                failures.append("rank %d: %s of p+1 elements passed" %
                                (me, f.__name__))
            except manycoll.ArgumentError as e:
                if "not a multiple of the %d ranks" % p not in str(e):
                    failures.append("rank %d: message %s" % (me, e))


def user_ops():
    ins = [np.array([r + 1.0, 2.0 * r - 1.0]) for r in range(p)]
    sub = manycoll.Op(lambda a, b: a - b)  # non-commutative: rank order
    want = ins[0].copy()
    for a in ins[1:]:
        want = want - a
    check("allreduce Op(a - b)", comm.allreduce(ins[me], op=sub), want)
    mx = manycoll.Op(np.maximum, commutative=True)
    check("allreduce Op(np.maximum)", comm.allreduce(ins[me], op=mx),
          np.max(ins, axis=0))


def main():
    salt = 0
    for dt in DTYPES:
        for n in COUNTS:
            salt += 1
            reductions(dt, n, salt)
            movers(dt, n, salt)
    shapes()
    user_ops()
    comm.barrier()
    for f in failures[:20]:
        print(f, flush=True)
    print("rank %d of %d: %d failures" % (me, p, len(failures)), flush=True)
    sys.exit(1 if failures else 0)


main()
