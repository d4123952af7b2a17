/* The single-copy machinery of the direct algorithms (see direct.h). */
#include <stdio.h>

#include "coll/direct.h"
#include "coll/fast.h"

int mc_direct_usable(const mc_team_t *t, const mc_params_t *p,
                     const char **why)
{
    (void)p;
    *why = !t->tp->single_copy ? "no single copy (the simulator, "
                                 "MC_SINGLE_COPY=0, or the kernel forbids "
                                 "it)"
           : t->size < 2       ? "one rank"
                               : NULL;
    return *why == NULL;
}

const mc_param_desc_t mc_direct_params[] = {
    [MC_DIRECT_CHUNK] = {"chunk", 0, 0, 1LL << 30,
                         "bytes combined per step through a scratch buffer; "
                         "0 = 64K"},
    {NULL, 0, 0, 0, NULL},
};

int mc_direct_require(const mc_team_t *c)
{
    if (c->size > 1 && c->tp->single_copy)
        return MC_OK;
    return mc_error(MC_ERR_INTERNAL,
                    "a single-copy algorithm ran on %d rank(s) with single "
                    "copy %s; the selection runs its fallback instead",
                    c->size, c->tp->single_copy ? "on" : "off");
}

/* what a rank publishes: its two buffers' addresses, the byte range of
 * each that peers may read, and its count (for messages) */
enum { W_S, W_SLEN, W_R, W_RLO, W_RHI, W_COUNT, W_N };

/* per-rank blocks of the buffers: (send, receive) */
static void extent(const mc_team_t *c, const mc_args_t *a, size_t *s,
                   size_t *r)
{
    size_t p = (size_t)c->size;
    *s = *r = a->bytes;
    if (a->coll == MC_COLL_ALLGATHER || a->coll == MC_COLL_ALLTOALL)
        *r = a->bytes * p;
    if (a->coll == MC_COLL_ALLTOALL ||
        a->coll == MC_COLL_REDUCE_SCATTER_BLOCK)
        *s = a->bytes * p;
    /* the root's P blocks (the other side is absent or one block) */
    if (a->coll == MC_COLL_GATHER && c->rank == a->root)
        *r = a->bytes * p;
    if (a->coll == MC_COLL_SCATTER && c->rank == a->root)
        *s = a->bytes * p;
}

int mc_direct_begin(mc_team_t *c, const mc_args_t *a, mc_direct_t *d)
{
    size_t s, r;
    extent(c, a, &s, &r);
    return mc_direct_begin_at(c, a, d, (uintptr_t)a->sbuf, s,
                              (uintptr_t)a->rbuf, 0, r);
}

int mc_direct_begin_at(mc_team_t *c, const mc_args_t *a, mc_direct_t *d,
                       uintptr_t s, size_t s_len, uintptr_t r, size_t r_lo,
                       size_t r_hi)
{
    uint64_t w[W_N] = {(uint64_t)s, s_len, (uint64_t)r, r_lo, r_hi,
                       a->count};
    d->a = a;
    d->peer = -1;
    d->release = 0;
    MC_CHECK(mc_fast_begin(c, 1, &d->f));
    return mc_fast_publish(c, d->f, w, sizeof w);
}

static int fetch(mc_team_t *c, mc_direct_t *d, int peer)
{
    if (d->peer == peer)
        return MC_OK;
    uint64_t w[W_N];
    MC_CHECK(mc_fast_fetch(c, d->f, peer, w, sizeof w));
    d->addr[0] = (uintptr_t)w[W_S];
    d->addr[1] = (uintptr_t)w[W_R];
    d->lo[0] = 0;
    d->hi[0] = w[W_SLEN];
    d->lo[1] = w[W_RLO];
    d->hi[1] = w[W_RHI];
    d->count = w[W_COUNT];
    d->peer = peer;
    return MC_OK;
}

/* a read the owner's buffer does not cover: the ranks disagree */
static int out_of_bounds(mc_team_t *c, mc_direct_t *d, int peer, int which,
                         size_t off, size_t n, int write)
{
    const char *what = d->a->coll == MC_COLL_REDUCE_SCATTER
                           ? "rcounts summing to"
                           : "count";
    return mc_error(MC_ERR_ARG,
                    "mc_%s: rank %d passed %s %zu but rank %d passed "
                    "%s %llu: %s %zu bytes at offset %zu of rank "
                    "%d's %s buffer (bytes %zu to %zu published) would go "
                    "past it; every rank must pass the same %s",
                    mc_coll_name(d->a->coll), c->rank, what, d->a->count,
                    peer, what, (unsigned long long)d->count,
                    write ? "writing" : "reading", n, off, peer,
                    which ? "receive" : "send", d->lo[which], d->hi[which],
                    d->a->coll == MC_COLL_REDUCE_SCATTER ? "rcounts"
                                                         : "count");
}

int mc_direct_get(mc_team_t *c, mc_direct_t *d, int peer, int which,
                  size_t off, void *dst, size_t n)
{
    MC_CHECK(fetch(c, d, peer));
    if (off < d->lo[which] || off > d->hi[which] ||
        n > d->hi[which] - off)
        return out_of_bounds(c, d, peer, which, off, n, 0);
    return tp_get_direct(c->tp, dst, peer, d->addr[which] + off, n);
}

