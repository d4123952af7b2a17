/*
 * The OTF2 archive of a C API recording (trace/trace.h), in the form of
 * MC_MPI_TRACE's (docs/replay.md, "The archive"), written by one process
 * for every rank (OTF2's serial collective callbacks):
 *
 *   mc_allreduce        Enter t0, MpiCollectiveBegin t0,
 *                       MpiCollectiveEnd t1 + manycoll::* attributes,
 *                       Leave t1
 *   mc_iallreduce,      Enter, MpiCollectiveBegin, Leave; its end is
 *   mc_start            written in the wait that completes it:
 *   mc_wait/test/all    Enter t0, MpiCollectiveEnd t1 per call it
 *                       completed, Leave t1
 *   mc_allreduce_init   Enter, Leave
 *
 * Regions are named after the C functions (paradigm MPI: the events are
 * MPI's collective events, which is what replay and Vampir read);
 * communicators are comm i with group i + 1, group 0 the locations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "trace/write_int.h"
#include "util/colls.h"
#include "util/error.h"
#include "util/names.h"
#include "util/siphash.h"

uint32_t mc_tw_str(wr_t *w, const char *t)
{
    static const unsigned char key[16] = "manycoll-string";
    uint64_t h = mc_siphash(key, t, strlen(t)) >> 1;
    uint32_t *v = mc_map_get(&w->str_of, h);
    if (v && !strcmp(w->strs[*v - 1], t))
        return *v - 1;
    if (w->nstr == w->capstr) {
        size_t cap = w->capstr ? 2 * w->capstr : 64;
        char **a = realloc(w->strs, cap * sizeof *a);
        if (!a) {
            w->err = 1;
            return 0;
        }
        w->strs = a;
        w->capstr = cap;
    }
    char *d = strdup(t);
    if (!d) {
        w->err = 1;
        return 0;
    }
    w->strs[w->nstr] = d;
    if (!v && mc_map_add(&w->str_of, h, (void **)&v) == 1)
        *v = (uint32_t)w->nstr + 1;
    return (uint32_t)w->nstr++;
}

void mc_tw_region_name(int r, char *buf, size_t len)
{
    static const char *const wait[] = {"mc_wait", "mc_test", "mc_waitall"};
    static const char *const form[] = {"mc_%s", "mc_i%s", "mc_%s_init"};
    if (r == R_START)
        snprintf(buf, len, "mc_start");
    else if (r > R_WAIT - 1)
        snprintf(buf, len, "%s", wait[r - R_WAIT]);
    else
        snprintf(buf, len, form[r % 3], mc_coll_name((mc_coll_t)(r / 3)));
}

OTF2_RegionRole mc_tw_region_role(int r)
{
    if (r >= R_START)
        return OTF2_REGION_ROLE_FUNCTION;
    switch ((mc_coll_t)(r / 3)) {
    case MC_COLL_BARRIER: return OTF2_REGION_ROLE_BARRIER;
    case MC_COLL_BCAST: case MC_COLL_SCATTER: case MC_COLL_SCATTERV:
        return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case MC_COLL_REDUCE: case MC_COLL_GATHER: case MC_COLL_GATHERV:
        return OTF2_REGION_ROLE_COLL_ALL2ONE;
    case MC_COLL_SCAN: case MC_COLL_EXSCAN:
        return OTF2_REGION_ROLE_COLL_OTHER;
    default: return OTF2_REGION_ROLE_COLL_ALL2ALL;
    }
}

static OTF2_CollectiveOp otf2_op(int coll)
{
    switch ((mc_coll_t)coll) {
    case MC_COLL_BARRIER: return OTF2_COLLECTIVE_OP_BARRIER;
    case MC_COLL_BCAST: return OTF2_COLLECTIVE_OP_BCAST;
    case MC_COLL_REDUCE: return OTF2_COLLECTIVE_OP_REDUCE;
    case MC_COLL_ALLREDUCE: return OTF2_COLLECTIVE_OP_ALLREDUCE;
    case MC_COLL_ALLGATHER: return OTF2_COLLECTIVE_OP_ALLGATHER;
    case MC_COLL_ALLTOALL: return OTF2_COLLECTIVE_OP_ALLTOALL;
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        return OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK;
    case MC_COLL_GATHER: return OTF2_COLLECTIVE_OP_GATHER;
    case MC_COLL_SCATTER: return OTF2_COLLECTIVE_OP_SCATTER;
    case MC_COLL_SCAN: return OTF2_COLLECTIVE_OP_SCAN;
    case MC_COLL_EXSCAN: return OTF2_COLLECTIVE_OP_EXSCAN;
    case MC_COLL_ALLGATHERV: return OTF2_COLLECTIVE_OP_ALLGATHERV;
    case MC_COLL_ALLTOALLV: return OTF2_COLLECTIVE_OP_ALLTOALLV;
    case MC_COLL_GATHERV: return OTF2_COLLECTIVE_OP_GATHERV;
    case MC_COLL_SCATTERV: return OTF2_COLLECTIVE_OP_SCATTERV;
    default: return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
    }
}

/* the contract's short name of a datatype, else manycoll's */
static const char *dtype_name(int dt)
{
    const char *k = mc_dtype_short_name((mc_dtype_t)dt);
    return k ? k : mc_dtype_name((mc_dtype_t)dt);
}

