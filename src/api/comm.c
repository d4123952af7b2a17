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

#include "api/api.h"
#include "api/comm.h"
#include "api/nbc.h"
#include "api/trace.h"
#include "tp/shm.h"
#include "util/config.h"
#include "util/error.h"

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static mc_comm_t *live;  /* every communicator not yet freed */
static mc_comm_t *world; /* from mc_init */

void mc_comm_destroy(mc_comm_t *c)
{
    mc_nb_ctx_free_all(c);
    mc_comm_rules_release(c);
    mc_team_fini(&c->team);
    free(c->wide);
    free(c);
}

int mc_comm_wrap(mc_tp_t *tp, mc_comm_t **out)
{
    /* on a line of its own (comm.h); sizeof is a multiple of 64 */
    mc_comm_t *c = aligned_alloc(_Alignof(mc_comm_t), sizeof *c);
    if (c)
        memset(c, 0, sizeof *c);
    if (!c) {
        tp->ops->destroy(tp);
        return mc_error(MC_ERR_NOMEM, "out of memory creating a communicator");
    }
    size_t size = (size_t)tp->size; /* tp is gone if mc_team_init fails */
    int rc = mc_team_init(&c->team, tp);
    c->max_count = MC_MAX_COUNT;
    c->max_block_count = MC_MAX_COUNT / size;
    long long check = 0;
    if (rc == MC_OK)
        rc = mc_env_int("MC_CHECK_ARGS", &check);
    c->check_args = (int)check;
    if (rc == MC_OK)
        tp->calls = &c->team.seq;
    if (rc == MC_OK)
        rc = mc_comm_rules_init(c);
    if (rc != MC_OK) {
        mc_comm_destroy(c);
        return rc;
    }
    pthread_mutex_lock(&live_lock);
    c->next_live = live;
    c->prev_live = NULL;
    if (live)
        live->prev_live = c;
    live = c;
    pthread_mutex_unlock(&live_lock);
    *out = c;
    return MC_OK;
}

int mc_sim_comm_create(mc_sim_t *sim, mc_sim_domain_t *dom, int rank,
                       mc_comm_t **out)
{
    mc_tp_t *tp = NULL; /* set on success; gcc -O3 cannot see that */
    MC_CHECK(mc_sim_tp_create(sim, dom, rank, &tp));
    return mc_comm_wrap(tp, out);
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
    mc_tp_t *tp = NULL; /* set on success; gcc -O3 cannot see that */
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
    char unknown[256];
    /* once per job: rank 0, or a program run without `manycoll run` */
    if (mc_env_unknown(unknown, sizeof unknown) &&
        (!*mc_env("MC_RANK") || !strcmp(mc_env("MC_RANK"), "0")))
        fprintf(stderr, "manycoll: warning: not manycoll variables, "
                        "ignored: %s (`manycoll info` lists them)\n",
                unknown);
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
    world->trace_id = 1; /* MC_TRACE's world (api/trace.h) */
    int rc = mc_trace_open((int)rank, (int)size);
    world->traced = mc_trace_on;
    if (rc != MC_OK) {
        mc_comm_free(world);
        return rc;
    }
    *out = world;
    return MC_OK;
}

static void unlist_locked(mc_comm_t *c)
{
    if (c->prev_live)
        c->prev_live->next_live = c->next_live;
    else if (live == c)
        live = c->next_live;
    if (c->next_live)
        c->next_live->prev_live = c->prev_live;
    c->next_live = c->prev_live = NULL;
}

void mc_comm_unlist(mc_comm_t *c)
{
    pthread_mutex_lock(&live_lock);
    unlist_locked(c);
    pthread_mutex_unlock(&live_lock);
}

int mc_comm_free(mc_comm_t *c)
{
    if (!c)
        return mc_error(MC_ERR_ARG, "mc_comm_free: argument 'comm' is NULL");
    if (mc_nb_pending(c)) /* its outstanding calls complete first, as in
                             MPI */
        (void)mc_nb_drain(c);
    pthread_mutex_lock(&live_lock);
    unlist_locked(c);
    if (c == world)
        world = NULL;
    int last = !live;
    pthread_mutex_unlock(&live_lock);
    mc_comm_destroy(c);
    if (last)
        mc_comm_rules_flush();
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
    mc_nb_pool_free();
    mc_trace_close();
    return MC_OK;
}

int mc_set_progress(mc_progress_fn fn, void *arg)
{
    mc_shm_set_progress(fn, arg);
    return MC_OK;
}

int mc_comm_rank(const mc_comm_t *c)
{
    if (!c)
        return mc_error(MC_ERR_ARG, "mc_comm_rank: argument 'comm' is NULL");
    return c->team.rank;
}

int mc_comm_size(const mc_comm_t *c)
{
    if (!c)
        return mc_error(MC_ERR_ARG, "mc_comm_size: argument 'comm' is NULL");
    return c->team.size;
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
    return mc_comm_rules_set(c, k, spec);
}

int mc_comm_get_algo(const mc_comm_t *c, const char *coll, size_t bytes,
                     mc_op_t op, char *algo, size_t len, char *why,
                     size_t wlen, size_t *upto)
{
    mc_coll_t k;
    if (!c || !coll || !algo)
        return mc_error(MC_ERR_ARG, "mc_comm_get_algo: argument '%s' is "
                        "NULL", !c ? "comm" : !coll ? "coll"
                                    : "algo");
    MC_CHECK(mc_coll_from_name(coll, &k));
    mc_explain_t x;
    mc_select_explain(c->rules, k, bytes, op, &x);
    snprintf(algo, len, "%s", x.ran);
    if (why)
        snprintf(why, wlen, "%s", x.why);
    if (upto)
        *upto = x.max_bytes;
    return MC_OK;
}

void mc_comm_describe(const mc_comm_t *c, mc_coll_t coll, size_t bytes,
                      mc_op_t op, char *buf, size_t len)
{
    mc_explain_t x;
    mc_select_explain(c->rules, coll, bytes, op, &x);
    snprintf(buf, len, "%s", x.ran);
}

void mc_comm_explain(const mc_comm_t *c, mc_coll_t coll, size_t bytes,
                     mc_op_t op, mc_explain_t *out)
{
    mc_select_explain(c->rules, coll, bytes, op, out);
}

void mc_comm_explain_last(const mc_comm_t *c, mc_explain_t *x)
{
    if (!c->declined_to || c->declined_seq != c->team.seq)
        return;
    /* its `replaces` chain runs through the algorithm that declined */
    mc_sel_format(c->declined_to, x->ran, sizeof x->ran);
    int n = snprintf(x->why, sizeof x->why, "%s", x->origin);
    mc_sel_why(c->declined_to, x->why, sizeof x->why, (size_t)n);
    x->fallback = 1;
}
