/*
 * Reading the ranks' logs of MC_TRACE (trace/trace.h) and numbering the
 * communicators across them.
 *
 *   rank r's log   header (magic, rank r, size n), then records of
 *                  sizeof(mc_trec_t) + 8 * rec.n bytes (api/trace.h)
 *   comm ids       rank-local (1 the world, 2, 3, ... in creation order)
 *                  -> the archive's (0 the world, then in the order the
 *                  ranks' logs first name them: a parent always before
 *                  its children, as each rank makes the parent first)
 *   one comm       the same members (world ranks, in its rank order) and
 *                  the same k: the k-th comm of those members made on
 *                  each of its ranks (two dups of one comm are the 1st
 *                  and the 2nd on every member)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/tracelog.h"
#include "trace/trace.h"
#include "util/colls.h"
#include "util/error.h"
#include "util/siphash.h"
#include "util/tick.h"

static int bad(const mc_tset_t *s, int r, const char *what, size_t at)
{
    return mc_error(MC_ERR_ARG, "MC_TRACE=%s: manycoll.%d.mctrace: %s "
                    "(at byte %zu)", s->dir, r, what, at);
}

static int read_file(const char *path, mc_tlog_t *l)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        int e = errno;
        if (f)
            fclose(f);
        return mc_error(MC_ERR_ARG, "MC_TRACE: cannot read '%s' (%s)", path,
                        strerror(e));
    }
    l->len = (size_t)st.st_size;
    l->buf = malloc(l->len + 1);
    size_t got = l->buf ? fread(l->buf, 1, l->len, f) : 0;
    fclose(f);
    if (!l->buf)
        return mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory for '%s'", path);
    if (got != l->len)
        return mc_error(MC_ERR_ARG, "MC_TRACE: '%s' is shorter than its "
                        "size", path);
    return MC_OK;
}

/* the archive id of the comm with these members that is the k-th of
 * them on this rank: found, or added with parent and how */
static int comm_gid(mc_tset_t *s, const uint64_t *m, int n, int k, int how,
                    uint32_t parent, uint32_t *gid)
{
    static const unsigned char key[16] = "manycoll-comms";
    uint64_t h = mc_siphash(key, m, (size_t)n * sizeof *m);
    for (size_t i = 0; i < s->ncomm; i++) {
        const mc_tcomm_t *c = &s->comms[i];
        if (c->hash == h && c->n == n && c->k == k &&
            !memcmp(c->members, m, (size_t)n * sizeof *m)) {
            *gid = (uint32_t)i;
            return MC_OK;
        }
    }
    if (s->ncomm == s->capcomm) {
        size_t cap = s->capcomm ? 2 * s->capcomm : 16;
        mc_tcomm_t *a = realloc(s->comms, cap * sizeof *a);
        if (!a)
            return mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory for the "
                            "communicators");
        s->comms = a;
        s->capcomm = cap;
    }
    s->comms[s->ncomm] = (mc_tcomm_t){n, m, h, k, how, parent};
    *gid = (uint32_t)s->ncomm++;
    return MC_OK;
}

/* a comm record of rank r: its archive id at its local id */
static int add_comm(mc_tset_t *s, int r, const mc_trec_t *e,
                    const uint64_t *m, size_t at)
{
    mc_tlog_t *l = &s->logs[r];
    if (e->comm != l->ngid)
        return bad(s, r, "a communicator's id is out of order", at);
    if (e->id >= l->ngid || !e->n)
        return bad(s, r, "a communicator without a known parent", at);
    for (uint32_t i = 0; i < e->n; i++)
        if (m[i] >= (uint64_t)s->n)
            return bad(s, r, "a communicator's member is not a rank", at);
    int k = 0; /* earlier comms of these members on this rank */
    for (size_t i = 1; i < l->ngid; i++) {
        const mc_tcomm_t *c = &s->comms[l->gid[i]];
        k += c->n == (int)e->n &&
             !memcmp(c->members, m, (size_t)e->n * sizeof *m);
    }
    uint32_t *g = realloc(l->gid, (l->ngid + 1) * sizeof *g);
    if (!g)
        return mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory");
    l->gid = g;
    return comm_gid(s, m, (int)e->n, k, e->form, l->gid[e->id],
                    &l->gid[l->ngid++]);
}

