/*
 * Flat scatter for small blocks: the root publishes its P blocks in its
 * fast-path slot (coll/fast.h), one slot-sized window of them per fast
 * call, and every other rank copies its block's part of each window
 * straight out of the root's slot:
 *
 *   root sbuf:  | b0 | b1 | b2 | b3 |      (P blocks of n bytes)
 *   windows:    |   w0    |   w1    |      (one slot each)
 *   rank 1:     w0: copy b1's bytes from the root's slot
 *   rank 3:     w1: copy b3's bytes
 *
 * No handshake per rank as in linear's sends: one publication per window
 * that all ranks read at once (contended by many readers, so for small
 * rank counts). Every rank takes part in every window, so the number of
 * fast calls is the same everywhere.
 */
#include "coll/coll.h"
#include "coll/fast.h"

int mc_scatter_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    size_t n = a->bytes, per = mc_fast_max(c);
    size_t total = n * (size_t)c->size, lo = (size_t)c->rank * n;
    int root = c->rank == a->root;
    if (root && !a->in_place)
        MC_CHECK(tp_copy(c->tp, a->rbuf, (const char *)a->sbuf + lo, n));
    for (size_t w = 0; w < total; w += per) {
        size_t k = total - w < per ? total - w : per;
        uint64_t f;
        MC_CHECK(mc_fast_begin(c, root, &f));
        if (root) {
            MC_CHECK(mc_fast_publish(c, f, (const char *)a->sbuf + w, k));
        } else {
            size_t b = lo > w ? lo : w, e = lo + n < w + k ? lo + n : w + k;
            if (b < e)
                MC_CHECK(mc_fast_fetch_part(c, f, a->root, b - w,
                                            (char *)a->rbuf + (b - lo),
                                            e - b, k));
        }
        mc_fast_end(c, f);
    }
    return MC_OK;
}

const mc_algo_impl_t mc_scatter_flat_algo = {.fn = mc_scatter_flat};
