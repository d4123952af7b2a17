#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/cc.h"
#include "coll/coll.h"
#include "coll/direct.h"
#include "coll/p2p.h"
#include "select/registry.h"
#include "util/config.h"
#include "util/error.h"


/* clang-format off */
const mc_algo_t mc_algos[] = {
    {.coll = MC_COLL_BARRIER, .name = "dissemination",
     .desc = "dissemination barrier: ceil(log2 P) rounds, one flag per round",
     .impl = &mc_barrier_dissemination_algo},
    {.coll = MC_COLL_BCAST, .name = "binomial",
     .desc = "RCCE_comm binary recursive tree on two-sided send/recv",
     .impl = &mc_bcast_binomial_algo},
    {.coll = MC_COLL_BCAST, .name = "scatter-allgather",
     .desc = "RCCE_comm scatter (binary recursive tree) + ring allgather, "
             "two-sided",
     .impl = &mc_bcast_scatter_allgather_algo,
     .variants = {"sync=2,balance=0,tail=1", "sync=1",
                  "sync=0,balance=0,tail=1"}},
    {.coll = MC_COLL_BCAST, .name = "ocbcast",
     .desc = "OC-Bcast (Petrovic et al.): pipelined k-ary tree of one-sided "
             "gets from the parent's MPB, binary notification trees, double "
             "buffering",
     .impl = &mc_bcast_ocbcast_algo,
     .variants = {"k=1,chunk=64", "k=2,leafdirect=0,chunk=256",
                  "k=3,leafdirect=1", "k=1000"}},
    {.coll = MC_COLL_REDUCE, .name = "binomial",
     .desc = "binary recursive tree towards the root, two-sided, chunked; "
             "rank order for non-commutative ops",
     .impl = &mc_reduce_binomial_algo},
    {.coll = MC_COLL_REDUCE, .name = "rs-gather",
     .desc = "ring reduce-scatter + linear gather to the root (RCCE_comm's "
             "long reduce), two-sided",
     .impl = &mc_reduce_rs_gather_algo,
     .variants = {"sync=0,balance=0,tail=1,fused=0", "sync=1,balance=0",
                  "sync=2,fused=0,tail=1"}},
    {.coll = MC_COLL_ALLREDUCE, .name = "reduce-bcast",
     .desc = "binomial reduce to rank 0, then binomial bcast",
     .impl = &mc_allreduce_reduce_bcast_algo},
    {.coll = MC_COLL_ALLREDUCE, .name = "ring",
     .desc = "ring reduce-scatter + ring allgather on balanced blocks, "
             "two-sided",
     .impl = &mc_allreduce_ring_algo,
     .variants = {"sync=0,balance=0,tail=1,fused=0", "sync=1",
                  "sync=2,fused=0", "sync=2,balance=0,tail=1"}},
    {.coll = MC_COLL_ALLREDUCE, .name = "ring-mpb",
     .desc = "MPB-direct ring (Kohler et al.): reduce-scatter and allgather "
             "with the blocks in transit in the MPBs, double-buffered",
     .impl = &mc_allreduce_ring_mpb_algo},
    {.coll = MC_COLL_ALLGATHER, .name = "ring",
     .desc = "ring allgather: P-1 steps, each forwards one block, two-sided",
     .impl = &mc_allgather_ring_algo,
     .variants = {"sync=1", "sync=2,tail=1", "sync=0,tail=1"}},
    {.coll = MC_COLL_ALLTOALL, .name = "pairwise",
     .desc = "pairwise exchange: step i sends to rank+i, receives from "
             "rank-i, two-sided",
     .impl = &mc_alltoall_pairwise_algo,
     .variants = {"sync=0", "sync=0,tail=1", "sync=1,tail=1"}},
    {.coll = MC_COLL_REDUCE_SCATTER_BLOCK, .name = "ring",
     .desc = "ring reduce-scatter: P-1 steps, each combines one block, "
             "two-sided",
     .impl = &mc_reduce_scatter_block_ring_algo,
     .variants = {"sync=1,tail=1", "sync=2,fused=0",
                  "sync=0,tail=1,fused=0"}},
    {.coll = MC_COLL_REDUCE_SCATTER_BLOCK, .name = "reduce-scatter",
     .desc = "binomial reduce to rank 0, then linear scatter; rank order "
             "for non-commutative ops",
     .impl = &mc_reduce_scatter_block_reduce_scatter_algo},
    {.coll = MC_COLL_GATHER, .name = "linear",
     .desc = "root receives from every rank in turn, two-sided",
     .impl = &mc_gather_linear_algo},
    {.coll = MC_COLL_SCATTER, .name = "linear",
     .desc = "root sends to every rank in turn, two-sided",
     .impl = &mc_scatter_linear_algo},
    {.coll = MC_COLL_SCAN, .name = "linear",
     .desc = "chain in rank order: each rank combines its input into the "
             "prefix from the rank before and passes it on; any op",
     .impl = &mc_scan_linear_algo},
    {.coll = MC_COLL_SCAN, .name = "recursive-doubling",
     .desc = "MPICH's: log2 P exchanges of partial reductions, each rank "
             "adding those from below to its result; any op",
     .impl = &mc_scan_recursive_doubling_algo},
    {.coll = MC_COLL_EXSCAN, .name = "recursive-doubling",
     .desc = "MPICH's: log2 P exchanges of partial reductions, the result "
             "built from those below; any op",
     .impl = &mc_scan_recursive_doubling_algo},
    {.coll = MC_COLL_EXSCAN, .name = "linear",
     .desc = "chain in rank order: each rank keeps the prefix from the "
             "rank before and passes on prefix op input; any op",
     .impl = &mc_scan_linear_algo},
    {.coll = MC_COLL_ALLGATHERV, .name = "ring",
     .desc = "ring: P-1 steps, each passes on one rank's block (any size), "
             "two-sided",
     .impl = &mc_allgatherv_ring_algo},
    {.coll = MC_COLL_ALLTOALLV, .name = "pairwise",
     .desc = "pairwise exchange: step i sends to rank+i, receives from "
             "rank-i, blocks of any size, two-sided",
     .impl = &mc_alltoallv_pairwise_algo},
    {.coll = MC_COLL_GATHERV, .name = "linear",
     .desc = "root receives every rank's block in turn, two-sided",
     .impl = &mc_gatherv_linear_algo},
    {.coll = MC_COLL_SCATTERV, .name = "linear",
     .desc = "root sends every rank's block in turn, two-sided",
     .impl = &mc_scatterv_linear_algo},
    {.coll = MC_COLL_REDUCE_SCATTER, .name = "reduce-scatterv",
     .desc = "binomial reduce of the whole vector to rank 0, then linear "
             "scatterv; rank order for non-commutative ops",
     .impl = &mc_reduce_scatter_reduce_algo},
    {.coll = MC_COLL_REDUCE_SCATTER, .name = "flat",
     .desc = "the whole vector in slot-sized windows: every rank publishes "
             "each window, a rank combines its part of it from every slot "
             "in rank order",
     .impl = &mc_reduce_scatter_flat_algo},
    {.coll = MC_COLL_REDUCE_SCATTER, .name = "direct",
     .desc = "single copy: rank r combines its block read straight from "
             "every rank's buffer (process_vm_readv); rank order; flat "
             "where single copy is off",
     .impl = &mc_reduce_scatter_direct_algo,
     .variants = {"chunk=1000"}},
    /* model-tuned cache-coherence algorithms (Ramos & Hoefler 2013, ch. 4;
     * src/coll/cc.h). Fan-outs: k1..k4 up to the first 0; k1 = 0 lets
     * the optimiser choose, from the built-in xeonphi60 model, once per
     * communicator; `manycoll tune` writes trees for this machine. */
    {.coll = MC_COLL_BCAST, .name = "cc-tree",
     .desc = "small broadcast on an optimised tree (fan-out per level): "
             "receiver-driven, payload + flag in one line, one shared ack "
             "line per parent; larger messages via the parent's MPB",
     .impl = &mc_bcast_cc_tree_algo,
     .variants = {"k1=1", "k1=2,k2=1,inline=0", "k1=3,k2=2,chunk=64",
                  "k1=1,k2=1,k3=1,k4=1", "k1=1000,inline=0"}},
    {.coll = MC_COLL_BCAST, .name = "cc-flat",
     .desc = "flat-tree large broadcast: every rank copies the whole "
             "message from the root's MPB at once (Eq. 4.10)",
     .impl = &mc_bcast_cc_flat_algo,
     .variants = {"chunk=64"}},
    {.coll = MC_COLL_BCAST, .name = "cc-pipeline",
     .desc = "pipelined large broadcast, cyclic slices: P-1 slices, stage "
             "j copies a slice from the rank that took it from the root "
             "(Eq. 4.8)",
     .impl = &mc_bcast_cc_pipeline_algo,
     .variants = {"block=64", "block=200"}},
    {.coll = MC_COLL_REDUCE, .name = "cc-tree",
     .desc = "small reduction on an optimised tree (fan-out per level): "
             "parents combine children's partial results from their lines "
             "or MPBs; rank order for non-commutative ops",
     .impl = &mc_reduce_cc_tree_algo,
     .variants = {"k1=1", "k1=2,k2=2,inline=0", "k1=3,chunk=64",
                  "k1=1000", "k1=1,k2=1,k3=1,k4=1,chunk=1000"}},
    {.coll = MC_COLL_BARRIER, .name = "dissemination-m",
     .desc = "dissemination barrier with m peers per round, "
             "ceil(log_{m+1} P) rounds (Eq. 4.11)",
     .impl = &mc_barrier_dissemination_m_algo,
     .variants = {"m=1", "m=2", "m=3", "m=9"}},
    {.coll = MC_COLL_BARRIER, .name = "flat",
     .desc = "every rank raises its own flag line and reads all others "
             "(small P)",
     .impl = &mc_barrier_flat_algo},
    {.coll = MC_COLL_BARRIER, .name = "linear",
     .desc = "every other rank raises its flag line, rank 0 reads them "
             "all and raises its own, which they read (small P)",
     .impl = &mc_barrier_linear_algo},
    {.coll = MC_COLL_BCAST, .name = "flat",
     .desc = "root publishes data+flag in its own line or slot, all read "
             "it at once; larger messages slot by slot",
     .impl = &mc_bcast_flat_algo},
    {.coll = MC_COLL_REDUCE, .name = "flat",
     .desc = "every rank publishes in its own line or slot, the root "
             "combines all in rank order",
     .impl = &mc_reduce_flat_algo},
    {.coll = MC_COLL_ALLREDUCE, .name = "flat",
     .desc = "every rank publishes in its own line or slot and combines all "
             "in rank order (same bits everywhere)",
     .impl = &mc_allreduce_flat_algo},
    {.coll = MC_COLL_ALLGATHER, .name = "flat",
     .desc = "every rank publishes its block in its own line or slot and "
             "copies all others' (one step); larger blocks slot by slot",
     .impl = &mc_allgather_flat_algo},
    {.coll = MC_COLL_GATHER, .name = "flat",
     .desc = "every other rank publishes its block in its own line or "
             "slot, the root copies them all (one step); larger blocks "
             "slot by slot",
     .impl = &mc_gather_flat_algo},
    {.coll = MC_COLL_ALLTOALL, .name = "flat",
     .desc = "every rank publishes its P blocks in its own slot and takes "
             "its block from every other rank's (one step)",
     .impl = &mc_alltoall_flat_algo},
    {.coll = MC_COLL_REDUCE_SCATTER_BLOCK, .name = "flat",
     .desc = "every rank publishes its P blocks; rank r combines block r of "
             "all ranks in rank order (one step)",
     .impl = &mc_reduce_scatter_block_flat_algo},
    {.coll = MC_COLL_ALLREDUCE, .name = "rsag",
     .desc = "one-sided reduce-scatter + allgather pipelined through the "
             "MPBs: each rank reduces one block reading the others' MPBs; "
             "rank order",
     .impl = &mc_allreduce_rsag_algo,
     /* chunk=4: calls of wider elements are declined, reduce-bcast
      * runs them (the dispatcher's next selection) */
     .variants = {"chunk=64", "chunk=1000", "chunk=4"}},
    {.coll = MC_COLL_BCAST, .name = "direct",
     .desc = "single copy: every rank reads the root's buffer straight "
             "from its process (process_vm_readv); flat where single copy "
             "is off",
     .impl = &mc_bcast_direct_algo},
    {.coll = MC_COLL_REDUCE, .name = "direct",
     .desc = "single copy: the root combines everyone's input read "
             "straight from their processes (process_vm_readv); rank "
             "order; flat where single copy is off",
     .impl = &mc_reduce_direct_algo,
     .variants = {"chunk=1000"}},
    {.coll = MC_COLL_REDUCE, .name = "direct-root",
     .desc = "single copy: the root alone combines everyone's input read "
             "straight from their processes (process_vm_readv), the others "
             "wait; rank order; flat where single copy is off",
     .impl = &mc_reduce_direct_root_algo,
     .variants = {"chunk=1000"}},
    {.coll = MC_COLL_ALLREDUCE, .name = "direct",
     .desc = "single copy: reduce-scatter + allgather reading the others' "
             "buffers straight from their processes (process_vm_readv); "
             "rank order; rsag where single copy is off",
     .impl = &mc_allreduce_direct_algo,
     .variants = {"chunk=64", "chunk=1000"}},
    {.coll = MC_COLL_ALLREDUCE, .name = "direct-all",
     .desc = "single copy in one phase: every rank reads every other "
             "rank's whole input (process_vm_readv) and combines all; rank "
             "order; rsag where single copy is off",
     .impl = &mc_allreduce_direct_all_algo,
     .variants = {"chunk=1000"}},
    {.coll = MC_COLL_REDUCE_SCATTER_BLOCK, .name = "direct",
     .desc = "single copy: rank r combines block r read straight from every "
             "rank's buffer (process_vm_readv); rank order; flat where "
             "single copy is off",
     .impl = &mc_reduce_scatter_block_direct_algo,
     .variants = {"chunk=1000"}},
    {.coll = MC_COLL_ALLGATHER, .name = "direct",
     .desc = "single copy: every rank reads every other rank's block "
             "straight from its buffer (process_vm_readv); ring where "
             "single copy is off",
     .impl = &mc_allgather_direct_algo},
    {.coll = MC_COLL_ALLTOALL, .name = "direct",
     .desc = "single copy: rank r reads block r straight from every rank's "
             "buffer (process_vm_readv); pairwise where single copy is off",
     .impl = &mc_alltoall_direct_algo},
    {.coll = MC_COLL_GATHER, .name = "direct",
     .desc = "single copy: the root reads every rank's block straight from "
             "its buffer (process_vm_readv); linear where single copy is "
             "off",
     .impl = &mc_gather_direct_algo},
    {.coll = MC_COLL_SCATTER, .name = "direct",
     .desc = "single copy: every rank reads its block straight from the "
             "root's buffer (process_vm_readv); linear where single copy is "
             "off",
     .impl = &mc_scatter_direct_algo},
    {.coll = MC_COLL_SCATTER, .name = "flat",
     .desc = "the root publishes its P blocks in its own slot, a window "
             "per fast call, and every rank copies its block from there "
             "(all at once)",
     .impl = &mc_scatter_flat_algo},
    /* NoCMsg (Yagna, Patil, Mueller): contention-free on a full grid of a
     * mesh chip (tp->topo), the contention-oblivious algorithm elsewhere */
    {.coll = MC_COLL_BARRIER, .name = "mesh-tree",
     .desc = "NoCMsg: tree from the grid's centre, every edge one mesh "
             "link, up then down; dissemination if not a grid",
     .impl = &mc_barrier_mesh_tree_algo,
     .variants = {"tree=1"}},
    {.coll = MC_COLL_BCAST, .name = "mesh-tree",
     .desc = "NoCMsg: column-first tree from the root, every edge one mesh "
             "link; the static network where the chip has one; binomial if "
             "not a grid",
     .impl = &mc_bcast_mesh_tree_algo,
     .variants = {"chunk=64", "sn=0", "sn=0,chunk=200"}},
    {.coll = MC_COLL_REDUCE, .name = "mesh-2step",
     .desc = "NoCMsg: columns onto the root's row, then the row onto the "
             "root, rounds by distance; binomial if not a grid or not "
             "commutative",
     .impl = &mc_reduce_mesh_2step_algo,
     .variants = {"chunk=64", "chunk=200"}},
    {.coll = MC_COLL_ALLREDUCE, .name = "mesh",
     .desc = "NoCMsg: mesh-2step reduce to rank 0, then mesh-tree bcast; "
             "reduce-bcast if not a grid or not commutative",
     .impl = &mc_allreduce_mesh_algo,
     .variants = {"chunk=64,sn=0", "sn=0"}},
    {.coll = MC_COLL_ALLTOALL, .name = "mesh-rounds",
     .desc = "NoCMsg: rounds of exchanges no two of which share a link, a "
             "barrier after each; pairwise if not a grid",
     .impl = &mc_alltoall_mesh_rounds_algo,
     .variants = {"barrier=1,rounds=1,chunk=64", "rounds=2,chunk=200"}},
    {.coll = MC_COLL_ALLREDUCE, .name = "recursive-doubling",
     .desc = "MPICH/OperaMPI recursive doubling: log2 P pairwise exchanges "
             "(non-powers of two fold in and out), two-sided; rank order",
     .impl = &mc_allreduce_recursive_doubling_algo},
    /* the same idea on a real machine: trees down its hierarchy (hwloc) */
    {.coll = MC_COLL_BCAST, .name = "hier",
     .desc = "tree down the machine's hierarchy: once into each package, "
             "NUMA node and L3, then its cores (MC_BIND=1, hwloc); "
             "binomial where the ranks' places are not known",
     .impl = &mc_bcast_hier_algo,
     .variants = {"chunk=64"}},
    {.coll = MC_COLL_REDUCE, .name = "hier",
     .desc = "reduction up the machine's hierarchy: each L3, NUMA node and "
             "package onto its leader (MC_BIND=1, hwloc); binomial where "
             "the ranks' places are not known or the op is not commutative",
     .impl = &mc_reduce_hier_algo,
     .variants = {"chunk=64"}},
    {.name = NULL},
};
/* clang-format on */

