/*
 * An OTF2 archive into per-rank streams (replay.h), with OTF2's reader:
 * the global definitions (defs.c), then for every location its local
 * definitions (so that OTF2 applies a Score-P IdMap, OTF2_MAPPING_COMM,
 * to the events) and its events, one location at a time.
 *
 * Only MPI regions (paradigm MPI) count: the time from one MPI call's
 * Leave to the next one's Enter is computation (user regions in between,
 * as Score-P records them, are part of it); an MPI call that leaves no
 * replayable event (MPI_Init, MPI_Comm_split, MPI_Probe ...) is
 * MC_RP_SKIP, its time counted as computation and reported. A
 * non-blocking collective's call (MPI_Iallreduce) adds its time to the
 * collective completed at its wait (the contract's non-blocking form).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "replay/read_int.h"
#include "util/error.h"

/* ---- events ---- */

static mc_rp_rec_t *rec(rd_t *d)
{
    mc_rp_rec_t *r = mc_rp_push(&d->t->s[d->cur->rank]);
    if (!r)
        d->err = mc_error(MC_ERR_NOMEM, "archive: out of memory");
    return r;
}

static int comm_index(rd_t *d, OTF2_CommRef id)
{
    for (int i = 0; i < d->t->ncomms; i++)
        if (d->t->comms[i].id == id)
            return i;
    d->err = mc_error(MC_ERR_ARG, "archive '%s': rank %d uses communicator "
                      "%u, which is not defined", d->t->path, d->cur->rank,
                      id);
    return -1;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef l, OTF2_TimeStamp time,
                                  uint64_t pos, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef reg)
{
    rd_t *d = u;
    loc_t *c = d->cur;
    if (reg >= d->nregion || !d->mpi_region[reg])
        return OTF2_CALLBACK_SUCCESS;
    if (c->depth++ > 0)
        return OTF2_CALLBACK_SUCCESS;
    if (c->started && time > c->last_leave) {
        mc_rp_rec_t *r = rec(d);
        if (!r)
            return OTF2_CALLBACK_INTERRUPT;
        r->kind = MC_RP_COMPUTE;
        r->dur_ns = time - c->last_leave;
    }
    c->started = 1;
    c->enter = time;
    c->first = d->t->s[c->rank].n;
    c->completions = 0;
    return OTF2_CALLBACK_SUCCESS;
}

