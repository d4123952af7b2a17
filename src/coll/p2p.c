#include "coll/p2p.h"

static inline int sent_flag(int from) { return from; }
static inline int ready_flag(const mc_team_t *c, int from)
{
    return c->size + from;
}

static inline size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* data into my MPB, then "sent" at dst (a release by the transport) */
static int post_chunk(mc_team_t *c, int dst, const unsigned char *p,
                      size_t len, uint64_t *cnt)
{
    MC_CHECK(tp_put(c->tp, c->rank, 0, p, len));
    *cnt = ++c->p2p_sent[dst];
    tp_flag_set(c->tp, dst, sent_flag(c->rank), *cnt);
    return MC_OK;
}

/* my MPB is free again once dst says it has the chunk */
static int wait_ready(mc_team_t *c, int dst, uint64_t cnt)
{
    return tp_flag_wait(c->tp, c->rank, ready_flag(c, dst), cnt);
}

/* one chunk from src: wait, fetch (copy or combine), acknowledge */
static int recv_chunk(mc_team_t *c, int src, unsigned char *dst, size_t len,
                      const mc_red_t *red)
{
    uint64_t cnt = ++c->p2p_recv[src];
    MC_CHECK(tp_flag_wait(c->tp, c->rank, sent_flag(src), cnt));
    if (red)
        MC_CHECK(tp_get_reduce(c->tp, dst, src, 0, len / red->dsize, red->dt,
                               red->op, red->in_left));
    else
        MC_CHECK(tp_get(c->tp, dst, src, 0, len));
    tp_flag_set(c->tp, src, ready_flag(c, c->rank), cnt);
    return MC_OK;
}

int mc_p2p_send(mc_team_t *c, int dst, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    size_t ch = c->p2p_chunk;
    for (size_t off = 0; off < n; off += ch) {
        uint64_t cnt;
        MC_CHECK(post_chunk(c, dst, p + off, min_sz(ch, n - off), &cnt));
        MC_CHECK(wait_ready(c, dst, cnt));
    }
    return MC_OK;
}

int mc_p2p_recv(mc_team_t *c, int src, void *buf, size_t n,
                const mc_red_t *red)
{
    unsigned char *p = buf;
    size_t ch = c->p2p_chunk;
    for (size_t off = 0; off < n; off += ch)
        MC_CHECK(recv_chunk(c, src, p + off, min_sz(ch, n - off), red));
    return MC_OK;
}

int mc_p2p_sendrecv(mc_team_t *c, int dst, const void *sbuf, size_t sn,
                    int src, void *rbuf, size_t rn, const mc_red_t *red)
{
    const unsigned char *sp = sbuf;
    unsigned char *rp = rbuf;
    size_t ch = c->p2p_chunk;
    for (size_t off = 0; off < sn || off < rn; off += ch) {
        uint64_t cnt = 0;
        if (off < sn)
            MC_CHECK(post_chunk(c, dst, sp + off, min_sz(ch, sn - off), &cnt));
        if (off < rn)
            MC_CHECK(recv_chunk(c, src, rp + off, min_sz(ch, rn - off), red));
        if (off < sn)
            MC_CHECK(wait_ready(c, dst, cnt));
    }
    return MC_OK;
}

int mc_p2p_exchange(mc_team_t *c, int parity, int dst, const void *sbuf,
                    size_t sn, int src, void *rbuf, size_t rn,
                    const mc_red_t *red)
{
    if (parity % 2 == 0) {
        MC_CHECK(mc_p2p_send(c, dst, sbuf, sn));
        return mc_p2p_recv(c, src, rbuf, rn, red);
    }
    MC_CHECK(mc_p2p_recv(c, src, rbuf, rn, red));
    return mc_p2p_send(c, dst, sbuf, sn);
}
