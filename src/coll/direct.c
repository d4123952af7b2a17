/* The single-copy machinery of the direct algorithms (see direct.h). */
#include "coll/direct.h"
#include "coll/fast.h"

int mc_direct_usable(const mc_team_t *c)
{
    if (c->size > 1 && c->tp->single_copy)
        return MC_OK;
    return mc_error(MC_ERR_INTERNAL,
                    "a single-copy algorithm ran on %d rank(s) with single "
                    "copy %s; the selection runs its fallback instead",
                    c->size, c->tp->single_copy ? "on" : "off");
}

int mc_direct_begin(mc_team_t *c, const mc_args_t *a, mc_direct_t *d)
{
    return mc_direct_begin_at(c, a, d, (uintptr_t)a->sbuf,
                              (uintptr_t)a->rbuf);
}

int mc_direct_begin_at(mc_team_t *c, const mc_args_t *a, mc_direct_t *d,
                       uintptr_t s, uintptr_t r)
{
    uint64_t addr[2] = {(uint64_t)s, (uint64_t)r};
    d->a = a;
    d->peer = -1;
    MC_CHECK(mc_fast_begin(c, 1, &d->f));
    return mc_fast_publish(c, d->f, addr, sizeof addr);
}

int mc_direct_addr(mc_team_t *c, mc_direct_t *d, int peer, int which,
                   uintptr_t *addr)
{
    if (d->peer != peer) {
        uint64_t got[2];
        MC_CHECK(mc_fast_fetch(c, d->f, peer, got, sizeof got));
        d->addr[0] = (uintptr_t)got[0];
        d->addr[1] = (uintptr_t)got[1];
        d->peer = peer;
    }
    *addr = d->addr[which];
    return MC_OK;
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

/* inout = inout op (count elements at byte off of q's sbuf) */
static int combine_from(mc_team_t *c, mc_direct_t *d, int q, size_t off,
                        size_t count, char *inout, char *tmp)
{
    uintptr_t s;
    MC_CHECK(mc_direct_addr(c, d, q, 0, &s));
    MC_CHECK(tp_get_direct(c->tp, tmp, q, s + off, count * d->a->dsize));
    return tp_reduce(c->tp, inout, tmp, count, d->a->dt, d->a->op, 0);
}

/* one piece of at most chunk bytes; tmp holds two chunks */
static int piece(mc_team_t *c, mc_direct_t *d, size_t off, size_t count,
                 const char *mine, char *out, char *tmp, size_t chunk)
{
    const mc_args_t *a = d->a;
    size_t n = count * a->dsize;
    int me = c->rank;
    if (me != 0 && mine == out) { /* in place: rank 0's part comes first */
        MC_CHECK(tp_copy(c->tp, tmp + chunk, mine, n));
        mine = tmp + chunk;
    }
    if (me == 0) {
        MC_CHECK(tp_copy(c->tp, out, mine, n));
    } else {
        uintptr_t s;
        MC_CHECK(mc_direct_addr(c, d, 0, 0, &s));
        MC_CHECK(tp_get_direct(c->tp, out, 0, s + off, n));
    }
    for (int q = 1; q < c->size; q++) {
        if (q == me)
            MC_CHECK(tp_reduce(c->tp, out, mine, count, a->dt, a->op, 0));
        else
            MC_CHECK(combine_from(c, d, q, off, count, out, tmp));
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
                       tmp, chunk));
    }
    return MC_OK;
}

int mc_direct_resolve(const mc_team_t *t, mc_params_t *p)
{
    (void)t;
    if (p->v[0] <= 0)
        p->v[0] = 65536;
    return MC_OK;
}

size_t mc_direct_chunk(const mc_args_t *a, int64_t chunk)
{
    size_t want = chunk > 0 ? (size_t)chunk : 65536;
    size_t per = want / a->dsize;
    return (per ? per : 1) * a->dsize;
}
