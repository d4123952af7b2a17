/*
 * The recording's event log: what a call costs while the program runs.
 *
 * OTF2's event writer costs about 1,250 instructions for the four events
 * and six attributes of one collective (most of it the attribute list's
 * encoding): more than the 8-byte allreduce it records. So a call does
 * not write OTF2 while the program runs; it appends one fixed-size record
 * (mcm_traw_t, mcm_tev_t or mcm_tevc_t: 48, 40 or 88 bytes) to a per-rank
 * buffer of MCM_TR_LOG bytes. A full buffer is written with one write() to an
 * unnamed file in DIR (created and unlinked at MPI_Init, so a crash
 * leaves nothing behind). At MPI_Finalize the log is read back and each
 * record becomes its OTF2 events, in order, through the same writer:
 *
 *   MCM_E_RAW         a blocking collective of the hot path (48 bytes,
 *                     trace_raw.c): described now (mcm_tr_raw_coll),
 *                     then as MCM_E_COLL
 *   MCM_E_COLL        a blocking collective: Enter t0, MpiCollectiveBegin
 *                     t0, MpiCollectiveEnd t1 with the manycoll::*
 *                     attributes, Leave t1
 *   MCM_E_CEND        a non-blocking or persistent collective's end
 *   MCM_E_ENTER ...   one OTF2 event each
 *
 * with its times turned from ticks into ns (mcm_tr_ns: the TSC where it
 * can stand for the clock, trace_impl.h).
 *
 * Memory stays one buffer per rank; the disk holds the log until
 * MPI_Finalize (about the size of the archive). The time OTF2 takes moves
 * to MPI_Finalize (docs/benchmarks.md says how much).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/trace.h"

#if MCM_HAVE_OTF2
#include "mpi/trace_impl.h"

int mcm_tr_log_open(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/.manycoll-log-XXXXXX", dir);
    mcm_tr.log = malloc(MCM_TR_LOG);
    /* its pages faulted in now, not one in every 85 recorded calls */
    if (mcm_tr.log)
        memset(mcm_tr.log, 0, MCM_TR_LOG);
    mcm_tr.fd = mcm_tr.log ? mkstemp(path) : -1;
    if (mcm_tr.fd < 0)
        return -1;
    unlink(path);
    return 0;
}

