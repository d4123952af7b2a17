/*
 * MPB-direct ring allreduce (Kohler et al., section IV-D, Fig. 8): the
 * ring reduce-scatter and allgather, with the blocks in transit kept in
 * the MPBs. Each MPB is cut in two halves H0, H1; round R of a rank
 * writes half R mod 2 while its right neighbour reads the other (double
 * buffering). Rank r, blocks numbered as in the ring allreduce:
 *
 *   reduce-scatter, rounds s = 0 .. P-1 (b = r-1-s mod P):
 *     s = 0    put input block b into H0 of my MPB
 *     s >= 1   H[s%2] of mine = H[(s-1)%2] of my left's  (+)  input block
 *              b, one pass (tp get_reduce_mpb): the left neighbour's
 *              partial result straight from its MPB into mine
 *     after round P-1 my MPB holds block r with all P contributions
 *   allgather, rounds t = 1 .. P-1: copy the left's last block (block
 *     r-t) from its MPB into my free half (the last round: only into my
 *     result), and each block from my MPB into my result
 *
 *      P = 3     rank 0          rank 1          rank 2
 *      s=0       H0 = x0[b2]     H0 = x1[b0]     H0 = x2[b1]
 *      s=1       H1 = 2.H0+x0[b1] H1 = 0.H0+x1[b2] H1 = 1.H0+x2[b0]
 *      s=2       H0 = 2.H1+x0[b0] H0 = 0.H1+x1[b1] H0 = 1.H1+x2[b2]
 *                (b0 complete)   (b1 complete)   (b2 complete)
 *
 * Flags, one line per writer (tp.h rule 4): "sent" from my left (bank 0)
 * says its round-R half is written, "ready" from my right (bank 1) that
 * it has consumed my round-R half; values are flagval(R + 1). Before
 * writing a half a rank waits until the right has consumed what it wrote
 * there last; it returns when the right has consumed everything.
 *
 * The handshakes are those of the lightweight two-sided layer (the paper:
 * "the same handshaking mechanism via sent and ready signals"), and so
 * are their software costs: a round that sends and receives charges two
 * lightweight requests (o_req_light, simulator only).
 *
 * Blocks are balanced; a vector whose blocks would not fit a half goes in
 * segments of P half-sized blocks. Needs a commutative op. Private memory
 * holds only the input and the result: no block in transit is copied
 * into or out of it.
 */
#include "coll/coll.h"
#include "sched/sched.h"

typedef struct rm {
    mc_team_t *c;
    const mc_args_t *a;
    int n, r, left, right;
    size_t half;           /* bytes per MPB half */
    size_t seg, seg_count; /* first element of this segment, its count */
    uint32_t R;            /* global round number */
    int64_t last[2];       /* round that last wrote each half, or -1 */
    int64_t last_any;
} rm_t;

static uint64_t val(const rm_t *m, uint32_t R) { return mc_flagval(m->c, R + 1); }
static size_t hoff(const rm_t *m, uint32_t R) { return (R % 2) * m->half; }

static size_t boff(const rm_t *m, int b)
{
    b = (b % m->n + m->n) % m->n;
    return (m->seg + mc_block_start(m->seg_count, m->n, b)) * m->a->dsize;
}

static size_t blen(const rm_t *m, int b)
{
    b = (b % m->n + m->n) % m->n;
    return mc_block_len(m->seg_count, m->n, b) * m->a->dsize;
}

/* left's half of round R-1 is written */
static int wait_left(rm_t *m)
{
    return tp_flag_wait(m->c->tp, m->r, mc_flag_from(m->c, 0, m->left),
                        val(m, m->R - 1));
}

/* I have consumed it */
static void ack_left(rm_t *m)
{
    tp_flag_set(m->c->tp, m->left, mc_flag_from(m->c, 1, m->r),
                val(m, m->R - 1));
}

/* my half of round R is free: the right consumed what was last in it */
static int wait_free(rm_t *m)
{
    int64_t l = m->last[m->R % 2];
    if (l < 0)
        return MC_OK;
    return tp_flag_wait(m->c->tp, m->r, mc_flag_from(m->c, 1, m->right),
                        val(m, (uint32_t)l));
}

