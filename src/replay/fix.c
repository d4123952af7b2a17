/*
 * After the events are read (read.c): what one rank's events cannot say.
 *
 *  - A request's call time (MPI_Isend, MPI_Irecv) joins the wait that
 *    completed it; a request never completed is not replayed (SKIP).
 *  - The k-th collective on a communicator is one call on all its
 *    members: they must agree on the collective (else the archive is
 *    refused, naming the communicator and ranks), and they get one root,
 *    one count, one datatype and one op, and for a v-collective one
 *    vector of counts (v-counts), shared by all members' records.
 *
 * Counts without manycoll's attributes (Score-P's archives, or a v-count
 * nobody recorded). MPI's events carry bytes only, and Score-P counts
 * them its own way (a broadcast's root may count every copy it sends),
 * so the rule takes, over the members of one call, the smallest non-zero
 * of the bytes sent and received, b (one rank's block; an alltoall's is
 * b / P), and replays it as
 *   - a reduction (reduce, allreduce, scan, exscan, reduce_scatter*):
 *     b / 8 float64 summed if b is a multiple of 8, else b uint8 with
 *     bxor;
 *   - anything else: b uint8;
 *   - gatherv, allgatherv: member k's block is the bytes it sent;
 *     scatterv, reduce_scatter: the bytes it received;
 *   - alltoallv (its matrix is not in the events, nor in manycoll's
 *     attribute, which holds one row): an alltoall of the mean block of
 *     the rank that sent most, ceil(sent / P).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "util/error.h"
#include "util/names.h"

/* the contract's datatype names -> manycoll's, element bytes via
 * "bytes:N" (replayed as N uint8 per element) */
static int dtype_of(const char *s, mc_dtype_t *dt, uint64_t *mul)
{
    *mul = 1;
    if (!strncmp(s, "bytes:", 6)) {
        *dt = MC_UINT8;
        *mul = strtoull(s + 6, NULL, 10);
        return *mul > 0 ? 0 : -1;
    }
    if (!mc_dtype_from_short_name(s, dt))
        return 0;
    return mc_dtype_from_name(s, dt);
}

int mc_rp_read_attrs(mc_rp_trace_t *t, mc_rp_rec_t *r, const char *dtype,
                     const char *op, const char *vcounts, int has_count,
                     uint64_t count, int in_place)
{
    mc_dtype_t dt = MC_UINT8;
    mc_op_t o = MC_SUM;
    uint64_t mul = 1;
    if (dtype && *dtype && dtype_of(dtype, &dt, &mul))
        return mc_error(MC_ERR_ARG, "archive '%s': manycoll::datatype "
                        "'%s' is not a datatype", t->path, dtype);
    /* "user": an op the program made (MPI_Op_create, mc_op_create),
     * whose function the archive does not hold: replayed as a SUM of the
     * same type, the same data moved and a builtin kernel's cost; "lxor"
     * (no manycoll kernel) as bxor */
    if (op && !strcmp(op, "user"))
        op = "sum";
    if (op && *op && mc_op_from_name(!strcmp(op, "lxor") ? "bxor" : op, &o))
        return mc_error(MC_ERR_ARG, "archive '%s': manycoll::op '%s' is "
                        "not an operation", t->path, op);
    r->dtype = has_count ? (int8_t)dt : -1;
    r->op = (int8_t)o;
    r->count = count * mul;
    r->in_place = (uint8_t)(in_place != 0);
    if (vcounts && *vcounts) {
        uint64_t v[4096];
        int n = 0;
        for (const char *p = vcounts; *p && n < 4096; n++) {
            char *end;
            v[n] = strtoull(p, &end, 10) * mul;
            p = *end == ',' ? end + 1 : end;
            if (end == p && *p)
                return mc_error(MC_ERR_ARG, "archive '%s': manycoll::vcounts "
                                "'%.40s' is not a list of counts", t->path,
                                vcounts);
        }
        r->vc = mc_rp_vpush(t, v, n);
        r->peer2 = n; /* the vector's length, checked in unify */
    }
    return MC_OK;
}

