/*
 * Communicators: creation over a transport, the world of `manycoll run`,
 * split, free, finalize, per-communicator algorithm choice.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "coll/fast.h"
#include "internal.h"
#include "select/select.h"
#include "tp/shm.h"
#include "util/config.h"

#define SCRATCH_MIN (64 * 1024)

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static mc_comm_t *live;  /* every communicator not yet freed */
static mc_comm_t *world; /* from mc_init */

int mc_scratch(mc_comm_t *c, size_t n, void **out)
{
    if (n > c->scratch_len) {
        size_t len = n < 2 * c->scratch_len ? 2 * c->scratch_len : n;
        len = (len + 63) / 64 * 64;
        void *p = aligned_alloc(64, len);
        if (!p)
            return mc_error(MC_ERR_NOMEM, "out of memory: %zu bytes of "
                                          "scratch", len);
        free(c->scratch);
        c->scratch = p;
        c->scratch_len = len;
    }
    *out = c->scratch;
    return MC_OK;
}

/* On a cache-coherent machine the fast paths keep four slots at the end
 * of the MPB (coll/fast.h) for payloads that do not fit a flag line. */
static void reserve_fast(mc_comm_t *c)
{
    size_t mpb = c->tp->mpb_size, line = c->tp->line;
    c->mpb_avail = mpb;
    if (!c->tp->cache_coherent)
        return;
    size_t slot = mpb / 32 < MC_FAST_MAX_SLOT ? mpb / 32 : MC_FAST_MAX_SLOT;
    slot = slot / line * line;
    if (slot < line)
        return;
    c->fast_slot = slot;
    c->fast_off = mpb - 4 * slot;
    c->mpb_avail = c->fast_off;
}

static void comm_destroy(mc_comm_t *c)
{
    if (c->tp)
        c->tp->ops->destroy(c->tp);
    free(c->p2p_sent);
    free(c->p2p_recv);
    free(c->fast_seen);
    free(c->scratch);
    free(c->checked_algos);
    free(c);
}

int mc_comm_wrap(mc_tp_t *tp, mc_comm_t **out)
{
    mc_comm_t *c = calloc(1, sizeof *c);
    if (!c) {
        tp->ops->destroy(tp);
        return mc_error(MC_ERR_NOMEM, "out of memory creating a communicator");
    }
    c->tp = tp;
    c->rank = tp->rank;
    c->size = tp->size;
    c->max_count = MC_MAX_COUNT;
    c->max_block_count = MC_MAX_COUNT / (size_t)tp->size;
    c->p2p_sent = calloc((size_t)c->size, sizeof(uint64_t));
    c->p2p_recv = calloc((size_t)c->size, sizeof(uint64_t));
    c->fast_seen = calloc((size_t)c->size, sizeof(uint64_t));
    int rc = MC_OK;
    if (!c->p2p_sent || !c->p2p_recv || !c->fast_seen)
        rc = mc_error(MC_ERR_NOMEM, "out of memory creating a communicator");
    /* chunks are whole elements of every datatype: multiples of 8 */
    long long chunk = 0, check = 0;
    if (rc == MC_OK)
        rc = mc_env_int("MC_P2P_CHUNK", &chunk);
    if (rc == MC_OK)
        rc = mc_env_int("MC_CHECK_ARGS", &check);
    c->check_args = (int)check;
    tp->calls = &c->seq;
    reserve_fast(c);
    mc_fast_setup(c);
    size_t mpb = c->mpb_avail / 8 * 8;
    if (chunk == 0)
        chunk = (long long)tp->p2p_chunk_hint / 8 * 8;
    c->p2p_chunk = (chunk <= 0 || (size_t)chunk > mpb) ? mpb : (size_t)chunk;
    void *scratch;
    if (rc == MC_OK)
        rc = mc_scratch(c, SCRATCH_MIN, &scratch);
    if (rc == MC_OK)
        rc = mc_select_init(c->rules, c->size, tp->cache_coherent,
                            tp->ops->name);
    if (rc == MC_OK)
        rc = mc_check_args_arm(c);
    if (rc != MC_OK) {
        comm_destroy(c);
        return rc;
    }
    pthread_mutex_lock(&live_lock);
    c->next_live = live;
    live = c;
    pthread_mutex_unlock(&live_lock);
    *out = c;
    return MC_OK;
}

int mc_comm_create_shm(const char *job, int rank, int size, mc_comm_t **comm)
{
    static const char fn[] = "mc_comm_create_shm";
    if (!comm)
        return mc_error(MC_ERR_ARG, "%s: argument 'comm' is NULL", fn);
    *comm = NULL;
    if (!job)
        return mc_error(MC_ERR_ARG, "%s: argument 'job' is NULL", fn);
    if (size < 1 || size > MC_MAX_RANKS)
        return mc_error(MC_ERR_ARG, "%s: argument 'size' is %d, must be in "
                        "[1, %d]", fn, size, MC_MAX_RANKS);
    if (rank < 0 || rank >= size)
        return mc_error(MC_ERR_ARG,
                        "%s: argument 'rank' is %d, must be in [0, %d)", fn,
                        rank, size);
    mc_tp_t *tp;
    MC_CHECK(mc_shm_open(job, rank, size, &tp));
    return mc_comm_wrap(tp, comm);
}

