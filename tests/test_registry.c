/*
 * The registry's start-up check (src/select/registry.c) and the
 * fallbacks the selection settles (src/select/select.c):
 *   - the library's table passes;
 *   - a commutative-only algorithm without a fallback, a fallback that is
 *     not an algorithm of the collective, a circle of fallbacks, two
 *     algorithms of one name, a default outside its range, a shared
 *     resolver whose parameter is not where its family puts it are
 *     rejected with a message naming the row;
 *   - on a team without single copy, or of one rank, a single-copy
 *     algorithm runs its fallback with the fallback's own parameters (its
 *     defaults, resolved), and one with single copy runs itself;
 *   - a commutative-only algorithm runs its rank-order fallback for a
 *     non-commutative op, and itself for a commutative one.
 */
#include <stdio.h>
#include <string.h>

#include "coll/p2p.h"
#include "select/registry.h"
#include "select/select.h"

static int fails;
#define CHECK(c, ...)                                                        \
    do {                                                                     \
        if (!(c)) {                                                          \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                           \
            fputc('\n', stderr);                                             \
            fails++;                                                         \
        }                                                                    \
    } while (0)

static int nop(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)c, (void)a, (void)p;
    return MC_OK;
}

/* a user op that is never called */
static void keep(const void *in, void *inout, size_t count, mc_dtype_t dt)
{
    (void)in, (void)inout, (void)count, (void)dt;
}

static const mc_algo_impl_t plain = {.fn = nop};
static const mc_algo_impl_t comm_no_fb = {.fn = nop,
                                          .needs = MC_ALGO_COMMUTATIVE};
static const mc_algo_impl_t comm_to_x = {
    .fn = nop, .needs = MC_ALGO_COMMUTATIVE, .fallback = "x"};
static const mc_algo_impl_t comm_to_a = {
    .fn = nop, .needs = MC_ALGO_COMMUTATIVE, .fallback = "a"};
static const mc_algo_impl_t comm_to_b = {
    .fn = nop, .needs = MC_ALGO_COMMUTATIVE, .fallback = "b"};
static const mc_param_desc_t bad_def[] = {{"k", 9, 0, 4, "k"},
                                           {.name = NULL}};
static const mc_algo_impl_t bad_param = {.fn = nop, .params = bad_def};
/* mc_p2p_resolve sets MC_P2P_SYNC: here that place holds `tail` */
static const mc_param_desc_t tail_first[] = {MC_P2P_PARAM_TAIL,
                                             MC_P2P_PARAM_SYNC(3),
                                             {.name = NULL}};
static const mc_algo_impl_t misplaced = {.fn = nop, .params = tail_first,
                                         .resolve = mc_p2p_resolve};

/* the check on a table of two rows; expect an error naming `name` */
static void rejects(const char *what, mc_algo_t a, mc_algo_t b,
                    const char *name)
{
    const mc_algo_t t[] = {a, b, {.name = NULL}};
    int rc = mc_registry_check(t);
    CHECK(rc == MC_ERR_INTERNAL, "%s: accepted (%d)", what, rc);
    CHECK(rc != MC_ERR_INTERNAL || strstr(mc_last_error(), name),
          "%s: the message does not name '%s': %s", what, name,
          mc_last_error());
}

