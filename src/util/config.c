#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/config.h"

const mc_envvar_t mc_envvars[] = {
    {"MC_ALGO_<COLL>", "",
     "force an algorithm for a collective, e.g. MC_ALGO_BCAST=binomial or "
     "MC_ALGO_ALLREDUCE=ring:chunk=4096; COLL is one of BARRIER BCAST REDUCE "
     "ALLREDUCE ALLGATHER ALLTOALL REDUCE_SCATTER_BLOCK GATHER SCATTER"},
    {"MC_TUNING", "",
     "tuning file (`manycoll tune`): per collective, rank count and size, "
     "the algorithm to run; unset = $XDG_CONFIG_HOME/manycoll/tuning.json "
     "(~/.config/...) if it exists, none = no tuning file (docs/tuning.md)"},
    {"MC_MPB_SIZE", "64K", "bytes of MPB payload per rank (shm transport)"},
    {"MC_P2P_CHUNK", "0",
     "payload bytes per two-sided chunk; 0 = the whole MPB"},
    {"MC_TIMEOUT", "60", "seconds a wait may last before MC_ERR_TIMEOUT"},
    {"MC_SPIN", "-1",
     "polls before a waiting rank yields the CPU; -1 = automatic (short "
     "when ranks outnumber cores)"},
    {"MC_SINGLE_COPY", "1",
     "1: large-message algorithms read peers' buffers directly "
     "(process_vm_readv) when the kernel allows it; 0: never (staged "
     "through the MPBs)"},
    {"MC_BIND", "0",
     "1: rank r runs on the r-th PU of the machine (round robin, bound to "
     "it) and the topology-aware algorithms (bcast:hier, reduce:hier) know "
     "every rank's package, NUMA node and L3 cache (hwloc; HWLOC_SYNTHETIC "
     "describes another machine for testing)"},
    {"MC_JOB", "", "job name (set by `manycoll run`)"},
    {"MC_RANK", "", "rank of this process (set by `manycoll run`)"},
    {"MC_SIZE", "", "number of ranks (set by `manycoll run`)"},
    {NULL, NULL, NULL},
};

static const mc_envvar_t *lookup(const char *name)
{
    for (const mc_envvar_t *e = mc_envvars; e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e;
    fprintf(stderr, "manycoll: internal error: unregistered variable %s\n",
            name);
    abort();
}

const char *mc_env(const char *name)
{
    const mc_envvar_t *e = lookup(name);
    const char *v = getenv(name);
    return (v && *v) ? v : e->def;
}

long long mc_parse_size(const char *s)
{
    char *end;
    if (!s || !*s)
        return -1;
    double v = strtod(s, &end);
    if (end == s || v < 0)
        return -1;
    switch (*end) {
    case 'k': case 'K': v *= 1024.0; end++; break;
    case 'm': case 'M': v *= 1024.0 * 1024; end++; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end == 'i' || *end == 'B')
        end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
    if (*end)
        return -1;
    return (long long)v;
}

long long mc_env_ll(const char *name)
{
    const char *v = mc_env(name);
    long long n = mc_parse_size(v);
    if (n < 0 && v[0] == '-')
        return strtoll(v, NULL, 10);
    return n;
}

double mc_env_double(const char *name)
{
    return strtod(mc_env(name), NULL);
}
