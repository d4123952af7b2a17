/*
 * The recording of a C API program (MC_TRACE=DIR; api/trace.h says what
 * each call writes). One buffer of MC_TR_BUF bytes per process, written
 * to the rank's log with one write() when full and at mc_finalize; the
 * hot path of an untraced blocking call reads its comm's `traced` and
 * nothing else (`make icount-check` holds it to that).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/comm.h"
#include "api/trace.h"
#include "util/colls.h"
#include "util/config.h"
#include "util/error.h"
#include "util/tick.h"

#define MC_TR_BUF (1u << 20)

int mc_trace_on;
int mc_trace_tsc;
_Thread_local __attribute__((tls_model("initial-exec"))) int mc_trace_held;

static struct {
    int fd;
    unsigned char *buf;
    size_t used;
    int err;              /* errno of a failed write: the tail is lost */
    uint32_t next_comm;   /* the id of the next new comm */
    uint64_t next_req;    /* the id of the next request start */
    int **members;        /* comm id -> its members in world ranks */
    int *nmembers;
    size_t cap;
    uint64_t *done;       /* ids completed in the wait being recorded */
    size_t ndone, capdone;
} tr = {.fd = -1};

void mc_trace_hold(int on)
{
    mc_trace_held += on ? 1 : -1;
}

