/*
 * Flat reduce-scatter with per-rank counts, for small vectors: the whole
 * vector (the sum of the counts) goes in windows of one fast-path slot
 * (coll/fast.h); for each window every rank publishes its input's
 * window, and a rank whose block meets the window reads that part of
 * every rank's slot and combines them in rank order:
 *
 *   vector:   |<- rcounts[0] ->|<-- rcounts[1] -->|<- rcounts[2] ->|
 *   windows:  |    w0     |    w1     |    w2     |    w3     |
 *   rank 1 in w1: out[..] = x0.w1 op x1.w1 op x2.w1  (its part of w1)
 *
 * Every rank takes part in every window (the same fast calls on all), so
 * the blocks may be uneven, empty or larger than a slot. In place the
 * output (the start of rbuf) overwrites input the current window has
 * already published and no later window needs; my own part comes back
 * from my slot. A call whose element does not fit a slot (no datatype
 * is that large today) is declined (MC_NOT_APPLICABLE): reduce-scatterv
 * runs it.
 */
#include "coll/coll.h"
#include "coll/fast.h"

/* elements [w, w + k) of the vector; my block is [lo, hi) */
static int window(mc_team_t *c, const mc_args_t *a, size_t w, size_t k,
                  size_t lo, size_t hi)
{
    size_t ds = a->dsize, total = k * ds;
    uint64_t f;
    MC_CHECK(mc_fast_begin(c, 1, &f));
    MC_CHECK(mc_fast_publish(c, f, (const char *)a->sbuf + w * ds, total));
    size_t b = lo > w ? lo : w, e = hi < w + k ? hi : w + k;
    if (b < e) {
        size_t at = (b - w) * ds, cnt = e - b;
        char *out = (char *)a->rbuf + (b - lo) * ds;
        const char *mine = (const char *)a->sbuf + b * ds;
        if (c->rank == 0 && !a->in_place)
            MC_CHECK(tp_copy(c->tp, out, mine, cnt * ds));
        else
            MC_CHECK(mc_fast_fetch_part(c, f, 0, at, out, cnt * ds, total));
        for (int r = 1; r < c->size; r++) {
            if (r == c->rank && !a->in_place)
                MC_CHECK(tp_reduce(c->tp, out, mine, cnt, a->dt, a->op, 0));
            else
                MC_CHECK(mc_fast_fetch_reduce_part(c, f, r, at, out, cnt, a,
                                                   0, total));
        }
    }
    mc_fast_end(c, f);
    return MC_OK;
}

int mc_reduce_scatter_flat(mc_team_t *c, const mc_args_t *a,
                           const mc_params_t *p)
{
    (void)p;
    size_t per = mc_fast_max(c) / a->dsize;
    if (per == 0) /* an element does not fit a slot */
        return MC_NOT_APPLICABLE;
    size_t total = 0, lo = 0;
    for (int q = 0; q < c->size; q++) {
        if (q == c->rank)
            lo = total;
        total += a->rcounts[q];
    }
    for (size_t w = 0; w < total; w += per)
        MC_CHECK(window(c, a, w, total - w < per ? total - w : per, lo,
                        lo + a->rcounts[c->rank]));
    return MC_OK;
}

const mc_algo_impl_t mc_reduce_scatter_flat_algo = {
    .fn = mc_reduce_scatter_flat,
    .fallback = "reduce-scatterv",
    .declines = "the call's element does not fit a slot",
};
