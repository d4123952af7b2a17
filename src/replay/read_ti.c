/*
 * SimGrid's time-independent traces (smpirun -trace-ti) into the replay's
 * streams (replay.h), beside OTF2 (read.c). A trace is either one file of
 * actions for every rank, or a file naming one action file per rank (in
 * rank order, paths relative to that file's directory or as written).
 * A line is "RANK ACTION ARGS...", sizes in elements of a datatype:
 *
 *   init [x] / finalize / comm_size / comm_split / comm_dup / location
 *                         nothing replayed (SimGrid's replay runs every
 *                         collective on MPI_COMM_WORLD, as here)
 *   compute FLOPS         computation: 1 ns per flop (1 Gflop/s), times
 *                         --compute-scale like every computation
 *   sleep SECONDS         computation
 *   send|recv|isend|irecv PEER TAG SIZE [DT]
 *   wait SRC DST TAG      completes the request of this rank with that
 *   test SRC DST TAG      source, destination and tag (a test as a wait)
 *                         SimGrid before tags (3.1x; old_format): PEER
 *                         SIZE [DT] with tag 0, and a bare wait or test
 *                         completes the request posted last; its names
 *                         in camel case (Isend, allReduce, waitAll)
 *   waitall               completes every pending request
 *   barrier
 *   bcast SIZE [ROOT [DT]]
 *   reduce SIZE FLOPS [ROOT [DT]]  allreduce SIZE FLOPS [DT]
 *                         (the FLOPS are computation after the call)
 *   alltoall SSIZE RSIZE [DT DT]  allgather SSIZE RSIZE [DT DT]
 *   gather|scatter SSIZE RSIZE [ROOT [DT DT]]
 *   gatherv SSIZE RCOUNTS(P) [ROOT [DT DT]]  allgatherv SSIZE RCOUNTS(P)
 *   scatterv SCOUNTS(P) RSIZE [ROOT [DT DT]]
 *   reducescatter RCOUNTS(P) FLOPS [DT]
 *   alltoallv SBUF SCOUNTS(P) RBUF RCOUNTS(P) [DT DT]
 *
 * DT is SimGrid's datatype id (0 double, 1 int, 2 char, ... 24 uint64_t);
 * without one, bytes (MPI_BYTE, as SimGrid's replay takes them unless
 * "init" has an argument, then double). A collective's bytes become its
 * record's sent and received bytes, and fix.c's rule for archives
 * without counts makes the call (replay.h, fix.c): a reduction of
 * float64 where the bytes allow. A trace has no times: every recorded
 * time in the report is 0.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "util/error.h"

#define TI_ARGS 4100 /* tokens of a line: the v-collectives' counts */

/* bytes of SimGrid's predefined datatype ids 0-24 (smpi_datatype.cpp) */
static const unsigned char ti_size[] = {8, 4, 1, 2, 8, 4, 1, 8, 1, 1, 2, 4, 8,
                                        8, 16, 4, 1, 1, 2, 4, 8, 1, 2, 4, 8};

typedef struct ti {
    mc_rp_trace_t *t;
    const char *file;   /* for errors */
    long line;
    int dflt;           /* default element bytes: 1, or 8 after "init x" */
    int old;            /* SimGrid before tags (old_format) */
    char *tok[TI_ARGS];
    int n;              /* tokens of the line, the rank and action first */
    uint32_t *waits;    /* per rank: waits so far */
} ti_t;

static int bad(ti_t *x, const char *what)
{
    return mc_error(MC_ERR_ARG, "trace '%s' line %ld: %s", x->file, x->line,
                    what);
}

/* token i as a non-negative number (sizes are written as doubles) */
static int num(ti_t *x, int i, double *v)
{
    char *end;
    if (i >= x->n)
        return bad(x, "too few arguments");
    errno = 0;
    *v = strtod(x->tok[i], &end);
    if (end == x->tok[i] || *end || errno || !(*v >= 0) || *v > 1e18)
        return bad(x, "an argument is not a number >= 0");
    return MC_OK;
}