static void check(void)
{
    CHECK(mc_registry_check(mc_algos) == MC_OK, "the library's registry: %s",
          mc_last_error());
    const mc_coll_t ar = MC_COLL_ALLREDUCE;
    mc_algo_t ok = {.coll = ar, .name = "a", .impl = &plain};
    const mc_algo_t good[] = {ok, {.coll = ar, .name = "b",
                                   .impl = &comm_to_a}, {.name = NULL}};
    CHECK(mc_registry_check(good) == MC_OK, "a good table: %s",
          mc_last_error());
    rejects("commutative-only without a fallback", ok,
            (mc_algo_t){.coll = ar, .name = "ring2", .impl = &comm_no_fb},
            "ring2");
    rejects("fallback to no algorithm", ok,
            (mc_algo_t){.coll = ar, .name = "b", .impl = &comm_to_x}, "'x'");
    rejects("fallback to another collective's", ok,
            (mc_algo_t){.coll = MC_COLL_BCAST, .name = "b",
                        .impl = &comm_to_a},
            "'a'");
    rejects("a circle of fallbacks",
            (mc_algo_t){.coll = ar, .name = "a", .impl = &comm_to_b},
            (mc_algo_t){.coll = ar, .name = "b", .impl = &comm_to_a},
            "circle");
    rejects("two of one name", ok, ok, "two algorithms of one name");
    rejects("a default out of range", ok,
            (mc_algo_t){.coll = ar, .name = "p", .impl = &bad_param},
            "default 9");
    rejects("sync not where mc_p2p_resolve sets it", ok,
            (mc_algo_t){.coll = ar, .name = "p2", .impl = &misplaced},
            "not 'sync'");
}

static const mc_tp_ops_t fake_ops = {.name = "fake"};

static const mc_team_t *cur_team; /* the team of the last rules_of */

/* the rules of a team of n ranks that has single copy or not */
static void rules_of(int n, int single_copy, mc_ruleset_t *rules,
                     mc_tp_t *tp, mc_team_t *t)
{
    *tp = (mc_tp_t){.ops = &fake_ops, .size = n, .mpb_size = 65536,
                    .line = 64, .nflags = mc_tp_nflags(n, 64),
                    .cache_coherent = 1, .single_copy = single_copy};
    CHECK(mc_team_layout(t, tp) == MC_OK, "layout: %s", mc_last_error());
    CHECK(mc_select_init(rules, t) == MC_OK, "select: %s", mc_last_error());
    cur_team = t;
}

static const mc_sel_t *sel(const mc_ruleset_t *rules, mc_coll_t coll,
                           mc_op_t op)
{
    mc_args_t a = {.coll = coll, .bytes = 1 << 20, .op = op};
    return mc_select(rules, &a);
}

static void expect(const mc_sel_t *s, mc_coll_t coll, const char *spec,
                   const char *what)
{
    mc_sel_t want;
    CHECK(mc_algo_parse(coll, spec, "test", &want) == MC_OK, "%s", spec);
    if (want.algo->impl->resolve) /* automatic values as they run */
        CHECK(want.algo->impl->resolve(cur_team, &want.params) == MC_OK,
              "%s: resolve", spec);
    char got[160], w[160];
    mc_sel_format(s, got, sizeof got);
    mc_sel_format(&want, w, sizeof w);
    CHECK(!strcmp(got, w) && s->fn == want.algo->impl->fn,
          "%s: runs %s, expected %s", what, got, w);
}

