/*
 * The replay: a simulated job (job/sim_job.h) whose rank function walks
 * one recorded rank's stream (replay.h):
 *
 *   COMPUTE, SKIP    a delay of the recorded time x --compute-scale
 *                    (mc_sim_job_busy, as the GCMC proxy's work is)
 *   COLL             the collective, through the API on the rank's
 *                    communicator (its algorithm what the platform's
 *                    selection, --algo or --best says)
 *   SEND, RECV       the two-sided layer (coll/p2p.h), synchronous
 *   SENDRECV         mc_p2p_sendrecv
 *   ISEND, IRECV     kept until the wait that completed them
 *   WAIT             the batch of requests it completed (p2p.c)
 *
 * Every simulated rank first makes its communicators: one mc_comm_split
 * of its world per family (comms.c). Buffers are shared by all ranks:
 * a replay moves and reduces what the recording moved, not its values.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/p2p.h"
#include "replay/run_int.h"
#include "util/error.h"

static mc_ps_t now_ps(void)
{
    mc_ps_t t = 0;
    (void)mc_sim_job_time(&t); /* on a simulated rank: cannot fail */
    return t;
}

mc_comm_t *mc_rp_comm(const mc_rp_job_t *j, mc_comm_t *const *fc,
                      mc_comm_t *world, int ci)
{
    int f = j->pl.fam_of[ci];
    return f < 0 ? world : fc[f];
}

/* counts and displacements of a v-collective on c: member i's count is
 * what its template recorded */
static int vcounts(const mc_rp_job_t *j, const mc_rp_rec_t *x, int r,
                   int n, size_t *cnt, size_t *dis)
{
    const mc_rp_trace_t *t = j->t;
    int f = j->pl.fam_of[x->comm];
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        int w = mc_rp_member(t, &j->pl, f, r, i), tw = mc_rp_template(&j->pl, w);
        /* the template's place in its recorded communicator */
        int pos = f >= 0 && j->pl.fam[f].pos[tw] >= 0 ? j->pl.fam[f].pos[tw]
                                                      : tw;
        cnt[i] = (size_t)t->vpool[x->vc + (size_t)pos];
        dis[i] = off;
        off += cnt[i];
    }
    return off * mc_dtype_size((mc_dtype_t)x->dtype) > j->buflen
               ? mc_error(MC_ERR_INTERNAL, "replay: v-counts exceed the "
                          "buffer")
               : MC_OK;
}

static int vcoll(const mc_rp_job_t *j, mc_comm_t *c, const mc_rp_rec_t *x,
                 int r, const void *s, void *rb)
{
    int n = mc_comm_size(c), me = mc_comm_rank(c);
    size_t *cnt = malloc(2 * (size_t)n * sizeof *cnt);
    if (!cnt)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    size_t *dis = cnt + n;
    mc_dtype_t dt = (mc_dtype_t)x->dtype;
    int rc = vcounts(j, x, r, n, cnt, dis);
    if (rc == MC_OK)
        switch (x->coll) {
        case MC_COLL_ALLGATHERV:
            rc = mc_allgatherv(c, s, cnt[me], rb, cnt, dis, dt);
            break;
        case MC_COLL_GATHERV:
            rc = mc_gatherv(c, s, cnt[me], rb, cnt, dis, dt, x->root);
            break;
        case MC_COLL_SCATTERV:
            rc = mc_scatterv(c, s, cnt, dis, rb, cnt[me], dt, x->root);
            break;
        default: /* reduce_scatter */
            rc = mc_reduce_scatter(c, s, rb, cnt, dt, (mc_op_t)x->op);
        }
    free(cnt);
    return rc;
}

