/* The two-sided layer (p2p.h) and its parts of the team (p2p_state.h). */
#include <stdlib.h>
#include <string.h>

#include "coll/p2p.h"
#include "coll/flags.h"
#include "util/config.h"

/* the defaults: sync 3 (automatic), but 2 for pairwise (st2) */
#define END {NULL, 0, 0, 0, NULL}
const mc_param_desc_t mc_p2p_params_ring[] = {
    MC_P2P_PARAM_SYNC(3), MC_P2P_PARAM_BALANCE, MC_P2P_PARAM_TAIL,
    MC_P2P_PARAM_FUSED, END};
const mc_param_desc_t mc_p2p_params_sbt[] = {
    MC_P2P_PARAM_SYNC(3), MC_P2P_PARAM_BALANCE, MC_P2P_PARAM_TAIL, END};
const mc_param_desc_t mc_p2p_params_stf[] = {
    MC_P2P_PARAM_SYNC(3), MC_P2P_PARAM_TAIL, MC_P2P_PARAM_FUSED, END};
const mc_param_desc_t mc_p2p_params_st[] = {
    MC_P2P_PARAM_SYNC(3), MC_P2P_PARAM_TAIL, END};
const mc_param_desc_t mc_p2p_params_st2[] = {
    MC_P2P_PARAM_SYNC(2), MC_P2P_PARAM_TAIL, END};
#undef END

static const mc_p2p_mode_t blocking = {MC_SYNC_BLOCKING, 0};

static inline int sent_flag(int from) { return from; }
static inline int ready_flag(const mc_team_t *c, int from)
{
    return c->size + from;
}

static inline size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* ---- the parts p2p and vscc of a team ---- */

/* payload bytes per two-sided chunk: MC_P2P_CHUNK, else the transport's
 * hint, at most the general MPB area, whole elements of every datatype */
static int chunk_setup(mc_team_t *t)
{
    long long chunk = 0;
    int rc = mc_env_int("MC_P2P_CHUNK", &chunk);
    size_t mpb = t->mpb.avail / 8 * 8;
    if (chunk == 0)
        chunk = (long long)t->tp->p2p_chunk_hint / 8 * 8;
    t->p2p.chunk = (chunk <= 0 || (size_t)chunk > mpb) ? mpb : (size_t)chunk;
    return rc;
}

/* MC_P2P_SCHEME, where peers may sit on other chips: a landing area in
 * every MPB for rp_lg and lp_lg, the upper half of the chunk (the lower
 * half stays the sender's own, so a rank can send and receive at once) */
static int scheme_setup(mc_team_t *t)
{
    static const char *const names[] = {"lp_rg", "rp_lg", "lp_lg", "auto"};
    const char *v = mc_env("MC_P2P_SCHEME");
    int s = 0;
    while (s < 4 && strcmp(v, names[s]))
        s++;
    if (s == 4)
        return mc_error(MC_ERR_ARG, "MC_P2P_SCHEME=%s: not one of lp_rg, "
                                    "rp_lg, lp_lg, auto", v);
    long long pipe = 0;
    MC_CHECK(mc_env_int("MC_P2P_PIPE", &pipe));
    size_t line = t->tp->line < 8 ? 8 : t->tp->line;
    size_t half = t->p2p.chunk / 2 / line * line;
    t->p2p.pipe = (size_t)pipe;
    t->p2p.half = half;
    t->vscc = (mc_vscc_state_t){.scheme = MC_P2P_LP_RG};
    if (!t->tp->host_link)
        return MC_OK;
    if (s == 3)
        s = MC_P2P_LP_LG;
    if (s != MC_P2P_LP_RG && half > 0) {
        t->vscc.scheme = s;
        t->p2p.chunk = t->vscc.land = half;
    }
    return MC_OK;
}

