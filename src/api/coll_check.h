/*
 * The argument checks of the collective entry points (api/coll.c,
 * api/coll_v.c): each names the argument it rejects. An error found
 * before anything was sent still fails the call on every rank
 * (arg_error).
 */
#ifndef MC_API_COLL_CHECK_H
#define MC_API_COLL_CHECK_H

#include "api/coll_prep.h"
#include "api/comm.h"
#include "ops/ops.h"
#include "util/error.h"
#include "util/names.h"

/* The blocking calls are one straight line (the 8-byte allreduce's few
 * hundred instructions): the steps are inlined into them, and also
 * defined out of line for the non-blocking calls. */
#define STEP __attribute__((always_inline)) inline

static STEP int check_comm(const mc_comm_t *c, const char *fn)
{
    if (!c)
        return mc_error(MC_ERR_ARG, "%s: argument 'comm' is NULL", fn);
    if (c->broken)
        return mc_error(c->broken,
                        "%s: the communicator is unusable after an earlier "
                        "error (%s)",
                        fn, mc_strerror(c->broken));
    return MC_OK;
}

static inline int check_dtype(mc_dtype_t dt, const char *fn)
{
    if (mc_dtype_size_of(dt) == 0)
        return mc_error(MC_ERR_ARG, "%s: argument 'dt' (%d) is not a datatype",
                        fn, (int)dt); /* no name to give */
    return MC_OK;
}

static inline int check_op(mc_op_t op, mc_dtype_t dt, const char *fn)
{
    if (mc_op_check_of(op, dt) == MC_OK)
        return MC_OK;
    if ((unsigned)op < MC_OP_BUILTIN_COUNT)
        return mc_error(MC_ERR_ARG,
                        "%s: argument 'op' (%s) is not defined on datatype "
                        "'dt' (%s)",
                        fn, mc_op_name(op), mc_dtype_name(dt));
    return mc_error(MC_ERR_ARG, "%s: argument 'op' (%d) is not an operation",
                    fn, (int)op);
}

static inline int check_root(const mc_comm_t *c, int root, const char *fn)
{
    if (root < 0 || root >= c->team.size)
        return mc_error(MC_ERR_ARG,
                        "%s: argument 'root' is %d but the communicator has "
                        "%d ranks",
                        fn, root, c->team.size);
    return MC_OK;
}

static inline int check_buf(const void *p, size_t count, const char *name,
                     const char *fn)
{
    if (__builtin_expect(!p, 0) && count)
        return mc_error(MC_ERR_ARG, "%s: argument '%s' is NULL with count %zu",
                        fn, name, count);
    return MC_OK;
}

static inline int no_in_place(const void *p, const char *name, const char *fn)
{
    if (p == MC_IN_PLACE)
        return mc_error(MC_ERR_ARG,
                        "%s: argument '%s' cannot be MC_IN_PLACE here", fn,
                        name);
    return MC_OK;
}

/* a failed call breaks the communicator, and the peers learn of it */
static inline int failed(mc_comm_t *c, int rc)
{
    c->broken = rc;
    if (c->team.tp->ops->fail)
        c->team.tp->ops->fail(c->team.tp, c->team.seq, rc, mc_last_error());
    return rc;
}

/* An argument error, found before anything was sent. Alone, the rank
 * keeps its communicator. With peers, they are (or will be) in this call
 * waiting for this rank: the call fails as one that failed while
 * communicating, so their waits end with this error within a second
 * (tp.h: fail) instead of at MC_TIMEOUT, and the communicator is unusable
 * on every rank. */
static inline int arg_error(mc_comm_t *c, int rc)
{
    if (c->team.size == 1)
        return rc;
    if (mc_nb_pending(c)) /* its number comes after theirs */
        (void)mc_nb_drain(c);
    c->team.seq++;
    return failed(c, rc);
}

#define ARG(c, check)                                                        \
    do {                                                                     \
        int rc_ = (check);                                                   \
        if (rc_ != MC_OK)                                                    \
            return arg_error((c), rc_);                                      \
    } while (0)

#endif
