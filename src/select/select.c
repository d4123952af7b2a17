#include <ctype.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"
#include "select/rules.h"
#include "select/select.h"
#include "select/tuning.h"
#include "util/config.h"
#include "util/error.h"

/* Built-in defaults: per collective and kind of machine, the first rule
 * whose max_bytes is >= the message size (bytes per rank block where the
 * call has blocks). Why each rule is there: docs/selection.md. */

/* The rank counts the rules distinguish (max_ranks). SMALL: the rules
 * measured on real machines of up to 16 ranks, where the flat fast paths
 * (one line or slot per rank, no handshakes) and the oversubscribed
 * choices pay; above it the rules are the models' and the simulator's.
 * PAIR: two ranks, where one phase of reading each other wins. FEW: the
 * scans' chain, up to 4 ranks. ANY: no limit. */
enum { ANY = 0, PAIR = 2, FEW = 4, SMALL = 16 };
/* ON_OVERSUB: cache-coherent with more ranks than CPUs (tp.h); its
 * collectives take the ON_OVERSUB rules where they have some, else the
 * ON_COHERENT ones */
enum { ON_ANY = 0, ON_COHERENT, ON_MPB, ON_OVERSUB };
static const struct default_rule {
    mc_coll_t coll;
    int on;
    int max_ranks; /* ANY, PAIR, FEW, SMALL */
    size_t max_bytes;
    const char *spec;
} default_rules[] = {
    /* Oversubscribed, up to 16 ranks: a handshake may wait for the
     * scheduler to run the peer (a time slice, or a yield round), so the
     * fewest dependent handshakes win. bcast: flat while its 2 KiB
     * windows fit the four fast slots of one call, single copy above,
     * where the receivers leave as soon as they have read (at 4 and 8
     * ranks on 2 CPUs, OSU through Open MPI 4.1: flat 7.5-13 us at 16
     * KiB, direct 2.6-3.5); scatter: single copy from 1 KiB blocks, from
     * 2 KiB up to 4 ranks (`manycoll bench --coll scatter --algo flat
     * --algo direct` on 2 CPUs, p50 of two runs: at 3-4 ranks and 1 KiB
     * blocks flat 0.4-0.7 us, direct 3.8-6.9, which waits for its
     * readers; at 2 KiB 0.7-6.0 against 3.8-6.9, and OSU's loop through
     * Open MPI at 4 ranks after the linear barrier: 1 KiB flat 0.45-0.53,
     * direct 2.5-3.3, 2 KiB 3.2-3.3 against 2.6-3.6; at 8 ranks OSU
     * 3.9-4.2 against 3.9-5.3 at 1 KiB, direct ahead from 2 KiB; at 16
     * ranks bench's direct 44-60 against flat 60-101), linear a handshake
     * per rank;
     * allgather: flat to 8 KiB (at 8 ranks it wins to 16 KiB, at 4 to
     * 4 KiB); alltoall: single copy from 2 KiB blocks, pairwise's P - 1
     * handshakes lose to it everywhere (docs/selection.md) */
    /* barrier: linear, so that rank 0 leaves first. In flat the rank
     * that arrived last leaves first and the first (a root whose part
     * of the call before was the shortest) last, and a call rooted at 0
     * after the barrier waits for it (OSU's loop, 8 B, through Open MPI
     * 4.1, average over the ranks, two runs: at 3, 4 and 8 ranks on 2
     * CPUs bcast 1.10-1.35 us after flat, 0.08-0.27 after linear, Open
     * MPI alone 0.60-11.8; scatter 0.83-2.42 against 0.12-0.49; the
     * barrier itself 1.55-6.53 against 2.78-8.03, Open MPI 4.03-21.3) */
    {MC_COLL_BARRIER, ON_OVERSUB, SMALL, SIZE_MAX, "linear"},
    {MC_COLL_BCAST, ON_OVERSUB, SMALL, 4096, "flat"},
    {MC_COLL_BCAST, ON_OVERSUB, SMALL, SIZE_MAX, "direct"},
    /* allreduce: from 3 ranks rsag's MPB rounds to 128 KiB, where
     * direct's readers' process_vm_readv calls cost more (`manycoll bench
     * --algo rsag --algo direct` on 2 CPUs: at 4 ranks rsag 0.73-0.95x
     * direct's time at 32-96 KiB, even at 128 KiB; at 8 ranks 0.52-0.79x
     * to 128 KiB, even at 256 KiB, direct ahead from 512 KiB; at 16
     * 0.54-0.75x at 64-128 KiB); 2 ranks on 1 CPU as on 2 (direct-all
     * 0.87x rsag's time at 64 KiB, direct 0.87x at 128 KiB) */
    {MC_COLL_ALLREDUCE, ON_OVERSUB, SMALL, 2048, "flat"},
    {MC_COLL_ALLREDUCE, ON_OVERSUB, PAIR, 65536, "direct-all"},
    {MC_COLL_ALLREDUCE, ON_OVERSUB, PAIR, SIZE_MAX, "direct"},
    {MC_COLL_ALLREDUCE, ON_OVERSUB, SMALL, 131072, "rsag"},
    {MC_COLL_ALLREDUCE, ON_OVERSUB, SMALL, SIZE_MAX, "direct"},
    /* above 16 ranks, more than CPUs: rsag, not the coherent rules'
     * recursive doubling, whose log2 P dependent exchanges each wait for
     * the scheduler (`manycoll bench -n N --coll allreduce --algo rsag
     * --algo recursive-doubling --sizes 8,256` on 2 CPUs, p50: at 17
     * ranks rsag 0.78-0.86x its time at 8 bytes, 0.84-0.88x at 256; at
     * 24 ranks 0.65x and 0.76x); then direct, as the coherent rules */
    {MC_COLL_ALLREDUCE, ON_OVERSUB, ANY, 32768, "rsag"},
    {MC_COLL_ALLREDUCE, ON_OVERSUB, ANY, SIZE_MAX, "direct"},
    {MC_COLL_SCATTER, ON_OVERSUB, FEW, 1024, "flat"},
    {MC_COLL_SCATTER, ON_OVERSUB, SMALL, 512, "flat"},
    {MC_COLL_SCATTER, ON_OVERSUB, SMALL, SIZE_MAX, "direct"},
    {MC_COLL_ALLGATHER, ON_OVERSUB, SMALL, 8192, "flat"},
    {MC_COLL_ALLGATHER, ON_OVERSUB, SMALL, SIZE_MAX, "direct"},
    {MC_COLL_ALLTOALL, ON_OVERSUB, SMALL, 1024, "flat"},
    {MC_COLL_ALLTOALL, ON_OVERSUB, SMALL, SIZE_MAX, "direct"},
    /* Cache-coherent machines, up to 16 ranks: the flat fast paths
     * (coll/fast.h), one line or slot per rank, no handshakes. Measured at
     * 2 ranks with `manycoll bench --algo A --algo B` (interleaved) against
     * the alternatives: docs/benchmarks.md. */
    {MC_COLL_BARRIER, ON_COHERENT, SMALL, SIZE_MAX, "flat"},
    {MC_COLL_BCAST, ON_COHERENT, SMALL, 16384, "flat"},
    {MC_COLL_BCAST, ON_COHERENT, SMALL, SIZE_MAX, "direct"},
    /* reduce above 4 KiB: the root reads the others' inputs itself (at
     * 2 ranks 0.34x flat's time at 64 KiB, 0.52x at 1 MiB) */
    {MC_COLL_REDUCE, ON_COHERENT, SMALL, 4096, "flat"},
    {MC_COLL_REDUCE, ON_COHERENT, SMALL, SIZE_MAX, "direct-root"},
    /* Above 16 ranks, small messages: the optimal trees of Ramos & Hoefler
     * (automatic fan-outs). On the simulated xeonphi60 they take 0.47x
     * OC-Bcast's time at 8 bytes at 32 and 60 ranks, 0.83x at 1 KiB at
     * 32 ranks but 1.07-1.17x from 256 bytes to 1 KiB at 60 (OC-Bcast
     * with a coherent chip's automatic k = 8 and leaves reading
     * directly), and 0.65x binomial reduce's at 8 bytes
     * (docs/selection.md). */
    {MC_COLL_BCAST, ON_COHERENT, ANY, 1024, "cc-tree"},
    {MC_COLL_REDUCE, ON_COHERENT, ANY, 56, "cc-tree"},
    /* Larger messages (and bcast above 16K): single copy (coll/direct.h)
     * where a call's fixed cost (a process_vm_readv per peer, 2-5 us) is
     * paid back; each direct algorithm runs its MPB fallback when single
     * copy is off. Measurements: docs/selection.md. */
    {MC_COLL_ALLREDUCE, ON_COHERENT, SMALL, 2048, "flat"},
    /* two ranks: one phase, each reads the other's vector (0.6-0.7x the
     * time of rsag or direct at 16-32 KiB, 0.8x direct's at 64 KiB, 1.06x
     * at 256 KiB; measured at 2 ranks only) */
    {MC_COLL_ALLREDUCE, ON_COHERENT, PAIR, 65536, "direct-all"},
    /* above 16 ranks, up to 256 bytes: log2 P exchanges, not rsag's
     * pipeline through every rank's MPB (on the simulated xeonphi60,
     * `manycoll sim --platform xeonphi60 --ranks N --coll allreduce
     * --algo rsag --algo recursive-doubling`: 0.27-0.39x rsag's time at
     * 8 bytes on 17-24 ranks, 0.15x at 48-60, 0.6x at 256 bytes on 17;
     * even at 512 bytes on 17 ranks, rsag ahead from 1 KiB there). A
     * model's answer: not measured on a machine with that many cores */
    {MC_COLL_ALLREDUCE, ON_COHERENT, ANY, 256, "recursive-doubling"},
    {MC_COLL_ALLREDUCE, ON_COHERENT, ANY, 32768, "rsag"},
    {MC_COLL_ALLREDUCE, ON_COHERENT, ANY, SIZE_MAX, "direct"},
    {MC_COLL_ALLGATHER, ON_COHERENT, SMALL, 16384, "flat"},
    /* Above 16 ranks, small blocks: not P - 1 process_vm_readv calls
     * (1.2-1.5 us each at 2 ranks) but the fast path, 4.7x faster than
     * ring on the simulated xeonphi60 at 8 bytes (32 and 60 ranks), 2x
     * at 128, even at 1 KiB (ring 0.92-0.96x its time); reduce-scatter: ring,
     * which beats flat there from 64 bytes at 60 ranks, 128 at 24 (flat
     * 0.5x ring's time at 8 bytes). Extrapolations: neither is
     * measured on a machine with that many cores (docs/selection.md). */
    {MC_COLL_ALLGATHER, ON_COHERENT, ANY, 1024, "flat"},
    {MC_COLL_ALLGATHER, ON_COHERENT, ANY, SIZE_MAX, "direct"},
    {MC_COLL_ALLTOALL, ON_COHERENT, SMALL, 1024, "flat"},
    {MC_COLL_ALLTOALL, ON_COHERENT, ANY, 32768, "pairwise"},
    {MC_COLL_ALLTOALL, ON_COHERENT, ANY, SIZE_MAX, "direct"},
    {MC_COLL_REDUCE_SCATTER_BLOCK, ON_COHERENT, SMALL, 16384, "flat"},
    {MC_COLL_REDUCE_SCATTER_BLOCK, ON_COHERENT, ANY, 1024, "ring"},
    {MC_COLL_REDUCE_SCATTER_BLOCK, ON_COHERENT, ANY, SIZE_MAX, "direct"},
    /* reduce_scatter with counts, by the mean block: the fast path in
     * slot-sized windows while small, then single copy (at 2 ranks, p50:
     * flat 0.50-0.82x reduce-scatterv's time up to 32 KiB, direct 0.24x
     * from 16 KiB; docs/selection.md) */
    {MC_COLL_REDUCE_SCATTER, ON_COHERENT, SMALL, 4096, "flat"},
    /* above 16 ranks, mean blocks up to 256 bytes: the fast path too
     * (simulated xeonphi60, `--coll reduce_scatter --algo flat --algo
     * reduce-scatterv --sizes 8,64,256,1K`: 0.33-0.47x reduce-scatterv's
     * time up to 256 bytes at 16 ranks, 0.49-0.61x at 60; at 1 KiB 0.71x
     * at 16 ranks, 1.57x at 60). A model's answer, as above; 17 ranks
     * on 2 CPUs agree (`manycoll bench -n 17 --coll reduce_scatter`,
     * p50: 0.29x at 8 bytes, 0.34x at 256) */
    {MC_COLL_REDUCE_SCATTER, ON_COHERENT, ANY, 256, "flat"},
    {MC_COLL_REDUCE_SCATTER, ON_COHERENT, SMALL, SIZE_MAX, "direct"},
    /* gather: small blocks up to 16 ranks, the root reads every rank's
     * published block (at 2 ranks 0.41-0.43x linear's time up to 512
     * bytes, 0.91x at 4 KiB); above 4 KiB single copy, the senders
     * writing their blocks into the root's buffer (at 2 ranks 0.80x
     * linear's time at 8 KiB, 0.39-0.59x from 64 KiB; at 4 and 8
     * oversubscribed ranks 0.14-0.65x from 8 KiB). Above 16 ranks an
     * extrapolation. */
    {MC_COLL_GATHER, ON_COHERENT, SMALL, 4096, "flat"},
    {MC_COLL_GATHER, ON_COHERENT, ANY, 4096, "linear"},
    {MC_COLL_GATHER, ON_COHERENT, ANY, SIZE_MAX, "direct"},
    /* small scatters up to 16 ranks: one publication all read (at 2
     * ranks 0.4x linear's time up to 512 bytes, 0.75x at 1 KiB); above
     * 1 KiB single copy, the receivers leaving as soon as they have read
     * (at 2 ranks 0.74-0.85x linear's time at 2-4 KiB, 0.52-0.59x at
     * 8 KiB). Above 16 ranks an extrapolation. */
    {MC_COLL_SCATTER, ON_COHERENT, SMALL, 1024, "flat"},
    {MC_COLL_SCATTER, ON_COHERENT, ANY, 1024, "linear"},
    {MC_COLL_SCATTER, ON_COHERENT, ANY, SIZE_MAX, "direct"},
    /* everywhere else */
    {MC_COLL_BARRIER, ON_ANY, ANY, SIZE_MAX, "dissemination"},
    /* OC-Bcast: 40% below binomial at one line and 2.9x scatter-allgather's
     * throughput on the simulated SCC */
    {MC_COLL_BCAST, ON_ANY, ANY, SIZE_MAX, "ocbcast"},
    {MC_COLL_REDUCE, ON_ANY, ANY, SIZE_MAX, "binomial"},
    {MC_COLL_ALLREDUCE, ON_ANY, ANY, 16384, "reduce-bcast"},
    {MC_COLL_ALLREDUCE, ON_ANY, ANY, SIZE_MAX, "ring"},
    {MC_COLL_ALLGATHER, ON_ANY, ANY, SIZE_MAX, "ring"},
    {MC_COLL_ALLTOALL, ON_ANY, ANY, SIZE_MAX, "pairwise"},
    {MC_COLL_REDUCE_SCATTER_BLOCK, ON_ANY, ANY, SIZE_MAX, "ring"},
    {MC_COLL_GATHER, ON_ANY, ANY, SIZE_MAX, "linear"},
    {MC_COLL_SCATTER, ON_ANY, ANY, SIZE_MAX, "linear"},
    /* the chain up to 4 ranks, then log2 P rounds: on the simulated
     * scc48 the chain wins at 2 and 4 ranks, recursive doubling from 8
     * (8 bytes: 18.3 against 24.9 us) to 48 (35 against 160 us;
     * docs/selection.md) */
    {MC_COLL_SCAN, ON_ANY, FEW, SIZE_MAX, "linear"},
    {MC_COLL_SCAN, ON_ANY, ANY, SIZE_MAX, "recursive-doubling"},
    {MC_COLL_EXSCAN, ON_ANY, FEW, SIZE_MAX, "linear"},
    {MC_COLL_EXSCAN, ON_ANY, ANY, SIZE_MAX, "recursive-doubling"},
    /* the v-variants: one algorithm each so far */
    {MC_COLL_ALLGATHERV, ON_ANY, ANY, SIZE_MAX, "ring"},
    {MC_COLL_ALLTOALLV, ON_ANY, ANY, SIZE_MAX, "pairwise"},
    {MC_COLL_GATHERV, ON_ANY, ANY, SIZE_MAX, "linear"},
    {MC_COLL_SCATTERV, ON_ANY, ANY, SIZE_MAX, "linear"},
    {MC_COLL_REDUCE_SCATTER, ON_ANY, ANY, SIZE_MAX, "reduce-scatterv"},
};