static void spill(void)
{
    size_t at = 0;
    while (!tr.err && at < tr.used) {
        ssize_t k = write(tr.fd, tr.buf + at, tr.used - at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            tr.err = k < 0 ? errno : EIO;
        else
            at += (size_t)k;
    }
    tr.used = 0;
}

/* a record with n words after it, written in place */
/* room for a record and its n words at the buffer's end (NULL: lost);
 * the caller writes every field (describe, or blank) */
static inline mc_trec_t *put(uint32_t n, uint64_t **words)
{
    size_t len = sizeof(mc_trec_t) + (size_t)n * 8;
    if (__builtin_expect(tr.used + len > MC_TR_BUF, 0))
        spill();
    if (len > MC_TR_BUF) { /* v-counts of over 130,000 ranks: lost */
        tr.err = tr.err ? tr.err : EFBIG;
        return NULL;
    }
    mc_trec_t *r = (mc_trec_t *)(tr.buf + tr.used);
    *words = (uint64_t *)(r + 1);
    tr.used += len;
    return r;
}

/* a record of kind with n words, its other fields zero */
static mc_trec_t *blank(uint32_t kind, uint32_t n, uint64_t **words)
{
    mc_trec_t *r = put(n, words);
    if (r)
        *r = (mc_trec_t){.kind = (uint8_t)kind, .n = n, .root = -1};
    return r;
}

static int keep_members(uint32_t id, int *m, int n)
{
    if (id >= tr.cap) {
        size_t cap = tr.cap ? 2 * tr.cap : 16;
        while (cap <= id)
            cap *= 2;
        int **a = realloc(tr.members, cap * sizeof *a);
        if (a)
            tr.members = a;
        int *b = a ? realloc(tr.nmembers, cap * sizeof *b) : NULL;
        if (!b)
            return -1;
        tr.nmembers = b;
        memset(a + tr.cap, 0, (cap - tr.cap) * sizeof *a);
        tr.cap = cap;
    }
    tr.members[id] = m;
    tr.nmembers[id] = n;
    return 0;
}

int mc_trace_open(int rank, int size)
{
    const char *dir = mc_env("MC_TRACE");
    if (!*dir)
        return MC_OK;
    char path[4096];
    snprintf(path, sizeof path, "%s/manycoll.%d.mctrace", dir, rank);
    int *world = malloc(sizeof(int) * (size_t)size);
    tr.buf = malloc(MC_TR_BUF);
    tr.fd = world && tr.buf ? open(path, O_WRONLY | O_CREAT | O_TRUNC |
                                             O_CLOEXEC, 0644)
                            : -1;
    if (tr.fd < 0 || keep_members(1, world, size)) {
        int e = tr.fd < 0 ? errno : ENOMEM;
        if (tr.fd >= 0) {
            close(tr.fd);
            unlink(path);
            tr.fd = -1;
        }
        free(world);
        free(tr.buf);
        tr.buf = NULL;
        return mc_error(MC_ERR_ARG, "mc_init: MC_TRACE=%s: cannot create "
                        "'%s' (%s)", dir, path, strerror(e));
    }
    for (int i = 0; i < size; i++)
        world[i] = i;
    mc_trhead_t *h = (mc_trhead_t *)tr.buf;
    memset(h, 0, sizeof *h);
    memcpy(h->magic, MC_TR_MAGIC, sizeof h->magic);
    h->rank = rank;
    h->size = size;
    mc_trace_tsc = h->tsc = mc_tsc_usable("MC_TRACE_TSC");
    mc_tick_pair(mc_trace_tsc, &h->tick0, &h->ns0);
    tr.used = sizeof *h;
    static int registered; /* a program that exits without mc_finalize */
    if (!registered)
        registered = atexit(mc_trace_close) == 0;
    tr.next_comm = 2;
    tr.next_req = 1;
    mc_trace_on = 1;
    return MC_OK;
}

void mc_trace_close(void)
{
    if (!mc_trace_on)
        return;
    mc_trace_on = 0;
    spill();
    uint64_t pair[2]; /* the header's tick1, ns1 */
    mc_tick_pair(mc_trace_tsc, &pair[0], &pair[1]);
    if (!tr.err &&
        pwrite(tr.fd, pair, sizeof pair, offsetof(mc_trhead_t, tick1)) !=
            (ssize_t)sizeof pair)
        tr.err = errno ? errno : EIO;
    if (tr.err)
        fprintf(stderr, "manycoll: MC_TRACE: the log lost records (%s)\n",
                strerror(tr.err));
    close(tr.fd);
    tr.fd = -1;
    free(tr.buf);
    tr.buf = NULL;
    for (size_t i = 0; i < tr.cap; i++)
        free(tr.members[i]);
    free(tr.members);
    free(tr.nmembers);
    free(tr.done);
    tr.members = NULL;
    tr.nmembers = NULL;
    tr.done = NULL;
    tr.cap = tr.capdone = tr.ndone = 0;
}

/* the comm a call is recorded on: a persistent request's context stands
 * for its communicator */
/* the v-counts of a v-collective, as the contract writes them: the
 * receive counts of allgatherv and of a gatherv's root, the send counts
 * of a scatterv's root and of alltoallv, reduce_scatter's counts */
static const size_t *vcounts(const mc_args_t *a)
{
    switch (a->coll) {
    case MC_COLL_ALLGATHERV: case MC_COLL_GATHERV:
    case MC_COLL_REDUCE_SCATTER:
        return a->rcounts;
    case MC_COLL_SCATTERV: case MC_COLL_ALLTOALLV:
        return a->scounts;
    default:
        return NULL;
    }
}

/* every field of a call's record, times 0, as the call's arguments give
 * them (stored one by one: a compound literal zeroes the record first) */
static inline __attribute__((always_inline)) void
fields(mc_trec_t *r, uint32_t kind, uint32_t n, int form,
       const mc_comm_t *c, const mc_args_t *a)
{
    r->kind = (uint8_t)kind;
    r->coll = (uint8_t)a->coll;
    r->form = (uint8_t)form;
    r->in_place = (uint8_t)(a->in_place != 0);
    r->dt = (int32_t)a->dt;
    r->op = (int32_t)a->op;
    r->comm = mc_trace_comm_id(c);
    r->root = mc_colls[a->coll].props & MC_COLL_ROOTED ? a->root : -1;
    r->n = n;
    r->count = a->count;
    r->t0 = r->t1 = r->id = 0;
}

/* fields(), then what a v-collective's record has besides: its own
 * block's count, and its v-counts after the record */
static inline __attribute__((always_inline)) void
describe(mc_trec_t *r, uint64_t *w, uint32_t kind, uint32_t n,
                     int form, const mc_comm_t *c, const mc_args_t *a,
                     const size_t *v)
{
    fields(r, kind, n, form, c, a);
    if (__builtin_expect(!a->count && a->bytes, 0)) /* a v-call's block */
        r->count = a->bytes / a->dsize;
    if (a->coll == MC_COLL_ALLTOALLV) /* the contract: its sends' sum */
        for (int q = r->count = 0; q < c->team.size; q++)
            r->count += a->scounts[q];
    uint32_t p = (uint32_t)c->team.size;
    for (uint32_t i = 0; v && i < n; i++) /* alltoallv: then rcounts */
        w[i] = i < p ? v[i] : a->rcounts[i - p];
}

/* the words after a call's record: its v-counts */
static uint32_t nwords(const mc_comm_t *c, const mc_args_t *a,
                       const size_t *v)
{
    if (!v)
        return 0;
    return (uint32_t)c->team.size * (a->coll == MC_COLL_ALLTOALLV ? 2 : 1);
}

/* a recorded call with v-counts, or with a log to spill first */
static __attribute__((noinline)) void end_rare(mc_comm_t *c, int prep,
                                               const mc_args_t *a,
                                               uint64_t t0, uint64_t t1)
{
    const size_t *v = prep == MC_OK ? vcounts(a) : NULL;
    uint64_t *w;
    uint32_t n = nwords(c, a, v);
    mc_trec_t *r = put(n, &w);
    if (r) {
        describe(r, w, MC_TR_COLL, n, MC_TR_BLOCKING, c, a, v);
        r->t0 = t0;
        r->t1 = t1;
    }
}

/* The common case in place: a call with a count and no v-counts, into a
 * log with room (no spill, no words after the record) */
void mc_trace_end(mc_comm_t *c, int prep, const mc_args_t *a, uint64_t t0)
{
    uint64_t t1 = mc_trace_now();
    mc_trace_held--;
    unsigned props = mc_colls[a->coll].props;
    if (__builtin_expect((props & MC_COLL_VECTOR) || (!a->count && a->bytes) ||
                             tr.used + sizeof(mc_trec_t) > MC_TR_BUF,
                         0)) {
        end_rare(c, prep, a, t0, t1);
        return;
    }
    mc_trec_t *r = (mc_trec_t *)(tr.buf + tr.used);
    tr.used += sizeof *r;
    fields(r, MC_TR_COLL, 0, MC_TR_BLOCKING, c, a);
    r->t0 = t0;
    r->t1 = t1;
}

uint64_t mc_trace_start(mc_comm_t *c, const mc_args_t *a, int form,
                        uint64_t t0)
{
    if (mc_trace_held || !mc_trace_comm_id(c))
        return 0;
    const mc_comm_t *u = c->ctx_parent ? c->ctx_parent : c;
    const size_t *v = vcounts(a);
    uint64_t *w;
    int init = form == 2;
    uint32_t n = init ? 0 : nwords(u, a, v);
    mc_trec_t *r = put(n, &w);
    if (!r)
        return 0;
    describe(r, w, init ? MC_TR_INIT : MC_TR_START, n,
             form == 0 ? MC_TR_NB : MC_TR_PERSISTENT, c, a, init ? NULL : v);
    r->t0 = t0;
    r->t1 = mc_trace_now();
    r->id = init ? 0 : tr.next_req++;
    return r->id;
}

void mc_trace_done(uint64_t id)
{
    if (!id || tr.ndone == SIZE_MAX / 16)
        return;
    if (tr.ndone == tr.capdone) {
        size_t cap = tr.capdone ? 2 * tr.capdone : 16;
        uint64_t *d = realloc(tr.done, cap * sizeof *d);
        if (!d) {
            tr.err = ENOMEM;
            return;
        }
        tr.done = d;
        tr.capdone = cap;
    }
    tr.done[tr.ndone++] = id;
}

int mc_trace_wait_begin(void)
{
    if (mc_trace_held)
        return 0;
    mc_trace_held++;
    tr.ndone = 0;
    return 1;
}

void mc_trace_wait_end(int which, uint64_t t0)
{
    mc_trace_held--;
    if (!tr.ndone && which == MC_TRW_TEST)
        return;
    uint64_t *w;
    mc_trec_t *r = blank(MC_TR_WAIT, (uint32_t)tr.ndone, &w);
    if (!r)
        return;
    r->coll = (uint8_t)which;
    r->t0 = t0;
    r->t1 = mc_trace_now();
    memcpy(w, tr.done, tr.ndone * sizeof *w);
    tr.ndone = 0;
}

void mc_trace_comm(mc_comm_t *parent, mc_comm_t *c, const int *members,
                   int how)
{
    uint32_t pid = parent->trace_id;
    if (mc_trace_held || !pid || pid >= tr.cap || !tr.members[pid])
        return;
    int n = c->team.size, *m = malloc(sizeof(int) * (size_t)n);
    uint32_t id = tr.next_comm;
    uint64_t *w;
    mc_trec_t *r = m ? blank(MC_TR_COMM, (uint32_t)n, &w) : NULL;
    if (!r || keep_members(id, m, n)) {
        free(m);
        return;
    }
    for (int i = 0; i < n; i++) {
        m[i] = tr.members[pid][members ? members[i] : i];
        w[i] = (uint64_t)m[i];
    }
    tr.next_comm++;
    c->trace_id = id;
    c->traced = 1;
    r->comm = id;
    r->id = pid;
    r->form = (uint8_t)how;
    r->t0 = r->t1 = mc_trace_now();
}
