/*
 * The generated correctness walk: every registered algorithm through the
 * same cases. It walks the registry, forces each algorithm in turn, and
 * runs every case of its collective: counts 0, 1, 7, 64, 4095 in every
 * datatype with every valid op (builtin and user, commutative and not),
 * counts around the two-sided chunk boundary and 1 MiB + 3, roots 0 and
 * P-1, in place and not (the full walk; lighter walks for big simulated
 * chips drop some of these, see walk.h); barriers many times back to back
 * with jitter. Cases call the blocking, the non-blocking and the
 * persistent form in turn (src/oracle/check.h: mc_form_t), so every algorithm
 * also runs in a non-blocking call's coroutine. Every result is checked
 * against a scalar reference, every send buffer is checked unchanged, and
 * every barrier against an arrival record of the test's own
 * (src/oracle: check.c, check_verify.c, arrivals.c). A new algorithm is tested
 * by adding its registry row; nothing here names one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/comm.h"
#include "select/select.h"
#include "walk.h"

/* runs one case for every root and in-place variant */
static int run_case(mc_comm_t *c, mc_case_t k, const char *algo,
                    mc_walk_t *w)
{
    int rank = mc_comm_rank(c), n = mc_comm_size(c);
    int roots[2] = {n - 1, 0};
    int nroots = mc_coll_has(k.coll, MC_COLL_ROOTED) && n > 1 ? (w->level >= MC_WALK_FULL ? 2 : 1)
                                         : 1;
    int ipmax = mc_colls[k.coll].in_place != MC_IN_PLACE_NONE && w->level >= MC_WALK_MEDIUM;
    if (mc_case_bytes(&k, n) * (size_t)n > MC_WALK_MEM_BUDGET) {
        w->skipped++; /* every rank skips it: the buffers would not fit */
        return 0;
    }
    for (int ri = 0; ri < nroots; ri++) {
        for (int ip = 0; ip <= ipmax; ip++) {
            k.root = roots[ri];
            k.in_place = ip;
            k.seed++;
            /* blocking, non-blocking and persistent in turn */
            k.form = w->blocking_only ? MC_FORM_BLOCKING
                                      : (mc_form_t)(k.seed % MC_FORM_COUNT);
            mc_case_bufs_t b;
            if (mc_case_alloc(&k, rank, n, &b) != MC_OK) {
                fprintf(stderr, "test_coll: out of memory\n");
                return -1;
            }
            b.arrivals = w->arrivals;
            mc_case_fill(&k, rank, n, &b);
            int rc = mc_case_run(c, &k, &b);
            char msg[600];
            w->cases++;
            if (rc != MC_OK) {
                mc_case_describe(&k, msg, sizeof msg);
                fprintf(stderr, "FAIL [%s] %s: rank %d: %s: %s\n", algo, msg,
                        rank, mc_strerror(rc), mc_last_error());
                mc_case_free(&b);
                return -1; /* the communicator is unusable now */
            }
            if (mc_case_verify(&k, rank, n, &b, msg, sizeof msg)) {
                if (w->failures++ < 10)
                    fprintf(stderr, "FAIL [%s] %s\n", algo, msg);
            }
            mc_case_free(&b);
        }
    }
    return 0;
}

static const size_t small_counts[] = {0, 1, 7, 64, 4095};
static const size_t light_counts[] = {1, 7};

/* the small counts of a walk level */
static const size_t *counts(const mc_walk_t *w, size_t *n)
{
    if (w->level >= MC_WALK_FULL) {
        *n = sizeof small_counts / sizeof *small_counts;
        return small_counts;
    }
    *n = w->level >= MC_WALK_MEDIUM ? 2 : 1;
    return light_counts + (w->level >= MC_WALK_MEDIUM ? 0 : 1);
}