static int inum(ti_t *x, int i, int *v)
{
    double d;
    MC_CHECK(num(x, i, &d));
    *v = (int)d;
    return MC_OK;
}

/* element bytes of the datatype at token i, or the default */
static int dsize(ti_t *x, int i, uint64_t *b)
{
    if (i >= x->n) {
        *b = (uint64_t)x->dflt;
        return MC_OK;
    }
    int id;
    MC_CHECK(inum(x, i, &id));
    if (id >= (int)sizeof ti_size)
        return bad(x, "a datatype id SimGrid does not predefine (0-24)");
    *b = ti_size[id];
    return MC_OK;
}

static mc_rp_rec_t *push(ti_t *x, int rank, int kind)
{
    mc_rp_rec_t *r = mc_rp_push(&x->t->s[rank]);
    if (r) {
        r->kind = (uint8_t)kind;
        r->comm = (uint32_t)x->t->world;
    }
    return r;
}

#define PUSH(r, x, rank, kind)                                              \
    do {                                                                    \
        if (!((r) = push(x, rank, kind)))                                   \
            return mc_error(MC_ERR_NOMEM, "replay: out of memory");         \
    } while (0)

static int compute(ti_t *x, int rank, double ns)
{
    mc_rp_rec_t *r;
    if (ns <= 0)
        return MC_OK;
    PUSH(r, x, rank, MC_RP_COMPUTE);
    r->dur_ns = (uint64_t)(ns + 0.5);
    return MC_OK;
}

/* send, recv, isend, irecv: PEER TAG SIZE [DT]; before tags PEER SIZE
 * [DT], tag 0 */
static int p2p(ti_t *x, int rank, int kind)
{
    int peer, tag = 0, o = x->old;
    double size;
    uint64_t b;
    MC_CHECK(inum(x, 2, &peer));
    if (!o)
        MC_CHECK(inum(x, 3, &tag));
    MC_CHECK(num(x, 4 - o, &size));
    MC_CHECK(dsize(x, 5 - o, &b));
    mc_rp_rec_t *r;
    PUSH(r, x, rank, kind);
    r->peer = peer;
    r->tag = tag;
    if (kind == MC_RP_RECV || kind == MC_RP_IRECV)
        r->recvd = (uint64_t)size * b;
    else
        r->sent = (uint64_t)size * b;
    r->wait = UINT32_MAX;
    return MC_OK;
}

/* wait, test SRC DST TAG (before tags: the request posted last); waitall
 * (all = 1) */
static int wait(ti_t *x, int rank, int all)
{
    int src = 0, dst = 0, tag = 0, hit = 0, last = x->old && !all;
    if (!all && !last) {
        MC_CHECK(inum(x, 2, &src));
        MC_CHECK(inum(x, 3, &dst));
        MC_CHECK(inum(x, 4, &tag));
    }
    mc_rp_stream_t *s = &x->t->s[rank];
    uint32_t w = x->waits[rank];
    for (size_t i = s->n; i-- > 0;) {
        mc_rp_rec_t *q = &s->r[i];
        if ((q->kind != MC_RP_ISEND && q->kind != MC_RP_IRECV) ||
            q->wait != UINT32_MAX)
            continue;
        int qs = q->kind == MC_RP_ISEND ? rank : q->peer;
        int qd = q->kind == MC_RP_ISEND ? q->peer : rank;
        if (all || last || (qs == src && qd == dst && q->tag == tag)) {
            q->wait = w;
            hit = 1;
            if (!all)
                break;
        }
    }
    if (!hit) /* SimGrid: a test completed it before, or nothing pending */
        return MC_OK;
    mc_rp_rec_t *r;
    PUSH(r, x, rank, MC_RP_WAIT);
    r->wait = w;
    x->waits[rank]++;
    return MC_OK;
}

