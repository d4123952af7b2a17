#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/select.h"

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
    size_t max_bytes;
    const char *spec;
} default_rules[] = {
    {MC_COLL_BARRIER, ON_ANY, SIZE_MAX, "dissemination"},
    /* OC-Bcast: 40% below binomial at one line and 2.9x scatter-allgather's
     * throughput on the simulated SCC; at or below binomial on shm */
    {MC_COLL_BCAST, ON_ANY, SIZE_MAX, "ocbcast"},
    {MC_COLL_REDUCE, ON_ANY, SIZE_MAX, "binomial"},
    {MC_COLL_ALLREDUCE, ON_ANY, 16384, "reduce-bcast"},
    {MC_COLL_ALLREDUCE, ON_ANY, SIZE_MAX, "ring"},
    {MC_COLL_ALLGATHER, ON_ANY, SIZE_MAX, "ring"},
    {MC_COLL_ALLTOALL, ON_ANY, SIZE_MAX, "pairwise"},
    {MC_COLL_REDUCE_SCATTER_BLOCK, ON_ANY, SIZE_MAX, "ring"},
    {MC_COLL_GATHER, ON_ANY, SIZE_MAX, "linear"},
    {MC_COLL_SCATTER, ON_ANY, SIZE_MAX, "linear"},
};

/* the algorithm for a non-commutative op when the selected one can't */
static const char *const rank_order_fallback[MC_COLL_COUNT] = {
    [MC_COLL_ALLREDUCE] = "reduce-bcast",
    [MC_COLL_REDUCE_SCATTER_BLOCK] = "reduce-scatter",
};

static int env_rule(mc_coll_t coll, mc_ruleset_t *rs)
{
    char var[64];
    snprintf(var, sizeof var, "MC_ALGO_%s", mc_coll_name(coll));
    for (char *p = var; *p; p++)
        *p = (char)toupper((unsigned char)*p);
    const char *spec = getenv(var);
    if (!spec || !*spec)
        return 0;
    rs->n = 1;
    rs->r[0].max_bytes = SIZE_MAX;
    MC_CHECK(mc_algo_parse(coll, spec, var, &rs->r[0].sel));
    return 1;
}

int mc_select_init(mc_ruleset_t rules[MC_COLL_COUNT], int size,
                   int coherent)
{
    (void)size;
    int kind = coherent ? ON_COHERENT : ON_MPB;
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
        for (size_t i = 0; i < sizeof default_rules / sizeof *default_rules;
             i++) {
            if (default_rules[i].coll != (mc_coll_t)c ||
                (default_rules[i].on != ON_ANY && default_rules[i].on != kind))
                continue;
            mc_rule_t *r = &rs->r[rs->n++];
            r->max_bytes = default_rules[i].max_bytes;
            MC_CHECK(mc_algo_parse((mc_coll_t)c, default_rules[i].spec,
                                   "default rule", &r->sel));
        }
    }
    return MC_OK;
}

const mc_sel_t *mc_select(const mc_comm_t *c, const mc_args_t *a)
{
    const mc_ruleset_t *rs = &c->rules[a->coll];
    const mc_sel_t *s = &rs->r[rs->n - 1].sel;
    for (int i = 0; i < rs->n; i++)
        if (a->bytes <= rs->r[i].max_bytes) {
            s = &rs->r[i].sel;
            break;
        }
    if ((s->algo->flags & MC_ALGO_COMMUTATIVE) && !mc_op_commutative(a->op))
        s = &rs->fallback;
    return s;
}

void mc_select_describe(const mc_comm_t *c, mc_coll_t coll, size_t bytes,
                        mc_op_t op, char *buf, size_t len)
{
    mc_args_t a = {.coll = coll, .bytes = bytes, .op = op};
    mc_sel_t s = *mc_select(c, &a);
    if (s.algo->resolve)
        s.algo->resolve(c, &s.params);
    mc_sel_format(&s, buf, len);
}