int mc_job_name(char *buf, size_t len)
{
    if (!buf)
        return mc_error(MC_ERR_ARG, "mc_job_name: argument 'buf' is NULL");
    if (len < MC_JOB_NAME_MAX)
        return mc_error(MC_ERR_ARG,
                        "mc_job_name: argument 'len' is %zu, must be >= %d",
                        len, MC_JOB_NAME_MAX);
    unsigned char rnd[12];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        return mc_error(MC_ERR_SYS, "mc_job_name: getrandom failed");
    int n = snprintf(buf, len, "j%d-", (int)getpid());
    for (size_t i = 0; i < sizeof rnd; i++)
        n += snprintf(buf + n, len - (size_t)n, "%02x", rnd[i]);
    return MC_OK;
}

int mc_init(mc_comm_t **out)
{
    if (!out)
        return mc_error(MC_ERR_ARG, "mc_init: argument 'world' is NULL");
    if (world) {
        *out = world;
        return MC_OK;
    }
    const char *job = mc_env("MC_JOB");
    char solo[MC_JOB_NAME_MAX];
    long long rank = 0, size = 1, fd = -1;
    if (*job) {
        MC_CHECK(mc_env_int("MC_RANK", &rank));
        MC_CHECK(mc_env_int("MC_SIZE", &size));
        if (rank >= size)
            return mc_error(MC_ERR_ARG, "mc_init: MC_RANK=%lld is not below "
                            "MC_SIZE=%lld", rank, size);
        if (*mc_env("MC_JOB_FD"))
            MC_CHECK(mc_env_int("MC_JOB_FD", &fd));
    } else {
        /* not started by `manycoll run`: a world of one rank */
        MC_CHECK(mc_job_name(solo, sizeof solo));
        job = solo;
    }
    mc_tp_t *tp;
    if (fd >= 0)
        MC_CHECK(mc_shm_open_fd(job, (int)fd, (int)rank, (int)size, &tp));
    else
        MC_CHECK(mc_comm_create_shm(job, (int)rank, (int)size, &world));
    if (fd >= 0)
        MC_CHECK(mc_comm_wrap(tp, &world));
    world->owns_world = 1;
    *out = world;
    return MC_OK;
}

int mc_comm_free(mc_comm_t *c)
{
    if (!c)
        return mc_error(MC_ERR_ARG, "mc_comm_free: argument 'comm' is NULL");
    pthread_mutex_lock(&live_lock);
    for (mc_comm_t **p = &live; *p; p = &(*p)->next_live)
        if (*p == c) {
            *p = c->next_live;
            break;
        }
    if (c == world)
        world = NULL;
    pthread_mutex_unlock(&live_lock);
    comm_destroy(c);
    return MC_OK;
}

int mc_finalize(void)
{
    for (;;) {
        pthread_mutex_lock(&live_lock);
        mc_comm_t *c = live;
        pthread_mutex_unlock(&live_lock);
        if (!c)
            break;
        mc_comm_free(c);
    }
    return MC_OK;
}

int mc_comm_rank(const mc_comm_t *c)
{
    if (!c)
        return mc_error(MC_ERR_ARG, "mc_comm_rank: argument 'comm' is NULL");
    return c->rank;
}

int mc_comm_size(const mc_comm_t *c)
{
    if (!c)
        return mc_error(MC_ERR_ARG, "mc_comm_size: argument 'comm' is NULL");
    return c->size;
}

int mc_comm_set_algo(mc_comm_t *c, const char *coll, const char *spec)
{
    mc_coll_t k;
    if (!c)
        return mc_error(MC_ERR_ARG, "mc_comm_set_algo: argument 'comm' is "
                                    "NULL");
    if (!coll)
        return mc_error(MC_ERR_ARG, "mc_comm_set_algo: argument 'coll' is "
                                    "NULL");
    MC_CHECK(mc_coll_from_name(coll, &k));
    if (!spec) {
        mc_ruleset_t fresh[MC_COLL_COUNT];
        MC_CHECK(mc_select_init(fresh, c->size, c->tp->cache_coherent,
                                c->tp->ops->name));
        c->rules[k] = fresh[k];
        return mc_check_args_arm(c);
    }
    mc_sel_t sel;
    MC_CHECK(mc_algo_parse(k, spec, "mc_comm_set_algo", &sel));
    c->rules[k].n = 1;
    c->rules[k].r[0].max_bytes = SIZE_MAX;
    c->rules[k].r[0].sel = sel;
    c->rules[k].r[0].why = "mc_comm_set_algo";
    return mc_check_args_arm(c);
}
