#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/cc.h"
#include "coll/p2p.h"
#include "select/registry.h"
#include "util/config.h"

/* the parameters of cc-tree (bcast and reduce): slots of src/coll/cc.h */
#define CC_TREE_PARAMS(chunk_default)                                        \
    {{"k1", 0, 0, 1 << 16,                                                   \
      "fan-out of the root; 0 = automatic: the optimiser's tree for this "   \
      "rank count (built-in xeonphi60 model, at most 4 levels)"},            \
     {"k2", 0, 0, 1 << 16, "fan-out of level 1 (0: no more levels)"},        \
     {"k3", 0, 0, 1 << 16, "fan-out of level 2 (0: no more levels)"},        \
     {"k4", 0, 0, 1 << 16,                                                   \
      "fan-out of level 3 (0: none); if k1.. reach too few ranks the last "  \
      "fan-out grows"},                                                      \
     {"inline", 1, 0, 1,                                                     \
      "1: data in the notification line when it fits (56 bytes on shm); "   \
      "0: always via the MPB"},                                              \
     {"chunk", 0, 0, 1LL << 30,                                              \
      "bytes per MPB chunk for larger messages; 0 = " chunk_default}}

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
     .fn = mc_bcast_scatter_allgather, .report = mc_p2p_report,
     .params = {MC_P2P_PARAM_SYNC(3), MC_P2P_PARAM_BALANCE, MC_P2P_PARAM_TAIL},
     .variants = {"sync=2,balance=0,tail=1", "sync=1",
                  "sync=0,balance=0,tail=1"}},
    {.coll = MC_COLL_BCAST, .name = "ocbcast",
     .desc = "OC-Bcast (Petrovic et al.): pipelined k-ary tree of one-sided "
             "gets from the parent's MPB, binary notification trees, double "
             "buffering",
     .fn = mc_bcast_ocbcast,
     .report = mc_bcast_ocbcast_report,
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
    {.coll = MC_COLL_REDUCE, .name = "rs-gather",
     .desc = "ring reduce-scatter + linear gather to the root (RCCE_comm's "
             "long reduce), two-sided",
     .fn = mc_reduce_rs_gather, .report = mc_p2p_report,
     .flags = MC_ALGO_COMMUTATIVE,
     .params = {MC_P2P_PARAM_SYNC(3), MC_P2P_PARAM_BALANCE, MC_P2P_PARAM_TAIL,
                MC_P2P_PARAM_FUSED},
     .variants = {"sync=0,balance=0,tail=1,fused=0", "sync=1,balance=0",
                  "sync=2,fused=0,tail=1"}},
    {.coll = MC_COLL_ALLREDUCE, .name = "reduce-bcast",
     .desc = "binomial reduce to rank 0, then binomial bcast",
     .fn = mc_allreduce_reduce_bcast},
    {.coll = MC_COLL_ALLREDUCE, .name = "ring",
     .desc = "ring reduce-scatter + ring allgather on balanced blocks, "
             "two-sided",
     .fn = mc_allreduce_ring, .report = mc_p2p_report,
     .flags = MC_ALGO_COMMUTATIVE,
     .params = {MC_P2P_PARAM_SYNC(3), MC_P2P_PARAM_BALANCE, MC_P2P_PARAM_TAIL,
                MC_P2P_PARAM_FUSED},
     .variants = {"sync=0,balance=0,tail=1,fused=0", "sync=1",
                  "sync=2,fused=0", "sync=2,balance=0,tail=1"}},
    {.coll = MC_COLL_ALLREDUCE, .name = "ring-mpb",
     .desc = "MPB-direct ring (Kohler et al.): reduce-scatter and allgather "
             "with the blocks in transit in the MPBs, double-buffered",
     .fn = mc_allreduce_ring_mpb, .flags = MC_ALGO_COMMUTATIVE},
    {.coll = MC_COLL_ALLGATHER, .name = "ring",
     .desc = "ring allgather: P-1 steps, each forwards one block, two-sided",
     .fn = mc_allgather_ring, .report = mc_p2p_report,
     .params = {MC_P2P_PARAM_SYNC(3), MC_P2P_PARAM_TAIL},
     .variants = {"sync=1", "sync=2,tail=1", "sync=0,tail=1"}},
    {.coll = MC_COLL_ALLTOALL, .name = "pairwise",
     .desc = "pairwise exchange: step i sends to rank+i, receives from "
             "rank-i, two-sided",
     .fn = mc_alltoall_pairwise,
     .params = {MC_P2P_PARAM_SYNC(2), MC_P2P_PARAM_TAIL},
     .variants = {"sync=0", "sync=0,tail=1", "sync=1,tail=1"}},
    {.coll = MC_COLL_REDUCE_SCATTER_BLOCK, .name = "ring",
     .desc = "ring reduce-scatter: P-1 steps, each combines one block, "
             "two-sided",
     .fn = mc_reduce_scatter_block_ring, .report = mc_p2p_report,
     .flags = MC_ALGO_COMMUTATIVE,
     .params = {MC_P2P_PARAM_SYNC(3), MC_P2P_PARAM_TAIL, MC_P2P_PARAM_FUSED},
     .variants = {"sync=1,tail=1", "sync=2,fused=0",
                  "sync=0,tail=1,fused=0"}},
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
    /* model-tuned cache-coherence algorithms (Ramos & Hoefler 2013, ch. 4;
     * src/coll/cc.h). Fan-outs: k1..k4 up to the first 0; k1 = 0 lets
     * the optimiser choose, from the built-in xeonphi60 model, once per
     * communicator; `manycoll tune` writes trees for this machine. */
    {.coll = MC_COLL_BCAST, .name = "cc-tree",
     .desc = "small broadcast on an optimised tree (fan-out per level): "
             "receiver-driven, payload + flag in one line, one shared ack "
             "line per parent; larger messages via the parent's MPB",
     .fn = mc_bcast_cc_tree, .report = mc_cc_resolve_bcast,
     .params = CC_TREE_PARAMS("half the MPB"),
     .variants = {"k1=1", "k1=2,k2=1,inline=0", "k1=3,k2=2,chunk=64",
                  "k1=1,k2=1,k3=1,k4=1", "k1=1000,inline=0"}},
    {.coll = MC_COLL_BCAST, .name = "cc-flat",
     .desc = "flat-tree large broadcast: every rank copies the whole "
             "message from the root's MPB at once (Eq. 4.10)",
     .fn = mc_bcast_cc_flat,
     .params = {{"chunk", 0, 0, 1LL << 30,
                 "bytes per double-buffered chunk; 0 = half the MPB"}},
     .variants = {"chunk=64"}},
    {.coll = MC_COLL_BCAST, .name = "cc-pipeline",
     .desc = "pipelined large broadcast, cyclic slices: P-1 slices, stage "
             "j copies a slice from the rank that took it from the root "
             "(Eq. 4.8)",
     .fn = mc_bcast_cc_pipeline,
     .params = {{"block", 0, 0, 1LL << 30,
                 "bytes per double-buffered block; 0 = half the MPB"}},
     .variants = {"block=64", "block=200"}},
    {.coll = MC_COLL_REDUCE, .name = "cc-tree",
     .desc = "small reduction on an optimised tree (fan-out per level): "
             "parents combine children's partial results from their lines "
             "or MPBs; rank order for non-commutative ops",
     .fn = mc_reduce_cc_tree, .report = mc_cc_resolve_reduce,
     .params = CC_TREE_PARAMS("the whole MPB"),
     .variants = {"k1=1", "k1=2,k2=2,inline=0", "k1=3,chunk=64",
                  "k1=1000", "k1=1,k2=1,k3=1,k4=1,chunk=1000"}},
    {.coll = MC_COLL_BARRIER, .name = "dissemination-m",
     .desc = "dissemination barrier with m peers per round, "
             "ceil(log_{m+1} P) rounds (Eq. 4.11)",
     .fn = mc_barrier_dissemination_m, .report = mc_cc_resolve_barrier,
     .params = {{"m", 0, 0, 1 << 16,
                 "peers per round; 0 = automatic (optimiser, built-in "
                 "xeonphi60 model)"}},
     .variants = {"m=1", "m=2", "m=3", "m=9"}},
    {.coll = MC_COLL_BARRIER, .name = "flat",
     .desc = "every rank raises its own flag line and reads all others "
             "(small P)",
     .fn = mc_barrier_flat},
    {.coll = MC_COLL_BCAST, .name = "flat",
     .desc = "root publishes data+flag in its own line or slot, all read "
             "it at once; larger messages slot by slot",
     .fn = mc_bcast_flat},
    {.coll = MC_COLL_REDUCE, .name = "flat",
     .desc = "every rank publishes in its own line or slot, the root "
             "combines all in rank order",
     .fn = mc_reduce_flat},
    {.coll = MC_COLL_ALLREDUCE, .name = "flat",
     .desc = "every rank publishes in its own line or slot and combines all "
             "in rank order (same bits everywhere)",
     .fn = mc_allreduce_flat},
    {.coll = MC_COLL_ALLGATHER, .name = "flat",
     .desc = "every rank publishes its block in its own line or slot and "
             "copies all others' (one step); larger blocks slot by slot",
     .fn = mc_allgather_flat},
    {.coll = MC_COLL_ALLTOALL, .name = "flat",
     .desc = "every rank publishes its P blocks in its own slot and takes "
             "its block from every other rank's (one step)",
     .fn = mc_alltoall_flat},
    {.coll = MC_COLL_REDUCE_SCATTER_BLOCK, .name = "flat",
     .desc = "every rank publishes its P blocks; rank r combines block r of "
             "all ranks in rank order (one step)",
     .fn = mc_reduce_scatter_block_flat},
    {.coll = MC_COLL_ALLREDUCE, .name = "rsag",
     .desc = "one-sided reduce-scatter + allgather pipelined through the "
             "MPBs: each rank reduces one block reading the others' MPBs; "
             "rank order",
     .fn = mc_allreduce_rsag,
     .params = {{"chunk", 0, 0, 1LL << 30,
                 "bytes per pipelined chunk and block; 0 = 64K (at most what "
                 "two slots of P chunks leave in the MPB)"}},
     .variants = {"chunk=64", "chunk=1000"}},
    {.coll = MC_COLL_BCAST, .name = "direct",
     .desc = "single copy: every rank reads the root's buffer straight "
             "from its process (process_vm_readv); flat where single copy "
             "is off",
     .fn = mc_bcast_direct, .flags = MC_ALGO_SINGLE_COPY},
    {.coll = MC_COLL_REDUCE, .name = "direct",
     .desc = "single copy: the root combines everyone's input read "
             "straight from their processes (process_vm_readv); rank "
             "order; flat where single copy is off",
     .fn = mc_reduce_direct, .flags = MC_ALGO_SINGLE_COPY,
     .params = {{"chunk", 0, 0, 1LL << 30,
                 "bytes combined per step through a scratch buffer; 0 = 64K"}},
     .variants = {"chunk=1000"}},
    {.coll = MC_COLL_ALLREDUCE, .name = "direct",
     .desc = "single copy: reduce-scatter + allgather reading the others' "
             "buffers straight from their processes (process_vm_readv); "
             "rank order; rsag where single copy is off",
     .fn = mc_allreduce_direct, .flags = MC_ALGO_SINGLE_COPY,
     .params = {{"chunk", 0, 0, 1LL << 30,
                 "bytes combined per step through a scratch buffer; 0 = 64K"}},
     .variants = {"chunk=64", "chunk=1000"}},
    {.coll = MC_COLL_REDUCE_SCATTER_BLOCK, .name = "direct",
     .desc = "single copy: rank r combines block r read straight from every "
             "rank's buffer (process_vm_readv); rank order; flat where "
             "single copy is off",
     .fn = mc_reduce_scatter_block_direct, .flags = MC_ALGO_SINGLE_COPY,
     .params = {{"chunk", 0, 0, 1LL << 30,
                 "bytes combined per step through a scratch buffer; 0 = 64K"}},
     .variants = {"chunk=1000"}},
    {.coll = MC_COLL_ALLGATHER, .name = "direct",
     .desc = "single copy: every rank reads every other rank's block "
             "straight from its buffer (process_vm_readv); ring where "
             "single copy is off",
     .fn = mc_allgather_direct, .flags = MC_ALGO_SINGLE_COPY},
    {.coll = MC_COLL_ALLTOALL, .name = "direct",
     .desc = "single copy: rank r reads block r straight from every rank's "
             "buffer (process_vm_readv); pairwise where single copy is off",
     .fn = mc_alltoall_direct, .flags = MC_ALGO_SINGLE_COPY},
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

void mc_sel_format(const mc_sel_t *s, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s", s->algo->name);
    for (int i = 0; s->algo->params[i].name && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%c%s=%lld",
                                 i ? ',' : ':', s->algo->params[i].name,
                                 (long long)s->params.v[i]);
}