/* the end of an MPI call: its time to what it recorded */
static OTF2_CallbackCode ev_leave(OTF2_LocationRef l, OTF2_TimeStamp time,
                                  uint64_t pos, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef reg)
{
    rd_t *d = u;
    loc_t *c = d->cur;
    if (reg >= d->nregion || !d->mpi_region[reg] || --c->depth > 0)
        return OTF2_CALLBACK_SUCCESS;
    mc_rp_stream_t *s = &d->t->s[c->rank];
    uint64_t dur = time > c->enter ? time - c->enter : 0;
    c->last_leave = time;
    if (c->completions) {
        mc_rp_rec_t *r = rec(d);
        if (!r)
            return OTF2_CALLBACK_INTERRUPT;
        r->kind = MC_RP_WAIT;
        r->wait = c->waits++;
    }
    if (s->n == c->first) {
        if (c->coll_begun) { /* MPI_I<coll>: joins its completion */
            c->nb_ns += dur;
            return OTF2_CALLBACK_SUCCESS;
        }
        mc_rp_rec_t *r = rec(d);
        if (!r)
            return OTF2_CALLBACK_INTERRUPT;
        r->kind = MC_RP_SKIP;
        d->t->unreplayable_ns += dur;
    }
    mc_rp_rec_t *f = &s->r[c->first], *e = &s->r[s->n - 1];
    if (s->n - c->first == 2 && f->kind == MC_RP_SEND &&
        e->kind == MC_RP_RECV) { /* MPI_Sendrecv */
        f->kind = MC_RP_SENDRECV;
        f->peer2 = e->peer;
        f->recvd = e->recvd;
        s->n--;
    }
    for (size_t i = c->first; i < s->n; i++)
        if (s->r[i].kind == MC_RP_COLL) {
            s->r[i].dur_ns = dur + c->nb_ns;
            c->nb_ns = 0, dur = 0;
        }
    s->r[s->n - 1].dur_ns += dur;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode p2p(rd_t *d, int kind, uint32_t peer,
                             OTF2_CommRef comm, uint32_t tag, uint64_t len,
                             uint64_t req)
{
    mc_rp_rec_t *r = rec(d);
    int ci = comm_index(d, comm);
    if (!r || ci < 0)
        return OTF2_CALLBACK_INTERRUPT;
    r->kind = (uint8_t)kind;
    r->comm = (uint32_t)ci;
    r->peer = (int32_t)peer;
    r->tag = (int32_t)tag;
    if (kind == MC_RP_RECV)
        r->recvd = len;
    else
        r->sent = len;
    r->req = req;
    r->wait = UINT32_MAX; /* an isend: its wait comes with its completion */
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef l, OTF2_TimeStamp time,
                                 uint64_t pos, void *u, OTF2_AttributeList *a,
                                 uint32_t to, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len)
{
    return p2p(u, MC_RP_SEND, to, c, tag, len, 0);
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef l, OTF2_TimeStamp time,
                                 uint64_t pos, void *u, OTF2_AttributeList *a,
                                 uint32_t from, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len)
{
    return p2p(u, MC_RP_RECV, from, c, tag, len, 0);
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef l, OTF2_TimeStamp time,
                                  uint64_t pos, void *u,
                                  OTF2_AttributeList *a, uint32_t to,
                                  OTF2_CommRef c, uint32_t tag, uint64_t len,
                                  uint64_t req)
{
    return p2p(u, MC_RP_ISEND, to, c, tag, len, req);
}

/* an irecv's post: peer, comm and length come with its completion */
static OTF2_CallbackCode ev_irecv_req(OTF2_LocationRef l,
                                      OTF2_TimeStamp time, uint64_t pos,
                                      void *u, OTF2_AttributeList *a,
                                      uint64_t req)
{
    rd_t *d = u;
    mc_rp_rec_t *r = rec(d);
    if (!r)
        return OTF2_CALLBACK_INTERRUPT;
    r->kind = MC_RP_IRECV;
    r->req = req;
    r->wait = UINT32_MAX;
    return OTF2_CALLBACK_SUCCESS;
}

/* a completion: recorded on the request's own record (the last posted
 * with that id), which the wait ending now completes */
static OTF2_CallbackCode complete(rd_t *d, int kind, uint64_t req,
                                  uint32_t from, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len)
{
    mc_rp_stream_t *s = &d->t->s[d->cur->rank];
    size_t i = s->n;
    while (i-- > 0 && !(s->r[i].kind == kind && s->r[i].req == req))
        ;
    if (i == (size_t)-1) {
        d->err = mc_error(MC_ERR_ARG, "archive '%s': rank %d completes "
                          "request %llu, which it never posted", d->t->path,
                          d->cur->rank, (unsigned long long)req);
        return OTF2_CALLBACK_INTERRUPT;
    }
    mc_rp_rec_t *r = &s->r[i];
    r->wait = d->cur->waits;
    d->cur->completions++;
    if (kind == MC_RP_IRECV) {
        int ci = comm_index(d, comm);
        if (ci < 0)
            return OTF2_CALLBACK_INTERRUPT;
        r->comm = (uint32_t)ci;
        r->peer = (int32_t)from;
        r->tag = (int32_t)tag;
        r->recvd = len;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend_done(OTF2_LocationRef l,
                                       OTF2_TimeStamp time, uint64_t pos,
                                       void *u, OTF2_AttributeList *a,
                                       uint64_t req)
{
    return complete(u, MC_RP_ISEND, req, 0, 0, 0, 0);
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef l, OTF2_TimeStamp time,
                                  uint64_t pos, void *u,
                                  OTF2_AttributeList *a, uint32_t from,
                                  OTF2_CommRef c, uint32_t tag, uint64_t len,
                                  uint64_t req)
{
    return complete(u, MC_RP_IRECV, req, from, c, tag, len);
}

static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef l,
                                       OTF2_TimeStamp time, uint64_t pos,
                                       void *u, OTF2_AttributeList *a)
{
    ((rd_t *)u)->cur->coll_begun++;
    return OTF2_CALLBACK_SUCCESS;
}

/* the manycoll::* attributes of a collective (event pos of its rank); 0
 * if there are none. An attribute the event does not carry is tested
 * for first: asking OTF2 for it would be an error OTF2 prints. */
static int attrs(rd_t *d, OTF2_AttributeList *a, mc_rp_rec_t *r,
                 uint64_t pos)
{
    const char *s[A_N] = {0};
    uint64_t count = 0;
    uint8_t inpl = 0;
    int has = 0;
    for (int i = 0; a && i < A_N; i++) {
        OTF2_Type type;
        OTF2_AttributeValue v;
        if (d->attr[i] == UINT32_MAX ||
            !OTF2_AttributeList_TestAttributeByID(a, d->attr[i]))
            continue;
        if (OTF2_AttributeList_GetAttributeByID(a, d->attr[i], &type, &v) !=
            OTF2_SUCCESS)
            return mc_error(MC_ERR_ARG, "archive '%s': rank %d's event %llu "
                            "(a collective) has an unreadable attribute %u "
                            "(%s)", d->t->path, d->cur->rank,
                            (unsigned long long)pos, d->attr[i],
                            mc_rp_otf2_msg());
        has = 1;
        if (i == A_COUNT)
            count = v.uint64;
        else if (i == A_INPLACE)
            inpl = v.uint8;
        else
            s[i] = mc_rp_str(d, v.stringRef);
    }
    if (!has)
        return 0;
    return mc_rp_read_attrs(d->t, r, s[A_DTYPE], s[A_OP], s[A_VCOUNTS],
                            count > 0 || s[A_DTYPE], count, inpl) == MC_OK
               ? 1
               : -1;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef l, OTF2_TimeStamp time,
                                     uint64_t pos, void *u,
                                     OTF2_AttributeList *a,
                                     OTF2_CollectiveOp op, OTF2_CommRef comm,
                                     uint32_t root, uint64_t sent,
                                     uint64_t recvd)
{
    rd_t *d = u;
    if (d->cur->coll_begun > 0)
        d->cur->coll_begun--;
    if (op > OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK ||
        op == OTF2_COLLECTIVE_OP_ALLTOALLW)
        return OTF2_CALLBACK_SUCCESS; /* handles, windows: not replayed */
    static const int8_t map[] = {
        MC_COLL_BARRIER, MC_COLL_BCAST, MC_COLL_GATHER, MC_COLL_GATHERV,
        MC_COLL_SCATTER, MC_COLL_SCATTERV, MC_COLL_ALLGATHER,
        MC_COLL_ALLGATHERV, MC_COLL_ALLTOALL, MC_COLL_ALLTOALLV, -1,
        MC_COLL_ALLREDUCE, MC_COLL_REDUCE, MC_COLL_REDUCE_SCATTER,
        MC_COLL_SCAN, MC_COLL_EXSCAN, MC_COLL_REDUCE_SCATTER_BLOCK};
    mc_rp_rec_t *r = rec(d);
    int ci = comm_index(d, comm);
    if (!r || ci < 0)
        return OTF2_CALLBACK_INTERRUPT;
    r->kind = MC_RP_COLL;
    r->coll = map[op];
    r->comm = (uint32_t)ci;
    r->root = root == OTF2_UNDEFINED_UINT32 ? -1 : (int32_t)root;
    r->sent = sent;
    r->recvd = recvd;
    r->dtype = -1; /* none yet: fix.c derives it where no attribute says */
    int k = attrs(d, a, r, pos);
    if (k < 0) {
        d->err = MC_ERR_ARG;
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (!k)
        d->t->scorep = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static void evt_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_done);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_req);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, ev_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
}

/* the anchor file: ARCHIVE itself, or DIR/traces.otf2 */
static int anchor(const char *archive, char *path, size_t len)
{
    struct stat st;
    if (!archive || !*archive)
        return mc_error(MC_ERR_ARG, "replay: argument 'archive' is empty");
    if (stat(archive, &st) != 0)
        return mc_error(MC_ERR_ARG, "replay: archive '%s' does not exist",
                        archive);
    if (S_ISDIR(st.st_mode)) {
        snprintf(path, len, "%s/traces.otf2", archive);
        if (stat(path, &st) != 0)
            return mc_error(MC_ERR_ARG, "replay: directory '%s' holds no "
                            "OTF2 anchor file traces.otf2", archive);
    } else {
        snprintf(path, len, "%s", archive);
    }
    return MC_OK;
}

/* OTF2's own error messages: kept (the first of a read, per thread)
 * instead of printed; a read that fails says it with the archive */
static _Thread_local char otf2_msg[240];

static OTF2_ErrorCode otf2_error(void *u, const char *file, uint64_t line,
                                 const char *fn, OTF2_ErrorCode e,
                                 const char *fmt, va_list va)
{
    if (!otf2_msg[0]) {
        int n = snprintf(otf2_msg, sizeof otf2_msg, "OTF2 says: %s: ",
                         OTF2_Error_GetDescription(e));
        if (n > 0 && (size_t)n < sizeof otf2_msg)
            vsnprintf(otf2_msg + n, sizeof otf2_msg - (size_t)n, fmt, va);
    }
    return e;
}

const char *mc_rp_otf2_msg(void)
{
    return otf2_msg[0] ? otf2_msg : "OTF2 said nothing more";
}

int mc_rp_have_otf2(void)
{
    return 1;
}

static int fail(rd_t *d, const char *what, OTF2_ErrorCode e)
{
    return d->err ? d->err
                  : mc_error(MC_ERR_ARG, "replay: archive '%s' is not a "
                             "readable OTF2 archive (%s: %s; %s)",
                             d->t->path, what, OTF2_Error_GetDescription(e),
                             mc_rp_otf2_msg());
}

/* every location's local definitions (its IdMap), then its events */
static int read_locations(rd_t *d, OTF2_Reader *rd)
{
    OTF2_ErrorCode e;
    for (int i = 0; i < d->nloc; i++)
        OTF2_Reader_SelectLocation(rd, d->loc[i].id);
    if ((e = OTF2_Reader_OpenDefFiles(rd)) != OTF2_SUCCESS ||
        (e = OTF2_Reader_OpenEvtFiles(rd)) != OTF2_SUCCESS)
        return fail(d, "opening the location files", e);
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    evt_callbacks(cb);
    for (int i = 0; i < d->nloc && !d->err; i++) {
        uint64_t n;
        if (d->loc[i].rank < 0)
            continue; /* not an MPI rank (a thread, a device) */
        char def[1100];
        snprintf(def, sizeof def, "%.*s/%llu.def",
                 (int)strlen(d->t->path) - 5, d->t->path,
                 (unsigned long long)d->loc[i].id);
        struct stat st; /* local definitions: only where there are some */
        OTF2_DefReader *dr = stat(def, &st) == 0
                                 ? OTF2_Reader_GetDefReader(rd, d->loc[i].id)
                                 : NULL;
        if (dr) {
            OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
            OTF2_Reader_CloseDefReader(rd, dr);
        }
        OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, d->loc[i].id);
        if (!er) {
            e = OTF2_ERROR_INVALID_ARGUMENT;
            break;
        }
        d->cur = &d->loc[i];
        OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, d);
        e = OTF2_Reader_ReadAllLocalEvents(rd, er, &n);
        OTF2_Reader_CloseEvtReader(rd, er);
        if (e != OTF2_SUCCESS && !d->err)
            break;
        e = OTF2_SUCCESS;
    }
    OTF2_EvtReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseDefFiles(rd);
    OTF2_Reader_CloseEvtFiles(rd);
    return d->err || e != OTF2_SUCCESS ? fail(d, "reading events", e) : MC_OK;
}