int mc_p2p_init(mc_team_t *t, int what)
{
    mc_map_init(&t->p2p.ctr_map, sizeof(uint64_t));
    MC_CHECK(chunk_setup(t));
    MC_CHECK(scheme_setup(t));
    MC_ASSERT(t->p2p.chunk % 8 == 0 && t->p2p.chunk <= t->mpb.avail,
              "a two-sided chunk of %zu bytes in a general MPB area of %zu",
              t->p2p.chunk, t->mpb.avail);
    if (what != MC_TEAM_FULL || t->size > MC_TEAM_DENSE)
        return MC_OK;
    t->p2p.ctr = calloc(2 * (size_t)t->size, sizeof(uint64_t));
    return t->p2p.ctr ? MC_OK
                      : mc_error(MC_ERR_NOMEM, "out of memory for the "
                                               "two-sided counters");
}

void mc_p2p_fini(mc_team_t *t)
{
    free(t->p2p.ctr);
    mc_map_fini(&t->p2p.ctr_map);
    t->p2p = (mc_p2p_state_t){0};
    t->vscc = (mc_vscc_state_t){0};
}

/* The two-sided counter of peer in direction dir (0 sent, 1 received),
 * created at 0 on first use; NULL when out of memory (said why). */
static uint64_t *ctr(mc_team_t *c, int peer, int dir)
{
    MC_ASSERT(peer >= 0 && peer < c->size && (dir == 0 || dir == 1),
              "counter of peer %d direction %d in a team of %d", peer, dir,
              c->size);
    if (c->p2p.ctr)
        return &c->p2p.ctr[2 * peer + dir];
    void *v;
    int rc = mc_map_put(&c->p2p.ctr_map, 2 * (uint64_t)peer + (uint64_t)dir,
                        &v);
    return rc < 0 ? NULL : v;
}

/* the cost one call of the mode's primitive charges */
static mc_charge_t call_cost(const mc_p2p_mode_t *m)
{
    return m->sync == MC_SYNC_IRCCE   ? MC_CHARGE_REQ_IRCCE
           : m->sync == MC_SYNC_LIGHT ? MC_CHARGE_REQ_LIGHT
                                      : MC_CHARGE_CALL;
}

/* Bytes of the piece of an n-byte message that starts at off: a chunk,
 * and with tail, the last chunk's whole lines, then its partial line. */
static size_t piece_of(const mc_team_t *c, const mc_p2p_mode_t *m,
                       size_t off, size_t n, size_t chunk)
{
    size_t len = min_sz(chunk, n - off);
    if (m->tail && off + len == n) {
        size_t part = len % c->tp->line;
        if (part && len > part)
            len -= part;
    }
    return len;
}

static size_t piece(const mc_team_t *c, const mc_p2p_mode_t *m, size_t off,
                    size_t n)
{
    return piece_of(c, m, off, n, c->p2p.chunk);
}

/* a piece that is the padded tail round costs another call */
static int charge_tail(mc_team_t *c, const mc_p2p_mode_t *m, size_t off,
                       size_t len)
{
    if (m->tail && off > 0 && len < c->tp->line)
        return tp_charge(c->tp, call_cost(m), 1);
    return MC_OK;
}

/* how chunks reach peer: the team's scheme to another chip, RCCE's on
 * one (team.h) */
static int scheme_of(mc_team_t *c, int peer)
{
    if (!c->tp->host_link || tp_locality(c->tp, peer) != MC_LOC_OTHER)
        return -1; /* RCCE's, no host between us */
    return c->vscc.land ? c->vscc.scheme : MC_P2P_LP_RG;
}

/* lp_lg: into my MPB, then the agent copies it to dst's landing area and
 * raises "sent" there; my MPB is mine again when it has read it */