static const mc_algo_t *find_in(const mc_algo_t *table, mc_coll_t coll,
                                const char *name)
{
    for (const mc_algo_t *a = table; a->name; a++)
        if (a->coll == coll && strcmp(a->name, name) == 0)
            return a;
    return NULL;
}

const mc_algo_t *mc_algo_find(mc_coll_t coll, const char *name)
{
    return find_in(mc_algos, coll, name);
}

const mc_param_desc_t *mc_algo_params(const mc_algo_t *algo)
{
    static const mc_param_desc_t none[1] = {{.name = NULL}};
    return algo->impl->params ? algo->impl->params : none;
}

int mc_algo_param_index(const mc_algo_t *algo, const char *name)
{
    const mc_param_desc_t *d = mc_algo_params(algo);
    for (int i = 0; d[i].name; i++)
        if (strcmp(d[i].name, name) == 0)
            return i;
    return -1;
}

static void list_names(const mc_algo_t *table, mc_coll_t coll, char *buf,
                       size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (const mc_algo_t *a = table; a->name; a++)
        if (a->coll == coll && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     used ? ", " : "", a->name);
}

static void list_params(const mc_algo_t *algo, char *buf, size_t len)
{
    const mc_param_desc_t *d = mc_algo_params(algo);
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; d[i].name && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 used ? ", " : "", d[i].name);
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
    const mc_param_desc_t *d = &mc_algo_params(algo)[i];
    if (v < 0 || v < d->min || v > d->max)
        return mc_error(MC_ERR_ARG,
                        "%s: parameter %s=%s of '%s' must be in [%lld, %lld]",
                        who, kv, eq + 1, algo->name, (long long)d->min,
                        (long long)d->max);
    out->params.v[i] = v;
    return MC_OK;
}

