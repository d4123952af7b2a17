/*
 * Every registered algorithm through the same generated cases: run under
 * `manycoll run -n N`, it walks the registry, forces each algorithm in
 * turn, and runs every case of its collective: counts 0, 1, 7, 64, 4095
 * in every datatype with every valid op (builtin and user, commutative and
 * not), counts around the two-sided chunk boundary and 1 MiB + 3, roots 0
 * and P-1, in place and not. Every result is checked against a scalar
 * reference (tools/check.c). A new algorithm is tested by adding its
 * registry row; nothing here names one.
 *
 * Options: --coll C and --algo A restrict the walk; --seed S.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "select/registry.h"

static int failures, cases;

static int rooted(mc_coll_t k)
{
    return k == MC_COLL_BCAST || k == MC_COLL_REDUCE || k == MC_COLL_GATHER ||
           k == MC_COLL_SCATTER;
}

static int reduces(mc_coll_t k)
{
    return k == MC_COLL_REDUCE || k == MC_COLL_ALLREDUCE ||
           k == MC_COLL_REDUCE_SCATTER_BLOCK;
}

static int has_in_place(mc_coll_t k)
{
    return k != MC_COLL_BARRIER && k != MC_COLL_BCAST;
}

/* runs one case for every root and in-place variant */
static int run_case(mc_comm_t *c, mc_case_t k, const char *algo)
{
    int rank = mc_comm_rank(c), n = mc_comm_size(c);
    int roots[2] = {0, n - 1}, nroots = rooted(k.coll) && n > 1 ? 2 : 1;
    for (int ri = 0; ri < nroots; ri++) {
        for (int ip = 0; ip <= has_in_place(k.coll); ip++) {
            k.root = roots[ri];
            k.in_place = ip;
            k.seed++;
            mc_case_bufs_t b;
            if (mc_case_alloc(&k, rank, n, &b) != MC_OK) {
                fprintf(stderr, "test_coll: out of memory\n");
                return -1;
            }
            mc_case_fill(&k, rank, n, &b);
            int rc = mc_case_run(c, &k, &b);
            char msg[600];
            cases++;
            if (rc != MC_OK) {
                mc_case_describe(&k, msg, sizeof msg);
                fprintf(stderr, "FAIL [%s] %s: rank %d: %s: %s\n", algo, msg,
                        rank, mc_strerror(rc), mc_last_error());
                mc_case_free(&b);
                return -1; /* the communicator is unusable now */
            }
            if (mc_case_verify(&k, rank, n, &b, msg, sizeof msg)) {
                if (failures++ < 10)
                    fprintf(stderr, "FAIL [%s] %s\n", algo, msg);
            }
            mc_case_free(&b);
        }
    }
    return 0;
}

static const size_t small_counts[] = {0, 1, 7, 64, 4095};

static int walk_reductions(mc_comm_t *c, mc_case_t k, const char *algo,
                           size_t chunk)
{
    for (size_t i = 0; i < sizeof small_counts / sizeof *small_counts; i++) {
        k.count = small_counts[i];
        for (int dt = 0; dt < MC_DTYPE_COUNT; dt++) {
            k.dt = (mc_dtype_t)dt;
            for (int op = 0; op < MC_OP_BUILTIN_COUNT + MC_UOP_COUNT - 1;
                 op++) {
                k.op = op < MC_OP_BUILTIN_COUNT ? (mc_op_t)op : MC_SUM;
                k.uop = op < MC_OP_BUILTIN_COUNT
                            ? MC_UOP_NONE
                            : (mc_uop_t)(op - MC_OP_BUILTIN_COUNT + 1);
                if (mc_case_valid(&k) && run_case(c, k, algo))
                    return -1;
            }
        }
    }
    /* around the chunk boundary and beyond: sum and a non-commutative op */
    const struct { mc_dtype_t dt; mc_uop_t uop; size_t bytes; } big[] = {
        {MC_INT8, MC_UOP_NONE, chunk - 1}, {MC_INT8, MC_UOP_NONE, chunk},
        {MC_INT8, MC_UOP_NONE, chunk + 1}, {MC_FLOAT64, MC_UOP_NONE, chunk + 8},
        {MC_INT32, MC_UOP_FIRST, chunk + 4},
        {MC_INT8, MC_UOP_NONE, (1u << 20) + 3},
        {MC_FLOAT64, MC_UOP_NONE, (1u << 20) + 24},
    };
    k.op = MC_SUM;
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        k.dt = big[i].dt;
        k.uop = big[i].uop;
        k.count = big[i].bytes / mc_dtype_size(k.dt);
        if (run_case(c, k, algo))
            return -1;
    }
    return 0;
}

static int walk_movement(mc_comm_t *c, mc_case_t k, const char *algo,
                         size_t chunk)
{
    static const mc_dtype_t dts[] = {MC_INT8, MC_UINT16, MC_INT32,
                                     MC_FLOAT64};
    for (size_t i = 0; i < sizeof small_counts / sizeof *small_counts; i++)
        for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
            k.count = small_counts[i];
            k.dt = dts[d];
            if (run_case(c, k, algo))
                return -1;
        }
    const size_t big[] = {chunk - 1, chunk, chunk + 1, (1u << 20) + 3};
    k.dt = MC_INT8;
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        k.count = big[i];
        if (run_case(c, k, algo))
            return -1;
    }
    k.dt = MC_FLOAT64;
    k.count = chunk / 8 + 1;
    return run_case(c, k, algo);
}

static int walk_algo(mc_comm_t *c, const mc_algo_t *a, uint32_t seed)
{
    if (mc_comm_set_algo(c, mc_coll_name(a->coll), a->name) != MC_OK) {
        fprintf(stderr, "test_coll: %s\n", mc_last_error());
        return -1;
    }
    char name[96];
    snprintf(name, sizeof name, "%s/%s", mc_coll_name(a->coll), a->name);
    mc_case_t k = {.coll = a->coll, .seed = seed};
    size_t chunk = c->p2p_chunk;
    if (a->coll == MC_COLL_BARRIER) {
        for (int i = 0; i < 3; i++)
            if (run_case(c, k, name))
                return -1;
        return 0;
    }
    if (reduces(a->coll))
        return walk_reductions(c, k, name, chunk);
    return walk_movement(c, k, name, chunk);
}

int main(int argc, char **argv)
{
    const char *only_coll = NULL, *only_algo = NULL;
    uint32_t seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--coll")) only_coll = argv[i + 1];
        else if (!strcmp(argv[i], "--algo")) only_algo = argv[i + 1];
        else if (!strcmp(argv[i], "--seed")) seed = (uint32_t)atoi(argv[i + 1]);
    }
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK) {
        fprintf(stderr, "test_coll: mc_init: %s\n", mc_last_error());
        return 1;
    }
    int algos = 0, rc = 0;
    for (const mc_algo_t *a = mc_algos; a->name && rc == 0; a++) {
        if (only_coll && strcmp(only_coll, mc_coll_name(a->coll)))
            continue;
        if (only_algo && strcmp(only_algo, a->name))
            continue;
        algos++;
        rc = walk_algo(c, a, seed);
    }
    if (mc_comm_rank(c) == 0)
        printf("test_coll: %d ranks, %d algorithms, %d cases per rank, "
               "%d wrong\n",
               mc_comm_size(c), algos, cases, failures);
    mc_finalize();
    return (rc || failures) ? 1 : 0;
}