/* my half of round R is written */
static void written(rm_t *m)
{
    m->last[m->R % 2] = m->last_any = m->R;
    tp_flag_set(m->c->tp, m->right, mc_flag_from(m->c, 0, m->r), val(m, m->R));
}

static int reduce_scatter(rm_t *m)
{
    mc_tp_t *tp = m->c->tp;
    const mc_args_t *a = m->a;
    const unsigned char *in = a->sbuf;
    for (int s = 0; s < m->n; s++, m->R++) {
        int b = m->r - 1 - s;
        MC_CHECK(tp_charge(tp, MC_CHARGE_REQ_LIGHT, s == 0 ? 1 : 2));
        MC_CHECK(wait_free(m));
        if (s == 0) {
            MC_CHECK(tp_put(tp, m->r, hoff(m, m->R), in + boff(m, b),
                            blen(m, b)));
        } else {
            MC_CHECK(wait_left(m));
            MC_CHECK(tp_get_reduce_mpb(tp, hoff(m, m->R), m->left,
                                       hoff(m, m->R - 1), in + boff(m, b),
                                       blen(m, b) / a->dsize, a->dt, a->op,
                                       1));
            ack_left(m);
        }
        written(m);
    }
    return MC_OK;
}

static int allgather(rm_t *m)
{
    mc_tp_t *tp = m->c->tp;
    unsigned char *out = m->a->rbuf;
    /* my complete block r is in the half of the last round */
    MC_CHECK(tp_get(tp, out + boff(m, m->r), m->r, hoff(m, m->R - 1),
                    blen(m, m->r)));
    for (int t = 1; t < m->n; t++, m->R++) {
        int b = m->r - t;
        MC_CHECK(tp_charge(tp, MC_CHARGE_REQ_LIGHT, t == m->n - 1 ? 1 : 2));
        MC_CHECK(wait_left(m));
        if (t == m->n - 1) { /* the last block: only into my result */
            MC_CHECK(tp_get(tp, out + boff(m, b), m->left, hoff(m, m->R - 1),
                            blen(m, b)));
            ack_left(m);
            continue;
        }
        MC_CHECK(wait_free(m));
        MC_CHECK(tp_get_mpb(tp, hoff(m, m->R), m->left, hoff(m, m->R - 1),
                            blen(m, b)));
        ack_left(m);
        written(m);
        MC_CHECK(tp_get(tp, out + boff(m, b), m->r, hoff(m, m->R),
                        blen(m, b)));
    }
    return MC_OK;
}

int mc_allreduce_ring_mpb(mc_team_t *c, const mc_args_t *a,
                          const mc_params_t *p)
{
    (void)p;
    int n = c->size;
    if (n == 1)
        return tp_copy(c->tp, a->rbuf, a->sbuf, a->bytes);
    rm_t m = {.c = c, .a = a, .n = n, .r = c->rank,
              .left = mc_ring_left(c->rank, n),
              .right = mc_ring_right(c->rank, n),
              .half = c->mpb.avail / 2 / c->tp->line * c->tp->line,
              .last = {-1, -1}, .last_any = -1};
    size_t per = m.half / a->dsize * (size_t)n; /* elements per segment */
    if (per == 0)
        return mc_error(MC_ERR_INTERNAL, "ring-mpb: an MPB half of %zu "
                                         "bytes holds no element", m.half);
    for (m.seg = 0; m.seg < a->count; m.seg += m.seg_count) {
        m.seg_count = a->count - m.seg < per ? a->count - m.seg : per;
        MC_CHECK(reduce_scatter(&m));
        MC_CHECK(allgather(&m));
    }
    /* tp.h rule 1: the right has consumed all I wrote */
    if (m.last_any >= 0)
        MC_CHECK(tp_flag_wait(c->tp, c->rank, mc_flag_from(c, 1, m.right),
                              val(&m, (uint32_t)m.last_any)));
    return MC_OK;
}

const mc_algo_impl_t mc_allreduce_ring_mpb_algo = {
    .fn = mc_allreduce_ring_mpb,
    .needs = MC_ALGO_COMMUTATIVE, .fallback = "reduce-bcast", /* rank order */
};
