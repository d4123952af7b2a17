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
 * fit a slot, round k carries the k-th piece of every block, and a rank
 * publishes two rounds before it reads any:
 *
 *   publish 0 1 | read 0, end 0, publish 2 | read 1, end 1, publish 3 ...
 *
 * so that while one rank reads round k its peers can already publish
 * round k + 1 (and a rank that runs while its peers wait for a CPU gets
 * two rounds out). A round larger than a line goes to an MPB slot, of
 * which there are four: publishing round k + 2 then reuses round k - 2's,
 * which needs every peer to have ended round k - 2. Their round-k
 * publications, just read, show that (mc_fast_fetch_ahead), so no
 * progress line is read. Three or four rounds ahead would need those
 * reads (remote on the simulated SCC: 60% slower there, with four slots
 * for lines too) and measured no faster at 8 ranks on 2 CPUs.
 * In place, the API layer hands a copy of the input as sbuf. Where a slot
 * has less than a byte per rank, the selection runs pairwise exchange.
 */
#include "coll/coll.h"
#include "coll/fast.h"

enum { AHEAD = 2 }; /* rounds published before the first read */

/* round k: my k-th piece (n bytes at off) of every block, into my slot */
static int publish(mc_team_t *c, const mc_args_t *a, size_t off, size_t n,
                   char *stage)
{
    uint64_t f;
    const char *in = a->sbuf;
    for (int d = 0; d < c->size; d++) /* P pieces, contiguous */
        MC_CHECK(tp_copy(c->tp, stage + (size_t)d * n,
                         in + (size_t)d * a->bytes + off, n));
    MC_CHECK(mc_fast_begin(c, 1, &f));
    MC_CHECK(mc_fast_publish(c, f, stage, n * (size_t)c->size));
    return tp_copy(c->tp, (char *)a->rbuf + (size_t)c->rank * a->bytes + off,
                   stage + (size_t)c->rank * n, n); /* my own piece */
}

/* round k (fast call f): the pieces meant for me, then end the call */
static int take(mc_team_t *c, const mc_args_t *a, uint64_t f, size_t off,
                size_t n, int ahead)
{
    int np = c->size;
    char *out = a->rbuf;
    for (int r = 0; r < np; r++) {
        char *dst = out + (size_t)r * a->bytes + off;
        if (r != c->rank) /* my own piece: publish() */
            MC_CHECK(mc_fast_fetch_ahead(c, f, ahead, r, (size_t)c->rank * n,
                                         dst, n, n * (size_t)np));
    }
    mc_fast_end(c, f);
    return MC_OK;
}

static size_t piece(const mc_args_t *a, size_t per, size_t k)
{
    size_t off = k * per;
    return a->bytes - off < per ? a->bytes - off : per;
}

int mc_alltoall_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    size_t per = mc_fast_max(c) / (size_t)c->size;
    if (per == 0) /* P blocks do not fit a slot: mc_fast_usable says so */
        return mc_error(MC_ERR_INTERNAL, "alltoall:flat: P bytes do not fit "
                        "a slot (the selection runs its fallback there)");
    /* on the stack: an in-place alltoall's input copy is in the scratch */
    char stage[MC_FAST_MAX_SLOT > 120 ? MC_FAST_MAX_SLOT : 120];
    size_t rounds = (a->bytes + per - 1) / per;
    size_t ahead = rounds < AHEAD ? rounds : AHEAD;
    uint64_t f0 = c->fast.seq + 1; /* round k is fast call f0 + k */
    for (size_t k = 0; k < ahead; k++)
        MC_CHECK(publish(c, a, k * per, piece(a, per, k), stage));
    for (size_t k = 0; k < rounds; k++) {
        MC_CHECK(take(c, a, f0 + k, k * per, piece(a, per, k), AHEAD));
        if (k + ahead < rounds)
            MC_CHECK(publish(c, a, (k + ahead) * per,
                             piece(a, per, k + ahead), stage));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_alltoall_flat_algo = {
    .fn = mc_alltoall_flat,
    .usable = mc_fast_usable, .fallback = "pairwise",
};