/* the selection spec names, kept (settle.c: rules point at kept ones) */
static int parse_kept(mc_coll_t coll, const char *spec, const char *who,
                      const mc_sel_t **out)
{
    mc_sel_t s;
    MC_CHECK(mc_algo_parse(coll, spec, who, &s));
    return mc_sel_keep(&s, out);
}

static int env_rule(mc_coll_t coll, mc_ruleset_t *rs)
{
    const char *var = mc_colls[coll].var;
    const char *spec = mc_env_algo(coll); /* what the rules' key read */
    if (!*spec)
        return 0;
    rs->n = 1;
    rs->r[0].max_bytes = SIZE_MAX;
    rs->r[0].why = var;
    MC_CHECK(parse_kept(coll, spec, var, &rs->r[0].sel));
    return 1;
}

int mc_select_builtin_rule(size_t i, mc_builtin_rule_t *out)
{
    static const char *const machine[] = {
        [ON_ANY] = "any", [ON_COHERENT] = "coherent", [ON_MPB] = "MPB",
        [ON_OVERSUB] = "oversubscribed"};
    if (i >= sizeof default_rules / sizeof *default_rules)
        return 0;
    const struct default_rule *r = &default_rules[i];
    *out = (mc_builtin_rule_t){r->coll, machine[r->on], r->max_ranks,
                               r->max_bytes, r->spec};
    return 1;
}