static int reduces(int coll)
{
    const mc_coll_info_t *i = mc_coll_info((mc_coll_t)coll);
    return i && (i->props & MC_COLL_REDUCES);
}

static int vector(int coll)
{
    const mc_coll_info_t *i = mc_coll_info((mc_coll_t)coll);
    return i && (i->props & MC_COLL_VECTOR);
}

/* Score-P's: one call's datatype, op and block from its members' bytes */
static void derive(mc_rp_rec_t **m, int p)
{
    uint64_t b = UINT64_MAX;
    for (int k = 0; k < p; k++) {
        if (m[k]->sent && m[k]->sent < b)
            b = m[k]->sent;
        if (m[k]->recvd && m[k]->recvd < b)
            b = m[k]->recvd;
    }
    b = b == UINT64_MAX ? 0 : b;
    int c = m[0]->coll;
    if (c == MC_COLL_ALLTOALL)
        b /= (uint64_t)p;
    if (c == MC_COLL_ALLTOALLV)
        for (int k = 0; k < p; k++) {
            uint64_t x = (m[k]->sent + (uint64_t)p - 1) / (uint64_t)p;
            b = k == 0 || x > b ? x : b;
        }
    int f64 = reduces(c) && b % 8 == 0;
    for (int k = 0; k < p; k++) {
        m[k]->dtype = f64 ? MC_FLOAT64 : MC_UINT8;
        m[k]->op = f64 ? MC_SUM : reduces(c) ? MC_BXOR : MC_SUM;
        m[k]->count = f64 ? b / 8 : b;
    }
}

/* one call's v-counts: a member's recorded vector, else the members'
 * bytes (in elements) */
static int vcounts(mc_rp_trace_t *t, mc_rp_rec_t **m, int p, uint32_t *vc)
{
    for (int k = 0; k < p; k++)
        if (m[k]->vc != UINT32_MAX && m[k]->peer2 == p &&
            m[0]->coll != MC_COLL_ALLTOALLV) {
            *vc = m[k]->vc;
            return MC_OK;
        }
    uint64_t *v = malloc((size_t)p * sizeof *v);
    if (!v)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    size_t ds = mc_dtype_size((mc_dtype_t)m[0]->dtype);
    int rx = m[0]->coll == MC_COLL_SCATTERV ||
             m[0]->coll == MC_COLL_REDUCE_SCATTER;
    for (int k = 0; k < p; k++)
        v[k] = (rx ? m[k]->recvd : m[k]->sent) / (ds ? ds : 1);
    *vc = mc_rp_vpush(t, v, p);
    free(v);
    return *vc == UINT32_MAX ? mc_error(MC_ERR_NOMEM, "replay: out of memory")
                             : MC_OK;
}

/* the members' records of one call made one */
static int unify(mc_rp_trace_t *t, const mc_rp_comm_t *c, mc_rp_rec_t **m,
                 int j)
{
    int p = c->size, root = -1;
    uint64_t count = 0;
    for (int k = 0; k < p; k++) {
        if (m[k]->coll != m[0]->coll)
            return mc_error(MC_ERR_ARG, "archive '%s': collective %d on "
                            "communicator %u ('%s') is %s on rank %d but "
                            "%s on rank %d", t->path, j, c->id, c->name,
                            mc_coll_info((mc_coll_t)m[0]->coll)->name,
                            c->members[0],
                            mc_coll_info((mc_coll_t)m[k]->coll)->name,
                            c->members[k]);
        root = m[k]->root >= 0 ? m[k]->root : root;
        count = m[k]->count > count ? m[k]->count : count;
    }
    if (m[0]->dtype < 0)
        derive(m, p);
    else
        for (int k = 0; k < p; k++)
            m[k]->count = count, m[k]->dtype = m[0]->dtype,
            m[k]->op = m[0]->op;
    if (m[0]->coll == MC_COLL_ALLTOALLV)
        for (int k = 0; k < p; k++)
            m[k]->coll = MC_COLL_ALLTOALL;
    uint32_t vc = UINT32_MAX;
    if (vector(m[0]->coll))
        MC_CHECK(vcounts(t, m, p, &vc));
    for (int k = 0; k < p; k++) {
        m[k]->root = root >= p ? 0 : root;
        m[k]->vc = vc;
        m[k]->peer2 = -1;
    }
    return MC_OK;
}