static int walk_reductions(mc_comm_t *c, mc_case_t k, const char *algo,
                           size_t chunk, mc_walk_t *w)
{
    size_t ncounts;
    const size_t *cnt = counts(w, &ncounts);
    int full = w->level >= MC_WALK_FULL;
    for (size_t i = 0; i < ncounts; i++) {
        k.count = cnt[i];
        for (int dt = 0; dt < MC_DTYPE_COUNT; dt++) {
            if (!full && dt != MC_INT32 && dt != MC_FLOAT64)
                continue;
            k.dt = (mc_dtype_t)dt;
            for (int op = 0; op < MC_OP_BUILTIN_COUNT + MC_UOP_COUNT - 1;
                 op++) {
                k.op = op < MC_OP_BUILTIN_COUNT ? (mc_op_t)op : MC_SUM;
                k.uop = op < MC_OP_BUILTIN_COUNT
                            ? MC_UOP_NONE
                            : (mc_uop_t)(op - MC_OP_BUILTIN_COUNT + 1);
                if (!full && op != MC_SUM && k.uop != MC_UOP_FIRST)
                    continue;
                if (mc_case_valid(&k) && run_case(c, k, algo, w))
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
        /* full only: 2- and 16-byte elements across the boundary */
        {MC_BFLOAT16, MC_UOP_NONE, chunk + 2},
        {MC_COMPLEX128, MC_UOP_NONE, chunk + 16},
        {MC_DOUBLE_INT, MC_UOP_NONE, chunk + 16},
    };
    size_t nbig = sizeof big / sizeof *big;
    for (size_t i = 0; i < nbig; i++) {
        if ((big[i].bytes > (1u << 20) || i >= 7) && w->level < MC_WALK_FULL)
            continue;
        if (w->level < MC_WALK_MEDIUM && i != 2)
            continue; /* light: just past the chunk boundary */
        if (w->level < MC_WALK_LIGHT)
            continue; /* tiny: small counts only */
        k.dt = big[i].dt;
        k.uop = big[i].uop;
        k.op = k.dt == MC_DOUBLE_INT ? MC_MAXLOC : MC_SUM;
        k.count = big[i].bytes / mc_dtype_size(k.dt);
        if (run_case(c, k, algo, w))
            return -1;
    }
    return 0;
}

static int walk_movement(mc_comm_t *c, mc_case_t k, const char *algo,
                         size_t chunk, mc_walk_t *w)
{
    /* widths 1 to 16 (complex128: elements wider than a word) */
    static const mc_dtype_t dts[] = {MC_INT8, MC_UINT16, MC_INT32,
                                     MC_FLOAT64, MC_COMPLEX128};
    size_t ncounts, ndts = w->level >= MC_WALK_FULL ? 5 : 1;
    const size_t *cnt = counts(w, &ncounts);
    for (size_t i = 0; i < ncounts; i++)
        for (size_t d = 0; d < ndts; d++) {
            k.count = cnt[i];
            k.dt = dts[w->level >= MC_WALK_FULL ? d : 2];
            if (run_case(c, k, algo, w))
                return -1;
        }
    const size_t big[] = {chunk + 1, chunk - 1, chunk, (1u << 20) + 3};
    size_t nbig = w->level >= MC_WALK_FULL ? 4
                  : w->level >= MC_WALK_LIGHT ? 1 : 0;
    k.dt = MC_INT8;
    for (size_t i = 0; i < nbig; i++) {
        k.count = big[i];
        if (run_case(c, k, algo, w))
            return -1;
    }
    if (w->level < MC_WALK_FULL)
        return 0;
    k.dt = MC_FLOAT64;
    k.count = chunk / 8 + 1;
    return run_case(c, k, algo, w);
}

/* Back-to-back calls with a barrier between them: a rank that is already
 * in the next call writes to peers still finishing this one, which is how
 * flag-sharing bugs show up (rule 4 of tp/tp.h). */
static int interleave(mc_comm_t *c, const mc_algo_t *a, const char *name,
                      uint32_t seed, mc_walk_t *w)
{
    mc_case_t k = {.coll = a->coll, .seed = seed, .count = 7,
                   .dt = MC_INT32, .op = MC_SUM};
    int level = w->level;
    w->level = MC_WALK_TINY; /* one root, not in place */
    for (int i = 0; i < 4; i++) {
        k.seed++;
        if (run_case(c, k, name, w) || mc_barrier(c) != MC_OK) {
            w->level = level;
            return -1;
        }
    }
    w->level = level;
    return 0;
}

static int walk_spec(mc_comm_t *c, const mc_algo_t *a, const char *spec,
                     uint32_t seed, mc_walk_t *w)
{
    if (mc_comm_set_algo(c, mc_coll_name(a->coll), spec) != MC_OK) {
        fprintf(stderr, "test_coll: %s\n", mc_last_error());
        return -1;
    }
    char name[160];
    snprintf(name, sizeof name, "%s/%s", mc_coll_name(a->coll), spec);
    mc_case_t k = {.coll = a->coll, .seed = seed};
    size_t chunk = c->team.p2p.chunk;
    if (a->coll == MC_COLL_BARRIER) {
        /* back to back, each entered after a random pause (arrivals.c) */
        int nb = w->level > MC_WALK_TINY ? MC_WALK_BARRIERS
                                         : MC_WALK_BARRIERS_TINY;
        for (int i = 0; i < nb; i++)
            if (run_case(c, k, name, w))
                return -1;
        return 0;
    }
    if (mc_coll_has(a->coll, MC_COLL_REDUCES))
        return walk_reductions(c, k, name, chunk, w);
    return walk_movement(c, k, name, chunk, w);
}

/* the defaults at the walk's level, then each registered variant of the
 * parameters at the light level (one level lower, at most) */
static int walk_algo(mc_comm_t *c, const mc_algo_t *a, uint32_t seed,
                     mc_walk_t *w)
{
    int rc = walk_spec(c, a, a->name, seed, w);
    if (rc == 0) {
        char name[96];
        snprintf(name, sizeof name, "%s/%s (interleaved)", mc_coll_name(a->coll),
                 a->name);
        rc = interleave(c, a, name, seed, w);
    }
    int level = w->level;
    w->level = level > MC_WALK_LIGHT ? MC_WALK_LIGHT : level;
    for (int i = 0; rc == 0 && i < 5 && a->variants[i]; i++) {
        char spec[160];
        snprintf(spec, sizeof spec, "%s:%s", a->name, a->variants[i]);
        rc = walk_spec(c, a, spec, seed + 1000u * (uint32_t)(i + 1), w);
    }
    w->level = level;
    return rc;
}

int mc_walk_level(const char *name)
{
    static const struct { const char *name; int level; } levels[] = {
        {"tiny", MC_WALK_TINY}, {"light", MC_WALK_LIGHT},
        {"medium", MC_WALK_MEDIUM}, {"full", MC_WALK_FULL}};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (!strcmp(name, levels[i].name))
            return levels[i].level;
    return -2;
}

/* whether the selection runs a's fallback on c instead of a (defaults,
 * commutative ops) */
static int replaced(const mc_comm_t *c, const mc_algo_t *a)
{
    mc_sel_t s;
    if (mc_algo_parse(a->coll, a->name, "walk", &s) != MC_OK ||
        mc_sel_settle(&c->team, &s, 0) != MC_OK)
        return 0; /* walked, and the walk says what is wrong */
    return s.algo != a;
}

int mc_walk(mc_comm_t *c, mc_walk_t *w)
{
    int rc = 0;
    for (const mc_algo_t *a = mc_algos; a->name && rc == 0; a++) {
        if (w->coll && strcmp(w->coll, mc_coll_name(a->coll)))
            continue;
        if (w->algo && strcmp(w->algo, a->name))
            continue;
        if (w->skip_v && a->coll >= MC_COLL_ALLGATHERV &&
            a->coll <= MC_COLL_REDUCE_SCATTER)
            continue;
        /* where the selection runs another registered algorithm instead
         * (no single copy, no grid, places unknown), that one is walked
         * in its own right; named with --algo, the fallback runs under
         * the name (tests/CMakeLists.txt: single copy off; nocmsg.cmake:
         * coll_fallback_*) */
        if (!w->algo && replaced(c, a))
            continue;
        w->algos++;
        rc = walk_algo(c, a, w->seed, w);
    }
    return rc || w->failures ? -1 : 0;
}

