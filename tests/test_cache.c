/*
 * The simulator's private-memory caches (src/sim/cache.c) and its
 * local-MPB knob, against their definitions, one core alone, in both of
 * the engine's paths (closed form without contention, line by line with):
 *
 *   - a put from a buffer read for the first time costs the memory
 *     formula per line; the same put again costs l1_hit per line
 *   - 32 KiB (over the 16 KiB L1, under the 256 KiB L2) read twice: the
 *     second pass costs l2_hit per line (LRU evicts every line of a
 *     sequential pass before it comes back)
 *   - 512 KiB (over the L2): the second pass misses again
 *   - a write miss does not allocate: a get into a fresh buffer twice
 *     costs the memory write both times; after a read of the buffer the
 *     get hits
 *   - local_mpb_us: a put_mpb to the own MPB costs o_put_mpb + m (C_r +
 *     C_w) with both at local_mpb_us
 *
 *   test_cache
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/comm.h"
#include "job/sim_job.h"

typedef struct job {
    const mc_platform_t *p;
    int bad;
} job_t;

/* the simulated time of the calling core */
static mc_ps_t now(void)
{
    mc_ps_t t = 0;
    (void)mc_sim_job_time(&t);
    return t;
}

static mc_ps_t timed_put(job_t *j, mc_comm_t *c, const void *buf, size_t n)
{
    (void)j;
    mc_ps_t t0 = now();
    tp_put(c->team.tp, 0, 0, buf, n);
    return now() - t0;
}

static mc_ps_t timed_get(job_t *j, mc_comm_t *c, void *buf, size_t n)
{
    (void)j;
    mc_ps_t t0 = now();
    tp_get(c->team.tp, buf, 0, 0, n);
    return now() - t0;
}

static void expect(job_t *j, const char *what, mc_ps_t got, mc_ps_t want)
{
    if (got == want)
        return;
    fprintf(stderr, "test_cache: %s: %lld ps, want %lld ps\n", what,
            (long long)got, (long long)want);
    j->bad++;
}

/* a put of m lines: o_put_mem + m (line read + C_w^mpb(1)) */
static mc_ps_t put_cost(const mc_platform_t *p, int64_t m, mc_ps_t rd)
{
    return p->c.o_put_mem + m * (rd + p->c.o_mpb + 2 * p->c.L_hop);
}