/* v-counts at tokens [i, i + P): their sum, in elements */
static int vsum(ti_t *x, int i, double *sum)
{
    int p = x->t->ranks;
    *sum = 0;
    for (int k = 0; k < p; k++) {
        double v;
        MC_CHECK(num(x, i + k, &v));
        *sum += v;
    }
    return MC_OK;
}

static mc_rp_rec_t *coll(ti_t *x, int rank, mc_coll_t c, int root,
                         double sent, double recvd)
{
    mc_rp_rec_t *r = push(x, rank, MC_RP_COLL);
    if (r) {
        r->coll = (int8_t)c;
        r->root = root;
        r->dtype = -1; /* counts from the bytes (fix.c) */
        r->sent = (uint64_t)sent;
        r->recvd = (uint64_t)recvd;
    }
    return r;
}

#define COLL(x, rank, c, root, sent, recvd)                                 \
    do {                                                                    \
        if (!coll(x, rank, c, root, sent, recvd))                           \
            return mc_error(MC_ERR_NOMEM, "replay: out of memory");         \
    } while (0)

/* the rooted and unrooted collectives of fixed sizes */
static int coll_fixed(ti_t *x, int rank, const char *a)
{
    int P = x->t->ranks, root = 0;
    double s, r = 0, flops = 0;
    uint64_t b, b2;
    if (!strcmp(a, "bcast")) {
        MC_CHECK(num(x, 2, &s));
        if (x->n > 3)
            MC_CHECK(inum(x, 3, &root));
        MC_CHECK(dsize(x, 4, &b));
        COLL(x, rank, MC_COLL_BCAST, root, rank == root ? s * b : 0,
             rank == root ? 0 : s * b);
        return MC_OK;
    }
    if (!strcmp(a, "reduce") || !strcmp(a, "allreduce")) {
        int red = a[0] == 'r';
        MC_CHECK(num(x, 2, &s));
        MC_CHECK(num(x, 3, &flops));
        if (red && x->n > 4)
            MC_CHECK(inum(x, 4, &root));
        MC_CHECK(dsize(x, red ? 5 : 4, &b));
        COLL(x, rank, red ? MC_COLL_REDUCE : MC_COLL_ALLREDUCE,
             red ? root : -1, s * b, s * b);
        return compute(x, rank, flops);
    }
    int rooted = !strcmp(a, "gather") || !strcmp(a, "scatter");
    MC_CHECK(num(x, 2, &s));
    MC_CHECK(num(x, 3, &r));
    if (rooted && x->n > 4)
        MC_CHECK(inum(x, 4, &root));
    MC_CHECK(dsize(x, rooted ? 5 : 4, &b));
    MC_CHECK(dsize(x, rooted ? 6 : 5, &b2));
    if (!strcmp(a, "alltoall"))
        COLL(x, rank, MC_COLL_ALLTOALL, -1, s * b * P, r * b2 * P);
    else if (!strcmp(a, "allgather"))
        COLL(x, rank, MC_COLL_ALLGATHER, -1, s * b, r * b2 * P);
    else if (!strcmp(a, "gather"))
        COLL(x, rank, MC_COLL_GATHER, root, s * b,
             rank == root ? r * b2 * P : 0);
    else
        COLL(x, rank, MC_COLL_SCATTER, root, rank == root ? s * b * P : 0,
             r * b2);
    return MC_OK;
}