/* one recorded collective on c */
static int coll(const mc_rp_job_t *j, mc_comm_t *c, const mc_rp_rec_t *x,
                int r)
{
    const void *s = j->sbuf;
    void *rb = j->rbuf;
    size_t n = (size_t)x->count;
    mc_dtype_t dt = (mc_dtype_t)x->dtype;
    mc_op_t op = (mc_op_t)x->op;
    int root = x->root < 0 ? 0 : x->root, me = mc_comm_rank(c);
    mc_in_place_t ip = mc_coll_info((mc_coll_t)x->coll)->in_place;
    if (x->in_place && (ip == MC_IN_PLACE_SEND ||
                        (ip == MC_IN_PLACE_ROOT_SEND && me == root)))
        s = MC_IN_PLACE;
    if (x->in_place && ip == MC_IN_PLACE_ROOT_RECV && me == root)
        rb = MC_IN_PLACE;
    switch (x->coll) {
    case MC_COLL_BARRIER: return mc_barrier(c);
    case MC_COLL_BCAST: return mc_bcast(c, j->rbuf, n, dt, root);
    case MC_COLL_REDUCE: return mc_reduce(c, s, rb, n, dt, op, root);
    case MC_COLL_ALLREDUCE: return mc_allreduce(c, s, rb, n, dt, op);
    case MC_COLL_ALLGATHER: return mc_allgather(c, s, rb, n, dt);
    case MC_COLL_ALLTOALL: return mc_alltoall(c, s, rb, n, dt);
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        return mc_reduce_scatter_block(c, s, rb, n, dt, op);
    case MC_COLL_GATHER: return mc_gather(c, s, rb, n, dt, root);
    case MC_COLL_SCATTER: return mc_scatter(c, s, rb, n, dt, root);
    case MC_COLL_SCAN: return mc_scan(c, s, rb, n, dt, op);
    case MC_COLL_EXSCAN: return mc_exscan(c, s, rb, n, dt, op);
    default: return vcoll(j, c, x, r, s, rb);
    }
}

/* a collective of site k, under --best's algorithm if one is tried; the
 * site's first call on its communicator's rank 0 notes what ran */
static int site_coll(mc_rp_job_t *j, mc_comm_t *c, const mc_rp_rec_t *x,
                     int r, int k)
{
    const char *name = mc_coll_info((mc_coll_t)x->coll)->name;
    const char *f = k >= 0 && j->force ? j->force[k] : NULL;
    if (f)
        MC_CHECK(mc_comm_set_algo(c, name, f));
    if (k >= 0 && !j->acc[k].ran[0] && mc_comm_rank(c) == 0)
        MC_CHECK(mc_comm_get_algo(c, name, (size_t)x->count *
                                  mc_dtype_size((mc_dtype_t)x->dtype),
                                  (mc_op_t)x->op, j->acc[k].ran,
                                  sizeof j->acc[k].ran, NULL, 0, NULL));
    int rc = coll(j, c, x, r);
    if (f)
        MC_CHECK(mc_comm_set_algo(c, name, NULL));
    return rc;
}

/* a blocking message, peers mapped to rank r's communicator */
static int message(const mc_rp_job_t *j, mc_comm_t *c, const mc_rp_rec_t *x,
                   int r)
{
    int to = -1, from = -1;
    mc_team_t *tm = &c->team;
    if (x->kind != MC_RP_RECV)
        MC_CHECK(mc_rp_peer(j->t, &j->pl, (int)x->comm, r, x->peer, &to));
    if (x->kind == MC_RP_RECV)
        MC_CHECK(mc_rp_peer(j->t, &j->pl, (int)x->comm, r, x->peer, &from));
    if (x->kind == MC_RP_SENDRECV)
        MC_CHECK(mc_rp_peer(j->t, &j->pl, (int)x->comm, r, x->peer2, &from));
    if (x->kind == MC_RP_SEND)
        return mc_p2p_send(tm, to, j->sbuf, (size_t)x->sent);
    if (x->kind == MC_RP_RECV)
        return mc_p2p_recv(tm, from, j->rbuf, (size_t)x->recvd, NULL);
    return mc_p2p_sendrecv(tm, to, j->sbuf, (size_t)x->sent, from, j->rbuf,
                           (size_t)x->recvd, NULL);
}