static int read_all(rd_t *d, OTF2_Reader *rd)
{
    OTF2_ErrorCode e = OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    OTF2_GlobalDefReader *gr = OTF2_Reader_GetGlobalDefReader(rd);
    if (e != OTF2_SUCCESS || !gr)
        return fail(d, "its global definitions", e);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    mc_rp_def_callbacks(cb);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gr, cb, d);
    uint64_t n;
    e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalDefReader(rd, gr);
    if (e != OTF2_SUCCESS || d->err)
        return fail(d, "its global definitions", e);
    MC_CHECK(mc_rp_resolve_comms(d));
    d->t->s = calloc((size_t)d->t->ranks, sizeof *d->t->s);
    if (!d->t->s)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    return read_locations(d, rd);
}

int mc_rp_read(const char *archive, mc_rp_trace_t **out)
{
    if (!out)
        return mc_error(MC_ERR_ARG, "mc_rp_read: argument 't' is NULL");
    *out = NULL;
    if (mc_rp_is_ti(archive))
        return mc_rp_read_ti(archive, out);
    mc_rp_trace_t *t = calloc(1, sizeof *t);
    if (!t)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    int rc = anchor(archive, t->path, sizeof t->path);
    rd_t d = {.t = t, .locs_group = -1};
    memset(d.attr, 0xff, sizeof d.attr);
    otf2_msg[0] = 0;
    OTF2_ErrorCallback prev = OTF2_Error_RegisterCallback(otf2_error, NULL);
    OTF2_Reader *rd = rc == MC_OK ? OTF2_Reader_Open(t->path) : NULL;
    if (rc == MC_OK && !rd)
        rc = mc_error(MC_ERR_ARG, "replay: archive '%s' is not an OTF2 "
                      "archive (OTF2 cannot open it; %s)", t->path,
                      mc_rp_otf2_msg());
    if (rd) {
        rc = read_all(&d, rd);
        OTF2_Reader_Close(rd);
    }
    OTF2_Error_RegisterCallback(prev, NULL);
    for (uint32_t i = 0; i < d.nstr; i++)
        free(d.str[i]);
    free(d.str);
    free(d.mpi_region);
    for (int i = 0; i < d.ng; i++)
        free(d.g[i].m);
    free(d.g);
    free(d.loc);
    return mc_rp_done(t, rc, out);
}