/* the v-collectives: P counts in the line */
static int coll_v(ti_t *x, int rank, const char *a)
{
    int P = x->t->ranks, root = 0;
    double s, r, sum, sum2, flops;
    uint64_t b;
    if (!strcmp(a, "gatherv") || !strcmp(a, "allgatherv")) {
        int g = a[0] == 'g';
        MC_CHECK(num(x, 2, &s));
        MC_CHECK(vsum(x, 3, &sum));
        if (g && x->n > 3 + P)
            MC_CHECK(inum(x, 3 + P, &root));
        MC_CHECK(dsize(x, 3 + P + g, &b));
        COLL(x, rank, g ? MC_COLL_GATHERV : MC_COLL_ALLGATHERV,
             g ? root : -1, s * b, !g || rank == root ? sum * b : 0);
        return MC_OK;
    }
    if (!strcmp(a, "scatterv")) {
        MC_CHECK(vsum(x, 2, &sum));
        MC_CHECK(num(x, 2 + P, &r));
        if (x->n > 3 + P)
            MC_CHECK(inum(x, 3 + P, &root));
        MC_CHECK(dsize(x, 4 + P, &b));
        COLL(x, rank, MC_COLL_SCATTERV, root, rank == root ? sum * b : 0,
             r * b);
        return MC_OK;
    }
    if (!strcmp(a, "reducescatter")) {
        MC_CHECK(vsum(x, 2, &sum));
        MC_CHECK(num(x, 2 + rank, &r));
        MC_CHECK(num(x, 2 + P, &flops));
        MC_CHECK(dsize(x, 3 + P, &b));
        COLL(x, rank, MC_COLL_REDUCE_SCATTER, -1, sum * b, r * b);
        return compute(x, rank, flops);
    }
    MC_CHECK(num(x, 2, &s)); /* alltoallv */
    MC_CHECK(vsum(x, 3, &sum));
    MC_CHECK(num(x, 3 + P, &r));
    MC_CHECK(vsum(x, 4 + P, &sum2));
    MC_CHECK(dsize(x, 4 + 2 * P, &b));
    COLL(x, rank, MC_COLL_ALLTOALLV, -1, sum * b, sum2 * b);
    return MC_OK;
}

/* one line's action on rank `rank` */
static int action(ti_t *x, int rank)
{
    static const char *const none[] = {"init", "finalize", "comm_size",
                                       "comm_split", "comm_dup",
                                       "location", NULL};
    static const char *const fixed[] = {"bcast", "reduce", "allreduce",
                                        "alltoall", "allgather", "gather",
                                        "scatter", NULL};
    static const char *const vec[] = {"gatherv", "allgatherv", "scatterv",
                                      "reducescatter", "alltoallv", NULL};
    char *a = x->tok[1];
    double v;
    for (char *p = a; *p; p++) /* SimGrid before tags: camel case */
        *p = (char)tolower((unsigned char)*p);
    for (int i = 0; none[i]; i++)
        if (!strcmp(a, none[i])) {
            if (i == 0 && x->n > 2)
                x->dflt = 8; /* SimGrid: "init" with an argument: double */
            return MC_OK;
        }
    for (int i = 0; fixed[i]; i++)
        if (!strcmp(a, fixed[i]))
            return coll_fixed(x, rank, a);
    for (int i = 0; vec[i]; i++)
        if (!strcmp(a, vec[i]))
            return coll_v(x, rank, a);
    if (!strcmp(a, "compute") || !strcmp(a, "sleep")) {
        MC_CHECK(num(x, 2, &v));
        return compute(x, rank, a[0] == 'c' ? v : v * 1e9);
    }
    if (!strcmp(a, "barrier")) {
        COLL(x, rank, MC_COLL_BARRIER, -1, 0, 0);
        return MC_OK;
    }
    if (!strcmp(a, "send") || !strcmp(a, "isend"))
        return p2p(x, rank, a[0] == 'i' ? MC_RP_ISEND : MC_RP_SEND);
    if (!strcmp(a, "recv") || !strcmp(a, "irecv"))
        return p2p(x, rank, a[0] == 'i' ? MC_RP_IRECV : MC_RP_RECV);
    if (!strcmp(a, "wait") || !strcmp(a, "test"))
        return wait(x, rank, 0);
    if (!strcmp(a, "waitall"))
        return wait(x, rank, 1);
    char msg[96];
    snprintf(msg, sizeof msg, "action '%.40s' is not one SimGrid's replay "
             "knows", a);
    return bad(x, msg);
}

