/* Rule sets shared by the teams with the same inputs (see rules.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "select/rules.h"
#include "util/config.h"
#include "util/error.h"
#include "util/map.h"
#include "util/siphash.h"

#define IDLE 8 /* rule sets kept that no team holds, at most */

struct mc_rules {
    int refs;     /* holders; under `lock` */
    int idle;     /* its place in idle[] while no one holds it, else -1 */
    int kept;     /* in `kept` (shared), or the team's own */
    uint64_t hash; /* of key: its key in `kept` */
    mc_rules_key_t key;
    mc_ruleset_t r[MC_COLL_COUNT];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mc_map_t kept;            /* hash of a key -> its mc_rules_t * */
static mc_rules_t *idle[IDLE];   /* kept, held by no one; oldest goes */
static unsigned next_idle;
/* rule sets computed (mc_rules_made): a count for tests, relaxed, as
 * nothing is ordered by it */
static _Atomic unsigned long made;

/* A key's value in the map: its words folded with the map's multiplier
 * (the map spreads it further). Not SipHash: every team of every
 * simulated core makes a key, and nothing here is secret; a collision
 * costs a copy of the rules that is not shared, never wrong rules, as
 * rule sets are found by their whole key. */
_Static_assert(sizeof(mc_rules_key_t) % 8 == 0, "a key is whole words");
static uint64_t hash_of(const mc_rules_key_t *k)
{
    uint64_t w[sizeof *k / 8], h = 0;
    memcpy(w, k, sizeof w);
    for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
        h = (h ^ w[i]) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 32;
    }
    return h == UINT64_MAX ? 0 : h; /* the one key the map cannot hold */
}

/* h and (what, text) into one value, the env and sets of a key: text by
 * SipHash (util/siphash.h; its key is no secret, only a spreading) */
static const unsigned char sip[16] = "manycoll rules!";
static uint64_t mix(uint64_t h, int what, const char *text)
{
    uint64_t w[3] = {h, (uint64_t)what + 1,
                     mc_siphash(sip, text, strlen(text))};
    return mc_siphash(sip, w, sizeof w);
}

/* mix, remembering the last one: the cores of a simulation make the
 * same change one after another */
static uint64_t mix_last(uint64_t h, int what, const char *text)
{
    static struct {
        uint64_t h, out;
        int what;
        char text[64];
    } last; /* under `lock` */
    size_t n = strlen(text);
    pthread_mutex_lock(&lock);
    int hit = last.text[0] && last.h == h && last.what == what &&
              n < sizeof last.text && !strcmp(last.text, text);
    uint64_t out = hit ? last.out : mix(h, what, text);
    if (!hit && n < sizeof last.text) {
        last.h = h;
        last.what = what;
        last.out = out;
        memcpy(last.text, text, n + 1);
    }
    pthread_mutex_unlock(&lock);
    return out;
}

static int key_of(const mc_team_t *t, mc_algo_fn wrap, mc_rules_key_t *k)
{
    memset(k, 0, sizeof *k); /* padding too: keys are hashed as bytes */
    k->share = t->tp->share;
    k->transport = t->tp->ops->name;
    k->size = t->size;
    k->coherent = t->tp->cache_coherent;
    k->oversubscribed = t->tp->oversubscribed;
    k->wrap = wrap;
    for (int c = 0; c < MC_COLL_COUNT; c++) {
        const char *v = mc_env_algo(c); /* as the rules read it */
        if (*v)
            k->env = mix(k->env, c, v);
    }
    return mc_select_tuning(t, &k->tuning);
}

/* the kept rule set of key k, with a reference, or NULL */
static mc_rules_t *find_locked(const mc_rules_key_t *k, uint64_t h)
{
    mc_rules_t **e = mc_map_get(&kept, h);
    if (!e || memcmp(&(*e)->key, k, sizeof *k))
        return NULL;
    mc_rules_t *r = *e;
    if (r->idle >= 0) { /* held again: out of the idle ones */
        idle[r->idle] = NULL;
        r->idle = -1;
    }
    r->refs++;
    return r;
}

static void evict_locked(mc_rules_t *r)
{
    mc_map_remove(&kept, r->hash);
    free(r);
}

/* r, made by this thread: kept for the teams of its key, unless another
 * thread kept one meanwhile (then that one, and r goes) */