static int parse_in(const mc_algo_t *table, mc_coll_t coll, const char *spec,
                    const char *who, mc_sel_t *out)
{
    char buf[256], names[512];
    if (!spec || strlen(spec) >= sizeof buf)
        return mc_error(MC_ERR_ARG, "%s: missing or too long algorithm", who);
    strcpy(buf, spec);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = 0;
    const mc_algo_t *algo = find_in(table, coll, buf);
    if (!algo) {
        list_names(table, coll, names, sizeof names);
        return mc_error(MC_ERR_ARG,
                        "%s: unknown %s algorithm '%s'; valid: %s", who,
                        mc_coll_name(coll), buf, names);
    }
    *out = (mc_sel_t){.algo = algo, .fn = algo->impl->fn};
    const mc_param_desc_t *d = mc_algo_params(algo);
    for (int i = 0; d[i].name; i++)
        out->params.v[i] = d[i].def;
    if (!colon)
        return MC_OK;
    char *save = NULL;
    for (char *kv = strtok_r(colon + 1, ",", &save); kv;
         kv = strtok_r(NULL, ",", &save))
        MC_CHECK(parse_kv(algo, kv, who, out));
    return MC_OK;
}

int mc_algo_parse(mc_coll_t coll, const char *spec, const char *who,
                  mc_sel_t *out)
{
    return parse_in(mc_algos, coll, spec, who, out);
}

