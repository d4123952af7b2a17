/*
 * manycoll gcmc: the GCMC proxy (gcmc.h) as a rank of `manycoll run`:
 *
 *   manycoll run -n N manycoll gcmc [--algo A[:k=v,...]] [--opts K=V,...]
 *
 * --algo forces the long-range allreduce's algorithm (e.g.
 * ring:sync=0,balance=0,tail=1,fused=0, RCCE_comm's stack); --opts sets
 * the proxy's sizes (cycles, particles, atoms, kmax, kvecs). Rank 0 prints
 * one JSON line.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app/gcmc.h"
#include "tools.h"

/* the proxy's result as one JSON line (rank 0's; `where` names the
 * machine) */
void mc_gcmc_print(const mc_gcmc_opts_t *o, const mc_gcmc_result_t *r,
                   int ranks, const char *where)
{
    double t = r->total_s > 0 ? r->total_s : 1;
    printf("{\"app\":\"gcmc\",\"on\":\"%s\",\"ranks\":%d,\"algo\":\"%s\","
           "\"cycles\":%d,\"particles\":%d,\"atoms\":%d,\"kmax\":%d,"
           "\"kvecs\":%d,\"total_us\":%.3f,\"cycle_us\":%.3f,"
           "\"longen_share\":%.4f,\"comm_share\":%.4f,\"accepted\":%d,"
           "\"energy\":%.9g}\n",
           where, ranks, o->algo ? o->algo : "default", o->cycles,
           o->particles, o->atoms, o->kmax, o->kvecs, r->total_s * 1e6,
           r->total_s * 1e6 / o->cycles, r->longen_s / t, r->comm_s / t,
           r->accepted, r->energy);
    fflush(stdout);
}

/* the wall clock in seconds (gcmc's clock on shm) */
static double wall(void *arg)
{
    (void)arg;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cmd_gcmc(int argc, char **argv)
{
    mc_gcmc_opts_t o;
    mc_gcmc_defaults(&o);
    for (int i = 1; i < argc; i++) {
        int known = !strcmp(argv[i], "--algo") || !strcmp(argv[i], "--opts");
        if (!known)
            return mc_usage_error("gcmc", "unknown option '%s'", argv[i]);
        if (i + 1 >= argc)
            return mc_usage_error("gcmc", "'%s' needs a value", argv[i]);
        if (!strcmp(argv[i], "--algo"))
            o.algo = argv[++i];
        else if (!strcmp(argv[i], "--opts")) {
            if (mc_gcmc_parse(argv[++i], &o) != MC_OK)
                return mc_usage_error("gcmc", "%s", mc_last_error());
        } else
            return mc_usage_error("gcmc", "unknown option '%s'", argv[i]);
    }
    if (mc_parse_only())
        return 0;
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK)
        return mc_usage_error("gcmc", "%s (run it under manycoll run)",
                              mc_last_error());
    mc_gcmc_result_t r;
    int rc = mc_gcmc_run(c, &o, wall, NULL, &r);
    if (rc != MC_OK)
        fprintf(stderr, "manycoll gcmc: rank %d: %s\n", mc_comm_rank(c),
                mc_last_error());
    else if (mc_comm_rank(c) == 0)
        mc_gcmc_print(&o, &r, mc_comm_size(c), "shm");
    mc_finalize();
    return rc == MC_OK ? 0 : 1;
}
