/*
 * Call sites. A site is (communicator, collective, size class): the
 * communicator is the world or a family of them (comms.c: the rows of a
 * grid are one site), the collective "p2p" for messages (a blocking one,
 * a MPI_Sendrecv, or the batch of requests one wait completed), the size
 * class the power of two at or below the bytes of one call:
 *   - a collective: its count times its datatype's size (a rank's block,
 *     as the call's count argument describes it);
 *   - messages: all that the call sends and receives (a batch: all its
 *     requests', both ways).
 * So a site's bytes per call, a mean of such calls, lies in
 * [size class, 2 x size class) (report.c prints both; the test checks).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/run_int.h"
#include "util/error.h"

const char *mc_rp_site_coll(const mc_rp_site_t *s)
{
    return s->coll == MC_RP_SITE_P2P
               ? "p2p"
               : mc_coll_info((mc_coll_t)s->coll)->name;
}

static int sclass(uint64_t b)
{
    int k = 0;
    while (b > 1)
        b >>= 1, k++;
    return k;
}

static int is_req(const mc_rp_rec_t *x)
{
    return x->kind == MC_RP_ISEND || x->kind == MC_RP_IRECV;
}

/* the bytes of each record's call into b[0..n): a WAIT gets its batch's
 * (the requests whose wait it is), in one pass */
static int bytes_of(const mc_rp_stream_t *s, uint64_t *b)
{
    uint32_t nw = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->r[i].kind == MC_RP_WAIT && s->r[i].wait >= nw)
            nw = s->r[i].wait + 1;
    uint64_t *w = calloc((size_t)nw + 1, sizeof *w);
    if (!w)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    for (size_t i = 0; i < s->n; i++) {
        const mc_rp_rec_t *x = &s->r[i];
        b[i] = x->kind == MC_RP_COLL
                   ? x->count * mc_dtype_size((mc_dtype_t)x->dtype)
                   : x->sent + x->recvd;
        if (is_req(x) && x->wait < nw)
            w[x->wait] += b[i];
    }
    for (size_t i = 0; i < s->n; i++)
        if (s->r[i].kind == MC_RP_WAIT)
            b[i] = w[s->r[i].wait];
    free(w);
    return MC_OK;
}

static int site_of(mc_rp_job_t *j, mc_rp_result_t *r, int comm, int coll,
                   int sc)
{
    int f = j->pl.fam_of[comm];
    for (int k = 0; k < r->nsites; k++) {
        mc_rp_site_t *s = &r->sites[k];
        if (s->coll == coll && s->sclass == sc &&
            j->pl.fam_of[s->comm] == f && (f >= 0 || s->comm == comm ||
                                           j->pl.fam_of[s->comm] < 0))
            return k;
    }
    if (r->nsites == r->capsites) {
        int cap = r->capsites ? 2 * r->capsites : 16;
        mc_rp_site_t *p = realloc(r->sites, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        r->sites = p, r->capsites = cap;
    }
    mc_rp_site_t *s = &r->sites[r->nsites];
    memset(s, 0, sizeof *s);
    s->comm = comm, s->coll = coll, s->sclass = sc;
    return r->nsites++;
}

/* rank q's records: their sites (-1: none) and bytes */
static int stream_sites(mc_rp_job_t *j, mc_rp_result_t *r, int q)
{
    const mc_rp_stream_t *s = &j->t->s[q];
    j->site[q] = malloc((s->n + 1) * sizeof **j->site);
    j->bytes[q] = malloc((s->n + 1) * sizeof **j->bytes);
    if (!j->site[q] || !j->bytes[q])
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    MC_CHECK(bytes_of(s, j->bytes[q]));
    int comm = 0;
    for (size_t i = 0; i < s->n; i++) {
        const mc_rp_rec_t *x = &s->r[i];
        j->site[q][i] = -1;
        if (x->kind == MC_RP_COMPUTE || x->kind == MC_RP_SKIP || is_req(x)) {
            comm = is_req(x) ? (int)x->comm : comm;
            continue;
        }
        int k = site_of(j, r, x->kind == MC_RP_WAIT ? comm : (int)x->comm,
                        x->kind == MC_RP_COLL ? x->coll : MC_RP_SITE_P2P,
                        sclass(j->bytes[q][i]));
        if (k < 0)
            return mc_error(MC_ERR_NOMEM, "replay: out of memory");
        j->site[q][i] = k;
    }
    return MC_OK;
}

int mc_rp_sites(mc_rp_job_t *j, mc_rp_result_t *r)
{
    const mc_rp_trace_t *t = j->t;
    j->site = calloc((size_t)t->ranks, sizeof *j->site);
    j->bytes = calloc((size_t)t->ranks, sizeof *j->bytes);
    if (!j->site || !j->bytes)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    for (int q = 0; q < t->ranks; q++)
        MC_CHECK(stream_sites(j, r, q));
    j->nsites = r->nsites;
    return MC_OK;
}
