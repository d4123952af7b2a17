/*
 * A communicator's selection rules (select/select.h), shared where they
 * must be the same.
 *
 * The rules of one communicator are the same on every rank: each rank
 * works them out from values that match on all ranks, or the ranks would
 * run different algorithms and hang. A process that holds many ranks of
 * one communicator (the simulator runs every core in one process) so
 * needs one copy, not one per rank: 7.6 KB a rank, 7.6 GB at a million
 * cores. The transport says which ranks those are (mc_tp_t.share). Rules
 * are kept in a small cache under (share, size, MC_CHECK_ARGS, history),
 * the history being the mc_comm_set_algo calls that made them, which
 * every rank makes alike too; every communicator counts its reference.
 *
 *   rank 0: create  -> miss: mc_select_init, cache R0 (share 7, "")
 *           set_algo bcast=binomial -> miss: copy of R0, changed, cache
 *                                      R1 (share 7, "1=binomial;")
 *   rank 1: create  -> hit R0; set_algo -> hit R1 (R0 unused by both,
 *                      but cached: rank 2 will want it)
 *   last communicator freed: the cache lets go of R0 and R1 -> freed
 *
 * Rules whose history does not fit are the communicator's own (share 0).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/comm.h"
#include "util/error.h"

#define HIST 160 /* bytes of history kept; longer: not shared */
#define SLOTS 4  /* rules cached */

struct mc_rules {
    int refs;
    uint64_t share; /* the transport's share (0: this communicator's own) */
    int size, check_args;
    char hist[HIST]; /* "coll=spec;" per mc_comm_set_algo, in order */
    mc_ruleset_t r[MC_COLL_COUNT];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mc_rules_t *cache[SLOTS]; /* each holds a reference */
static unsigned next_slot;

static int cached(const mc_rules_t *r)
{
    for (int i = 0; i < SLOTS; i++)
        if (cache[i] == r)
            return i;
    return -1;
}

/* Rules held by the cache alone stay there (the next rank to create the
 * communicator wants them: dropped, every simulated core computed the
 * rules again, half the instructions of a 4,096-core barrier), until
 * newer rules push them out or the last communicator goes. */
static void unref_locked(mc_rules_t *r)
{
    if (--r->refs == 0)
        free(r);
}

void mc_comm_rules_flush(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < SLOTS; i++) {
        mc_rules_t *r = cache[i];
        cache[i] = NULL;
        if (r)
            unref_locked(r);
    }
    pthread_mutex_unlock(&lock);
}

static mc_rules_t *lookup(const mc_comm_t *c, const char *hist)
{
    uint64_t share = c->team.tp->share;
    mc_rules_t *r = NULL;
    if (!share)
        return NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < SLOTS && !r; i++)
        if (cache[i] && cache[i]->share == share &&
            cache[i]->size == c->team.size &&
            cache[i]->check_args == c->check_args &&
            !strcmp(cache[i]->hist, hist))
            r = cache[i];
    if (r)
        r->refs++;
    pthread_mutex_unlock(&lock);
    return r;
}

static void keep(mc_rules_t *r)
{
    if (!r->share)
        return;
    pthread_mutex_lock(&lock);
    unsigned i = next_slot++ % SLOTS;
    mc_rules_t *old = cache[i];
    cache[i] = NULL; /* first out of the cache: its reference goes */
    if (old)
        unref_locked(old);
    cache[i] = r;
    r->refs++;
    pthread_mutex_unlock(&lock);
}

static void attach(mc_comm_t *c, mc_rules_t *r)
{
    mc_comm_rules_release(c);
    c->sel = r;
    c->rules = r->r;
}

/* new rules r for c, made with status rc: armed for MC_CHECK_ARGS, kept
 * for the next rank and c's; freed if anything failed */
static int adopt(mc_comm_t *c, mc_rules_t *r, int rc)
{
    if (rc == MC_OK)
        rc = mc_check_args_arm(c->check_args, r->r);
    if (rc != MC_OK) {
        free(r);
        return rc;
    }
    keep(r);
    attach(c, r);
    return MC_OK;
}

