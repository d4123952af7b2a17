/*
 * The requests a wait completed, on the two-sided layer (coll/p2p.h),
 * whose sends are synchronous: a send returns when its receiver has the
 * data. Posting them in the recorded order can deadlock (every rank
 * sends left first, and waits for a left neighbour that is sending left
 * too). The batch runs as rounds, one per offset d, in ascending order
 * of d on every rank: a send to rank me + d and a receive from rank
 * me - d have offset d, and in round d a rank sends to me + d while it
 * receives from me - d (mc_p2p_sendrecv; one of them alone if the other
 * is missing). Rank me + d receives from me in its own round d, so each
 * round is a shift that the layer completes without deadlock, and the
 * lowest round anyone waits in always completes. Several messages with
 * one offset (tags) go in as many rounds, by tag, then post order.
 *
 *   a halo of 4 ranks, neighbours +-1 (not periodic)
 *            round d = -1                round d = +1
 *   rank 0   recv from 1                 send to 1
 *   rank 1   send to 0, recv from 2      send to 2, recv from 0
 *   rank 2   send to 1, recv from 3      send to 3, recv from 1
 *   rank 3   send to 2                   recv from 2
 *
 * The batch is one site (p2p) with the bytes of all its messages.
 */
#include <stdlib.h>

#include "coll/p2p.h"
#include "replay/run_int.h"
#include "util/error.h"

typedef struct msg {
    int d, tag, send, peer;
    size_t n, order;
} msg_t;

static int by_round(const void *a, const void *b)
{
    const msg_t *x = a, *y = b;
    if (x->d != y->d)
        return x->d < y->d ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* the batch's messages on communicator c, by offset */
static int collect(mc_rp_job_t *j, int r, int tr, size_t w, size_t *pend,
                   int *npend, msg_t *m, int *nm, int *ci)
{
    const mc_rp_stream_t *s = &j->t->s[tr];
    int keep = 0;
    *nm = 0;
    for (int a = 0; a < *npend; a++) {
        const mc_rp_rec_t *x = &s->r[pend[a]];
        if (x->wait != s->r[w].wait) {
            pend[keep++] = pend[a];
            continue;
        }
        if (*nm && (int)x->comm != *ci)
            return mc_error(MC_ERR_ARG, "replay: rank %d waits for requests "
                            "on two communicators at once (not replayed)",
                            tr);
        *ci = (int)x->comm;
        msg_t *g = &m[(*nm)++];
        g->send = x->kind == MC_RP_ISEND;
        MC_CHECK(mc_rp_peer(j->t, &j->pl, *ci, r, x->peer, &g->peer));
        g->tag = x->tag;
        g->n = (size_t)(g->send ? x->sent : x->recvd);
        g->order = pend[a];
    }
    *npend = keep;
    return MC_OK;
}

int mc_rp_batch(mc_rp_job_t *j, mc_comm_t *const *fc, mc_comm_t *world,
                int r, int tr, size_t w, size_t *pend, int *npend)
{
    msg_t *m = malloc(((size_t)*npend + 1) * sizeof *m);
    int nm = 0, ci = 0, rc;
    if (!m)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    rc = collect(j, r, tr, w, pend, npend, m, &nm, &ci);
    mc_team_t *t = nm ? &mc_rp_comm(j, fc, world, ci)->team : NULL;
    int me = t ? t->rank : 0;
    for (int a = 0; a < nm; a++)
        m[a].d = m[a].send ? m[a].peer - me : me - m[a].peer;
    qsort(m, (size_t)nm, sizeof *m, by_round);
    /* round by round: the k-th send and the k-th receive of offset d */
    for (int a = 0; rc == MC_OK && a < nm;) {
        int b = a;
        while (b < nm && m[b].d == m[a].d)
            b++;
        int s = a, v = a;
        while (rc == MC_OK && (s < b || v < b)) {
            while (s < b && !m[s].send)
                s++;
            while (v < b && m[v].send)
                v++;
            if (s < b && v < b)
                rc = mc_p2p_sendrecv(t, m[s].peer, j->sbuf, m[s].n,
                                     m[v].peer, j->rbuf, m[v].n, NULL);
            else if (s < b)
                rc = mc_p2p_send(t, m[s].peer, j->sbuf, m[s].n);
            else if (v < b)
                rc = mc_p2p_recv(t, m[v].peer, j->rbuf, m[v].n, NULL);
            s++, v++;
        }
        a = b;
    }
    free(m);
    return rc;
}
