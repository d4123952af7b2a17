/*
 * A recorded collective described from its arguments during the call
 * (MCM_TRACE_COLL: the non-blocking and persistent forms, the v-counts,
 * and a blocking call the hot path does not take, as one on a derived
 * datatype, trace_raw.c), and the hot path's raw records described at
 * MPI_Finalize the same way (mcm_tr_raw_coll, at the end):
 *
 *   begin  t0; the comm's global id; root; bytes sent and received and
 *          the attributes from the arguments; the comm's counts by path
 *   the call itself (untraced: mcm_trace_depth)
 *   end    t1; the path is the one whose count grew (the plan counts every
 *          call, plan.c; no state: "mpi"), then
 *            blocking     Enter t0, MpiCollectiveBegin t0,
 *                         MpiCollectiveEnd t1, Leave t1
 *            non-blocking Enter t0, MpiCollectiveBegin t0, Leave t1; the
 *                         End is written at the wait or test that
 *                         completes the request (trace_p2p.c)
 *            persistent   Enter t0, Leave t1; each MPI_Start writes a
 *                         Begin, its completion the End
 *
 * Bytes: sizeSent / sizeReceived are what this rank's send and receive
 * buffer arguments describe (count x type size, x P for a side of P
 * blocks, the sum of a side of P counts; a side a rank does not use, as
 * a non-root's receive side of a gather, is 0; with MPI_IN_PLACE the send
 * side is the rank's own contribution, as its receive side describes it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/trace.h"

#if MCM_HAVE_OTF2
#include "mpi/trace_impl.h"
#include "util/names.h"

/* OTF2's collectiveOp of each collective */
static const uint8_t otf2_op[MC_COLL_COUNT] = {
    [MC_COLL_BARRIER] = OTF2_COLLECTIVE_OP_BARRIER,
    [MC_COLL_BCAST] = OTF2_COLLECTIVE_OP_BCAST,
    [MC_COLL_REDUCE] = OTF2_COLLECTIVE_OP_REDUCE,
    [MC_COLL_ALLREDUCE] = OTF2_COLLECTIVE_OP_ALLREDUCE,
    [MC_COLL_ALLGATHER] = OTF2_COLLECTIVE_OP_ALLGATHER,
    [MC_COLL_ALLTOALL] = OTF2_COLLECTIVE_OP_ALLTOALL,
    [MC_COLL_REDUCE_SCATTER_BLOCK] = OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
    [MC_COLL_GATHER] = OTF2_COLLECTIVE_OP_GATHER,
    [MC_COLL_SCATTER] = OTF2_COLLECTIVE_OP_SCATTER,
    [MC_COLL_SCAN] = OTF2_COLLECTIVE_OP_SCAN,
    [MC_COLL_EXSCAN] = OTF2_COLLECTIVE_OP_EXSCAN,
    [MC_COLL_ALLGATHERV] = OTF2_COLLECTIVE_OP_ALLGATHERV,
    [MC_COLL_ALLTOALLV] = OTF2_COLLECTIVE_OP_ALLTOALLV,
    [MC_COLL_GATHERV] = OTF2_COLLECTIVE_OP_GATHERV,
    [MC_COLL_SCATTERV] = OTF2_COLLECTIVE_OP_SCATTERV,
    [MC_COLL_REDUCE_SCATTER] = OTF2_COLLECTIVE_OP_REDUCE_SCATTER,
};

static const char *const p2p_names[] = {
    "MPI_Send", "MPI_Ssend", "MPI_Recv", "MPI_Sendrecv", "MPI_Isend",
    "MPI_Irecv", "MPI_Wait", "MPI_Test", "MPI_Waitany", "MPI_Testany",
    "MPI_Waitall", "MPI_Testall", "MPI_Waitsome", "MPI_Testsome",
    "MPI_Start", "MPI_Startall"};

const char *mcm_tr_region_name(int r, char *buf, size_t len)
{
    if (r >= MCM_R_SEND)
        return p2p_names[r - MCM_R_SEND];
    char f[48];
    mcm_form_name(r / MCM_FORMS, r % MCM_FORMS, f, sizeof f);
    snprintf(buf, len, "MPI_%c%s", f[0] - 'a' + 'A', f + 1);
    return buf;
}

