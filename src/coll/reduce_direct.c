/*
 * Single-copy reduce for large vectors: a reduce-scatter in which every
 * rank combines one balanced block, reading the others' inputs straight
 * from their processes (coll/direct.h), then the root copies the other
 * blocks straight from where their owners left them:
 *
 *   P = 2, root 0, vector split into B0 | B1:
 *
 *   rank 0 (root): publish {s0, r0}  r0[B0] = s0[B0] op read(s1[B0])  signal
 *   rank 1:        publish {s1, t1}  t1    = read(s0[B1]) op s1[B1]   signal
 *                  ---------------------------------------------------------
 *   rank 0:        after 1's signal: r0[B1] = read(t1)                end
 *   rank 1:                                                           end
 *
 * Every rank combines, so the work is spread as in allreduce (the root
 * alone combining everything would be P times slower); a block is
 * combined in rank order by one rank, so non-commutative ops are right.
 * A non-root keeps its block in scratch (t) and publishes its address
 * as if it were rbuf + the block's offset. In place at the root: as in
 * allreduce_direct.c.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: flat.
 */
#include "coll/coll.h"
#include "coll/direct.h"
#include "sched/sched.h"

enum { P_CHUNK = MC_DIRECT_CHUNK }; /* mc_direct_params */

int mc_reduce_direct(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    int np = c->size, me = c->rank, root = a->root;
    MC_CHECK(mc_direct_require(c));
    size_t chunk = mc_direct_chunk(a, p->v[P_CHUNK]), ds = a->dsize;
    size_t lo = mc_block_start(a->count, np, me) * ds;
    size_t len = mc_block_len(a->count, np, me);
    char *tmp;
    MC_CHECK(mc_scratch(c, 2 * chunk + (me == root ? 0 : len * ds),
                        (void **)&tmp));
    char *out = me == root ? (char *)a->rbuf + lo : tmp + 2 * chunk;
    mc_direct_t d;
    /* "rbuf" as peers see it: my block sits at its offset from there */
    MC_CHECK(mc_direct_begin_at(c, a, &d, (uintptr_t)a->sbuf, a->bytes,
                                (uintptr_t)out - lo, lo, lo + len * ds));
    MC_CHECK(mc_direct_reduce(c, &d, lo, len, (const char *)a->sbuf + lo,
                              out, tmp, chunk));
    uint64_t done;
    MC_CHECK(mc_direct_signal(c, &done));
    for (int q = 0; q < np && me == root; q++) {
        if (q == me)
            continue;
        size_t at = mc_block_start(a->count, np, q) * ds;
        MC_CHECK(mc_direct_wait_signal(c, done, q));
        MC_CHECK(mc_direct_get(c, &d, q, 1, at, (char *)a->rbuf + at,
                               mc_block_len(a->count, np, q) * ds));
    }
    return mc_direct_end(c, done);
}

const mc_algo_impl_t mc_reduce_direct_algo = {
    .fn = mc_reduce_direct, .params = mc_direct_params,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "flat",
};
