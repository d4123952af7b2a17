/*
 * mc_comm_split: an allgather of (color, key) over the parent, then each
 * color group opens a sub-transport, ordered by (key, parent rank).
 */
#include <stdlib.h>

#include "api/coll_prep.h"
#include "api/trace.h"
#include "util/error.h"

typedef struct member {
    int key;
    int rank;
} member_t;

static int by_key_then_rank(const void *x, const void *y)
{
    const member_t *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->rank < b->rank ? -1 : (a->rank > b->rank);
}

int mc_comm_split(mc_comm_t *c, int color, int key, mc_comm_t **out)
{
    static const char fn[] = "mc_comm_split";
    if (!c)
        return mc_error(MC_ERR_ARG, "%s: argument 'comm' is NULL", fn);
    if (!out)
        return mc_error(MC_ERR_ARG, "%s: argument 'out' is NULL", fn);
    *out = NULL;
    if (color < 0 && color != MC_UNDEFINED)
        return mc_error(MC_ERR_ARG,
                        "%s: argument 'color' is %d; use a value >= 0 or "
                        "MC_UNDEFINED",
                        fn, color);
    int n = c->team.size;
    int32_t mine[2] = {color, key};
    int32_t *all = malloc(sizeof(int32_t) * 2 * (size_t)n);
    member_t *m = malloc(sizeof(member_t) * (size_t)n);
    int rc = (all && m) ? MC_OK
                        : mc_error(MC_ERR_NOMEM, "%s: out of memory", fn);
    mc_trace_hold(1); /* its allgather is the split's own (MC_TRACE) */
    if (rc == MC_OK)
        rc = mc_allgather(c, mine, all, 2, MC_INT32);
    mc_trace_hold(0);
    c->nsplit++;
    if (rc == MC_OK && color != MC_UNDEFINED) {
        int cnt = 0, myrank = -1;
        for (int r = 0; r < n; r++)
            if (all[2 * r] == color)
                m[cnt++] = (member_t){all[2 * r + 1], r};
        qsort(m, (size_t)cnt, sizeof *m, by_key_then_rank);
        int *members = (int *)all; /* reuse: cnt <= 2n ints fit */
        for (int i = 0; i < cnt; i++) {
            members[i] = m[i].rank;
            if (m[i].rank == c->team.rank)
                myrank = i;
        }
        uint64_t id = (c->nsplit << 32) | (uint32_t)color;
        mc_tp_t *sub;
        rc = c->team.tp->ops->sub(c->team.tp, members, cnt, myrank, id, &sub);
        if (rc == MC_OK)
            rc = mc_comm_wrap(sub, out);
        if (rc == MC_OK && mc_trace_on)
            mc_trace_comm(c, *out, members, 0);
    }
    free(all);
    free(m);
    return rc;
}

/* every rank of c, in c's order: no exchange needed, only a transport of
 * its own (an id no split can give: colors stay below 2^31) */
int mc_comm_dup(mc_comm_t *c, mc_comm_t **out)
{
    static const char fn[] = "mc_comm_dup";
    if (!c)
        return mc_error(MC_ERR_ARG, "%s: argument 'comm' is NULL", fn);
    if (!out)
        return mc_error(MC_ERR_ARG, "%s: argument 'out' is NULL", fn);
    *out = NULL;
    int n = c->team.size;
    int *members = malloc(sizeof(int) * (size_t)n);
    if (!members)
        return mc_error(MC_ERR_NOMEM, "%s: out of memory", fn);
    for (int r = 0; r < n; r++)
        members[r] = r;
    if (mc_nb_pending(c)) /* its calls come first on every rank */
        (void)mc_nb_drain(c);
    c->nsplit++;
    uint64_t id = (c->nsplit << 32) | 0xffffffffu;
    mc_tp_t *sub;
    int rc = c->team.tp->ops->sub(c->team.tp, members, n, c->team.rank, id,
                                  &sub);
    if (rc == MC_OK)
        rc = mc_comm_wrap(sub, out);
    if (rc == MC_OK && mc_trace_on)
        mc_trace_comm(c, *out, NULL, 1);
    free(members);
    return rc;
}
