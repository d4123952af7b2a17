/*
 * manycoll sim --runs N: run-to-run predictability, as the NoCMsg paper
 * measures it (21 runs, their mean and variance). Each iteration is a
 * fresh simulation in which every core calls the collective at time 0;
 * what differs between them is the jitter (--jitter SEED: every operation
 * and flag landing gets a random extra delay of up to its own length),
 * drawn per iteration from SEED. Without --jitter the simulator is
 * deterministic, every iteration would be the same, and one is run.
 */
#include <stdlib.h>

#include "sim_cmd.h"
#include "tools.h"

/* the jitter seed of iteration i (i = 0: the user's own) */
static uint64_t run_seed(uint64_t seed, int i)
{
    if (i == 0)
        return seed;
    uint64_t x = seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return (x ^ (x >> 31)) | 1u;
}

static void add_stats(mc_sim_stats_t *a, const mc_sim_stats_t *b)
{
    a->events += b->events;
    a->ops += b->ops;
    a->lines += b->lines;
    a->link_waits += b->link_waits;
    a->link_wait_ps += b->link_wait_ps;
    a->port_wait_ps += b->port_wait_ps;
    a->flag_waits += b->flag_waits;
    a->flag_wait_ps += b->flag_wait_ps;
    a->wall_s += b->wall_s;
    a->start_events += b->start_events;
    a->start_wall_s += b->start_wall_s;
}

int mc_sim_run_runs(const sim_opts_t *o, const mc_platform_t *p,
                     size_t bytes, sim_result_t *r, const char *trace_file)
{
    int n = o->runs > 1 ? o->runs : 1, rc = MC_OK;
    double *lat = calloc((size_t)n, sizeof *lat);
    if (!lat)
        return mc_error(MC_ERR_NOMEM, "out of memory for %d iterations", n);
    sim_opts_t oi = *o;
    mc_sim_stats_t sum = {0};
    double mean = 0, sq = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && !o->jitter) {
            lat[i] = lat[0]; /* deterministic: the same run again */
        } else {
            oi.jitter = run_seed(o->jitter, i);
            rc = mc_sim_run_size(&oi, p, bytes, r, i == 0 ? trace_file : NULL);
            if (rc != MC_OK)
                break;
            add_stats(&sum, &r->st);
            lat[i] = r->lat_us;
        }
        mean += lat[i];
    }
    if (rc != MC_OK || n == 1) {
        free(lat);
        r->runs = 1;
        r->run_lat = NULL;
        return rc;
    }
    mean /= n;
    for (int i = 0; i < n; i++)
        sq += (lat[i] - mean) * (lat[i] - mean);
    r->st = sum;
    r->runs = n;
    r->run_lat = lat;
    r->run_var = sq / (n - 1);
    r->lat_us = mean;
    r->bw_MBps = mean > 0 ? (double)bytes / mean : 0;
    return MC_OK;
}
