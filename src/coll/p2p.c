#include "coll/p2p.h"

static const mc_p2p_mode_t blocking = {MC_SYNC_BLOCKING, 0};

static inline int sent_flag(int from) { return from; }
static inline int ready_flag(const mc_team_t *c, int from)
{
    return c->size + from;
}

static inline size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* the cost one call of the mode's primitive charges */
static mc_charge_t call_cost(const mc_p2p_mode_t *m)
{
    return m->sync == MC_SYNC_IRCCE   ? MC_CHARGE_REQ_IRCCE
           : m->sync == MC_SYNC_LIGHT ? MC_CHARGE_REQ_LIGHT
                                      : MC_CHARGE_CALL;
}

/* Bytes of the piece of an n-byte message that starts at off: a chunk,
 * and with tail, the last chunk's whole lines, then its partial line. */
static size_t piece(const mc_team_t *c, const mc_p2p_mode_t *m, size_t off,
                    size_t n)
{
    size_t len = min_sz(c->p2p_chunk, n - off);
    if (m->tail && off + len == n) {
        size_t part = len % c->tp->line;
        if (part && len > part)
            len -= part;
    }
    return len;
}

/* a piece that is the padded tail round costs another call */
static int charge_tail(mc_team_t *c, const mc_p2p_mode_t *m, size_t off,
                       size_t len)
{
    if (m->tail && off > 0 && len < c->tp->line)
        return tp_charge(c->tp, call_cost(m), 1);
    return MC_OK;
}

/* data into my MPB, then "sent" at dst (a release by the transport) */
static int post_chunk(mc_team_t *c, int dst, const unsigned char *p,
                      size_t len, uint64_t *cnt)
{
    MC_CHECK(tp_put(c->tp, c->rank, 0, p, len));
    uint64_t *sent = mc_team_ctr(c, dst, 0);
    if (!sent)
        return MC_ERR_NOMEM; /* mc_team_ctr_map said why */
    *cnt = ++*sent;
    tp_flag_set(c->tp, dst, sent_flag(c->rank), *cnt);
    return MC_OK;
}

/* my MPB is free again once dst says it has the chunk */
static int wait_ready(mc_team_t *c, int dst, uint64_t cnt)
{
    return tp_flag_wait(c->tp, c->rank, ready_flag(c, dst), cnt);
}

/* one chunk from src: wait, fetch (copy or combine; with red->tmp a copy
 * into tmp, combined by the caller), acknowledge */
static int recv_chunk(mc_team_t *c, int src, unsigned char *dst, size_t off,
                      size_t len, const mc_red_t *red)
{
    uint64_t *recvd = mc_team_ctr(c, src, 1);
    if (!recvd)
        return MC_ERR_NOMEM;
    uint64_t cnt = ++*recvd;
    MC_CHECK(tp_flag_wait(c->tp, c->rank, sent_flag(src), cnt));
    if (red && red->tmp)
        MC_CHECK(tp_get(c->tp, (unsigned char *)red->tmp + off, src, 0, len));
    else if (red)
        MC_CHECK(tp_get_reduce(c->tp, dst + off, src, 0, len / red->dsize,
                               red->dt, red->op, red->in_left));
    else
        MC_CHECK(tp_get(c->tp, dst + off, src, 0, len));
    tp_flag_set(c->tp, src, ready_flag(c, c->rank), cnt);
    return MC_OK;
}

/* receive-then-reduce: the whole message is in red->tmp now */
static int combine_tmp(mc_team_t *c, void *buf, size_t n, const mc_red_t *red)
{
    if (!red || !red->tmp || !n)
        return MC_OK;
    return tp_reduce(c->tp, buf, red->tmp, n / red->dsize, red->dt, red->op,
                     red->in_left);
}

int mc_p2p_send_m(mc_team_t *c, const mc_p2p_mode_t *m, int dst,
                  const void *buf, size_t n)
{
    const unsigned char *p = buf;
    MC_CHECK(tp_charge(c->tp, call_cost(m), 1));
    for (size_t off = 0, len; off < n; off += len) {
        uint64_t cnt;
        len = piece(c, m, off, n);
        MC_CHECK(charge_tail(c, m, off, len));
        MC_CHECK(post_chunk(c, dst, p + off, len, &cnt));
        MC_CHECK(wait_ready(c, dst, cnt));
    }
    return MC_OK;
}