static mc_rules_t *keep(mc_rules_t *r)
{
    if (!r->key.share)
        return r; /* the team's own */
    pthread_mutex_lock(&lock);
    mc_rules_t *had = find_locked(&r->key, r->hash), **slot;
    if (!had) {
        if (!kept.vsize)
            mc_map_init(&kept, sizeof(mc_rules_t *));
        /* 1: added; 0: another key of the same hash is there, and out of
         * memory: r stays its team's own */
        if (mc_map_add(&kept, r->hash, (void **)&slot) == 1) {
            *slot = r;
            r->kept = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    if (!had)
        return r;
    free(r);
    return had;
}

/* every rule's selection, and its one for ops that do not commute,
 * entered through wrap (kept copies: the kept selections are shared) */
static int arm(mc_ruleset_t rules[MC_COLL_COUNT], mc_algo_fn wrap)
{
    for (int k = 0; wrap && k < MC_COLL_COUNT; k++) {
        mc_ruleset_t *rs = &rules[k];
        for (int i = 0; i < rs->n; i++) {
            mc_rule_t *r = &rs->r[i];
            mc_sel_t s = *r->sel;
            s.fn = wrap;
            MC_CHECK(mc_sel_keep(&s, &r->sel));
            if (!r->noncomm)
                continue;
            s = *r->noncomm;
            s.fn = wrap;
            MC_CHECK(mc_sel_keep(&s, &r->noncomm));
        }
    }
    return MC_OK;
}

int mc_rules_get(const mc_team_t *t, mc_algo_fn wrap, mc_rules_t **out)
{
    mc_rules_key_t k;
    MC_CHECK(key_of(t, wrap, &k));
    uint64_t h = hash_of(&k);
    pthread_mutex_lock(&lock);
    mc_rules_t *r = k.share ? find_locked(&k, h) : NULL;
    pthread_mutex_unlock(&lock);
    if (r) {
        *out = r;
        return MC_OK;
    }
    r = calloc(1, sizeof *r);
    if (!r)
        return mc_error(MC_ERR_NOMEM, "out of memory creating a "
                                      "communicator's selection rules");
    /* field by field: a compound literal of the whole would be a
     * 13.6 KB temporary on the stack of every simulated core */
    r->refs = 1;
    r->idle = -1;
    r->hash = h;
    r->key = k;
    int rc = mc_select_init(r->r, t);
    atomic_fetch_add_explicit(&made, 1, memory_order_relaxed);
    if (rc == MC_OK)
        rc = arm(r->r, wrap);
    if (rc != MC_OK) {
        free(r);
        return rc;
    }
    *out = keep(r);
    return MC_OK;
}

int mc_rules_set(mc_rules_t **rp, const mc_team_t *t, mc_coll_t coll,
                 const char *spec, const char *who)
{
    mc_rules_t *old = *rp, *r;
    mc_rules_key_t k = old->key;
    k.sets = mix_last(k.sets, spec ? (int)coll : (int)coll + MC_COLL_COUNT,
                      spec ? spec : "");
    uint64_t h = hash_of(&k);
    pthread_mutex_lock(&lock);
    r = k.share ? find_locked(&k, h) : NULL;
    pthread_mutex_unlock(&lock);
    if (!r) {
        if (!(r = malloc(sizeof *r)))
            return mc_error(MC_ERR_NOMEM, "out of memory copying the "
                                          "selection rules of a "
                                          "communicator");
        memcpy(r->r, old->r, sizeof r->r);
        r->refs = 1;
        r->idle = -1;
        r->kept = 0;
        r->hash = h;
        r->key = k;
        int rc = mc_select_set(r->r, t, coll, spec, who);
        atomic_fetch_add_explicit(&made, 1, memory_order_relaxed);
        if (rc == MC_OK)
            rc = arm(r->r, k.wrap);
        if (rc != MC_OK) {
            free(r);
            return rc;
        }
        r = keep(r);
    }
    mc_rules_put(old);
    *rp = r;
    return MC_OK;
}

mc_rules_t *mc_rules_ref(mc_rules_t *r)
{
    pthread_mutex_lock(&lock);
    r->refs++;
    pthread_mutex_unlock(&lock);
    return r;
}

void mc_rules_put(mc_rules_t *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&lock);
    if (--r->refs == 0) {
        if (!r->kept) {
            free(r);
        } else { /* idle: the oldest idle one makes room */
            unsigned i = next_idle++ % IDLE;
            if (idle[i])
                evict_locked(idle[i]);
            idle[i] = r;
            r->idle = (int)i;
        }
    }
    pthread_mutex_unlock(&lock);
}

const mc_ruleset_t *mc_rules_sets(const mc_rules_t *r)
{
    return r->r;
}

size_t mc_rules_bytes(const mc_rules_t *r, int *holders)
{
    pthread_mutex_lock(&lock);
    *holders = r->refs;
    pthread_mutex_unlock(&lock);
    return sizeof *r;
}

unsigned long mc_rules_made(void)
{
    return atomic_load_explicit(&made, memory_order_relaxed);
}

void mc_rules_flush(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < IDLE; i++) {
        if (idle[i])
            evict_locked(idle[i]);
        idle[i] = NULL;
    }
    if (!kept.used) /* nothing held: the table goes too */
        mc_map_fini(&kept);
    pthread_mutex_unlock(&lock);
}
