#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "select/registry.h"
#include "util/config.h"

/* clang-format off */
const mc_algo_t mc_algos[] = {
    {.coll = MC_COLL_BARRIER, .name = "dissemination",
     .desc = "dissemination barrier: ceil(log2 P) rounds, one flag per round",
     .fn = mc_barrier_dissemination},
    {.coll = MC_COLL_BCAST, .name = "binomial",
     .desc = "RCCE_comm binary recursive tree on two-sided send/recv",
     .fn = mc_bcast_binomial},
    {.coll = MC_COLL_BCAST, .name = "scatter-allgather",
     .desc = "RCCE_comm scatter (binary recursive tree) + ring allgather, "
             "two-sided",
     .fn = mc_bcast_scatter_allgather},
    {.coll = MC_COLL_BCAST, .name = "ocbcast",
     .desc = "OC-Bcast (Petrovic et al.): pipelined k-ary tree of one-sided "
             "gets from the parent's MPB, binary notification trees, double "
             "buffering",
     .fn = mc_bcast_ocbcast,
     .resolve = mc_bcast_ocbcast_resolve,
     .params = {{"k", 0, 0, 1 << 20,
                 "tree fan-out; 0 = automatic (7 with MPBs, min(P-1, 8) "
                 "cache-coherent)"},
                {"chunk", 0, 0, 1LL << 30,
                 "bytes per pipelined chunk (K/M suffixes); 0 = automatic (96 "
                 "lines, at most half the MPB)"},
                {"leafdirect", 2, 0, 2,
                 "leaves get straight into private memory: 0 no, 1 yes, 2 "
                 "automatic (yes when cache-coherent)"}},
     .variants = {"k=1,chunk=64", "k=2,leafdirect=0,chunk=256",
                  "k=3,leafdirect=1", "k=1000"}},
    {.coll = MC_COLL_REDUCE, .name = "binomial",
     .desc = "binary recursive tree towards the root, two-sided, chunked; "
             "rank order for non-commutative ops",
     .fn = mc_reduce_binomial},
    {.coll = MC_COLL_ALLREDUCE, .name = "reduce-bcast",
     .desc = "binomial reduce to rank 0, then binomial bcast",
     .fn = mc_allreduce_reduce_bcast},
    {.coll = MC_COLL_ALLREDUCE, .name = "ring",
     .desc = "ring reduce-scatter + ring allgather on balanced blocks, "
             "two-sided",
     .fn = mc_allreduce_ring, .flags = MC_ALGO_COMMUTATIVE},
    {.coll = MC_COLL_ALLGATHER, .name = "ring",
     .desc = "ring allgather: P-1 steps, each forwards one block, two-sided",
     .fn = mc_allgather_ring},
    {.coll = MC_COLL_ALLTOALL, .name = "pairwise",
     .desc = "pairwise exchange: step i sends to rank+i, receives from "
             "rank-i, two-sided",
     .fn = mc_alltoall_pairwise},
    {.coll = MC_COLL_REDUCE_SCATTER_BLOCK, .name = "ring",
     .desc = "ring reduce-scatter: P-1 steps, each combines one block, "
             "two-sided",
     .fn = mc_reduce_scatter_block_ring, .flags = MC_ALGO_COMMUTATIVE},
    {.coll = MC_COLL_REDUCE_SCATTER_BLOCK, .name = "reduce-scatter",
     .desc = "binomial reduce to rank 0, then linear scatter; rank order "
             "for non-commutative ops",
     .fn = mc_reduce_scatter_block_reduce_scatter},
    {.coll = MC_COLL_GATHER, .name = "linear",
     .desc = "root receives from every rank in turn, two-sided",
     .fn = mc_gather_linear},
    {.coll = MC_COLL_SCATTER, .name = "linear",
     .desc = "root sends to every rank in turn, two-sided",
     .fn = mc_scatter_linear},
    {.name = NULL},
};
/* clang-format on */

const mc_algo_t *mc_algo_find(mc_coll_t coll, const char *name)
{
    for (const mc_algo_t *a = mc_algos; a->name; a++)
        if (a->coll == coll && strcmp(a->name, name) == 0)
            return a;
    return NULL;
}

int mc_algo_param_index(const mc_algo_t *algo, const char *name)
{
    for (int i = 0; algo->params[i].name; i++)
        if (strcmp(algo->params[i].name, name) == 0)
            return i;
    return -1;
}

static void list_names(mc_coll_t coll, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (const mc_algo_t *a = mc_algos; a->name; a++)
        if (a->coll == coll && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     used ? ", " : "", a->name);
}

static void list_params(const mc_algo_t *algo, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; algo->params[i].name && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 used ? ", " : "", algo->params[i].name);
    if (!used)
        snprintf(buf, len, "(none)");
}

/* parses one "k=v" into out; v may carry a K/M/G suffix */
static int parse_kv(const mc_algo_t *algo, char *kv, const char *who,
                    mc_sel_t *out)
{
    char names[512];
    char *eq = strchr(kv, '=');
    if (!eq) {
        return mc_error(MC_ERR_ARG, "%s: '%s' is not of the form key=value",
                        who, kv);
    }
    *eq = 0;
    int i = mc_algo_param_index(algo, kv);
    if (i < 0) {
        list_params(algo, names, sizeof names);
        return mc_error(MC_ERR_ARG,
                        "%s: algorithm '%s' has no parameter '%s'; valid: %s",
                        who, algo->name, kv, names);
    }
    long long v = mc_parse_size(eq + 1);
    const mc_param_desc_t *d = &algo->params[i];
    if (v < 0 || v < d->min || v > d->max)
        return mc_error(MC_ERR_ARG,
                        "%s: parameter %s=%s of '%s' must be in [%lld, %lld]",
                        who, kv, eq + 1, algo->name, (long long)d->min,
                        (long long)d->max);
    out->params.v[i] = v;
    return MC_OK;
}

int mc_algo_parse(mc_coll_t coll, const char *spec, const char *who,
                  mc_sel_t *out)
{
    char buf[256], names[512];
    if (!spec || strlen(spec) >= sizeof buf)
        return mc_error(MC_ERR_ARG, "%s: missing or too long algorithm", who);
    strcpy(buf, spec);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = 0;
    const mc_algo_t *algo = mc_algo_find(coll, buf);
    if (!algo) {
        list_names(coll, names, sizeof names);
        return mc_error(MC_ERR_ARG,
                        "%s: unknown %s algorithm '%s'; valid: %s", who,
                        mc_coll_name(coll), buf, names);
    }
    out->algo = algo;
    for (int i = 0; algo->params[i].name; i++)
        out->params.v[i] = algo->params[i].def;
    if (!colon)
        return MC_OK;
    char *save = NULL;
    for (char *kv = strtok_r(colon + 1, ",", &save); kv;
         kv = strtok_r(NULL, ",", &save))
        MC_CHECK(parse_kv(algo, kv, who, out));
    return MC_OK;
}

int mc_sel_resolve(mc_sel_t *s, int size)
{
    return s->algo->resolve ? s->algo->resolve(size, &s->params) : MC_OK;
}

void mc_sel_format(const mc_sel_t *s, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s", s->algo->name);
    for (int i = 0; s->algo->params[i].name && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%c%s=%lld",
                                 i ? ',' : ':', s->algo->params[i].name,
                                 (long long)s->params.v[i]);
}