/* the calls on communicator ci, member by member */
static int unify_comm(mc_rp_trace_t *t, int ci)
{
    mc_rp_comm_t *c = &t->comms[ci];
    int p = c->size, rc = MC_OK;
    size_t *at = calloc((size_t)p, sizeof *at);
    mc_rp_rec_t **m = calloc((size_t)p, sizeof *m);
    if (!at || !m)
        rc = mc_error(MC_ERR_NOMEM, "replay: out of memory");
    for (int j = 0; rc == MC_OK; j++) {
        int got = 0;
        for (int k = 0; k < p; k++) {
            mc_rp_stream_t *s = &t->s[c->members[k]];
            while (at[k] < s->n && !(s->r[at[k]].kind == MC_RP_COLL &&
                                     s->r[at[k]].comm == (uint32_t)ci))
                at[k]++;
            m[k] = at[k] < s->n ? &s->r[at[k]++] : NULL;
            got += m[k] != NULL;
        }
        if (got == 0) {
            c->ncoll = j;
            break;
        }
        if (got < p)
            rc = mc_error(MC_ERR_ARG, "archive '%s': communicator %u ('%s') "
                          "has %d members but only %d of them make its "
                          "collective %d", t->path, c->id, c->name, p, got,
                          j);
        else
            rc = unify(t, c, m, j);
    }
    free(at);
    free(m);
    return rc;
}

/* requests: their call time to their wait; never completed: SKIP */
static void requests(mc_rp_trace_t *t, mc_rp_stream_t *s)
{
    for (size_t i = 0; i < s->n; i++) {
        mc_rp_rec_t *r = &s->r[i];
        if (r->kind != MC_RP_ISEND && r->kind != MC_RP_IRECV)
            continue;
        size_t w = i;
        while (++w < s->n && !(s->r[w].kind == MC_RP_WAIT &&
                               s->r[w].wait == r->wait))
            ;
        if (r->wait == UINT32_MAX || w == s->n) {
            r->kind = MC_RP_SKIP;
            t->unreplayable_ns += r->dur_ns;
            continue;
        }
        s->r[w].dur_ns += r->dur_ns;
        r->dur_ns = 0;
    }
}

int mc_rp_fix(mc_rp_trace_t *t)
{
    for (int r = 0; r < t->ranks; r++)
        requests(t, &t->s[r]);
    for (int r = 0; r < t->ranks; r++)
        for (size_t i = 0; i < t->s[r].n; i++) {
            const mc_rp_rec_t *x = &t->s[r].r[i];
            int size = t->comms[x->comm].size;
            if ((x->kind >= MC_RP_SEND && x->kind <= MC_RP_IRECV &&
                 (x->peer < 0 || x->peer >= size)) ||
                (x->kind == MC_RP_SENDRECV && x->peer2 >= size))
                return mc_error(MC_ERR_ARG, "archive '%s': rank %d's "
                                "message names peer %d of communicator %u "
                                "('%s', %d ranks)", t->path, r, x->peer,
                                t->comms[x->comm].id,
                                t->comms[x->comm].name, size);
        }
    for (int i = 0; i < t->ncomms; i++)
        MC_CHECK(unify_comm(t, i));
    return MC_OK;
}