const char *mc_select_builtin(mc_coll_t coll, int coherent, int size,
                              size_t bytes)
{
    int kind = coherent ? ON_COHERENT : ON_MPB;
    for (size_t i = 0; i < sizeof default_rules / sizeof *default_rules;
         i++) {
        const struct default_rule *r = &default_rules[i];
        if (r->coll == coll && (r->on == ON_ANY || r->on == kind) &&
            (!r->max_ranks || size <= r->max_ranks) && bytes <= r->max_bytes)
            return r->spec;
    }
    return NULL;
}

/* the built-in rules of coll on this kind of machine */
static int defaults(mc_coll_t coll, int kind, int size, mc_rule_t *out,
                    int *n)
{
    *n = 0;
    size_t nr = sizeof default_rules / sizeof *default_rules;
    int own = 0; /* oversubscribed: coll has rules of its own */
    for (size_t i = 0; kind == ON_OVERSUB && i < nr; i++)
        own |= default_rules[i].coll == coll &&
               default_rules[i].on == ON_OVERSUB &&
               !(default_rules[i].max_ranks &&
                 size > default_rules[i].max_ranks);
    for (size_t i = 0; i < nr; i++) {
        int on = default_rules[i].on;
        if (default_rules[i].coll != coll ||
            (on != ON_ANY && on != kind &&
             !(kind == ON_OVERSUB && !own && on == ON_COHERENT)) ||
            (default_rules[i].max_ranks && size > default_rules[i].max_ranks))
            continue;
        if (*n == MC_MAX_RULES)
            return mc_error(MC_ERR_INTERNAL, "default rules: more than %d "
                            "for %s", MC_MAX_RULES, mc_coll_name(coll));
        mc_rule_t *r = &out[(*n)++];
        r->max_bytes = default_rules[i].max_bytes;
        r->why = default_rules[i].on == ON_OVERSUB
                     ? "built-in rule for more ranks than CPUs "
                       "(src/select/select.c)"
                     : "built-in default rule (src/select/select.c)";
        MC_CHECK(parse_kept(coll, default_rules[i].spec, "default rule",
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
            MC_CHECK(mc_sel_keep(&tr->sel, &r->sel));
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

/* each rule's selection as it runs on team t, and, where the chain
 * differs for ops that do not commute, that chain's end */
static int settle_all(const mc_team_t *t, mc_ruleset_t *rs)
{
    for (int i = 0; i < rs->n; i++) {
        mc_rule_t *r = &rs->r[i];
        mc_sel_t s = *r->sel, nc = s;
        MC_CHECK(mc_sel_settle(t, &s, 0));
        MC_CHECK(mc_sel_settle(t, &nc, 1));
        MC_CHECK(mc_sel_keep(&s, &r->sel));
        r->noncomm = NULL;
        if (nc.algo != s.algo || nc.next != s.next ||
            memcmp(&nc.params, &s.params, sizeof nc.params))
            MC_CHECK(mc_sel_keep(&nc, &r->noncomm));
    }
    return MC_OK;
}

static int init_one(const mc_tuning_t *t, const mc_team_t *team,
                    mc_coll_t c, mc_ruleset_t *rs)
{
    int kind = !team->tp->cache_coherent ? ON_MPB
               : team->tp->oversubscribed ? ON_OVERSUB : ON_COHERENT;
    memset(rs, 0, sizeof *rs);
    int forced = env_rule(c, rs);
    MC_CHECK(forced);
    if (!forced) {
        mc_rule_t def[MC_MAX_RULES];
        int ndef;
        MC_CHECK(defaults(c, kind, team->size, def, &ndef));
        MC_CHECK(merge(t, c, team->size, def, ndef, rs));
    }
    return settle_all(team, rs);
}

/* the process's tuning file, if it is for this team's transport */
int mc_select_tuning(const mc_team_t *team, const mc_tuning_t **out)
{
    const char *transport = team->tp->ops->name;
    MC_CHECK(mc_tuning_get(out));
    if (*out && (!transport || strcmp((*out)->transport, transport)))
        *out = NULL; /* a tuning for another transport */
    return MC_OK;
}

/* the registry's rules hold (checked once per process) */
static int registry_ok(void)
{
    static _Atomic int ok;
    if (atomic_load_explicit(&ok, memory_order_relaxed))
        return MC_OK;
    MC_CHECK(mc_registry_check(mc_algos));
    atomic_store_explicit(&ok, 1, memory_order_relaxed);
    return MC_OK;
}

int mc_select_init(mc_ruleset_t rules[MC_COLL_COUNT], const mc_team_t *team)
{
    const mc_tuning_t *t;
    MC_CHECK(registry_ok());
    MC_CHECK(mc_select_tuning(team, &t));
    for (int c = 0; c < MC_COLL_COUNT; c++)
        MC_CHECK(init_one(t, team, (mc_coll_t)c, &rules[c]));
    return MC_OK;
}

int mc_select_set(mc_ruleset_t rules[MC_COLL_COUNT], const mc_team_t *team,
                  mc_coll_t coll, const char *spec, const char *who)
{
    mc_ruleset_t rs;
    if (!spec) {
        const mc_tuning_t *t;
        MC_CHECK(mc_select_tuning(team, &t));
        MC_CHECK(init_one(t, team, coll, &rs));
    } else {
        memset(&rs, 0, sizeof rs);
        rs.n = 1;
        rs.r[0].max_bytes = SIZE_MAX;
        rs.r[0].why = "mc_comm_set_algo";
        MC_CHECK(parse_kept(coll, spec, who, &rs.r[0].sel));
        MC_CHECK(settle_all(team, &rs));
    }
    rules[coll] = rs;
    return MC_OK;
}

/* the selection of a call: its rule's, or that rule's for ops that do
 * not commute; *r is the rule */
static const mc_sel_t *pick(const mc_ruleset_t *rs, size_t bytes,
                            mc_op_t op, const mc_rule_t **r)
{
    int i = 0;
    while (i < rs->n - 1 && bytes > rs->r[i].max_bytes)
        i++;
    *r = &rs->r[i];
    if (rs->r[i].noncomm && !mc_op_commutative(op))
        return rs->r[i].noncomm;
    return rs->r[i].sel;
}

const mc_sel_t *mc_select_rule(const mc_ruleset_t rules[MC_COLL_COUNT],
                               const mc_args_t *a)
{
    const mc_rule_t *r;
    return pick(&rules[a->coll], a->sel_bytes ? a->sel_bytes : a->bytes,
                a->op, &r);
}

void mc_select_explain(const mc_ruleset_t rules[MC_COLL_COUNT],
                       mc_coll_t coll, size_t bytes, mc_op_t op,
                       mc_explain_t *out)
{
    const mc_rule_t *r;
    const mc_sel_t *s = pick(&rules[coll], bytes, op, &r);
    mc_sel_format(mc_sel_asked(s), out->asked, sizeof out->asked);
    mc_sel_format(s, out->ran, sizeof out->ran);
    out->origin = r->why ? r->why : "(unknown)";
    int n = snprintf(out->why, sizeof out->why, "%s", out->origin);
    mc_sel_why(s, out->why, sizeof out->why, (size_t)n);
    out->max_bytes = r->max_bytes;
    out->fallback = s->replaces != NULL;
}
