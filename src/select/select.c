#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/select.h"
#include "select/tuning.h"

static const char *const coll_names[MC_COLL_COUNT] = {
    [MC_COLL_BARRIER] = "barrier",
    [MC_COLL_BCAST] = "bcast",
    [MC_COLL_REDUCE] = "reduce",
    [MC_COLL_ALLREDUCE] = "allreduce",
    [MC_COLL_ALLGATHER] = "allgather",
    [MC_COLL_ALLTOALL] = "alltoall",
    [MC_COLL_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
    [MC_COLL_GATHER] = "gather",
    [MC_COLL_SCATTER] = "scatter",
};

const char *mc_coll_name(mc_coll_t coll)
{
    return (unsigned)coll < MC_COLL_COUNT ? coll_names[coll] : "?";
}

int mc_coll_from_name(const char *name, mc_coll_t *out)
{
    for (int i = 0; i < MC_COLL_COUNT; i++)
        if (strcmp(coll_names[i], name) == 0) {
            *out = (mc_coll_t)i;
            return MC_OK;
        }
    return mc_error(MC_ERR_ARG,
                    "unknown collective '%s'; valid: barrier, bcast, reduce, "
                    "allreduce, allgather, alltoall, reduce_scatter_block, "
                    "gather, scatter",
                    name);
}

/* Built-in defaults: per collective and kind of machine, the first rule
 * whose max_bytes is >= the message size (bytes per rank block where the
 * call has blocks). Why each rule is there: docs/selection.md. */
enum { ON_ANY = 0, ON_COHERENT, ON_MPB };
static const struct {
    mc_coll_t coll;
    int on;
    int max_ranks; /* 0: any */
    size_t max_bytes;
    const char *spec;
} default_rules[] = {
    /* Cache-coherent machines, up to 16 ranks: the flat fast paths
     * (coll/fast.h), one line or slot per rank, no handshakes. Measured at
     * 2 ranks with `manycoll bench --algo A --algo B` (interleaved) against
     * the alternatives: docs/benchmarks.md. */
    {MC_COLL_BARRIER, ON_COHERENT, 16, SIZE_MAX, "flat"},
    {MC_COLL_BCAST, ON_COHERENT, 16, 16384, "flat"},
    {MC_COLL_BCAST, ON_COHERENT, 16, SIZE_MAX, "direct"},
    {MC_COLL_REDUCE, ON_COHERENT, 16, SIZE_MAX, "flat"},
    /* Larger messages (and bcast above 16K): single copy (coll/direct.h)
     * where a call's fixed cost (a process_vm_readv per peer, 2-5 us) is
     * paid back; each direct algorithm runs its MPB fallback when single
     * copy is off. Measurements: docs/selection.md. */
    {MC_COLL_ALLREDUCE, ON_COHERENT, 16, 2048, "flat"},
    {MC_COLL_ALLREDUCE, ON_COHERENT, 0, 32768, "rsag"},
    {MC_COLL_ALLREDUCE, ON_COHERENT, 0, SIZE_MAX, "direct"},
    {MC_COLL_ALLGATHER, ON_COHERENT, 16, 16384, "flat"},
    {MC_COLL_ALLGATHER, ON_COHERENT, 0, SIZE_MAX, "direct"},
    {MC_COLL_ALLTOALL, ON_COHERENT, 16, 1024, "flat"},
    {MC_COLL_ALLTOALL, ON_COHERENT, 0, 32768, "pairwise"},
    {MC_COLL_ALLTOALL, ON_COHERENT, 0, SIZE_MAX, "direct"},
    {MC_COLL_REDUCE_SCATTER_BLOCK, ON_COHERENT, 16, 16384, "flat"},
    {MC_COLL_REDUCE_SCATTER_BLOCK, ON_COHERENT, 0, SIZE_MAX, "direct"},
    /* everywhere else */
    {MC_COLL_BARRIER, ON_ANY, 0, SIZE_MAX, "dissemination"},
    /* OC-Bcast: 40% below binomial at one line and 2.9x scatter-allgather's
     * throughput on the simulated SCC */
    {MC_COLL_BCAST, ON_ANY, 0, SIZE_MAX, "ocbcast"},
    {MC_COLL_REDUCE, ON_ANY, 0, SIZE_MAX, "binomial"},
    {MC_COLL_ALLREDUCE, ON_ANY, 0, 16384, "reduce-bcast"},
    {MC_COLL_ALLREDUCE, ON_ANY, 0, SIZE_MAX, "ring"},
    {MC_COLL_ALLGATHER, ON_ANY, 0, SIZE_MAX, "ring"},
    {MC_COLL_ALLTOALL, ON_ANY, 0, SIZE_MAX, "pairwise"},
    {MC_COLL_REDUCE_SCATTER_BLOCK, ON_ANY, 0, SIZE_MAX, "ring"},
    {MC_COLL_GATHER, ON_ANY, 0, SIZE_MAX, "linear"},
    {MC_COLL_SCATTER, ON_ANY, 0, SIZE_MAX, "linear"},
};

/* the algorithm for a non-commutative op when the selected one can't */
static const char *const rank_order_fallback[MC_COLL_COUNT] = {
    [MC_COLL_REDUCE] = "binomial",
    [MC_COLL_ALLREDUCE] = "reduce-bcast",
    [MC_COLL_REDUCE_SCATTER_BLOCK] = "reduce-scatter",
};

static const char *const env_names[MC_COLL_COUNT] = {
    [MC_COLL_BARRIER] = "MC_ALGO_BARRIER",
    [MC_COLL_BCAST] = "MC_ALGO_BCAST",
    [MC_COLL_REDUCE] = "MC_ALGO_REDUCE",
    [MC_COLL_ALLREDUCE] = "MC_ALGO_ALLREDUCE",
    [MC_COLL_ALLGATHER] = "MC_ALGO_ALLGATHER",
    [MC_COLL_ALLTOALL] = "MC_ALGO_ALLTOALL",
    [MC_COLL_REDUCE_SCATTER_BLOCK] = "MC_ALGO_REDUCE_SCATTER_BLOCK",
    [MC_COLL_GATHER] = "MC_ALGO_GATHER",
    [MC_COLL_SCATTER] = "MC_ALGO_SCATTER",
};

static int env_rule(mc_coll_t coll, mc_ruleset_t *rs)
{
    const char *var = env_names[coll];
    const char *spec = getenv(var);
    if (!spec || !*spec)
        return 0;
    rs->n = 1;
    rs->r[0].max_bytes = SIZE_MAX;
    rs->r[0].why = var;
    MC_CHECK(mc_algo_parse(coll, spec, var, &rs->r[0].sel));
    return 1;
}

/* the built-in rules of coll on this kind of machine */
static int defaults(mc_coll_t coll, int kind, int size, mc_rule_t *out,
                    int *n)
{
    *n = 0;
    for (size_t i = 0; i < sizeof default_rules / sizeof *default_rules;
         i++) {
        if (default_rules[i].coll != coll ||
            (default_rules[i].on != ON_ANY && default_rules[i].on != kind) ||
            (default_rules[i].max_ranks && size > default_rules[i].max_ranks))
            continue;
        if (*n == MC_MAX_RULES)
            return mc_error(MC_ERR_INTERNAL, "default rules: more than %d "
                            "for %s", MC_MAX_RULES, mc_coll_name(coll));
        mc_rule_t *r = &out[(*n)++];
        r->max_bytes = default_rules[i].max_bytes;
        r->why = "built-in default rule (src/select/select.c)";
        MC_CHECK(mc_algo_parse(coll, default_rules[i].spec, "default rule",
                               &r->sel));
    }
    return MC_OK;
}

/* the tuning file's rule for (coll, size) that covers `bytes`, or the
 * lowest one that starts above it (*above = 1) */
static const mc_tune_rule_t *tuned_at(const mc_tuning_t *t, mc_coll_t coll,
                                      int size, size_t bytes, int *above)
{
    const mc_tune_rule_t *next = NULL;
    *above = 0;
    for (int i = 0; t && i < t->n; i++) {
        const mc_tune_rule_t *r = &t->rules[i];
        if (r->coll != coll || size < r->ranks_lo || size > r->ranks_hi ||
            r->bytes_hi < bytes)
            continue;
        if (r->bytes_lo <= bytes)
            return r;
        if (!next || r->bytes_lo < next->bytes_lo)
            next = r;
    }
    *above = next != NULL;
    return next;
}

/* The rules of one collective: the tuning file's size ranges, and the
 * built-in rules in the gaps between them, in increasing size. */
static int merge(const mc_tuning_t *t, mc_coll_t coll, int size,
                 const mc_rule_t *def, int ndef, mc_ruleset_t *rs)
{
    size_t x = 0;
    for (;;) {
        int above, d = 0;
        const mc_tune_rule_t *tr = tuned_at(t, coll, size, x, &above);
        if (rs->n == MC_MAX_RULES)
            return mc_error(MC_ERR_ARG, "tuning file %s: more than %d size "
                            "ranges for %s at %d ranks", t->path,
                            MC_MAX_RULES, mc_coll_name(coll), size);
        mc_rule_t *r = &rs->r[rs->n++];
        if (tr && !above) {
            r->max_bytes = tr->bytes_hi;
            r->sel = tr->sel;
            r->why = tr->why;
        } else {
            while (d < ndef - 1 && def[d].max_bytes < x)
                d++;
            *r = def[d];
            if (tr && tr->bytes_lo - 1 < r->max_bytes)
                r->max_bytes = tr->bytes_lo - 1;
        }
        if (r->max_bytes == SIZE_MAX)
            return MC_OK;
        x = r->max_bytes + 1;
    }
}

int mc_select_init(mc_ruleset_t rules[MC_COLL_COUNT], int size,
                   int coherent, const char *transport)
{
    int kind = coherent ? ON_COHERENT : ON_MPB;
    const mc_tuning_t *t;
    MC_CHECK(mc_tuning_get(&t));
    if (t && (!transport || strcmp(t->transport, transport)))
        t = NULL; /* a tuning for another transport */
    for (int c = 0; c < MC_COLL_COUNT; c++) {
        mc_ruleset_t *rs = &rules[c];
        memset(rs, 0, sizeof *rs);
        const char *fb = rank_order_fallback[c];
        if (fb)
            MC_CHECK(mc_algo_parse((mc_coll_t)c, fb, "fallback",
                                   &rs->fallback));
        int forced = env_rule((mc_coll_t)c, rs);
        MC_CHECK(forced);
        if (forced)
            continue;
        mc_rule_t def[MC_MAX_RULES];
        int ndef;
        MC_CHECK(defaults((mc_coll_t)c, kind, size, def, &ndef));
        MC_CHECK(merge(t, (mc_coll_t)c, size, def, ndef, rs));
    }
    return MC_OK;
}

/* the rule a call picks, or -1 for the rank-order fallback */
static int pick(const mc_ruleset_t *rs, size_t bytes, mc_op_t op)
{
    int i = 0;
    while (i < rs->n - 1 && bytes > rs->r[i].max_bytes)
        i++;
    if ((rs->r[i].sel.algo->flags & MC_ALGO_COMMUTATIVE) &&
        !mc_op_commutative(op))
        return -1;
    return i;
}

const mc_sel_t *mc_select(const mc_comm_t *c, const mc_args_t *a)
{
    const mc_ruleset_t *rs = &c->rules[a->coll];
    int i = pick(rs, a->bytes, a->op);
    return i < 0 ? &rs->fallback : &rs->r[i].sel;
}

void mc_select_explain(const mc_ruleset_t rules[MC_COLL_COUNT],
                       mc_coll_t coll, size_t bytes, mc_op_t op, char *buf,
                       size_t len, const char **why)
{
    const mc_ruleset_t *rs = &rules[coll];
    int i = pick(rs, bytes, op);
    mc_sel_format(i < 0 ? &rs->fallback : &rs->r[i].sel, buf, len);
    *why = i < 0 ? "rank-order fallback: the rule's algorithm needs a "
                   "commutative op"
                 : rs->r[i].why ? rs->r[i].why : "(unknown)";
}

void mc_select_describe(const mc_comm_t *c, mc_coll_t coll, size_t bytes,
                        mc_op_t op, char *buf, size_t len)
{
    mc_args_t a = {.coll = coll, .bytes = bytes, .op = op};
    mc_sel_t s = *mc_select(c, &a);
    if (s.algo->report)
        s.algo->report(c, &s.params);
    mc_sel_format(&s, buf, len);
}