/* walks rank r's records: their kinds, lengths and comms */
static int check_log(mc_tset_t *s, int r)
{
    mc_tlog_t *l = &s->logs[r];
    mc_trhead_t h;
    if (l->len < sizeof h)
        return bad(s, r, "no header", 0);
    memcpy(&h, l->buf, sizeof h);
    if (memcmp(h.magic, MC_TR_MAGIC, sizeof h.magic) || h.rank != r ||
        h.size != s->n)
        return bad(s, r, "not this job's log of this rank (its header "
                   "says another rank or size)", 0);
    if (!h.ns1)
        return bad(s, r, "the rank did not get to mc_finalize or exit "
                   "(killed?): its log has no end", 0);
    l->tick0 = h.tick0;
    l->ns0 = h.ns0;
    l->ns_per_tick = h.tsc ? mc_tick_rate(h.tick0, h.ns0, h.tick1, h.ns1)
                           : 1;
    for (size_t at = sizeof h; at < l->len;) {
        mc_trec_t e;
        if (l->len - at < sizeof e)
            return bad(s, r, "a record is cut short (the rank ended "
                       "before mc_finalize?)", at);
        memcpy(&e, l->buf + at, sizeof e);
        size_t len = sizeof e + (size_t)e.n * 8;
        if (e.kind < MC_TR_COLL || e.kind > MC_TR_COMM ||
            l->len - at < len || (size_t)e.n > l->len)
            return bad(s, r, "not a record", at);
        if (e.kind == MC_TR_COMM) {
            int rc = add_comm(s, r, &e, (const uint64_t *)(l->buf + at +
                                                           sizeof e), at);
            if (rc != MC_OK)
                return rc;
        } else if (e.kind != MC_TR_WAIT &&
                   (e.coll >= MC_COLL_COUNT || e.form > MC_TR_PERSISTENT ||
                    !e.comm || e.comm >= l->ngid))
            return bad(s, r, "a call on an unknown communicator", at);
        at += len;
    }
    return MC_OK;
}

int mc_tset_read(mc_tset_t *s, const char *dir, int n)
{
    *s = (mc_tset_t){.dir = dir, .n = n};
    s->logs = calloc((size_t)n, sizeof *s->logs);
    if (!s->logs)
        return mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory");
    static const uint64_t none[1];
    /* the world: archive id 0, members 0..n-1 (written from 0..n-1) */
    uint64_t *world = malloc((size_t)n * sizeof *world);
    if (!world)
        return mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory");
    for (int i = 0; i < n; i++)
        world[i] = (uint64_t)i;
    uint32_t g;
    MC_CHECK(comm_gid(s, n ? world : none, n, 0, -1, UINT32_MAX, &g));
    s->comms[0].members = world; /* owned by the set: freed last */
    for (int r = 0; r < n; r++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/manycoll.%d.mctrace", dir, r);
        mc_tlog_t *l = &s->logs[r];
        MC_CHECK(read_file(path, l));
        l->gid = calloc(2, sizeof *l->gid); /* 0: none; 1: the world */
        if (!l->gid)
            return mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory");
        l->ngid = 2;
        MC_CHECK(check_log(s, r));
    }
    return MC_OK;
}

void mc_tset_free(mc_tset_t *s)
{
    for (int r = 0; s->logs && r < s->n; r++) {
        free(s->logs[r].buf);
        free(s->logs[r].gid);
    }
    if (s->comms)
        free((void *)s->comms[0].members);
    free(s->logs);
    free(s->comms);
    *s = (mc_tset_t){0};
}

void mc_tset_unlink(const mc_tset_t *s)
{
    for (int r = 0; r < s->n; r++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/manycoll.%d.mctrace", s->dir, r);
        unlink(path);
    }
}

int mc_trace_convert(const char *dir, int n)
{
    mc_tset_t s;
    int rc = mc_tset_read(&s, dir, n);
    if (rc == MC_OK)
        rc = mc_tset_write(&s);
    if (rc == MC_OK)
        mc_tset_unlink(&s);
    mc_tset_free(&s);
    return rc;
}