int mc_comm_rules_init(mc_comm_t *c)
{
    mc_rules_t *r = lookup(c, "");
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r)
            return mc_error(MC_ERR_NOMEM, "out of memory creating a "
                                          "communicator");
        r->refs = 1;
        r->share = c->team.tp->share;
        r->size = c->team.size;
        r->check_args = c->check_args;
        return adopt(c, r, mc_select_init(r->r, &c->team));
    }
    attach(c, r);
    return MC_OK;
}

void mc_comm_rules_share(mc_comm_t *to, mc_comm_t *from)
{
    if (to->sel == from->sel)
        return;
    pthread_mutex_lock(&lock);
    from->sel->refs++;
    pthread_mutex_unlock(&lock);
    attach(to, from->sel);
}

void mc_comm_rules_release(mc_comm_t *c)
{
    if (!c->sel)
        return;
    pthread_mutex_lock(&lock);
    unref_locked(c->sel);
    pthread_mutex_unlock(&lock);
    c->sel = NULL;
    c->rules = NULL;
}

/* hist = prev "coll=spec;": 0, or -1 if it does not fit. Not snprintf:
 * every simulated core comes here, and vfprintf's frame would take each
 * core's stack onto a second page (4 GiB at a million cores). */
static int hist_add(char hist[HIST], const char *prev, int coll,
                    const char *spec)
{
    char num[12];
    int k = (int)sizeof num;
    unsigned u = (unsigned)coll;
    do
        num[--k] = (char)('0' + u % 10);
    while ((u /= 10) && k > 0);
    size_t a = strlen(prev), b = sizeof num - (size_t)k, d = strlen(spec);
    if (a + b + d + 3 > HIST)
        return -1;
    memcpy(hist, prev, a);
    memcpy(hist + a, num + k, b);
    hist[a + b] = '=';
    memcpy(hist + a + b + 1, spec, d);
    memcpy(hist + a + b + 1 + d, ";", 2);
    return 0;
}

int mc_comm_rules_set(mc_comm_t *c, mc_coll_t coll, const char *spec)
{
    char hist[HIST];
    int fits = hist_add(hist, c->sel->hist, (int)coll, spec ? spec : "") == 0;
    int shareable = c->sel->share && fits;
    mc_rules_t *r = shareable ? lookup(c, hist) : NULL;
    if (r) {
        attach(c, r);
        return MC_OK;
    }
    r = malloc(sizeof *r);
    if (!r)
        return mc_error(MC_ERR_NOMEM, "out of memory copying the selection "
                                      "rules of a communicator");
    *r = *c->sel;
    r->refs = 1;
    r->share = shareable ? r->share : 0;
    memcpy(r->hist, shareable ? hist : "", shareable ? sizeof hist : 1);
    return adopt(c, r, mc_select_set(r->r, &c->team, coll, spec,
                                     "mc_comm_set_algo"));
}

size_t mc_comm_rules_bytes(const mc_comm_t *c, int *sharers)
{
    pthread_mutex_lock(&lock);
    *sharers = c->sel->refs - (cached(c->sel) >= 0);
    pthread_mutex_unlock(&lock);
    return sizeof *c->sel;
}

void mc_comm_footprint(const mc_comm_t *c, mc_comm_footprint_t *f)
{
    const mc_tp_t *tp = c->team.tp;
    *f = (mc_comm_footprint_t){.comm = sizeof *c,
                               .team_heap = mc_team_bytes(&c->team),
                               .mpb = tp->mpb_size};
    size_t rb = mc_comm_rules_bytes(c, &f->rules_sharers);
    f->rules = rb / (size_t)(f->rules_sharers > 0 ? f->rules_sharers : 1);
    f->tp = tp->ops->footprint ? tp->ops->footprint(tp, &f->flags) : 0;
    f->total = f->comm + f->team_heap + f->rules + f->tp;
}