void mc_sel_format(const mc_sel_t *s, char *buf, size_t len)
{
    const mc_param_desc_t *d = mc_algo_params(s->algo);
    size_t used = (size_t)snprintf(buf, len, "%s", s->algo->name);
    for (int i = 0; d[i].name && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%c%s=%lld",
                                 i ? ',' : ':', d[i].name,
                                 (long long)s->params.v[i]);
}

/* ---- the start-up check ---- */

static int bad(const mc_algo_t *a, const char *what)
{
    return mc_error(MC_ERR_INTERNAL, "algorithm registry: %s %s: %s",
                    mc_coll_name(a->coll), a->name ? a->name : "(null)",
                    what);
}

static int check_params(const mc_algo_t *a)
{
    const mc_param_desc_t *d = mc_algo_params(a);
    int n = 0;
    while (n <= MC_MAX_PARAMS && d[n].name)
        n++;
    if (n > MC_MAX_PARAMS)
        return bad(a, "more parameters than MC_MAX_PARAMS");
    for (int i = 0; i < n; i++) {
        if (d[i].min > d[i].def || d[i].def > d[i].max)
            return mc_error(MC_ERR_INTERNAL, "algorithm registry: %s %s: "
                            "parameter %s: default %lld outside [%lld, "
                            "%lld]", mc_coll_name(a->coll), a->name,
                            d[i].name, (long long)d[i].def,
                            (long long)d[i].min, (long long)d[i].max);
        for (int j = 0; j < i; j++)
            if (!strcmp(d[i].name, d[j].name))
                return bad(a, "two parameters of one name");
    }
    return MC_OK;
}

