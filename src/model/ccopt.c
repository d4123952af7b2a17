/*
 * Minimising the best-case models over their parameters (ccopt.h).
 *
 * Barrier: every m = 1 .. n-1 is tried (Eq. 4.11 with its rounds rule).
 *
 * Trees: depth-first over fan-outs k_1, k_2, ... (each from 1 up to
 * k_{i-1}, or n - 1), stopping a branch as soon as the tree reaches n
 * threads (Eq. 4.4: 1 + sum_i prod_{j<=i} k_j >= n). The model of a
 * partial tree bounds every tree that extends it from below, because each
 * level adds a non-negative time (checked as we go: a level that makes
 * the min smaller is an error -- the profile's fits are then unusable for
 * this model), so a branch whose partial min is already worse than the
 * best complete tree is cut. Visiting k in increasing order makes the
 * first optimum found the lexicographically smallest.
 */
#include <math.h>
#include <string.h>

#include "model/ccopt.h"
#include "util/error.h"

static const char *const coll_names[MC_CCOPT_COUNT] = {
    [MC_CCOPT_BCAST_SMALL] = "bcast-small",
    [MC_CCOPT_REDUCE_SMALL] = "reduce-small",
    [MC_CCOPT_BARRIER] = "barrier",
};

void mc_ccopt_opts_default(mc_ccopt_opts_t *o)
{
    o->rounds_paper = 1;
    o->any_order = 0;
    o->dmax = MC_CCM_MAX_LEVELS;
}

int mc_ccopt_coll_from_name(const char *name, mc_ccopt_coll_t *out)
{
    for (int i = 0; i < MC_CCOPT_COUNT; i++)
        if (name && !strcmp(name, coll_names[i])) {
            *out = (mc_ccopt_coll_t)i;
            return MC_OK;
        }
    return mc_error(MC_ERR_ARG, "--coll: unknown collective '%s' (valid: "
                    "bcast-small, reduce-small, barrier)",
                    name ? name : "(null)");
}

const char *mc_ccopt_coll_name(mc_ccopt_coll_t c)
{
    return c >= 0 && c < MC_CCOPT_COUNT ? coll_names[c] : "?";
}

int mc_ccopt_tree_eval(const mc_ccm_t *m, mc_ccopt_coll_t coll, int d,
                       const int *k, mc_ccm_range_t *out)
{
    if (coll == MC_CCOPT_BCAST_SMALL)
        return mc_ccm_bcast_small(m, d, k, out);
    if (coll == MC_CCOPT_REDUCE_SMALL)
        return mc_ccm_reduce_small(m, d, k, out);
    return mc_error(MC_ERR_ARG, "coll: %s is not a tree collective",
                    mc_ccopt_coll_name(coll));
}

static int same(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

static int solve_barrier(const mc_ccm_t *m, int n, const mc_ccopt_opts_t *o,
                         mc_ccopt_result_t *r)
{
    int found = 0;
    for (int mp = 1; mp < n; mp++) {
        int rounds = mc_ccm_barrier_rounds(n, mp, o->rounds_paper);
        if (rounds < 0)
            continue;
        mc_ccm_range_t t;
        MC_CHECK(mc_ccm_barrier(m, mp, rounds, &t));
        if (found && same(t.min, r->min_ns)) {
            r->ties++;
        } else if (!found || t.min < r->min_ns) {
            found = 1;
            r->m = mp;
            r->rounds = rounds;
            r->min_ns = t.min;
            r->max_ns = t.max;
            r->ties = 0;
        }
    }
    if (!found)
        return mc_error(MC_ERR_INTERNAL, "barrier: no m for %d ranks", n);
    return MC_OK;
}

typedef struct search {
    const mc_ccm_t *m;
    mc_ccopt_coll_t coll;
    int n;
    const mc_ccopt_opts_t *o;
    int k[MC_CCM_MAX_LEVELS];
    mc_ccopt_result_t *best;
    int found;
} search_t;

/* A complete tree of `depth` levels with cost t. */
static void offer(search_t *s, int depth, const mc_ccm_range_t *t)
{
    mc_ccopt_result_t *b = s->best;
    if (s->found && same(t->min, b->min_ns)) {
        b->ties++;
        return;
    }
    if (s->found && t->min > b->min_ns)
        return;
    s->found = 1;
    b->d = depth;
    memset(b->k, 0, sizeof b->k);
    memcpy(b->k, s->k, (size_t)depth * sizeof *s->k);
    b->min_ns = t->min;
    b->max_ns = t->max;
    b->ties = 0;
}

/* Chooses k at level `depth` (0-based) under a prefix of cost `prefix`
 * (the min of the tree so far, 0 at the root). */
static int dfs(search_t *s, int depth, double prefix)
{
    int hi = depth == 0 || s->o->any_order ? s->n - 1 : s->k[depth - 1];
    for (int k = 1; k <= hi; k++) {
        s->k[depth] = k;
        mc_ccm_range_t t;
        MC_CHECK(mc_ccopt_tree_eval(s->m, s->coll, depth + 1, s->k, &t));
        if (depth > 0 && t.min < prefix && !same(t.min, prefix))
            return mc_error(MC_ERR_ARG, "%s: adding a level (k = %d) makes "
                            "the model faster (%.1f -> %.1f ns); the "
                            "profile's fits give a negative level cost",
                            mc_ccopt_coll_name(s->coll), k, prefix, t.min);
        if (s->found && t.min > s->best->min_ns &&
            !same(t.min, s->best->min_ns))
            continue; /* no tree with this prefix can be better */
        if (mc_ccm_tree_size(depth + 1, s->k) >= s->n)
            offer(s, depth + 1, &t);
        else if (depth + 1 < s->o->dmax)
            MC_CHECK(dfs(s, depth + 1, t.min));
    }
    return MC_OK;
}

int mc_ccopt_solve(const mc_ccm_t *m, mc_ccopt_coll_t coll, int n,
                   const mc_ccopt_opts_t *o, mc_ccopt_result_t *r)
{
    mc_ccopt_opts_t def;
    if (!o) {
        mc_ccopt_opts_default(&def);
        o = &def;
    }
    memset(r, 0, sizeof *r);
    r->ranks = n;
    if (n < 2 || n > 1 << 16)
        return mc_error(MC_ERR_ARG, "--ranks: %d is outside 2..%d", n,
                        1 << 16);
    if (o->dmax < 1 || o->dmax > MC_CCM_MAX_LEVELS)
        return mc_error(MC_ERR_ARG, "dmax: %d is outside 1..%d", o->dmax,
                        MC_CCM_MAX_LEVELS);
    if (coll == MC_CCOPT_BARRIER)
        return solve_barrier(m, n, o, r);
    search_t s = {.m = m, .coll = coll, .n = n, .o = o, .best = r};
    MC_CHECK(dfs(&s, 0, 0));
    if (!s.found)
        return mc_error(MC_ERR_ARG, "%s: no tree of height <= %d reaches %d "
                        "ranks", mc_ccopt_coll_name(coll), o->dmax, n);
    return MC_OK;
}
