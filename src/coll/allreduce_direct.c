/*
 * Single-copy allreduce for large vectors: reduce-scatter then allgather,
 * each rank reading the others' user buffers straight from their address
 * space (coll/direct.h) — one copy per byte moved, no MPB staging.
 *
 *   P = 2, vector split into balanced blocks B0 | B1:
 *
 *   rank 0:  publish {s0, r0}     r0[B0] = s0[B0] op read(s1[B0])   signal
 *   rank 1:  publish {s1, r1}     r1[B1] = read(s0[B1]) op s1[B1]   signal
 *            -------------------------------------------------------------
 *   rank 0:  after 1's signal: r0[B1] = read(r1[B1])               end
 *   rank 1:  after 0's signal: r1[B0] = read(r0[B0])               end
 *
 * Block b is combined by rank b alone, in rank order (x_0 op x_1 op ...),
 * chunk by chunk through a scratch buffer that stays in cache, so every
 * rank gets the same bits and non-commutative ops are right. In place,
 * rank b writes only block b of its buffer in phase 1 (peers read other
 * blocks of it), and in phase 2 block q only after q's signal, which q
 * gives once it has read everything it needed from me.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: rsag.
 */
#include "coll/coll.h"
#include "coll/direct.h"
#include "sched/sched.h"

enum { P_CHUNK = MC_DIRECT_CHUNK }; /* mc_direct_params */

int mc_allreduce_direct(mc_team_t *c, const mc_args_t *a,
                        const mc_params_t *p)
{
    int np = c->size, me = c->rank;
    MC_CHECK(mc_direct_require(c));
    size_t chunk = mc_direct_chunk(a, p->v[P_CHUNK]), ds = a->dsize;
    char *tmp;
    MC_CHECK(mc_scratch(c, 2 * chunk, (void **)&tmp));
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    size_t lo = mc_block_start(a->count, np, me) * ds;
    MC_CHECK(mc_direct_reduce(c, &d, lo, mc_block_len(a->count, np, me),
                              (const char *)a->sbuf + lo,
                              (char *)a->rbuf + lo, tmp, chunk));
    uint64_t done;
    MC_CHECK(mc_direct_signal(c, &done));
    for (int i = 1; i < np; i++) {
        int q = (me + i) % np; /* spread the readers over the owners */
        size_t at = mc_block_start(a->count, np, q) * ds;
        MC_CHECK(mc_direct_wait_signal(c, done, q));
        MC_CHECK(mc_direct_get(c, &d, q, 1, at, (char *)a->rbuf + at,
                               mc_block_len(a->count, np, q) * ds));
    }
    return mc_direct_end(c, done);
}

const mc_algo_impl_t mc_allreduce_direct_algo = {
    .fn = mc_allreduce_direct, .params = mc_direct_params,
    .resolve = mc_direct_resolve,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "rsag",
};