static int has(int coll, unsigned prop)
{
    return (mc_coll_info((mc_coll_t)coll)->props & prop) != 0;
}

/* the bytes a rank sends and receives, as its arguments describe them */
static void sizes(const mc_trec_t *e, const uint64_t *v, int me, int P,
                  uint64_t *sent, uint64_t *recvd)
{
    uint64_t ds = mc_dtype_size((mc_dtype_t)e->dt), b = e->count * ds;
    uint64_t sum = 0, rsum = 0, pb = b * (uint64_t)P;
    int root = e->root == me, c = e->coll;
    for (uint32_t i = 0; i < e->n; i++)
        *((int)i < P ? &sum : &rsum) += v[i] * ds;
    *sent = *recvd = b;
    switch ((mc_coll_t)c) {
    case MC_COLL_BARRIER: *sent = *recvd = 0; break;
    case MC_COLL_BCAST: *sent = root ? b : 0, *recvd = root ? 0 : b; break;
    case MC_COLL_REDUCE: *recvd = root ? b : 0; break;
    case MC_COLL_ALLGATHER: *recvd = pb; break;
    case MC_COLL_ALLTOALL: *sent = *recvd = pb; break;
    case MC_COLL_REDUCE_SCATTER_BLOCK: *sent = pb; break;
    case MC_COLL_GATHER: *recvd = root ? pb : 0; break;
    case MC_COLL_SCATTER: *sent = root ? pb : 0; break;
    case MC_COLL_ALLGATHERV: *recvd = sum; break;
    case MC_COLL_GATHERV: *recvd = root ? sum : 0; break;
    case MC_COLL_SCATTERV: *sent = root ? sum : 0; break;
    case MC_COLL_ALLTOALLV: *sent = sum, *recvd = rsum; break;
    case MC_COLL_REDUCE_SCATTER: *sent = sum; break;
    default: break;
    }
}

/* MpiCollectiveEnd at t of the call e (with its words v) of rank me */
static void coll_end(wr_t *w, const mc_trec_t *e, const uint64_t *v, int me,
                     uint64_t t)
{
    const mc_tlog_t *l = &w->s->logs[me];
    int P = w->s->comms[l->gid[e->comm]].n, cme = 0;
    const uint64_t *m = w->s->comms[l->gid[e->comm]].members;
    while (cme < P && m[cme] != (uint64_t)me)
        cme++;
    uint64_t sent, recvd;
    sizes(e, v, cme, P, &sent, &recvd);
    OTF2_AttributeList *al = w->al;
    OTF2_AttributeList_AddUint64(al, A_COUNT, e->count);
    OTF2_AttributeList_AddStringRef(al, A_DTYPE, mc_tw_str(w, dtype_name(e->dt)));
    int has_op = has(e->coll, MC_COLL_REDUCES);
    OTF2_AttributeList_AddStringRef(
        al, A_OP, mc_tw_str(w, has_op ? mc_op_name((mc_op_t)e->op) : ""));
    if (e->n) { /* alltoallv: its send counts */
        char buf[8192];
        size_t at = 0, k = e->coll == MC_COLL_ALLTOALLV ? e->n / 2 : e->n;
        for (size_t i = 0; i < k && at < sizeof buf - 24; i++)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%llu",
                                   i ? "," : "", (unsigned long long)v[i]);
        OTF2_AttributeList_AddStringRef(al, A_VCOUNTS, mc_tw_str(w, buf));
    }
    OTF2_AttributeList_AddUint8(al, A_IN_PLACE, e->in_place);
    OTF2_AttributeList_AddStringRef(al, A_PATH, mc_tw_str(w, "manycoll"));
    OTF2_EvtWriter_MpiCollectiveEnd(
        w->ev, al, mc_tlog_ns(l, t), otf2_op(e->coll), l->gid[e->comm],
        has(e->coll, MC_COLL_ROOTED) ? (uint32_t)e->root
                                     : OTF2_UNDEFINED_UINT32, sent,
        recvd);
}

