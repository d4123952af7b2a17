/*
 * The registry's start-up check (src/select/registry.c) and the
 * fallbacks the selection settles (src/select/select.c):
 *   - the library's table passes;
 *   - a commutative-only algorithm without a fallback, a fallback that is
 *     not an algorithm of the collective, a circle of fallbacks, two
 *     algorithms of one name, a default outside its range, a shared
 *     resolver whose parameter is not where its family puts it, a
 *     two-sided table out of the order sync, balance, tail, fused are
 *     rejected with a message naming the row;
 *   - on a team without single copy, or of one rank, a single-copy
 *     algorithm runs its fallback with the fallback's own parameters (its
 *     defaults, resolved), and one with single copy runs itself;
 *   - a commutative-only algorithm runs its rank-order fallback for a
 *     non-commutative op, and itself for a commutative one;
 *   - every algorithm with a usable hook, on a team where the hook says
 *     no, settles to its fallback with the fallback's own parameters
 *     (defaults, resolved), and the result says which it replaced and
 *     why; every algorithm that may decline a call has its fallback,
 *     with its own parameters, settled as the next selection.
 */
#include <stdio.h>
#include <string.h>

#include "coll/p2p.h"
#include "select/registry.h"
#include "select/select.h"

#include "check.h"

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
static const mc_param_desc_t fused_first[] = {MC_P2P_PARAM_SYNC(3),
                                              MC_P2P_PARAM_FUSED,
                                              MC_P2P_PARAM_TAIL,
                                              {.name = NULL}};
static const mc_algo_impl_t disordered = {.fn = nop, .params = fused_first,
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
    rejects("two-sided parameters out of their order", ok,
            (mc_algo_t){.coll = ar, .name = "p3", .impl = &disordered},
            "in that order");
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

/* the fake teams of the chain checks: each makes some usable hook say
 * no. A: coherent shm-like, 4 ranks, no single copy, no grid, no places;
 * B: one rank with single copy; C: 8192 ranks on 32-byte lines and 8 KiB
 * MPBs without coherence (a fast slot is a line: no byte per rank; no
 * room for rsag's slots); D: a full 9x9 grid of tiles (more than
 * mesh-rounds' 64) */
#define NTEAMS 4
static void team_of(int i, mc_tp_t *tp, mc_team_t *t)
{
    static const int n[NTEAMS] = {4, 1, 8192, 81};
    *tp = (mc_tp_t){.ops = &fake_ops, .size = n[i], .mpb_size = 65536,
                    .line = 64, .cache_coherent = 1,
                    .single_copy = i == 1};
    if (i == 2)
        tp->mpb_size = 8192, tp->line = 32, tp->cache_coherent = 0;
    if (i == 3)
        tp->topo = (mc_topo_t){.kind = MC_TOPO_GRID, .w = 9, .h = 9,
                               .cpt = 1};
    tp->nflags = mc_tp_nflags(n[i], (int)tp->line);
    CHECK(mc_team_layout(t, tp) == MC_OK, "layout %d: %s", i,
          mc_last_error());
}

/* the algorithm's defaults, resolved for t as the selection does */
static mc_sel_t defaults_on(const mc_team_t *t, const mc_algo_t *a,
                            const char *spec)
{
    mc_sel_t s;
    CHECK(mc_algo_parse(a->coll, spec, "test", &s) == MC_OK, "%s", spec);
    if (s.algo->impl->resolve)
        CHECK(s.algo->impl->resolve(t, &s.params) == MC_OK, "%s", spec);
    return s;
}

/* got is want, parameter for parameter (all MC_MAX_PARAMS of them: a
 * fallback that kept the replaced one's values beyond its own table is
 * wrong too) */
static void same_sel(const mc_sel_t *got, const mc_sel_t *want,
                     const char *what)
{
    char g[160], w[160];
    mc_sel_format(got, g, sizeof g);
    mc_sel_format(want, w, sizeof w);
    CHECK(got->algo == want->algo && got->fn == want->algo->impl->fn &&
              !memcmp(&got->params, &want->params, sizeof got->params),
          "%s: %s, expected %s with its own defaults", what, g, w);
}

/* a, where its hook says no on team i: its fallback, own parameters */
static int replaced_on(int i, const mc_algo_t *a)
{
    mc_tp_t tp;
    mc_team_t t;
    team_of(i, &tp, &t);
    mc_sel_t s = defaults_on(&t, a, a->name);
    const char *why = NULL;
    if (a->impl->usable(&t, &s.params, &why))
        return 0;
    char what[160];
    snprintf(what, sizeof what, "%s %s on team %c", mc_coll_name(a->coll),
             a->name, 'A' + i);
    CHECK(why && *why, "%s: the hook says no without a reason", what);
    CHECK(mc_sel_settle(&t, &s, 0) == MC_OK, "%s: %s", what,
          mc_last_error());
    const mc_sel_t *f = &s; /* the link that replaced a */
    while (f->replaces && f->replaces->algo != a)
        f = f->replaces;
    CHECK(f->replaces && f->because == why && mc_sel_asked(&s)->algo == a,
          "%s: the result does not say it replaced %s (%s)", what, a->name,
          why);
    mc_sel_t want = defaults_on(&t, a, a->impl->fallback);
    same_sel(f, &want, what);
    return 1;
}

static void chains(void)
{
    int hooks = 0, declines = 0;
    for (const mc_algo_t *a = mc_algos; a->name; a++) {
        if (a->impl->usable) {
            int shown = 0;
            for (int i = 0; i < NTEAMS; i++)
                shown += replaced_on(i, a);
            CHECK(shown, "%s %s: no team of this test where its usable hook "
                  "says no; add one", mc_coll_name(a->coll), a->name);
            hooks++;
        }
        if (!a->impl->declines)
            continue;
        mc_tp_t tp;
        mc_team_t t;
        team_of(0, &tp, &t);
        mc_sel_t s = defaults_on(&t, a, a->name), want;
        CHECK(mc_sel_settle(&t, &s, 0) == MC_OK && s.algo == a && s.next,
              "%s %s: no next selection for the calls it declines",
              mc_coll_name(a->coll), a->name);
        if (s.next) {
            want = defaults_on(&t, a, a->impl->fallback);
            same_sel(s.next, &want, "the next selection of a decliner");
            CHECK(s.next->replaces && s.next->replaces->algo == a,
                  "%s: its next does not say whom it replaces", a->name);
        }
        declines++;
    }
    CHECK(hooks >= 17 && declines >= 3, "%d usable hooks, %d decliners: "
          "fewer than the library has", hooks, declines);
    /* D: a full grid; only the size stops mesh-rounds */
    mc_tp_t tp;
    mc_team_t t;
    team_of(3, &tp, &t);
    mc_sel_t s;
    mc_algo_parse(MC_COLL_ALLTOALL, "mesh-rounds:rounds=2", "test", &s);
    CHECK(mc_sel_settle(&t, &s, 0) == MC_OK && s.replaces &&
              strstr(s.because, "maxtiles"),
          "mesh-rounds on 9x9 tiles: not replaced for its maxtiles");
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
    chains();
    builtin();
    return check_done("test_registry", "the registry passes its check, bad "
                      "tables are rejected, fallbacks run with their own "
                      "parameters");
}
