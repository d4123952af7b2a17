/*
 * Single-copy reduce in which the root alone combines: it reads every
 * rank's input straight from its process (coll/direct.h), in rank order,
 * chunk by chunk through a scratch buffer that stays in cache, straight
 * into rbuf; the others only publish their buffer and wait:
 *
 *   P = 3, root 1:
 *
 *   rank 0:        publish {s0}                                      end
 *   rank 1 (root): publish {s1}  r1 = read(s0) op s1 op read(s2)     end
 *   rank 2:        publish {s2}                                      end
 *                  (end: wait until nobody reads my input any more)
 *
 * The same data flow as flat (the root combines all P inputs), with one
 * copy instead of two and one handshake per call instead of one per
 * 2 KiB slot; against reduce:direct (every rank combines a block, the
 * root gathers them) it saves a phase and a handshake but does not
 * spread the combining. In place at the root, its input is rbuf: rank
 * 0's part lands first, so the root's own goes through scratch
 * (direct.c).
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: flat.
 */
#include "coll/coll.h"
#include "coll/direct.h"

enum { P_CHUNK = 0, P_COUNT };

int mc_reduce_direct_root(mc_team_t *c, const mc_args_t *a,
                          const mc_params_t *p)
{
    MC_CHECK(mc_direct_usable(c));
    size_t chunk = mc_direct_chunk(a, p->v[P_CHUNK]);
    char *tmp = NULL;
    if (c->rank == a->root)
        MC_CHECK(mc_scratch(c, 2 * chunk, (void **)&tmp));
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    if (c->rank == a->root)
        MC_CHECK(mc_direct_reduce(c, &d, 0, a->count, a->sbuf, a->rbuf, tmp,
                                  chunk));
    return mc_direct_end(c, d.f);
}

static const mc_param_desc_t params[P_COUNT + 1] = {
    [P_CHUNK] = MC_DIRECT_CHUNK_PARAM,
};

const mc_algo_impl_t mc_reduce_direct_root_algo = {
    .fn = mc_reduce_direct_root,
    .params = params,
    .resolve = mc_direct_resolve,
    .needs = MC_ALGO_SINGLE_COPY,
    .fallback = "flat",
};