int mc_direct_put(mc_team_t *c, mc_direct_t *d, int peer, size_t off,
                  const void *src, size_t n)
{
    MC_CHECK(fetch(c, d, peer));
    if (off < d->lo[1] || off > d->hi[1] || n > d->hi[1] - off)
        return out_of_bounds(c, d, peer, 1, off, n, 1);
    return tp_put_direct(c->tp, peer, d->addr[1] + off, src, n);
}

int mc_direct_signal(mc_team_t *c, uint64_t *f)
{
    MC_CHECK(mc_fast_begin(c, 1, f));
    return mc_fast_publish(c, *f, NULL, 0);
}

int mc_direct_wait_signal(mc_team_t *c, uint64_t f, int peer)
{
    return mc_fast_fetch(c, f, peer, NULL, 0);
}

int mc_direct_end(mc_team_t *c, uint64_t f)
{
    mc_fast_end(c, f);
    return mc_fast_wait_done(c, f);
}

int mc_direct_end_for(mc_team_t *c, uint64_t f, int reader)
{
    if (reader == MC_DIRECT_ALL)
        return mc_direct_end(c, f);
    mc_fast_end(c, f);
    return reader == MC_DIRECT_NOBODY ? MC_OK
                                      : mc_fast_wait_peer(c, f, reader);
}

/* after a read of a peer's input: if it was the call's last and the
 * caller asked for it, end the call now, so that peers may return while
 * I combine what I read */
static void after_read(mc_team_t *c, mc_direct_t *d, int last)
{
    if (last && d->release)
        mc_fast_end(c, d->f);
}

/* one piece of at most chunk bytes; tmp holds two chunks; last: the
 * call's last piece */
static int piece(mc_team_t *c, mc_direct_t *d, size_t off, size_t count,
                 const char *mine, char *out, char *tmp, size_t chunk,
                 int last)
{
    const mc_args_t *a = d->a;
    size_t n = count * a->dsize;
    int me = c->rank;
    int lastq = me == c->size - 1 ? c->size - 2 : c->size - 1; /* read */
    if (me != 0 && mine == out) { /* in place: rank 0's part comes first */
        MC_CHECK(tp_copy(c->tp, tmp + chunk, mine, n));
        mine = tmp + chunk;
    }
    int q = 1;
    if (me == 0 && mine != out && c->size > 1) {
        /* rank 1's part straight into out, mine combined on its left:
         * no copy of mine first (a third of the root's work at 2 ranks) */
        MC_CHECK(mc_direct_get(c, d, 1, 0, off, out, n));
        after_read(c, d, last && lastq == 1);
        MC_CHECK(tp_reduce(c->tp, out, mine, count, a->dt, a->op, 1));
        q = 2;
    } else if (me == 0) {
        MC_CHECK(tp_copy(c->tp, out, mine, n));
    } else {
        MC_CHECK(mc_direct_get(c, d, 0, 0, off, out, n));
        after_read(c, d, last && lastq == 0);
    }
    for (; q < c->size; q++) {
        if (q == me) {
            MC_CHECK(tp_reduce(c->tp, out, mine, count, a->dt, a->op, 0));
            continue;
        }
        MC_CHECK(mc_direct_get(c, d, q, 0, off, tmp, n)); /* out op= x_q */
        after_read(c, d, last && lastq == q);
        MC_CHECK(tp_reduce(c->tp, out, tmp, count, a->dt, a->op, 0));
    }
    return MC_OK;
}

int mc_direct_reduce(mc_team_t *c, mc_direct_t *d, size_t off, size_t count,
                     const char *mine, char *out, char *tmp, size_t chunk)
{
    size_t ds = d->a->dsize, per = chunk / ds;
    for (size_t i = 0; i < count; i += per) {
        size_t k = count - i < per ? count - i : per;
        MC_CHECK(piece(c, d, off + i * ds, k, mine + i * ds, out + i * ds,
                       tmp, chunk, i + k == count));
    }
    return MC_OK;
}

int mc_direct_reduce_end(mc_team_t *c, mc_direct_t *d, size_t off,
                         size_t count, size_t chunk)
{
    const mc_args_t *a = d->a;
    size_t n = count * a->dsize;
    char *tmp;
    MC_CHECK(mc_scratch(c, 2 * chunk + (a->in_place ? n : 0),
                        (void **)&tmp));
    char *out = a->in_place ? tmp + 2 * chunk : a->rbuf;
    MC_CHECK(mc_direct_reduce(c, d, off, count, (const char *)a->sbuf + off,
                              out, tmp, chunk));
    MC_CHECK(mc_direct_end(c, d->f));
    if (a->in_place && n)
        MC_CHECK(tp_copy(c->tp, a->rbuf, out, n));
    return MC_OK;
}

int mc_direct_resolve(const mc_team_t *t, mc_params_t *p)
{
    (void)t;
    if (p->v[MC_DIRECT_CHUNK] <= 0)
        p->v[MC_DIRECT_CHUNK] = 65536;
    return MC_OK;
}

size_t mc_direct_chunk(const mc_args_t *a, int64_t chunk)
{
    size_t want = chunk > 0 ? (size_t)chunk : 65536;
    size_t per = want / a->dsize;
    return (per ? per : 1) * a->dsize;
}
