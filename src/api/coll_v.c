/*
 * The v-variants' entry points: allgatherv, alltoallv, gatherv, scatterv
 * and reduce_scatter, with counts and displacements per rank in elements
 * (as MPI's). The checks name the argument and the rank's index in it;
 * a call whose counts are all zero still runs (the ranks cannot know that
 * the others have nothing either, except in allgatherv and
 * reduce_scatter, whose counts every rank holds, and there it is cheap).
 * mc_args_t carries the arrays; count is 0 and bytes this rank's block.
 */
#include "api/coll_check.h"
#include "api/nbc.h"
#include "api/trace.h"

/* a count or displacement array where significant: present, and every
 * entry (plus its displacement) within what a buffer can hold */
static int check_layout(mc_comm_t *c, const size_t *cnt, const size_t *dis,
                        const char *cname, const char *dname,
                        const void *buf, const char *bname, const char *fn)
{
    if (!cnt)
        return mc_error(MC_ERR_ARG, "%s: argument '%s' is NULL", fn, cname);
    if (!dis && dname)
        return mc_error(MC_ERR_ARG, "%s: argument '%s' is NULL", fn, dname);
    for (int q = 0; q < c->team.size; q++) {
        if (cnt[q] >= MC_MAX_COUNT || (dis && dis[q] >= MC_MAX_COUNT))
            return mc_error(MC_ERR_ARG, "%s: argument '%s' (%zu) or '%s' "
                            "(%zu) at index %d is too large", fn, cname,
                            cnt[q], dname ? dname : "-",
                            dis ? dis[q] : 0, q);
        if (cnt[q] && !buf && bname)
            return mc_error(MC_ERR_ARG, "%s: argument '%s' is NULL with "
                            "%s[%d] = %zu", fn, bname, cname, q, cnt[q]);
    }
    return MC_OK;
}

static int check_scalar(const void *buf, size_t count, const char *bname,
                        const char *fn)
{
    if (count >= MC_MAX_COUNT)
        return mc_error(MC_ERR_ARG, "%s: argument 'count' (%zu) is too "
                        "large", fn, count);
    return check_buf(buf, count, bname, fn);
}

static int same_count(size_t mine, const size_t *cnt, int rank,
                      const char *name, const char *cname, const char *fn)
{
    if (mine != cnt[rank])
        return mc_error(MC_ERR_ARG, "%s: argument '%s' (%zu) differs from "
                        "%s[%d] (%zu), this rank's own entry", fn, name,
                        mine, cname, rank, cnt[rank]);
    return MC_OK;
}

static void init_v(mc_args_t *a, mc_coll_t coll, mc_dtype_t dt,
                   size_t own)
{
    size_t dsize = mc_dtype_size(dt);
    *a = (mc_args_t){.coll = coll, .dt = dt, .dsize = dsize,
                     .bytes = own * dsize};
}

int mc_prep_allgatherv(mc_comm_t *c, const void *sbuf, size_t scount,
                       void *rbuf, const size_t *rcounts,
                       const size_t *displs, mc_dtype_t dt, mc_args_t *a)
{
    static const char fn[] = "mc_allgatherv";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, no_in_place(rbuf, "rbuf", fn));
    ARG(c, check_layout(c, rcounts, displs, "rcounts", "displs", rbuf,
                        "rbuf", fn));
    int in_place = sbuf == MC_IN_PLACE;
    if (!in_place) {
        ARG(c, check_scalar(sbuf, scount, "sbuf", fn));
        ARG(c, same_count(scount, rcounts, c->team.rank, "scount",
                          "rcounts", fn));
    }
    init_v(a, MC_COLL_ALLGATHERV, dt, rcounts[c->team.rank]);
    a->in_place = in_place;
    a->rbuf = rbuf;
    a->sbuf = in_place ? (char *)rbuf + displs[c->team.rank] * a->dsize
                       : sbuf;
    a->rcounts = rcounts;
    a->rdispls = displs;
    return MC_OK;
}