/* Code outside an algorithm's file sets a parameter by the name its
 * family gives the place (a shared resolver, a model): the parameter
 * there must be the one meant. */
static int check_places(const mc_algo_t *a)
{
    static const struct {
        int (*resolve)(const mc_team_t *, mc_params_t *);
        mc_model_param_t model;
        int at;
        const char *name;
    } places[] = {
        {mc_p2p_resolve, MC_MODEL_NONE, MC_P2P_SYNC, "sync"},
        {mc_direct_resolve, MC_MODEL_NONE, MC_DIRECT_CHUNK, "chunk"},
        {NULL, MC_MODEL_BCAST_TREE, MC_CC_K1, "k1"},
        {NULL, MC_MODEL_REDUCE_TREE, MC_CC_K1, "k1"},
        {NULL, MC_MODEL_BARRIER_M, MC_CC_M, "m"},
    };
    const mc_param_desc_t *d = mc_algo_params(a);
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        if (places[i].resolve ? a->impl->resolve != places[i].resolve
                              : a->impl->model != places[i].model)
            continue;
        int n = 0;
        while (n <= places[i].at && d[n].name)
            n++;
        if (n <= places[i].at || strcmp(d[places[i].at].name, places[i].name))
            return mc_error(MC_ERR_INTERNAL, "algorithm registry: %s %s: "
                            "its resolver or model sets parameter %d, which "
                            "is not '%s'", mc_coll_name(a->coll), a->name,
                            places[i].at, places[i].name);
    }
    return MC_OK;
}

