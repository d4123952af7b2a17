/*
 * manycoll sim --coll pingpong --pair A,B: the ping-pong of RCCE and of
 * Reble et al.'s Fig. 6 between two cores of a simulated chip (or of two
 * chips, src/job/pingpong.h), --warmup W rounds, then --iters N measured.
 * Prints per size the half round trip and the throughput in MB/s.
 */
#include <stdio.h>

#include "job/pingpong.h"
#include "sim_cmd.h"
#include "tools.h"

static const char *const loc_names[] = {"self", "tile", "chip",
                                        "other-chip"};
static const char *const scheme_names[] = {"rcce", "lp_rg", "rp_lg",
                                           "lp_lg"};

/* one line of the results: half round trip and throughput of size n */
static void print_size(const sim_opts_t *o, const mc_platform_t *p,
                       const mc_pingpong_result_t *r, size_t n, int first)
{
    int iters = o->iters > 0 ? o->iters : 1;
    double half = r->half_rtt_us, mbps = r->mbps;
    const char *loc = loc_names[r->locality];
    const char *scheme = scheme_names[r->scheme + 1];
    if (o->json)
        printf("{\"platform\":\"%s\",\"coll\":\"pingpong\",\"pair\":[%d,"
               "%d],\"locality\":\"%s\",\"scheme\":\"%s\",\"piped\":%d,"
               "\"bytes\":%zu,\"iters\":%d,\"warmup\":%d,"
               "\"half_rtt_us\":%.4f,\"MBps\":%.4f}\n",
               p->name, o->pair[0], o->pair[1], loc, scheme, r->piped, n,
               iters, o->warmup, half, mbps);
    else {
        if (first)
            printf("# pingpong, cores %d and %d (%s, scheme %s), %d "
                   "rounds after %d\n%-10s %14s %12s\n", o->pair[0],
                   o->pair[1], loc, scheme, iters, o->warmup, "bytes",
                   "half_rtt_us", "MB/s");
        printf("%-10zu %14.3f %12.3f%s\n", n, half, mbps,
               r->piped ? "  piped" : "");
    }
    fflush(stdout);
}

/* one size: 0, or 1 after saying what failed */
static int run_size(const sim_opts_t *o, const mc_platform_t *p, size_t n,
                    int first)
{
    mc_pingpong_t pp = {
        .plat = p, .cores = {o->pair[0], o->pair[1]}, .bytes = n,
        .warmup = o->warmup, .iters = o->iters,
        .sim = (mc_sim_opts_t){o->cont_mpb, o->cont_link, o->cont_mc,
                               o->jitter, o->stack_size, 0, NULL, NULL, 0}};
    mc_pingpong_result_t r;
    if (mc_sim_pingpong(&pp, &r) != MC_OK) {
        fprintf(stderr, "manycoll sim: %s\n", mc_last_error());
        return 1;
    }
    print_size(o, p, &r, n, first);
    return 0;
}

int mc_sim_run_pingpong(const sim_opts_t *o, const mc_platform_t *p)
{
    if (o->pair[0] == o->pair[1] || o->pair[0] >= p->ncores ||
        o->pair[1] >= p->ncores)
        return mc_usage_error("sim", "--pair %d,%d: two different cores of "
                                     "%s's %d", o->pair[0], o->pair[1],
                              p->name, p->ncores);
    for (int i = 0; i < 2; i++)
        if (p->failed && p->failed[o->pair[i]])
            return mc_usage_error("sim", "--pair: core %d is listed in %s's "
                                         "failed_cores", o->pair[i], p->name);
    int bad = 0;
    for (int i = 0; i < o->nsizes && !bad; i++)
        bad = run_size(o, p, o->sizes[i], i == 0);
    return bad;
}
