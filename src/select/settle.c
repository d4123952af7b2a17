/*
 * Settling a selection for a team: the chain of fallbacks (select.h,
 * mc_sel_settle), walked once per rule when a communicator's rules are
 * made, never per call.
 *
 *   asked: A:k=v   resolve for the team; usable? (needs, A's hook)
 *     no, why -> A's fallback spec, parsed: B with B's own defaults
 *                resolve; usable?
 *     yes     -> B runs; B.replaces = A, B.because = why
 *   B may decline a call (B.declines): B's fallback is settled the same
 *   way, now, and becomes B.next, which the dispatcher runs instead
 *
 * The selections a settled one points at (replaces, next, a rule's
 * selection for other ops) are kept once per process in a list that only
 * grows: a selection is a value that a persistent request or a copy of
 * shared rules may hold for as long as it likes, with no reference to
 * count. The list holds one entry per distinct selection that something
 * points at -- a few per kind of team -- and lives as long as the
 * process.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/auto.h"
#include "select/select.h"
#include "util/error.h"

/* longer chains are a circle: the registry check allows 4 fallbacks */
#define MAX_CHAIN 8

typedef struct kept {
    mc_sel_t s;
    struct kept *older;
} kept_t;

static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;
static kept_t *newest; /* under keep_lock; entries never change or go */

static int same(const mc_sel_t *a, const mc_sel_t *b)
{
    return a->algo == b->algo && a->fn == b->fn &&
           !memcmp(&a->params, &b->params, sizeof a->params) &&
           a->next == b->next && a->replaces == b->replaces &&
           a->because == b->because;
}

int mc_sel_keep(const mc_sel_t *s, const mc_sel_t **out)
{
    pthread_mutex_lock(&keep_lock);
    kept_t *k = newest;
    while (k && !same(&k->s, s))
        k = k->older;
    if (!k && (k = malloc(sizeof *k))) {
        k->s = *s;
        k->older = newest;
        newest = k;
    }
    pthread_mutex_unlock(&keep_lock);
    if (!k)
        return mc_error(MC_ERR_NOMEM, "selection: out of memory");
    *out = &k->s;
    return MC_OK;
}

/* the automatic parameters of a selection, for team t: the algorithm's
 * own, then those a model gives */
static int resolve(const mc_team_t *t, mc_sel_t *s)
{
    const mc_algo_impl_t *im = s->algo->impl;
    if (im->resolve)
        MC_CHECK(im->resolve(t, &s->params));
    return mc_auto_model(im->model, t, &s->params);
}

/* why s cannot serve team t (for ops that do not commute: noncomm), or
 * NULL if it can */
static const char *unusable(const mc_team_t *t, const mc_sel_t *s,
                            int noncomm)
{
    const mc_algo_impl_t *im = s->algo->impl;
    const char *why = NULL;
    if (noncomm && (im->needs & MC_ALGO_COMMUTATIVE))
        return "the op does not commute";
    if (im->usable && !im->usable(t, &s->params, &why))
        return why ? why : "it cannot serve this team";
    return NULL;
}

/* s replaced by its algorithm's fallback, with the fallback's own
 * parameters (its defaults; resolved by the caller) */
static int fall_back(mc_sel_t *s, const char *why)
{
    const mc_algo_t *a = s->algo;
    if (!a->impl->fallback)
        return mc_error(MC_ERR_INTERNAL, "selection: %s %s cannot serve "
                        "(%s) and names no fallback", mc_coll_name(a->coll),
                        a->name, why);
    const mc_sel_t *was;
    MC_CHECK(mc_sel_keep(s, &was));
    char who[160];
    snprintf(who, sizeof who, "fallback of %s %s", mc_coll_name(a->coll),
             a->name);
    MC_CHECK(mc_algo_parse(a->coll, a->impl->fallback, who, s));
    s->replaces = was;
    s->because = why;
    return MC_OK;
}

static int settle(const mc_team_t *t, mc_sel_t *s, int noncomm, int depth)
{
    const char *why;
    for (;;) {
        MC_CHECK(resolve(t, s));
        if (!(why = unusable(t, s, noncomm)))
            break;
        if (++depth > MAX_CHAIN)
            return mc_error(MC_ERR_INTERNAL, "selection: more than %d "
                            "fallbacks from %s %s (a circle?)", MAX_CHAIN,
                            mc_coll_name(s->algo->coll), s->algo->name);
        MC_CHECK(fall_back(s, why));
    }
    s->next = NULL;
    if (!s->algo->impl->declines)
        return MC_OK;
    mc_sel_t n = *s; /* what runs the calls s declines, settled now */
    MC_CHECK(fall_back(&n, s->algo->impl->declines));
    MC_CHECK(settle(t, &n, noncomm, depth + 1));
    return mc_sel_keep(&n, &s->next);
}

int mc_sel_settle(const mc_team_t *t, mc_sel_t *s, int noncomm)
{
    return settle(t, s, noncomm, 0);
}

const mc_sel_t *mc_sel_asked(const mc_sel_t *s)
{
    while (s->replaces)
        s = s->replaces;
    return s;
}

/* appends to buf (of len, used so far *used), "; " first if not empty */
static __attribute__((format(printf, 4, 5))) void
add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    va_list ap;
    if (*used && *used < len)
        *used += (size_t)snprintf(buf + *used, len - *used, "; ");
    if (*used >= len)
        return;
    va_start(ap, fmt);
    *used += (size_t)vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
}

void mc_sel_why(const mc_sel_t *s, char *buf, size_t len, size_t used)
{
    const mc_sel_t *chain[MAX_CHAIN + 1];
    int n = 0;
    for (const mc_sel_t *x = s; x->replaces && n <= MAX_CHAIN;
         x = x->replaces)
        chain[n++] = x;
    /* from the one asked for down to the one that runs */
    for (int i = n - 1; i >= 0; i--) {
        const mc_algo_t *a = chain[i]->replaces->algo;
        add(buf, len, &used, "fallback of %s %s: %s", mc_coll_name(a->coll),
            a->name, chain[i]->because);
    }
    if (s->next) {
        char spec[160];
        mc_sel_format(s->next, spec, sizeof spec);
        add(buf, len, &used, "if %s, %s runs", s->algo->impl->declines,
            spec);
    }
}