/* the communicators of rank r: one split per family, --algo on each */
static int open_comms(mc_rp_job_t *j, mc_comm_t *world, int r,
                      mc_comm_t **fc)
{
    for (int f = 0; f < j->pl.nfam; f++) {
        int color, key;
        mc_rp_split_of(j->t, &j->pl, f, r, &color, &key);
        MC_CHECK(mc_comm_split(world, color, key, &fc[f]));
    }
    for (int a = 0; a < j->o->nalgos; a++) {
        char coll[64];
        const char *eq = strchr(j->o->algos[a], '=');
        snprintf(coll, sizeof coll, "%.*s", (int)(eq - j->o->algos[a]),
                 j->o->algos[a]);
        MC_CHECK(mc_comm_set_algo(world, coll, eq + 1));
        for (int f = 0; f < j->pl.nfam; f++)
            if (fc[f])
                MC_CHECK(mc_comm_set_algo(fc[f], coll, eq + 1));
    }
    return MC_OK;
}

/* one record of rank r (template tr); *dt its simulated time */
static int step(mc_rp_job_t *j, mc_comm_t *world, mc_comm_t **fc, int r,
                int tr, size_t i, size_t *pend, int *npend)
{
    const mc_rp_rec_t *x = &j->t->s[tr].r[i];
    int k = j->site[tr][i];
    mc_comm_t *c = x->kind == MC_RP_COMPUTE || x->kind == MC_RP_SKIP ||
                           x->kind == MC_RP_WAIT
                       ? NULL
                       : mc_rp_comm(j, fc, world, (int)x->comm);
    mc_ps_t t0 = now_ps();
    int rc = MC_OK;
    switch (x->kind) {
    case MC_RP_COMPUTE:
    case MC_RP_SKIP:
        rc = mc_sim_job_busy(x->kind == MC_RP_SKIP ? "unreplayed" : "compute",
                             (mc_ps_t)((double)x->dur_ns * 1000.0 *
                                       j->o->compute_scale));
        j->compute_ps += (double)(now_ps() - t0);
        if (x->kind == MC_RP_SKIP)
            j->unrepl_ns += (double)x->dur_ns;
        return rc;
    case MC_RP_ISEND:
    case MC_RP_IRECV:
        pend[(*npend)++] = i;
        return MC_OK;
    case MC_RP_WAIT:
        rc = mc_rp_batch(j, fc, world, r, tr, i, pend, npend);
        break;
    case MC_RP_COLL:
        rc = site_coll(j, c, x, r, k);
        break;
    default:
        rc = message(j, c, x, r);
    }
    double d = (double)(now_ps() - t0);
    j->comm_ps += d;
    if (k >= 0) {
        j->acc[k].calls++;
        j->acc[k].bytes += j->bytes[tr][i];
        j->acc[k].sim_ps += d;
        j->acc[k].rec_ns += (double)x->dur_ns;
    }
    return rc;
}

int mc_rp_rank_fn(mc_comm_t *world, int r, void *arg)
{
    mc_rp_job_t *j = arg;
    int tr = mc_rp_template(&j->pl, r), npend = 0, rc = MC_OK;
    const mc_rp_stream_t *s = &j->t->s[tr];
    mc_comm_t **fc = calloc((size_t)j->pl.nfam + 1, sizeof *fc);
    size_t *pend = malloc((s->n + 1) * sizeof *pend);
    char *seen = calloc((size_t)j->nsites + 1, 1);
    if (!fc || !pend || !seen)
        rc = mc_error(MC_ERR_NOMEM, "replay: out of memory");
    if (rc == MC_OK)
        rc = open_comms(j, world, r, fc);
    for (size_t i = 0; rc == MC_OK && i < s->n; i++) {
        int k = j->site[tr][i];
        if (k >= 0 && !seen[k]) {
            seen[k] = 1;
            j->acc[k].nranks++;
        }
        rc = step(j, world, fc, r, tr, i, pend, &npend);
    }
    for (int f = 0; fc && f < j->pl.nfam; f++)
        if (fc[f])
            mc_comm_free(fc[f]);
    free(fc);
    free(pend);
    free(seen);
    return rc;
}