OTF2_RegionRole mcm_tr_region_role(int r)
{
    if (r >= MCM_R_WAIT)
        return OTF2_REGION_ROLE_FUNCTION;
    if (r >= MCM_R_SEND)
        return OTF2_REGION_ROLE_POINT2POINT;
    switch (r / MCM_FORMS) {
    case MC_COLL_BARRIER: return OTF2_REGION_ROLE_BARRIER;
    case MC_COLL_BCAST:
    case MC_COLL_SCATTER:
    case MC_COLL_SCATTERV: return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case MC_COLL_REDUCE:
    case MC_COLL_GATHER:
    case MC_COLL_GATHERV: return OTF2_REGION_ROLE_COLL_ALL2ONE;
    default: return OTF2_REGION_ROLE_COLL_ALL2ALL;
    }
}

/* ---- the arguments ---- */

static uint64_t tsize(MPI_Datatype dt)
{
    long long s = mcm_type_size(dt);
    return s > 0 ? (uint64_t)s : 0;
}

static uint64_t sum(const int *v, int n)
{
    uint64_t s = 0;
    for (int i = 0; v && i < n; i++)
        s += v[i] > 0 ? (uint64_t)v[i] : 0;
    return s;
}

/* the contract's short names, by mc_dtype_t (the first twelve) */
static const char *const short_dt[] = {
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
    "f32", "f64", "f16", "bf16"};

uint32_t mcm_tr_dtype_str(MPI_Datatype dt)
{
    const mcm_type_t *t = mcm_type(dt);
    int mc = t ? (t->mc >= 0 ? t->mc : t->umc) : -1;
    if (mc >= 0 && mc < (int)(sizeof short_dt / sizeof *short_dt))
        return mcm_tr_str(short_dt[mc]);
    MPI_Aint lb = 0, ext = 0;
    PMPI_Type_get_extent(dt, &lb, &ext);
    char b[32];
    snprintf(b, sizeof b, "bytes:%lld", (long long)ext);
    return mcm_tr_str(b);
}

uint32_t mcm_tr_op_str(MPI_Op op)
{
    if (op == MPI_OP_NULL)
        return mcm_tr.s_none;
    int o = mcm_builtin_op(op);
    if (o >= 0)
        return mcm_tr_str(mc_op_name((mc_op_t)o));
    return mcm_tr_str(op == MPI_LXOR ? "lxor" : "user");
}

/* the manycoll::datatype and manycoll::op strings of dt and op
 * (MPI_OP_NULL: no op, ""), through the string cache: a call on a
 * predefined type looks up one slot, keyed by both handles, instead of
 * two maps and two strings. A derived type is looked up each time: its
 * handle may be freed and come back with another extent; an op's string
 * never changes (a user op's is "user") */
static void dt_op(MPI_Datatype dt, MPI_Op op, uint32_t *d, uint32_t *o)
{
    uintptr_t kd = mcm_key(&dt, sizeof dt), ko = mcm_key(&op, sizeof op);
    mcm_tsc_t *c = &mcm_tr.sc[mcm_slot(kd ^ (ko << 1 | ko >> 63),
                                       MCM_TR_SC_BITS)];
    if (c->dtype && c->dt == kd && c->op == ko) {
        *d = c->dtype;
        *o = c->opname;
        return;
    }
    *d = mcm_tr_dtype_str(dt);
    *o = mcm_tr_op_str(op);
    if (mcm_type(dt) && *d && *o)
        *c = (mcm_tsc_t){.dt = kd, .op = ko, .dtype = *d, .opname = *o};
}

static uint32_t vcounts_str(const int *v, int n)
{
    char small[256], *b = n * 12 + 1 <= (int)sizeof small
                              ? small
                              : malloc((size_t)n * 12 + 1);
    if (!b)
        return mcm_tr.s_none;
    size_t at = 0;
    b[0] = 0;
    for (int i = 0; i < n; i++)
        at += (size_t)sprintf(b + at, i ? ",%d" : "%d", v[i]);
    uint32_t id = mcm_tr_str(b);
    if (b != small)
        free(b);
    return id;
}

static uint64_t pos(int n)
{
    return n > 0 ? (uint64_t)n : 0;
}

static int at(const int *v, int i)
{
    return v ? v[i] : 0;
}

typedef mcm_twhere_t where_t;

/* a reduction or bcast: one type, the send side's (sdt) */
static int one_type(int coll)
{
    return coll == MC_COLL_BCAST ||
           (mc_coll_info((mc_coll_t)coll)->props & MC_COLL_REDUCES);
}

/* sizeSent and sizeReceived (see the top); sts and rts: the sizes of the
 * send and receive types, read only where they are significant */