int mc_prep_alltoallv(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                      const size_t *sdispls, void *rbuf,
                      const size_t *rcounts, const size_t *rdispls,
                      mc_dtype_t dt, mc_args_t *a)
{
    static const char fn[] = "mc_alltoallv";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, no_in_place(rbuf, "rbuf", fn));
    ARG(c, check_layout(c, rcounts, rdispls, "rcounts", "rdispls", rbuf,
                        "rbuf", fn));
    int in_place = sbuf == MC_IN_PLACE;
    if (!in_place) {
        ARG(c, check_layout(c, scounts, sdispls, "scounts", "sdispls", sbuf,
                            "sbuf", fn));
        ARG(c, same_count(scounts[c->team.rank], rcounts, c->team.rank,
                          "scounts[rank]", "rcounts", fn));
    }
    init_v(a, MC_COLL_ALLTOALLV, dt, 0);
    a->in_place = in_place;
    a->rbuf = rbuf;
    a->sbuf = in_place ? rbuf : sbuf; /* copied by the algorithm */
    a->scounts = in_place ? rcounts : scounts;
    a->sdispls = in_place ? rdispls : sdispls;
    a->rcounts = rcounts;
    a->rdispls = rdispls;
    return MC_OK;
}

int mc_prep_gatherv(mc_comm_t *c, const void *sbuf, size_t scount,
                    void *rbuf, const size_t *rcounts, const size_t *displs,
                    mc_dtype_t dt, int root, mc_args_t *a)
{
    static const char fn[] = "mc_gatherv";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_root(c, root, fn));
    int is_root = c->team.rank == root;
    int in_place = is_root && sbuf == MC_IN_PLACE;
    if (is_root) {
        ARG(c, no_in_place(rbuf, "rbuf", fn));
        ARG(c, check_layout(c, rcounts, displs, "rcounts", "displs", rbuf,
                            "rbuf", fn));
        if (!in_place)
            ARG(c, same_count(scount, rcounts, root, "scount", "rcounts",
                              fn));
    } else {
        ARG(c, no_in_place(sbuf, "sbuf (on a rank other than the root)",
                           fn));
    }
    if (!in_place)
        ARG(c, check_scalar(sbuf, scount, "sbuf", fn));
    init_v(a, MC_COLL_GATHERV, dt, in_place ? rcounts[root] : scount);
    a->root = root;
    a->in_place = in_place;
    a->rbuf = is_root ? rbuf : NULL;
    a->sbuf = in_place ? (char *)rbuf + displs[root] * a->dsize : sbuf;
    a->rcounts = is_root ? rcounts : NULL;
    a->rdispls = is_root ? displs : NULL;
    return MC_OK;
}

int mc_prep_scatterv(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                     const size_t *displs, void *rbuf, size_t rcount,
                     mc_dtype_t dt, int root, mc_args_t *a)
{
    static const char fn[] = "mc_scatterv";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_root(c, root, fn));
    int is_root = c->team.rank == root;
    int in_place = is_root && rbuf == MC_IN_PLACE;
    if (is_root) {
        ARG(c, no_in_place(sbuf, "sbuf", fn));
        ARG(c, check_layout(c, scounts, displs, "scounts", "displs", sbuf,
                            "sbuf", fn));
        if (!in_place)
            ARG(c, same_count(rcount, scounts, root, "rcount", "scounts",
                              fn));
    } else {
        ARG(c, no_in_place(rbuf, "rbuf (on a rank other than the root)",
                           fn));
    }
    if (!in_place)
        ARG(c, check_scalar(rbuf, rcount, "rbuf", fn));
    init_v(a, MC_COLL_SCATTERV, dt, in_place ? scounts[root] : rcount);
    a->root = root;
    a->in_place = in_place;
    a->sbuf = is_root ? sbuf : NULL;
    a->rbuf = in_place ? (char *)sbuf + displs[root] * a->dsize : rbuf;
    a->scounts = is_root ? scounts : NULL; /* non-roots: bytes */
    a->sdispls = is_root ? displs : NULL;
    return MC_OK;
}