/* the region of a record (its fixed id), for the archive's numbering
 * of the regions used */
int mc_tw_region_of(const mc_trec_t *e)
{
    if (e->kind == MC_TR_WAIT)
        return R_WAIT + e->coll % 3;
    if (e->kind == MC_TR_START && e->form == MC_TR_PERSISTENT)
        return R_START;
    return e->kind == MC_TR_COMM ? -1 : e->coll * 3 + e->form;
}

static void enter(wr_t *w, int r, uint64_t t)
{
    t = mc_tlog_ns(w->l, t);
    if (!w->first || t < w->first)
        w->first = t;
    OTF2_EvtWriter_Enter(w->ev, NULL, t, w->region[r] - 1);
}

static void leave(wr_t *w, int r, uint64_t t)
{
    t = mc_tlog_ns(w->l, t);
    if (t > w->last)
        w->last = t;
    OTF2_EvtWriter_Leave(w->ev, NULL, t, w->region[r] - 1);
}

/* one record of rank me at offset at of its log */
static int write_rec(wr_t *w, int me, size_t at)
{
    const unsigned char *b = w->s->logs[me].buf;
    const mc_trec_t *e = (const mc_trec_t *)(b + at);
    const uint64_t *v = (const uint64_t *)(e + 1);
    int r = mc_tw_region_of(e);
    switch (e->kind) {
    case MC_TR_COLL:
        enter(w, r, e->t0);
        OTF2_EvtWriter_MpiCollectiveBegin(w->ev, NULL,
                                          mc_tlog_ns(w->l, e->t0));
        coll_end(w, e, v, me, e->t1);
        leave(w, r, e->t1);
        break;
    case MC_TR_INIT:
        enter(w, r, e->t0);
        leave(w, r, e->t1);
        break;
    case MC_TR_START: {
        void *p;
        enter(w, r, e->t0);
        OTF2_EvtWriter_MpiCollectiveBegin(w->ev, NULL,
                                          mc_tlog_ns(w->l, e->t0));
        leave(w, r, e->t1);
        if (mc_map_add(&w->pending, e->id, &p) < 0)
            return MC_ERR_NOMEM;
        *(size_t *)p = at;
        break;
    }
    case MC_TR_WAIT:
        enter(w, r, e->t0);
        for (uint32_t i = 0; i < e->n; i++) {
            size_t *s = mc_map_get(&w->pending, v[i]);
            if (!s)
                return mc_error(MC_ERR_ARG, "MC_TRACE=%s: rank %d completes "
                                "request %llu, which it did not start",
                                w->s->dir, me, (unsigned long long)v[i]);
            const mc_trec_t *st = (const mc_trec_t *)(b + *s);
            coll_end(w, st, (const uint64_t *)(st + 1), me, e->t1);
            mc_map_remove(&w->pending, v[i]);
        }
        leave(w, r, e->t1);
        break;
    default: break; /* MC_TR_COMM: a definition */
    }
    return MC_OK;
}

int mc_tw_events(wr_t *w, int me)
{
    const mc_tlog_t *l = &w->s->logs[me];
    w->l = l;
    w->ev = OTF2_Archive_GetEvtWriter(w->ar, (OTF2_LocationRef)me);
    if (!w->ev)
        return mc_error(MC_ERR_ARG, "MC_TRACE=%s: no OTF2 event writer",
                        w->s->dir);
    mc_map_init(&w->pending, sizeof(size_t));
    int rc = MC_OK;
    for (size_t at = sizeof(mc_trhead_t); rc == MC_OK && at < l->len;) {
        const mc_trec_t *e = (const mc_trec_t *)(l->buf + at);
        rc = write_rec(w, me, at);
        at += sizeof *e + (size_t)e->n * 8;
    }
    mc_map_fini(&w->pending);
    OTF2_EvtWriter_GetNumberOfEvents(w->ev, &w->nev[me]);
    OTF2_Archive_CloseEvtWriter(w->ar, w->ev);
    return rc;
}