static int post_dma(mc_team_t *c, int dst, const unsigned char *p,
                    size_t len, uint64_t cnt)
{
    int done = mc_flag_line(c, MC_FL_P2P_DMA, 0);
    uint64_t seq = ++c->vscc.dma_seq;
    MC_CHECK(tp_put(c->tp, c->rank, 0, p, len));
    MC_CHECK(tp_dma(c->tp, dst, c->vscc.land, 0, len, sent_flag(c->rank), cnt,
                    done, seq));
    return tp_flag_wait(c->tp, c->rank, done, seq);
}

/* One chunk to dst. RCCE's: data into my MPB, "sent" at dst (a release
 * by the transport); *wait = the "ready" to wait for before my MPB is
 * free again. rp_lg, lp_lg: first dst's "ready" for this chunk (its
 * landing area is free), then the data into it (*wait = 0). */
static int post_chunk(mc_team_t *c, int dst, const unsigned char *p,
                      size_t len, uint64_t *wait)
{
    uint64_t *sent = ctr(c, dst, 0);
    if (!sent)
        return MC_ERR_NOMEM; /* ctr said why */
    uint64_t cnt = ++*sent;
    int sch = scheme_of(c, dst);
    *wait = cnt;
    if (sch <= MC_P2P_LP_RG) {
        MC_CHECK(tp_put(c->tp, c->rank, 0, p, len));
        if (sch == MC_P2P_LP_RG) /* the host may fetch it now */
            MC_CHECK(tp_prefetch(c->tp, 0, len));
        tp_flag_set(c->tp, dst, sent_flag(c->rank), cnt);
        return MC_OK;
    }
    *wait = 0;
    MC_CHECK(tp_flag_wait(c->tp, c->rank, ready_flag(c, dst), cnt));
    if (sch == MC_P2P_LP_LG && len >= c->tp->dma_min)
        return post_dma(c, dst, p, len, cnt);
    MC_CHECK(tp_put(c->tp, dst, c->vscc.land, p, len)); /* posted writes */
    tp_flag_set(c->tp, dst, sent_flag(c->rank), cnt);
    return MC_OK;
}

/* my MPB is free again once dst says it has the chunk */
static int wait_ready(mc_team_t *c, int dst, uint64_t cnt)
{
    return cnt ? tp_flag_wait(c->tp, c->rank, ready_flag(c, dst), cnt)
               : MC_OK;
}

/* the receiver's first step for a chunk from src: its number, and with
 * rp_lg or lp_lg "ready" at src: my landing area is free for it */
static int recv_open(mc_team_t *c, int src, uint64_t *cnt)
{
    uint64_t *recvd = ctr(c, src, 1);
    if (!recvd)
        return MC_ERR_NOMEM;
    *cnt = ++*recvd;
    if (scheme_of(c, src) > MC_P2P_LP_RG)
        tp_flag_set(c->tp, src, ready_flag(c, c->rank), *cnt);
    return MC_OK;
}

/* chunk cnt from src: wait, fetch (copy or combine; with red->tmp a copy
 * into tmp, combined by the caller) from src's MPB or my landing area,
 * then (RCCE's) acknowledge */