int mc_prep_reduce_scatter(mc_comm_t *c, const void *sbuf, void *rbuf,
                           const size_t *rcounts, mc_dtype_t dt, mc_op_t op,
                           mc_args_t *a)
{
    static const char fn[] = "mc_reduce_scatter";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_op(op, dt, fn));
    ARG(c, no_in_place(rbuf, "rbuf", fn));
    ARG(c, check_layout(c, rcounts, NULL, "rcounts", NULL, rbuf, NULL, fn));
    size_t total = 0;
    for (int q = 0; q < c->team.size; q++)
        total += rcounts[q];
    if (total >= MC_MAX_COUNT)
        return arg_error(c, mc_error(MC_ERR_ARG, "%s: argument 'rcounts' "
                                     "sums to %zu elements, too many", fn,
                                     total));
    ARG(c, check_buf(sbuf, total, "sbuf", fn));
    ARG(c, check_buf(rbuf, sbuf == MC_IN_PLACE ? total
                                               : rcounts[c->team.rank],
                     "rbuf", fn));
    init_v(a, MC_COLL_REDUCE_SCATTER, dt, rcounts[c->team.rank]);
    a->op = op;
    a->in_place = sbuf == MC_IN_PLACE;
    a->rbuf = rbuf;
    a->sbuf = a->in_place ? rbuf : sbuf;
    a->rcounts = rcounts;
    /* every rank selects alike: by the mean block, not its own */
    a->sel_bytes = total * a->dsize / (size_t)c->team.size;
    return MC_OK;
}

/* ---- the blocking calls ---- */

static int run_v(mc_comm_t *c, int prep, const mc_args_t *a)
{
    if (prep < 0) /* c NULL fails in prep */
        return prep;
    if (mc_nb_pending(c))
        MC_CHECK(mc_nb_drain(c));
    uint64_t t0;
    if (__builtin_expect(c->traced, 0) && mc_trace_begin(c, &t0)) {
        int rc = mc_run_call(c, a, NULL); /* MC_TRACE (api/trace.c) */
        mc_trace_end(c, prep, a, t0);
        return rc;
    }
    return mc_run_call(c, a, NULL);
}

int mc_allgatherv(mc_comm_t *c, const void *sbuf, size_t scount, void *rbuf,
                  const size_t *rcounts, const size_t *displs, mc_dtype_t dt)
{
    mc_args_t a;
    return run_v(c, mc_prep_allgatherv(c, sbuf, scount, rbuf, rcounts,
                                       displs, dt, &a), &a);
}

int mc_alltoallv(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                 const size_t *sdispls, void *rbuf, const size_t *rcounts,
                 const size_t *rdispls, mc_dtype_t dt)
{
    mc_args_t a;
    return run_v(c, mc_prep_alltoallv(c, sbuf, scounts, sdispls, rbuf,
                                      rcounts, rdispls, dt, &a), &a);
}

int mc_gatherv(mc_comm_t *c, const void *sbuf, size_t scount, void *rbuf,
               const size_t *rcounts, const size_t *displs, mc_dtype_t dt,
               int root)
{
    mc_args_t a;
    return run_v(c, mc_prep_gatherv(c, sbuf, scount, rbuf, rcounts, displs,
                                    dt, root, &a), &a);
}

int mc_scatterv(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                const size_t *displs, void *rbuf, size_t rcount,
                mc_dtype_t dt, int root)
{
    mc_args_t a;
    return run_v(c, mc_prep_scatterv(c, sbuf, scounts, displs, rbuf, rcount,
                                     dt, root, &a), &a);
}

int mc_reduce_scatter(mc_comm_t *c, const void *sbuf, void *rbuf,
                      const size_t *rcounts, mc_dtype_t dt, mc_op_t op)
{
    mc_args_t a;
    return run_v(c, mc_prep_reduce_scatter(c, sbuf, rbuf, rcounts, dt, op,
                                           &a), &a);
}