/* splits line into x->tok / x->n; 0 if it has no action (blank, #) */
static int split(ti_t *x, char *line)
{
    x->n = 0;
    for (char *p = strtok(line, " \t\r\n"); p && x->n < TI_ARGS;
         p = strtok(NULL, " \t\r\n"))
        x->tok[x->n++] = p;
    return x->n > 0 && x->tok[0][0] != '#';
}

/* "RANK ACTION": the rank, or -1 */
static int rank_of(ti_t *x)
{
    char *end;
    long r = strtol(x->tok[0], &end, 10);
    if (x->n < 2 || end == x->tok[0] || *end || r < 0 || r >= 1 << 20 ||
        !isalpha((unsigned char)x->tok[1][0]))
        return -1;
    return (int)r;
}

/* 1 if f is written by SimGrid before tags (3.1x): its first line that
 * tells says so (a name in camel case, a bare wait or test, a send or
 * receive of two arguments); 0 at one of today's (a wait of three, a
 * send of four) or if none tells in the first 100,000 lines */
static int old_format(ti_t *x, FILE *f)
{
    char *buf = NULL;
    size_t cap = 0;
    int old = 0;
    for (long k = 0; k < 100000 && getline(&buf, &cap, f) >= 0; k++) {
        if (!split(x, buf) || rank_of(x) < 0)
            continue;
        const char *a = x->tok[1];
        int camel = 0;
        for (const char *p = a; *p; p++)
            camel |= isupper((unsigned char)*p) != 0;
        int wt = !strcmp(a, "wait") || !strcmp(a, "test");
        int pp = !strcmp(a, "send") || !strcmp(a, "recv") ||
                 !strcmp(a, "isend") || !strcmp(a, "irecv");
        if (camel || (wt && x->n == 2) || (pp && x->n == 4)) {
            old = 1;
            break;
        }
        if ((wt && x->n == 5) || (pp && x->n == 6))
            break;
    }
    free(buf);
    rewind(f);
    return old;
}

/* every action line of f; want >= 0: the file of that rank only; pass 0
 * only counts the ranks into *ranks */
static int lines(ti_t *x, FILE *f, int want, int pass, int *ranks)
{
    char *buf = NULL;
    size_t cap = 0;
    int rc = MC_OK;
    x->line = 0;
    while (rc == MC_OK && getline(&buf, &cap, f) >= 0) {
        x->line++;
        if (!split(x, buf))
            continue;
        int r = rank_of(x);
        if (r < 0 || (want >= 0 && r != want))
            rc = bad(x, want >= 0 ? "not an action of this file's rank "
                                    "(\"RANK ACTION ...\")"
                                  : "not an action (\"RANK ACTION ...\")");
        else if (!pass)
            *ranks = r + 1 > *ranks ? r + 1 : *ranks;
        else
            rc = action(x, r);
    }
    free(buf);
    return rc;
}

/* 1 if the first line with words in f is an action (one file for every
 * rank), 0 if it names a file (a file per rank) */
static int is_actions(ti_t *x, FILE *f)
{
    char *buf = NULL;
    size_t cap = 0;
    int yes = 0;
    while (getline(&buf, &cap, f) >= 0)
        if (split(x, buf)) {
            yes = rank_of(x) >= 0;
            break;
        }
    free(buf);
    rewind(f);
    return yes;
}

