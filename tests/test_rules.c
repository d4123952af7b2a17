/*
 * Selection rules shared by the teams with the same inputs
 * (src/select/rules.h), on transports that are only their descriptions:
 *   - teams with the same key get one rule set, computed once; a
 *     different share, size, oversubscription, MC_CHECK_ARGS wrap or
 *     MC_ALGO_<COLL> value gives another; share 0 is never shared;
 *   - the same mc_rules_set calls on two teams that share rules lead to
 *     one rule set again, computed once; other calls to another;
 *   - a rule set no team holds is kept for the next team of its key, up
 *     to the idle limit (the oldest goes first), and mc_rules_flush lets
 *     go of them all;
 *   - the wrap is the entry of every selection, the algorithm's own
 *     without it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/team.h"
#include "select/rules.h"

#include "check.h"

static const mc_tp_ops_t fake_ops = {.name = "fake"};

typedef struct fake {
    mc_tp_t tp;
    mc_team_t t;
} fake_t;

/* a team of n ranks over a description with that share */
static void team(fake_t *f, int n, uint64_t share, int oversub)
{
    f->tp = (mc_tp_t){.ops = &fake_ops, .size = n, .mpb_size = 65536,
                      .line = 64, .nflags = mc_tp_nflags(n, 64),
                      .cache_coherent = 1, .oversubscribed = oversub,
                      .share = share};
    CHECK(mc_team_layout(&f->t, &f->tp) == MC_OK, "layout: %s",
          mc_last_error());
}

static mc_rules_t *get(const fake_t *f, mc_algo_fn wrap)
{
    mc_rules_t *r = NULL;
    CHECK(mc_rules_get(&f->t, wrap, &r) == MC_OK, "get: %s",
          mc_last_error());
    return r;
}

static int holders(const mc_rules_t *r)
{
    int h;
    mc_rules_bytes(r, &h);
    return h;
}

static int wrapped(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)c, (void)a, (void)p;
    return MC_OK;
}

static void keys(void)
{
    fake_t a, b, c;
    team(&a, 8, 7, 0);
    team(&b, 8, 7, 0);
    unsigned long m0 = mc_rules_made();
    mc_rules_t *ra = get(&a, NULL), *rb = get(&b, NULL);
    CHECK(ra == rb && holders(ra) == 2, "same key: %p %p, %d holders",
          (void *)ra, (void *)rb, holders(ra));
    CHECK(mc_rules_made() == m0 + 1, "computed %lu times",
          mc_rules_made() - m0);
    team(&c, 8, 8, 0);
    mc_rules_t *rc = get(&c, NULL);
    CHECK(rc != ra, "another share shares");
    mc_rules_put(rc);
    team(&c, 9, 7, 0);
    rc = get(&c, NULL);
    CHECK(rc != ra, "another size shares");
    mc_rules_put(rc);
    team(&c, 8, 7, 1);
    rc = get(&c, NULL);
    CHECK(rc != ra, "oversubscription is not in the key");
    mc_rules_put(rc);
    rc = get(&b, wrapped);
    CHECK(rc != ra, "the MC_CHECK_ARGS wrap is not in the key");
    const mc_ruleset_t *rs = &mc_rules_sets(rc)[MC_COLL_BCAST];
    CHECK(rs->r[0].sel->fn == wrapped, "the wrap is not the entry");
    CHECK(mc_rules_sets(ra)[MC_COLL_BCAST].r[0].sel->fn ==
              mc_rules_sets(ra)[MC_COLL_BCAST].r[0].sel->algo->impl->fn,
          "without a wrap, the algorithm's own entry");
    mc_rules_put(rc);
    setenv("MC_ALGO_BCAST", "binomial", 1);
    rc = get(&b, NULL);
    CHECK(rc != ra, "MC_ALGO_BCAST is not in the key");
    CHECK(!strcmp(mc_rules_sets(rc)[MC_COLL_BCAST].r[0].sel->algo->name,
                  "binomial"),
          "MC_ALGO_BCAST=binomial not followed");
    mc_rules_put(rc);
    unsetenv("MC_ALGO_BCAST");
    team(&c, 8, 0, 0);
    rc = get(&c, NULL);
    mc_rules_t *rd = get(&c, NULL);
    CHECK(rc != rd && rc != ra, "share 0 is shared");
    mc_rules_put(rc);
    mc_rules_put(rd);
    mc_rules_put(ra);
    mc_rules_put(rb);
}

static void sets(void)
{
    fake_t a, b;
    team(&a, 8, 17, 0);
    team(&b, 8, 17, 0);
    mc_rules_t *ra = get(&a, NULL), *rb = get(&b, NULL), *base = ra;
    unsigned long m0 = mc_rules_made();
    CHECK(mc_rules_set(&ra, &a.t, MC_COLL_BCAST, "binomial", "t") == MC_OK,
          "set: %s", mc_last_error());
    CHECK(mc_rules_set(&rb, &b.t, MC_COLL_BCAST, "binomial", "t") == MC_OK,
          "set: %s", mc_last_error());
    CHECK(ra == rb && ra != base && mc_rules_made() == m0 + 1,
          "the same change: %p %p, computed %lu times", (void *)ra,
          (void *)rb, mc_rules_made() - m0);
    CHECK(mc_rules_set(&rb, &b.t, MC_COLL_REDUCE, "binomial", "t") ==
              MC_OK,
          "set: %s", mc_last_error());
    CHECK(ra != rb, "another change shares");
    CHECK(mc_rules_set(&ra, &a.t, MC_COLL_BCAST, "no-such", "t") ==
              MC_ERR_ARG,
          "a bad spec is taken");
    CHECK(!strcmp(mc_rules_sets(ra)[MC_COLL_BCAST].r[0].sel->algo->name,
                  "binomial"),
          "a failed change changed the rules");
    mc_rules_put(ra);
    mc_rules_put(rb);
}

static void idle(void)
{
    fake_t f[10];
    mc_rules_flush();
    for (int i = 0; i < 10; i++)
        team(&f[i], 4, 100 + (uint64_t)i, 0);
    mc_rules_put(get(&f[0], NULL)); /* held by no one: kept */
    unsigned long m0 = mc_rules_made();
    mc_rules_t *r = get(&f[0], NULL);
    CHECK(mc_rules_made() == m0, "an idle rule set is computed again");
    mc_rules_put(r);
    for (int i = 1; i < 10; i++) /* nine more idle ones: the first goes */
        mc_rules_put(get(&f[i], NULL));
    m0 = mc_rules_made();
    mc_rules_put(get(&f[9], NULL));
    CHECK(mc_rules_made() == m0, "the newest idle one is not kept");
    mc_rules_put(get(&f[0], NULL));
    CHECK(mc_rules_made() == m0 + 1, "the oldest idle one is kept");
    mc_rules_flush();
    m0 = mc_rules_made();
    mc_rules_put(get(&f[9], NULL));
    CHECK(mc_rules_made() == m0 + 1, "mc_rules_flush keeps idle ones");
    mc_rules_flush();
}

int main(void)
{
    unsetenv("MC_ALGO_BCAST");
    unsetenv("MC_ALGO_REDUCE");
    keys();
    sets();
    idle();
    return check_done("test_rules", "one rule set per key, computed once, "
                      "changes shared, idle ones kept and flushed");
}