/* The two-sided algorithms share tables (coll/p2p.h) and name the places
 * in their own enums by one rule: sync, then balance, tail and fused
 * where the table has them, in that order. */
static int check_p2p_order(const mc_algo_t *a)
{
    static const char *const order[] = {"sync", "balance", "tail", "fused"};
    const mc_param_desc_t *d = mc_algo_params(a);
    size_t k = 0;
    if (a->impl->resolve != mc_p2p_resolve)
        return MC_OK;
    for (int i = 0; d[i].name; i++) {
        while (k < sizeof order / sizeof *order && strcmp(d[i].name, order[k]))
            k++;
        if (k++ >= sizeof order / sizeof *order)
            return bad(a, "its two-sided parameters are not sync, balance, "
                          "tail, fused (those it has, in that order)");
    }
    return MC_OK;
}

/* whether an algorithm may not serve: then it needs a fallback */
static int conditional(const mc_algo_impl_t *im)
{
    return im->needs || im->usable || im->declines;
}

/* the chain of fallbacks from a reaches an algorithm that always serves */
static int check_fallbacks(const mc_algo_t *table, const mc_algo_t *a)
{
    const mc_algo_t *x = a;
    if ((a->impl->needs & ~MC_ALGO_COMMUTATIVE) && !a->impl->usable)
        return bad(a, "it needs what a team may lack (single copy, a grid, "
                      "known places) but has no usable hook to check it");
    for (int depth = 0; conditional(x->impl); depth++) {
        if (!x->impl->fallback)
            return bad(x, "it may not serve (needs, usable, declines) but "
                          "names no fallback");
        if (depth == MC_MAX_FALLBACKS)
            return bad(a, "its fallbacks do not reach an algorithm that "
                          "always serves in 4 steps (a circle?)");
        mc_sel_t s;
        char who[160];
        snprintf(who, sizeof who, "algorithm registry: fallback of %s %s",
                 mc_coll_name(x->coll), x->name);
        if (parse_in(table, x->coll, x->impl->fallback, who, &s) != MC_OK)
            return MC_ERR_INTERNAL; /* the message names the row */
        x = s.algo;
    }
    return MC_OK;
}

int mc_registry_check(const mc_algo_t *table)
{
    for (const mc_algo_t *a = table; a->name; a++) {
        if ((unsigned)a->coll >= MC_COLL_COUNT)
            return bad(a, "no such collective");
        if (find_in(table, a->coll, a->name) != a)
            return bad(a, "two algorithms of one name");
        if (!a->impl || !a->impl->fn)
            return bad(a, "no implementation (entry point)");
        MC_CHECK(check_params(a));
        MC_CHECK(check_places(a));
        MC_CHECK(check_p2p_order(a));
    }
    for (const mc_algo_t *a = table; a->name; a++)
        MC_CHECK(check_fallbacks(table, a));
    return MC_OK;
}