static void fallbacks(void)
{
    mc_ruleset_t rules[MC_COLL_COUNT];
    mc_tp_t tp;
    mc_team_t t;
    rules_of(4, 0, rules, &tp, &t);
    /* no single copy: each direct algorithm's own fallback, parsed */
    for (const mc_algo_t *a = mc_algos; a->name; a++) {
        if (!(a->impl->needs & MC_ALGO_SINGLE_COPY))
            continue;
        char what[96];
        snprintf(what, sizeof what, "%s %s without single copy",
                 mc_coll_name(a->coll), a->name);
        CHECK(mc_select_set(rules, &t, a->coll, a->name, "test") == MC_OK,
              "%s: %s", what, mc_last_error());
        expect(sel(rules, a->coll, MC_SUM), a->coll, a->impl->fallback,
               what);
    }
    /* with single copy it runs itself, with its parameters */
    rules_of(4, 1, rules, &tp, &t);
    mc_select_set(rules, &t, MC_COLL_ALLREDUCE, "direct:chunk=4096", "test");
    expect(sel(rules, MC_COLL_ALLREDUCE, MC_SUM), MC_COLL_ALLREDUCE,
           "direct:chunk=4096", "allreduce direct with single copy");
    /* automatic parameters show the value that runs, not 0 */
    mc_select_set(rules, &t, MC_COLL_ALLREDUCE, "direct", "test");
    char got[160];
    mc_sel_format(sel(rules, MC_COLL_ALLREDUCE, MC_SUM), got, sizeof got);
    CHECK(!strcmp(got, "direct:chunk=65536"), "direct resolved: %s", got);
    mc_select_set(rules, &t, MC_COLL_ALLREDUCE, "rsag", "test");
    mc_sel_format(sel(rules, MC_COLL_ALLREDUCE, MC_SUM), got, sizeof got);
    CHECK(strcmp(got, "rsag:chunk=0") && !strncmp(got, "rsag:chunk=", 11),
          "rsag resolved: %s", got);
    /* ... but not on one rank */
    rules_of(1, 1, rules, &tp, &t);
    mc_select_set(rules, &t, MC_COLL_ALLREDUCE, "direct", "test");
    expect(sel(rules, MC_COLL_ALLREDUCE, MC_SUM), MC_COLL_ALLREDUCE, "rsag",
           "allreduce direct on one rank");
    /* commutative-only: its rank-order fallback for a user op that does
     * not commute */
    rules_of(4, 1, rules, &tp, &t);
    mc_op_t nc;
    CHECK(mc_op_create(keep, 0, &nc) == MC_OK,
          "mc_op_create");
    mc_select_set(rules, &t, MC_COLL_ALLREDUCE, "ring", "test");
    expect(sel(rules, MC_COLL_ALLREDUCE, MC_SUM), MC_COLL_ALLREDUCE, "ring",
           "allreduce ring, sum");
    expect(sel(rules, MC_COLL_ALLREDUCE, nc), MC_COLL_ALLREDUCE,
           "reduce-bcast", "allreduce ring, non-commutative op");
    mc_select_set(rules, &t, MC_COLL_REDUCE_SCATTER_BLOCK, "ring", "test");
    expect(sel(rules, MC_COLL_REDUCE_SCATTER_BLOCK, nc),
           MC_COLL_REDUCE_SCATTER_BLOCK, "reduce-scatter",
           "reduce_scatter_block ring, non-commutative op");
    mc_op_free(&nc);
}

/* the built-in rules tune has to beat: no 8-byte allgather or
 * reduce-scatter pays P - 1 process_vm_readv calls above 16 ranks; single
 * copy from 16 KiB blocks there */
static void builtin(void)
{
    static const mc_coll_t blocks[] = {MC_COLL_ALLGATHER,
                                       MC_COLL_REDUCE_SCATTER_BLOCK};
    for (int i = 0; i < 2; i++)
        for (int n = 17; n <= 4096; n *= 2) {
            const char *s8 = mc_select_builtin(blocks[i], 1, n, 8);
            const char *s16k = mc_select_builtin(blocks[i], 1, n, 16384);
            CHECK(s8 && strcmp(s8, "direct"), "%s at %d ranks, 8 bytes: %s",
                  mc_coll_name(blocks[i]), n, s8 ? s8 : "none");
            CHECK(s16k && !strcmp(s16k, "direct"),
                  "%s at %d ranks, 16 KiB: %s", mc_coll_name(blocks[i]), n,
                  s16k ? s16k : "none");
        }
    const char *b = mc_select_builtin(MC_COLL_BARRIER, 0, 48, 0);
    CHECK(b && !strcmp(b, "dissemination"), "barrier on an MPB chip: %s",
          b ? b : "none");
}

int main(void)
{
    check();
    fallbacks();
    builtin();
    if (fails)
        return 1;
    printf("test_registry: the registry passes its check, bad tables are "
           "rejected, fallbacks run with their own parameters\n");
    return 0;
}