int mc_p2p_recv_m(mc_team_t *c, const mc_p2p_mode_t *m, int src, void *buf,
                  size_t n, const mc_red_t *red)
{
    MC_CHECK(tp_charge(c->tp, call_cost(m), 1));
    for (size_t off = 0, len; off < n; off += len) {
        len = piece(c, m, off, n);
        MC_CHECK(charge_tail(c, m, off, len));
        MC_CHECK(recv_chunk(c, src, buf, off, len, red));
    }
    return combine_tmp(c, buf, n, red);
}

/* both posted: piece k of my send, piece k of my receive, then the
 * acknowledgement of my piece k (one send and one receive in flight) */
static int both(mc_team_t *c, const mc_p2p_mode_t *m, int dst,
                const unsigned char *sp, size_t sn, int src, unsigned char *rp,
                size_t rn, const mc_red_t *red)
{
    MC_CHECK(tp_charge(c->tp, call_cost(m), (sn > 0) + (rn > 0)));
    size_t so = 0, ro = 0;
    while (so < sn || ro < rn) {
        uint64_t cnt = 0;
        size_t sl = so < sn ? piece(c, m, so, sn) : 0;
        size_t rl = ro < rn ? piece(c, m, ro, rn) : 0;
        if (sl) {
            MC_CHECK(charge_tail(c, m, so, sl));
            MC_CHECK(post_chunk(c, dst, sp + so, sl, &cnt));
        }
        if (rl) {
            MC_CHECK(charge_tail(c, m, ro, rl));
            MC_CHECK(recv_chunk(c, src, rp, ro, rl, red));
        }
        if (sl)
            MC_CHECK(wait_ready(c, dst, cnt));
        so += sl;
        ro += rl;
    }
    return combine_tmp(c, rp, rn, red);
}

int mc_p2p_round(mc_team_t *c, const mc_p2p_mode_t *m, int parity, int dst,
                 const void *sbuf, size_t sn, int src, void *rbuf, size_t rn,
                 const mc_red_t *red)
{
    if (m->sync != MC_SYNC_BLOCKING)
        return both(c, m, dst, sbuf, sn, src, rbuf, rn, red);
    if (parity % 2 == 0) {
        MC_CHECK(mc_p2p_send_m(c, m, dst, sbuf, sn));
        return mc_p2p_recv_m(c, m, src, rbuf, rn, red);
    }
    MC_CHECK(mc_p2p_recv_m(c, m, src, rbuf, rn, red));
    return mc_p2p_send_m(c, m, dst, sbuf, sn);
}

int mc_p2p_resolve(const mc_team_t *c, mc_params_t *p)
{
    p->v[0] = mc_p2p_sync(c, p->v[0]);
    return MC_OK;
}

int mc_p2p_send(mc_team_t *c, int dst, const void *buf, size_t n)
{
    return mc_p2p_send_m(c, &blocking, dst, buf, n);
}

int mc_p2p_recv(mc_team_t *c, int src, void *buf, size_t n,
                const mc_red_t *red)
{
    return mc_p2p_recv_m(c, &blocking, src, buf, n, red);
}

int mc_p2p_sendrecv(mc_team_t *c, int dst, const void *sbuf, size_t sn,
                    int src, void *rbuf, size_t rn, const mc_red_t *red)
{
    static const mc_p2p_mode_t light = {MC_SYNC_LIGHT, 0};
    return both(c, &light, dst, sbuf, sn, src, rbuf, rn, red);
}

int mc_p2p_exchange(mc_team_t *c, int parity, int dst, const void *sbuf,
                    size_t sn, int src, void *rbuf, size_t rn,
                    const mc_red_t *red)
{
    return mc_p2p_round(c, &blocking, parity, dst, sbuf, sn, src, rbuf, rn,
                        red);
}