static void sizes(mcm_tcoll_t *c, int coll, const mcm_targs_t *a,
                  const where_t *w, uint64_t sts, uint64_t rts)
{
    int red = one_type(coll);
    uint64_t P = (uint64_t)w->P, root = (uint64_t)w->root;
    uint64_t ss = red || w->ssig ? sts : 0;
    uint64_t rs = !red && w->rsig ? rts : 0;
    uint64_t n = pos(a->count) * ss, me = (uint64_t)w->me;
    uint64_t sb = pos(a->scount) * ss, rb = pos(a->rcount) * rs;
    uint64_t r = 0, s = 0, ip = (uint64_t)w->ip;
    switch (coll) {
    case MC_COLL_BCAST: s = root * n, r = (1 - root) * n; break;
    case MC_COLL_REDUCE: s = n, r = root * n; break;
    case MC_COLL_ALLREDUCE:
    case MC_COLL_SCAN:
    case MC_COLL_EXSCAN: s = r = n; break;
    case MC_COLL_REDUCE_SCATTER_BLOCK: s = n * P, r = n; break;
    case MC_COLL_REDUCE_SCATTER:
        s = sum(a->rcounts, w->P) * ss;
        r = pos(at(a->rcounts, w->me)) * ss;
        break;
    case MC_COLL_ALLGATHER: s = ip ? rb : sb, r = rb * P; break;
    case MC_COLL_ALLTOALL: s = (ip ? rb : sb) * P, r = rb * P; break;
    case MC_COLL_GATHER: s = ip ? rb : sb, r = root * rb * P; break;
    case MC_COLL_SCATTER: s = root * sb * P, r = ip ? sb : rb; break;
    case MC_COLL_ALLGATHERV:
    case MC_COLL_GATHERV:
        s = ip ? pos(at(a->rcounts, w->me)) * rs : sb;
        r = coll == MC_COLL_GATHERV && !root ? 0 : sum(a->rcounts, w->P) * rs;
        break;
    case MC_COLL_ALLTOALLV:
        s = ip ? sum(a->rcounts, w->P) * rs : sum(a->scounts, w->P) * ss;
        r = sum(a->rcounts, w->P) * rs;
        break;
    case MC_COLL_SCATTERV:
        s = root ? sum(a->scounts, w->P) * ss : 0;
        r = ip ? pos(at(a->scounts, (int)me)) * ss : rb;
        break;
    }
    c->sent = s;
    c->recvd = r;
}

/* count, datatype and vcounts of a collective that moves blocks: the
 * send side's where MPI reads it here, else the receive side's; a
 * v-collective's count is this rank's own block (alltoallv: the sum of
 * its send counts) */
static void blocks(mcm_tcoll_t *c, int coll, const mcm_targs_t *a,
                   const where_t *w)
{
    int snd = w->ssig, me = w->me;
    const int *v = NULL;
    int64_t count = snd ? a->scount : a->rcount;
    switch (coll) {
    case MC_COLL_ALLGATHERV: v = a->rcounts;
        count = snd ? a->scount : at(v, me); break;
    case MC_COLL_GATHERV: v = w->root ? a->rcounts : NULL;
        count = snd ? a->scount : at(a->rcounts, me); break;
    case MC_COLL_SCATTERV: v = w->root ? a->scounts : NULL;
        count = snd ? at(a->scounts, me) : a->rcount; break;
    case MC_COLL_ALLTOALLV: v = snd ? a->scounts : a->rcounts;
        count = (int64_t)sum(v, w->P); break;
    }
    c->count = count > 0 ? (uint64_t)count : 0;
    dt_op(snd ? a->sdt : a->rdt, MPI_OP_NULL, &c->dtype, &c->op);
    if (v) {
        c->has_vcounts = 1;
        c->vcounts = vcounts_str(v, w->P);
    }
}

/* the attributes but the path; caller holds the lock */
static void attrs(mcm_tcoll_t *c, int coll, const mcm_targs_t *a,
                  const where_t *w)
{
    unsigned props = mc_coll_info((mc_coll_t)coll)->props;
    c->in_place = (uint8_t)w->ip;
    if (coll == MC_COLL_BARRIER) {
        c->dtype = c->op = mcm_tr.s_none;
    } else if (coll == MC_COLL_REDUCE_SCATTER) {
        c->count = pos(at(a->rcounts, w->me));
        dt_op(a->sdt, a->op, &c->dtype, &c->op);
        c->has_vcounts = 1;
        c->vcounts = vcounts_str(a->rcounts, w->P);
    } else if (coll == MC_COLL_BCAST || (props & MC_COLL_REDUCES)) {
        c->count = pos(a->count);
        dt_op(a->sdt, props & MC_COLL_REDUCES ? a->op : MPI_OP_NULL,
              &c->dtype, &c->op);
    } else {
        blocks(c, coll, a, w);
    }
    int red = one_type(coll);
    sizes(c, coll, a, w, red || w->ssig ? tsize(a->sdt) : 0,
          !red && w->rsig ? tsize(a->rdt) : 0);
}