static int recv_chunk(mc_team_t *c, int src, uint64_t cnt, int piped,
                      unsigned char *dst, size_t off, size_t len,
                      const mc_red_t *red)
{
    int land = scheme_of(c, src) > MC_P2P_LP_RG;
    int from = land ? c->rank : src;
    size_t at = land ? c->vscc.land : 0;
    if (piped) /* the half of src's MPB this chunk is in */
        at = (size_t)((cnt - 1) % 2) * c->p2p.half;
    MC_CHECK(tp_flag_wait(c->tp, c->rank, sent_flag(src), cnt));
    if (red && red->tmp)
        MC_CHECK(tp_get(c->tp, (unsigned char *)red->tmp + off, from, at, len));
    else if (red)
        MC_CHECK(tp_get_reduce(c->tp, dst + off, from, at, len / red->dsize,
                               red->dt, red->op, red->in_left));
    else
        MC_CHECK(tp_get(c->tp, dst + off, from, at, len));
    if (!land)
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

/* iRCCE's pipelining (p2p_state.h pipe): a lone message above the
 * threshold goes in half chunks, alternating between the two halves of
 * my MPB, two in flight; the sender waits only before reusing a half
 * and, at the end, for the last (house rule 1):
 *
 *   sender    put A1 sent | put B2 sent | wait 1, put A3 sent | ...
 *   receiver        wait, get A1, ready | wait, get B2, ready | ...
 */
static int pipe_on(const mc_team_t *c, size_t n)
{
    return c->p2p.pipe && !c->vscc.land && n > c->p2p.pipe && c->p2p.half;
}

static int post_piped(mc_team_t *c, int dst, const unsigned char *p,
                      size_t len, uint64_t *last)
{
    uint64_t *sent = ctr(c, dst, 0);
    if (!sent)
        return MC_ERR_NOMEM;
    uint64_t cnt = *last = ++*sent;
    size_t at = (size_t)((cnt - 1) % 2) * c->p2p.half;
    if (cnt > 2)
        MC_CHECK(wait_ready(c, dst, cnt - 2));
    MC_CHECK(tp_put(c->tp, c->rank, at, p, len));
    if (scheme_of(c, dst) == MC_P2P_LP_RG)
        MC_CHECK(tp_prefetch(c->tp, at, len));
    tp_flag_set(c->tp, dst, sent_flag(c->rank), cnt);
    return MC_OK;
}

int mc_p2p_send_m(mc_team_t *c, const mc_p2p_mode_t *m, int dst,
                  const void *buf, size_t n)
{
    const unsigned char *p = buf;
    int piped = pipe_on(c, n);
    size_t chunk = piped ? c->p2p.half : c->p2p.chunk;
    uint64_t last = 0;
    MC_CHECK(tp_charge(c->tp, call_cost(m), 1));
    for (size_t off = 0, len; off < n; off += len) {
        uint64_t cnt;
        len = piece_of(c, m, off, n, chunk);
        MC_CHECK(charge_tail(c, m, off, len));
        if (piped) {
            MC_CHECK(post_piped(c, dst, p + off, len, &last));
            continue;
        }
        MC_CHECK(post_chunk(c, dst, p + off, len, &cnt));
        MC_CHECK(wait_ready(c, dst, cnt));
    }
    return wait_ready(c, dst, last);
}

int mc_p2p_recv_m(mc_team_t *c, const mc_p2p_mode_t *m, int src, void *buf,
                  size_t n, const mc_red_t *red)
{
    int piped = pipe_on(c, n);
    size_t chunk = piped ? c->p2p.half : c->p2p.chunk;
    MC_CHECK(tp_charge(c->tp, call_cost(m), 1));
    for (size_t off = 0, len; off < n; off += len) {
        len = piece_of(c, m, off, n, chunk);
        MC_CHECK(charge_tail(c, m, off, len));
        uint64_t cnt;
        MC_CHECK(recv_open(c, src, &cnt));
        MC_CHECK(recv_chunk(c, src, cnt, piped, buf, off, len, red));
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
        uint64_t cnt = 0, rcnt = 0;
        size_t sl = so < sn ? piece(c, m, so, sn) : 0;
        size_t rl = ro < rn ? piece(c, m, ro, rn) : 0;
        if (rl) /* "ready" first: a ring of rp_lg sends waits for it */
            MC_CHECK(recv_open(c, src, &rcnt));
        if (sl) {
            MC_CHECK(charge_tail(c, m, so, sl));
            MC_CHECK(post_chunk(c, dst, sp + so, sl, &cnt));
        }
        if (rl) {
            MC_CHECK(charge_tail(c, m, ro, rl));
            MC_CHECK(recv_chunk(c, src, rcnt, 0, rp, ro, rl, red));
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
    p->v[MC_P2P_SYNC] = mc_p2p_sync(c, p->v[MC_P2P_SYNC]);
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