/* writes n bytes of b to the log's file; 0, or -1 (errno) */
static int put(const unsigned char *b, size_t n)
{
    while (n) {
        ssize_t k = write(mcm_tr.fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

void mcm_tr_log_spill(void)
{
    if (!mcm_tr.log_err && put(mcm_tr.log, mcm_tr.lused))
        mcm_tr.log_err = errno ? errno : EIO;
    mcm_tr.lused = 0;
}

/* ---- at MPI_Finalize: the log into OTF2 events ---- */

/* a call of region r entered or left at t: for the definitions (the
 * regions used, the clock's range) */
static void seen(uint32_t r, uint64_t t)
{
    if (r < MCM_R_COUNT)
        mcm_tr.regions[r / 64] |= 1ull << (r % 64);
    if (!mcm_tr.first)
        mcm_tr.first = t;
    mcm_tr.last = t;
}

static void coll_end(const mcm_tcoll_t *c, uint64_t t)
{
    OTF2_AttributeList *al = mcm_tr.al; /* OTF2 empties it at each event */
    OTF2_AttributeList_AddUint64(al, MCM_A_COUNT, c->count);
    OTF2_AttributeList_AddStringRef(al, MCM_A_DATATYPE, c->dtype);
    OTF2_AttributeList_AddStringRef(al, MCM_A_OP, c->op);
    if (c->has_vcounts)
        OTF2_AttributeList_AddStringRef(al, MCM_A_VCOUNTS, c->vcounts);
    OTF2_AttributeList_AddUint8(al, MCM_A_IN_PLACE, c->in_place);
    OTF2_AttributeList_AddStringRef(al, MCM_A_PATH, c->path);
    OTF2_EvtWriter_MpiCollectiveEnd(mcm_tr.ev, al, t,
                                    (OTF2_CollectiveOp)c->op_otf2, c->comm,
                                    c->root, c->sent, c->recvd);
}

static void write_coll(const mcm_tevc_t *e)
{
    OTF2_EvtWriter *w = mcm_tr.ev;
    if (e->kind == MCM_E_CEND) {
        coll_end(&e->c, e->t1);
        return;
    }
    seen(e->c.region, e->t0);
    seen(e->c.region, e->t1);
    OTF2_EvtWriter_Enter(w, NULL, e->t0, e->c.region);
    OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, e->t0);
    coll_end(&e->c, e->t1);
    OTF2_EvtWriter_Leave(w, NULL, e->t1, e->c.region);
}

static void write_one(const mcm_tev_t *e)
{
    OTF2_EvtWriter *w = mcm_tr.ev;
    if (e->kind == MCM_E_ENTER || e->kind == MCM_E_LEAVE)
        seen(e->peer, e->t);
    switch (e->kind) {
    case MCM_E_ENTER: OTF2_EvtWriter_Enter(w, NULL, e->t, e->peer); break;
    case MCM_E_LEAVE: OTF2_EvtWriter_Leave(w, NULL, e->t, e->peer); break;
    case MCM_E_CBEGIN: OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, e->t);
        break;
    case MCM_E_SEND:
        OTF2_EvtWriter_MpiSend(w, NULL, e->t, e->peer, e->comm, e->tag,
                               e->len);
        break;
    case MCM_E_RECV:
        OTF2_EvtWriter_MpiRecv(w, NULL, e->t, e->peer, e->comm, e->tag,
                               e->len);
        break;
    case MCM_E_ISEND:
        OTF2_EvtWriter_MpiIsend(w, NULL, e->t, e->peer, e->comm, e->tag,
                                e->len, e->id);
        break;
    case MCM_E_IRECV_REQ:
        OTF2_EvtWriter_MpiIrecvRequest(w, NULL, e->t, e->id);
        break;
    case MCM_E_ISEND_DONE:
        OTF2_EvtWriter_MpiIsendComplete(w, NULL, e->t, e->id);
        break;
    case MCM_E_IRECV:
        OTF2_EvtWriter_MpiIrecv(w, NULL, e->t, e->peer, e->comm, e->tag,
                                e->len, e->id);
        break;
    }
}

/* a raw record: the blocking collective it stands for */
static void write_raw(const unsigned char *b)
{
    mcm_traw_t r;
    memcpy(&r, b, sizeof r);
    mcm_tevc_t e = {.kind = MCM_E_COLL, .t0 = mcm_tr_ns(r.t0),
                    .t1 = mcm_tr_ns(r.t1)};
    mcm_tr_raw_coll(&r, &e.c);
    write_coll(&e);
}

static size_t record_len(uint32_t kind)
{
    if (kind == MCM_E_RAW)
        return sizeof(mcm_traw_t);
    if (kind == MCM_E_COLL || kind == MCM_E_CEND)
        return sizeof(mcm_tevc_t);
    return sizeof(mcm_tev_t);
}

/* the records of b[0..n), whole ones; the bytes used */
static size_t write_records(const unsigned char *b, size_t n)
{
    size_t at = 0;
    while (n - at >= sizeof(uint32_t)) {
        uint32_t kind;
        memcpy(&kind, b + at, sizeof kind);
        int coll = kind == MCM_E_COLL || kind == MCM_E_CEND;
        size_t len = record_len(kind);
        if (n - at < len)
            break;
        if (kind == MCM_E_RAW) {
            write_raw(b + at);
        } else if (coll) {
            mcm_tevc_t e;
            memcpy(&e, b + at, sizeof e);
            e.t0 = mcm_tr_ns(e.t0);
            e.t1 = mcm_tr_ns(e.t1);
            write_coll(&e);
        } else {
            mcm_tev_t e;
            memcpy(&e, b + at, sizeof e);
            e.t = mcm_tr_ns(e.t);
            write_one(&e);
        }
        at += len;
    }
    return at;
}

int mcm_tr_log_write(void)
{
    mcm_tr_log_spill(); /* the tail too: the file has every record */
    int err = mcm_tr.log_err;
    size_t have = 0;
    if (!err && lseek(mcm_tr.fd, 0, SEEK_SET) != 0)
        err = errno;
    while (!err) {
        ssize_t k = read(mcm_tr.fd, mcm_tr.log + have, MCM_TR_LOG - have);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            err = k < 0 ? errno : 0;
            break;
        }
        have += (size_t)k;
        size_t used = write_records(mcm_tr.log, have);
        memmove(mcm_tr.log, mcm_tr.log + used, have - used);
        have -= used;
    }
    close(mcm_tr.fd);
    mcm_tr.fd = -1;
    free(mcm_tr.log);
    mcm_tr.log = NULL;
    return err;
}

#endif /* MCM_HAVE_OTF2 */