/* buffers live side by side, line-aligned, so no line is in two */
static unsigned char *fresh_buf(size_t bytes)
{
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static void passes(job_t *j, mc_comm_t *c, size_t bytes, mc_ps_t second,
                   unsigned char *buf)
{
    const mc_platform_t *p = j->p;
    size_t n = 4096; /* the put goes through half the MPB at a time */
    mc_ps_t mem = p->c.o_mem_r + 2 * p->d_mem[0] * p->c.L_hop;
    int64_t m = (int64_t)(n / (size_t)p->line);
    char what[96];
    for (int pass = 0; pass < 2; pass++)
        for (size_t off = 0; off < bytes; off += n) {
            snprintf(what, sizeof what, "%zu bytes, pass %d, at %zu", bytes,
                     pass, off);
            expect(j, what, timed_put(j, c, buf + off, n),
                   put_cost(p, m, pass ? second : mem));
        }
}

static int cache_rank(mc_comm_t *c, int rank, void *arg)
{
    job_t *j = arg;
    const mc_platform_t *p = j->p;
    (void)rank;
    unsigned char *b1 = fresh_buf(4096), *b2 = fresh_buf(32768),
                  *b3 = fresh_buf(512 * 1024), *fresh = fresh_buf(1024);
    passes(j, c, 4096, p->cache.l1_hit, b1);
    passes(j, c, 32768, p->cache.l2_hit, b2);
    mc_ps_t mem_r = p->c.o_mem_r + 2 * p->d_mem[0] * p->c.L_hop;
    passes(j, c, 512 * 1024, mem_r, b3);
    /* write misses do not allocate */
    int64_t m = 1024 / p->line;
    mc_ps_t get_miss = p->c.o_get_mem +
                       m * (p->c.o_mpb + 2 * p->c.L_hop + p->c.o_mem_w +
                            2 * p->d_mem[0] * p->c.L_hop);
    mc_ps_t get_hit = p->c.o_get_mem +
                      m * (p->c.o_mpb + 2 * p->c.L_hop + p->cache.l1_hit);
    expect(j, "get into a fresh buffer", timed_get(j, c, fresh, 1024),
           get_miss);
    expect(j, "the same get again", timed_get(j, c, fresh, 1024), get_miss);
    timed_put(j, c, fresh, 1024); /* a read allocates */
    expect(j, "get after a read", timed_get(j, c, fresh, 1024), get_hit);
    free(b1);
    free(b2);
    free(b3);
    free(fresh);
    return MC_OK;
}

/* one core alone runs fn, contention on or off: the number of failures */
static int one_core(const mc_platform_t *p, int contention,
                    mc_sim_rank_fn fn, job_t *j)
{
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    job.plat = p;
    job.sim.contention_mpb = job.sim.contention_link =
        job.sim.contention_mc = contention;
    job.ranks = 1;
    job.rank_fn = fn;
    job.arg = j;
    mc_sim_job_stats_t st;
    if (mc_sim_job_run(&job, &st) != MC_OK) {
        fprintf(stderr, "test_cache: %s\n", mc_last_error());
        j->bad++;
    }
    return j->bad;
}

static int run(const char *platform, int contention)
{
    mc_platform_t *p;
    if (mc_platform_load(platform, &p) != MC_OK) {
        fprintf(stderr, "test_cache: %s\n", mc_last_error());
        return 1;
    }
    job_t j = {.p = p};
    one_core(p, contention, cache_rank, &j);
    mc_platform_free(p);
    printf("test_cache: %s, contention %s: %s\n", platform,
           contention ? "on" : "off", j.bad ? "FAILED" : "as defined");
    return j.bad != 0;
}

/* one core puts m lines from its own MPB to its own MPB */
static int local_rank(mc_comm_t *c, int rank, void *arg)
{
    job_t *j = arg;
    const mc_platform_t *p = j->p;
    (void)rank;
    mc_ps_t t0 = now();
    tp_put_mpb(c->team.tp, 0, 1024, 0, 1024);
    expect(j, "put_mpb within the own MPB", now() - t0,
           p->c.o_put_mpb + (1024 / p->line) * 2 * p->c.local_mpb);
    return MC_OK;
}

static int run_local(const char *platform, int contention)
{
    mc_platform_t *p;
    if (mc_platform_load(platform, &p) != MC_OK) {
        fprintf(stderr, "test_cache: %s\n", mc_last_error());
        return 1;
    }
    job_t j = {.p = p};
    if (p->c.local_mpb < 0) {
        fprintf(stderr, "test_cache: no local_mpb_us in the platform\n");
        mc_platform_free(p);
        return 1;
    }
    one_core(p, contention, local_rank, &j);
    mc_platform_free(p);
    printf("test_cache: local MPB, %s, contention %s: %s\n", platform,
           contention ? "on" : "off", j.bad ? "FAILED" : "as defined");
    return j.bad != 0;
}

int main(void)
{
    /* the knob without caches: a platform file of its own */
    const char *nocache = "test_cache_local.json";
    FILE *f = fopen(nocache, "w");
    if (!f)
        return 1;
    fprintf(f, "{\"extends\": \"scc48\", \"costs_us\": "
               "{\"local_mpb_us\": 0.028}}\n");
    fclose(f);
    int bad = run("scc48-cached", 0) + run("scc48-cached", 1) +
              run_local("scc48-kohler-nobug", 0) +
              run_local("scc48-kohler-nobug", 1) + run_local(nocache, 0) +
              run_local(nocache, 1);
    remove(nocache);
    return bad ? 1 : 0;
}