/* the rest of w from me, P and ip */
static void sides(where_t *w, int coll, int root)
{
    int rooted = mc_coll_info((mc_coll_t)coll)->props & MC_COLL_ROOTED;
    int scat = coll == MC_COLL_SCATTER || coll == MC_COLL_SCATTERV;
    int gath = coll == MC_COLL_GATHER || coll == MC_COLL_GATHERV;
    w->root = rooted && root == w->me;
    w->ssig = scat ? w->root : !w->ip;
    w->rsig = gath ? w->root : !(scat && w->ip);
}

static void where(where_t *w, int coll, MPI_Comm comm, const mcm_targs_t *a)
{
    PMPI_Comm_rank(comm, &w->me);
    PMPI_Comm_size(comm, &w->P);
    int scat = coll == MC_COLL_SCATTER || coll == MC_COLL_SCATTERV;
    w->ip = (scat ? a->rbuf : a->sbuf) == MPI_IN_PLACE &&
            coll != MC_COLL_BARRIER && coll != MC_COLL_BCAST;
    sides(w, coll, a->root);
}

/* ---- the last call of each collective and form ----
 * A loop that makes the same call again (an iterative solver's
 * allreduce) gets the same record: the arguments it is made from are
 * kept as a key beside it, and a call whose key matches copies it
 * instead of working it out. Only calls on predefined types (or none)
 * and without v-counts are kept: a predefined type's handle is never
 * freed, so a match is one; a comm's entries go at MPI_Comm_free, as
 * its handle may come back for another comm. Under the lock. */
typedef struct ckey {
    uintptr_t comm, sdt, rdt, op;
    int count, scount, rcount, root, ip;
} ckey_t;

static struct last {
    ckey_t k;
    mcm_tcoll_t c;
    int full;
} last[MC_COLL_COUNT][MCM_FORMS];

static void key_of(ckey_t *k, MPI_Comm comm, const mcm_targs_t *a)
{
    k->comm = mcm_key(&comm, sizeof comm);
    k->sdt = mcm_key(&a->sdt, sizeof a->sdt);
    k->rdt = mcm_key(&a->rdt, sizeof a->rdt);
    k->op = mcm_key(&a->op, sizeof a->op);
    k->count = a->count;
    k->scount = a->scount;
    k->rcount = a->rcount;
    k->root = a->root;
    k->ip = (a->sbuf == MPI_IN_PLACE) | (a->rbuf == MPI_IN_PLACE) << 1;
}

static int same_key(const ckey_t *x, const ckey_t *y)
{
    return x->comm == y->comm && x->sdt == y->sdt && x->rdt == y->rdt &&
           x->op == y->op && x->count == y->count &&
           x->scount == y->scount && x->rcount == y->rcount &&
           x->root == y->root && x->ip == y->ip;
}

/* a type the key may hold: predefined, or none (the field not set) */
static int keyable(MPI_Datatype dt, uintptr_t bits)
{
    return !bits || mcm_type(dt);
}

void mcm_trace_comm_forget(MPI_Comm comm)
{
    uintptr_t k = mcm_key(&comm, sizeof comm);
    for (int c = 0; c < MC_COLL_COUNT; c++)
        for (int f = 0; f < MCM_FORMS; f++)
            if (last[c][f].k.comm == k)
                last[c][f].full = 0;
}

/* tc->c from the arguments */
static void describe(mcm_tcall_t *tc, MPI_Comm comm, const mcm_targs_t *a)
{
    int coll = tc->coll;
    where_t w = {.P = 1};
    where(&w, coll, comm, a);
    int rooted = mc_coll_info((mc_coll_t)coll)->props & MC_COLL_ROOTED;
    tc->c.comm = mcm_tr_comm_id(comm);
    tc->c.root = rooted ? (uint32_t)a->root : OTF2_UNDEFINED_UINT32;
    tc->c.op_otf2 = otf2_op[coll];
    tc->c.region = (uint32_t)(coll * MCM_FORMS + tc->form);
    attrs(&tc->c, coll, a, &w);
}

