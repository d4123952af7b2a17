/*
 * Flat-tree large broadcast (Ramos & Hoefler 2013, Section 4.1.3, Eq.
 * 4.10): the root puts the message into its MPB once and every other
 * rank copies all of it from there at the same time, so each reader
 * streams whole contiguous buffers (the prefetcher's best case, the
 * multi-line slope o) at the price of P-1 readers of the same lines
 * (contention c per extra reader).
 *
 *              root's MPB
 *        /    /    |    \    \          all get from the root at once
 *       1    2     3     4    5
 *
 * Messages larger than half the MPB go in chunks (parameter chunk, by
 * default half the MPB), double buffered; chunk i in half i % 2,
 * v_i = mc_flagval(c, i + 1):
 *
 *   root    [i >= 2: wait every ack word >= v_{i-1}]  put chunk -> MPB
 *           own line 0 = v_i
 *   reader  wait root's line 0 >= v_i;  get root's MPB -> rbuf
 *           own word of the root's ack line = v_i
 *   root    at the end waits for every ack word >= v_last (rule 1)
 *
 * The acknowledgements are the shared notification-backwards line(s) of
 * the small broadcast, a word per reader (cc.h: one writer per word).
 */
#include "coll/cc.h"
#include "sched/sched.h"

enum { P_CHUNK = MC_CC_HALF, P_COUNT };

static int wait_acks(mc_team_t *c, const mc_cc_fl_t *f, int root,
                     uint64_t v)
{
    int n = c->size;
    for (int vr = 1; vr < n; vr++)
        MC_CHECK(tp_flag_wait(c->tp, c->rank,
                              mc_cc_ack(f, vr - 1, mc_unvrank(vr, root, n)),
                              v));
    return MC_OK;
}

int mc_bcast_cc_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    int n = c->size, me = c->rank, root = a->root;
    if (n == 1)
        return MC_OK;
    mc_tp_t *tp = c->tp;
    size_t chunk = mc_cc_half_chunk(c, p->v[P_CHUNK]);
    size_t nch = (a->bytes + chunk - 1) / chunk;
    mc_cc_fl_t f;
    mc_cc_fl_init(&f, c);
    int line = mc_cc_line(&f, 0, root);
    int myack = me == root ? -1 : mc_cc_ack(&f, mc_vrank(me, root, n) - 1, me);
    for (size_t i = 0; i < nch; i++) {
        size_t off = i * chunk, b = (i % 2) * chunk;
        size_t len = a->bytes - off < chunk ? a->bytes - off : chunk;
        char *buf = (char *)a->rbuf + off;
        uint64_t v = mc_flagval(c, (uint32_t)(i + 1));
        if (me == root) {
            if (i >= 2) /* chunk i-2 has left buffer b */
                MC_CHECK(wait_acks(c, &f, root,
                                   mc_flagval(c, (uint32_t)(i - 1))));
            MC_CHECK(tp_put(tp, me, b, buf, len));
            tp_flag_set(tp, me, line, v);
        } else {
            MC_CHECK(tp_flag_wait(tp, root, line, v));
            MC_CHECK(tp_get(tp, buf, root, b, len));
            tp_flag_set(tp, root, myack, v);
        }
    }
    return me == root ? wait_acks(c, &f, root, mc_flagval(c, (uint32_t)nch))
                      : MC_OK;
}

static const mc_param_desc_t params[P_COUNT + 1] = {
    [P_CHUNK] = {"chunk", 0, 0, 1LL << 30,
                 "bytes per double-buffered chunk; 0 = half the MPB"},
};

const mc_algo_impl_t mc_bcast_cc_flat_algo = {
    .fn = mc_bcast_cc_flat, .params = params, .resolve = mc_cc_resolve_half,
};