/* the files a file-per-rank trace names, opened in rank order */
static int open_ranks(ti_t *x, FILE *f, FILE ***out, int *n)
{
    char *buf = NULL, dir[1024], path[2200];
    size_t cap = 0;
    int rc = MC_OK, k = 0;
    FILE **v = NULL;
    snprintf(dir, sizeof dir, "%s", x->file);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        dir[0] = 0;
    x->line = 0;
    while (rc == MC_OK && getline(&buf, &cap, f) >= 0) {
        x->line++;
        if (!split(x, buf))
            continue;
        FILE **w = realloc(v, (size_t)(k + 1) * sizeof *v);
        if (!w) {
            rc = mc_error(MC_ERR_NOMEM, "replay: out of memory");
            break;
        }
        v = w;
        snprintf(path, sizeof path, "%s%s", x->tok[0][0] == '/' ? "" : dir,
                 x->tok[0]);
        if (!(v[k] = fopen(path, "r")) && !(v[k] = fopen(x->tok[0], "r")))
            rc = mc_error(MC_ERR_ARG, "trace '%s' line %ld: cannot open "
                          "rank %d's file '%s' (%s)", x->file, x->line, k,
                          path, strerror(errno));
        else
            k++;
    }
    free(buf);
    *out = v;
    *n = k;
    return rc != MC_OK ? rc : k ? MC_OK : bad(x, "names no file");
}

/* the trace: one world communicator of `ranks`, empty streams */
static int make(ti_t *x, int ranks)
{
    mc_rp_trace_t *t = x->t;
    t->ranks = ranks;
    t->comms = calloc(1, sizeof *t->comms);
    t->s = calloc((size_t)ranks, sizeof *t->s);
    x->waits = calloc((size_t)ranks, sizeof *x->waits);
    if (!t->comms || !t->s || !x->waits ||
        !(t->comms[0].members = malloc((size_t)ranks * sizeof(int))))
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    t->ncomms = 1;
    t->world = 0;
    mc_rp_comm_t *c = &t->comms[0];
    snprintf(c->name, sizeof c->name, "MPI_COMM_WORLD");
    c->size = ranks;
    c->parent = c->family = -1;
    for (int i = 0; i < ranks; i++)
        c->members[i] = i;
    return MC_OK;
}

static int read_all(ti_t *x, FILE *f)
{
    int ranks = 0;
    if (is_actions(x, f)) {
        x->old = old_format(x, f);
        MC_CHECK(lines(x, f, -1, 0, &ranks));
        if (!ranks)
            return bad(x, "no action");
        rewind(f);
        MC_CHECK(make(x, ranks));
        return lines(x, f, -1, 1, &ranks);
    }
    FILE **v = NULL;
    int n = 0, rc = open_ranks(x, f, &v, &n);
    const char *main_file = x->file;
    char name[1100];
    if (rc == MC_OK)
        rc = make(x, n);
    if (rc == MC_OK)
        x->old = old_format(x, v[0]);
    for (int k = 0; k < n; k++) {
        snprintf(name, sizeof name, "%s, rank %d's file", main_file, k);
        x->file = name;
        if (rc == MC_OK)
            rc = lines(x, v[k], k, 1, &ranks);
        fclose(v[k]);
    }
    x->file = main_file;
    free(v);
    return rc;
}

int mc_rp_is_ti(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    FILE *f = n && (n < 5 || strcmp(path + n - 5, ".otf2"))
                  ? fopen(path, "r")
                  : NULL;
    if (!f)
        return 0;
    unsigned char head[256];
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    for (size_t i = 0; i < got; i++) /* text: not an OTF2 anchor */
        if (!isprint(head[i]) && !isspace(head[i]))
            return 0;
    return got > 0;
}

int mc_rp_read_ti(const char *path, mc_rp_trace_t **out)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return mc_error(MC_ERR_ARG, "replay: cannot open trace '%s' (%s)",
                        path, strerror(errno));
    mc_rp_trace_t *t = calloc(1, sizeof *t);
    ti_t *x = calloc(1, sizeof *x);
    int rc = t && x ? MC_OK
                           : mc_error(MC_ERR_NOMEM, "replay: out of memory");
    if (rc == MC_OK) {
        x->t = t;
        x->file = path;
        x->dflt = 1;
        snprintf(t->path, sizeof t->path, "%s", path);
        t->scorep = 1; /* counts derived from bytes, as for Score-P */
        rc = read_all(x, f);
    }
    fclose(f);
    if (x)
        free(x->waits);
    free(x);
    return mc_rp_done(t, rc, out);
}