void mcm_trace_begin(mcm_tcall_t *tc, int coll, int form, MPI_Comm comm,
                     const mcm_targs_t *a)
{
    mcm_trace_depth = 1;
    tc->coll = coll;
    tc->form = form;
    mcm_comm_t *s = mcm_comm(comm);
    tc->s = s;
    if (s)
        memcpy(tc->before, s->stat[coll][form].n, sizeof tc->before);
    ckey_t k;
    key_of(&k, comm, a);
    struct last *l = &last[coll][form];
    mcm_tr_lock();
    if (l->full && same_key(&l->k, &k)) {
        tc->c = l->c;
    } else {
        memset(&tc->c, 0, sizeof tc->c);
        describe(tc, comm, a);
        l->full = !a->scounts && !a->rcounts && keyable(a->sdt, k.sdt) &&
                  keyable(a->rdt, k.rdt) && tc->c.dtype && tc->c.op &&
                  tc->c.comm != MCM_T_UNDEF_COMM;
        l->k = k;
        l->c = tc->c;
    }
    mcm_tr_unlock();
    tc->t0 = mcm_tr_now();
}

/* the path whose count the call raised (MCM_P_*) */
static int path_of(const mcm_tcall_t *tc)
{
    const mcm_comm_t *s = tc->s;
    if (!s)
        return MCM_P_MPI;
    const long *n = s->stat[tc->coll][tc->form].n;
    if (n[MCM_FLAT] > tc->before[MCM_FLAT])
        return MCM_P_MANYCOLL;
    if (n[MCM_HIER] > tc->before[MCM_HIER])
        return MCM_P_HIER;
    return MCM_P_MPI;
}

int mcm_trace_end(mcm_tcall_t *tc, int rc, MPI_Request *req)
{
    uint64_t t1 = mcm_tr_now();
    mcm_trace_depth = 0;
    mcm_tr_lock();
    if (!mcm_trace_on) {
        mcm_tr_unlock();
        return rc;
    }
    tc->c.path = mcm_tr.s_path[path_of(tc)];
    if (tc->form == MCM_BLOCKING) { /* one record: Enter .. Leave */
        mcm_tr_coll(MCM_E_COLL, tc->t0, t1, &tc->c);
        mcm_tr_unlock();
        return rc;
    }
    mcm_tr_enter((int)tc->c.region, tc->t0);
    if (tc->form != MCM_PERSISTENT)
        mcm_tr_ev(MCM_E_CBEGIN, tc->t0, 0, 0, 0, 0, 0);
    if (rc == MPI_SUCCESS && req) {
        mcm_treq_t *q = mcm_tr_req_add(*req);
        if (q) {
            q->kind = MCM_Q_COLL;
            q->c = tc->c;
            q->persistent = tc->form == MCM_PERSISTENT;
        }
    }
    mcm_tr_leave((int)tc->c.region, t1);
    mcm_tr_unlock();
    return rc;
}

/* ---- a raw record at MPI_Finalize (trace_raw.c made it) ----
 * The same description as describe() gives the call: the arguments are
 * the record's, the types' strings and sizes those the types had when
 * first seen, this rank's place in the comm its members. A comm no longer
 * known (none: every comm the record names has an entry until the end)
 * leaves the sides' sizes 0. */
void mcm_tr_raw_coll(const mcm_traw_t *r, mcm_tcoll_t *c)
{
    int coll = r->coll, red = one_type(coll);
    int rooted = mc_coll_info((mc_coll_t)coll)->props & MC_COLL_ROOTED;
    where_t w = {.P = 1, .ip = r->ip};
    mcm_tr_raw_place(r->comm, &w.me, &w.P);
    sides(&w, coll, r->root);
    const mcm_ttype_t *st = mcm_tr_raw_type(r->sdt);
    const mcm_ttype_t *rt = mcm_tr_raw_type(r->rdt);
    memset(c, 0, sizeof *c);
    c->comm = r->comm;
    c->root = rooted ? (uint32_t)r->root : OTF2_UNDEFINED_UINT32;
    c->op_otf2 = otf2_op[coll];
    c->region = (uint32_t)(coll * MCM_FORMS + MCM_BLOCKING);
    c->path = mcm_tr.s_path[r->path];
    c->in_place = (uint8_t)w.ip;
    mcm_targs_t a = {.count = r->count, .scount = r->count,
                     .rcount = r->rcount};
    if (coll == MC_COLL_BARRIER) {
        c->dtype = c->op = mcm_tr.s_none;
    } else if (red) {
        c->count = pos(r->count);
        c->dtype = st->str;
        c->op = mcm_tr_raw_op(r->op);
    } else {
        c->count = pos(w.ssig ? r->count : r->rcount);
        c->dtype = w.ssig ? st->str : rt->str;
        c->op = mcm_tr.s_none;
    }
    sizes(c, coll, &a, &w, st->size, rt->size);
}

#endif /* MCM_HAVE_OTF2 */
