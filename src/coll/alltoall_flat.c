/*
 * Flat alltoall for small blocks: every rank publishes all P of its
 * blocks in its own slot (coll/fast.h) and takes, from every other rank's
 * slot, the block meant for it:
 *
 *   rank 0 slot: [0->0 0->1 0->2]      rank 1 reads 0->1, 2->1
 *   rank 1 slot: [1->0 1->1 1->2]      rank 2 reads 0->2, 1->2
 *   rank 2 slot: [2->0 2->1 2->2]      ...
 *
 * One fast call instead of P-1 dependent exchanges. When P blocks do not
 * fit a slot, each fast call carries the same piece of every block.
 * In place, the API layer hands a copy of the input as sbuf.
 */
#include "coll/coll.h"
#include "coll/fast.h"

static int one(mc_team_t *c, const mc_args_t *a, size_t off, size_t n,
               char *stage)
{
    int np = c->size;
    uint64_t f;
    const char *in = a->sbuf;
    char *out = a->rbuf;
    for (int d = 0; d < np; d++) /* my P pieces, contiguous in my slot */
        MC_CHECK(tp_copy(c->tp, stage + (size_t)d * n,
                         in + (size_t)d * a->bytes + off, n));
    MC_CHECK(mc_fast_begin(c, 1, &f));
    MC_CHECK(mc_fast_publish(c, f, stage, n * (size_t)np));
    for (int r = 0; r < np; r++) {
        char *dst = out + (size_t)r * a->bytes + off;
        if (r == c->rank)
            MC_CHECK(tp_copy(c->tp, dst, stage + (size_t)r * n, n));
        else
            MC_CHECK(mc_fast_fetch_part(c, f, r, (size_t)c->rank * n, dst,
                                        n, n * (size_t)np));
    }
    mc_fast_end(c, f);
    return MC_OK;
}

int mc_alltoall_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    size_t per = mc_fast_max(c) / (size_t)c->size;
    if (per == 0)
        return mc_alltoall_pairwise(c, a, p); /* P blocks do not fit a slot */
    /* on the stack: an in-place alltoall's input copy is in the scratch */
    char stage[MC_FAST_MAX_SLOT > 120 ? MC_FAST_MAX_SLOT : 120];
    for (size_t done = 0; done < a->bytes; done += per)
        MC_CHECK(one(c, a, done, a->bytes - done < per ? a->bytes - done : per,
                     stage));
    return MC_OK;
}

const mc_algo_impl_t mc_alltoall_flat_algo = {
    .fn = mc_alltoall_flat,
};
