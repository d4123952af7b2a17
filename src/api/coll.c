/*
 * The collective entry points: check arguments, resolve MC_IN_PLACE
 * (mc_prep_*), pick the algorithm, run it (mc_run_call). A blocking call
 * runs after the communicator's non-blocking ones (api/nbc.c), which run
 * the same two steps in a coroutine. Nothing here allocates or calls the
 * kernel, except the copy made for an in-place alltoall and the float32
 * copies of a 16-bit float SUM or PROD (run_wide).
 */
#include <stdlib.h>
#include <string.h>

#include "api/coll_check.h"
#include "api/coll_prep.h"
#include "api/comm.h"
#include "api/trace.h"
#include "ops/half.h"
#include "ops/ops.h"
#include "util/error.h"
#include "util/names.h"

/* a call's status other than MC_OK: an error, or MC_NOT_APPLICABLE from
 * an algorithm that declined the call before communicating, which then
 * goes to the next selection of the chain, settled for this in advance
 * (select/settle.c). Out of line, so the fast path stays small; it finds
 * the call's selection again (the given one, or the rules', which no
 * call changes), so that the fast path keeps nothing across the call. */
static __attribute__((noinline, cold)) int
not_ok(mc_comm_t *c, const mc_args_t *a, const mc_sel_t *given, int rc)
{
    const mc_sel_t *s = given ? given : mc_select(c->rules, a);
    while (rc == MC_NOT_APPLICABLE && s->next) {
        s = s->next;
        c->declined_seq = c->team.seq;
        c->declined_to = s;
        rc = s->fn(&c->team, a, &s->params);
    }
    if (rc == MC_NOT_APPLICABLE)
        rc = mc_error(MC_ERR_INTERNAL, "%s %s declined a call and names "
                      "nothing to run instead", mc_coll_name(a->coll),
                      s->algo->name);
    return rc < 0 ? failed(c, rc) : rc;
}

static STEP int run_call(mc_comm_t *c, const mc_args_t *a,
                         const mc_sel_t *given)
{
    c->team.seq++;
    mc_args_t copy_args;
    if (a->coll == MC_COLL_ALLTOALL && a->in_place) {
        /* the exchange overwrites blocks it still has to send: send from
         * a copy (this is the one allocation a call may make) */
        void *copy;
        size_t total = a->bytes * (size_t)c->team.size;
        int rc = mc_scratch(&c->team, total, &copy);
        if (rc < 0)
            return failed(c, rc);
        memcpy(copy, a->rbuf, total);
        copy_args = *a;
        copy_args.sbuf = copy;
        a = &copy_args;
    }
    const mc_sel_t *s = given ? given : mc_select(c->rules, a);
    int rc = s->fn(&c->team, a, &s->params);
    if (rc != MC_OK)
        return not_ok(c, a, given, rc);
    return MC_OK;
}

/* ---- 16-bit floats: partial results in float32, one rounding ----
 * A SUM or PROD of MC_FLOAT16 or MC_BFLOAT16 runs as the float32 call on
 * copies of its vectors, widened exactly, and the result is rounded once
 * into the caller's buffer: every algorithm, every form (blocking,
 * non-blocking, persistent) and every transport (shm, the simulator)
 * combine partial results in float32 and never round them to 16 bits.
 * MIN and MAX are exact in 16 bits and stay there; a user op sees the
 * caller's 16-bit elements. Every rank takes this path alike (same dtype
 * and op), so the float32 call matches across ranks; its algorithm is
 * the rules' choice for float32 (a persistent request's 16-bit selection
 * is not reused). The copies live in c->wide: c's calls run one at a
 * time, and a persistent request runs on a context of its own. */

/* the reductions: a bit per mc_coll_t */
#define REDUCING                                                             \
    (1u << MC_COLL_REDUCE | 1u << MC_COLL_ALLREDUCE |                        \
     1u << MC_COLL_REDUCE_SCATTER_BLOCK | 1u << MC_COLL_REDUCE_SCATTER |     \
     1u << MC_COLL_SCAN | 1u << MC_COLL_EXSCAN)
_Static_assert((MC_FLOAT16 | 1) == MC_BFLOAT16 && MC_FLOAT16 % 2 == 0,
               "one compare finds both 16-bit floats");

static __attribute__((noinline, cold)) int
run_wide(mc_comm_t *c, const mc_args_t *a, const mc_sel_t *given)
{
    if (a->op != MC_SUM && a->op != MC_PROD)
        return run_call(c, a, given);
    int p = c->team.size, me = c->team.rank;
    size_t nin = a->count, nout = a->count; /* elements */
    if (a->coll == MC_COLL_REDUCE_SCATTER_BLOCK) {
        nin = a->count * (size_t)p;
    } else if (a->coll == MC_COLL_REDUCE_SCATTER) {
        nin = 0;
        for (int q = 0; q < p; q++)
            nin += a->rcounts[q];
        nout = a->rcounts[me];
    }
    /* not written: a reduce's rbuf off the root, an exscan's on rank 0 */
    if (!a->rbuf || (a->coll == MC_COLL_EXSCAN && me == 0))
        nout = 0;
    size_t need = (nin + (a->in_place ? 0 : nout)) * sizeof(float);
    if (need > c->wide_len) {
        void *w = malloc(need);
        if (!w) {
            c->team.seq++; /* fails as the call it stands for */
            return failed(c, mc_error(MC_ERR_NOMEM, "out of memory: %zu "
                                      "bytes of float32 copies for a "
                                      "16-bit float %s", need,
                                      mc_coll_name(a->coll)));
        }
        free(c->wide);
        c->wide = w;
        c->wide_len = need;
    }
    float *in = c->wide, *out = a->in_place ? in : in + nin;
    mc_half_widen(a->dt, a->sbuf, in, nin);
    mc_args_t w = *a;
    w.dt = MC_FLOAT32;
    w.dsize = sizeof(float);
    w.bytes = a->bytes / a->dsize * sizeof(float);
    w.sel_bytes = a->sel_bytes / a->dsize * sizeof(float);
    w.sbuf = in;
    w.rbuf = a->rbuf ? out : NULL;
    (void)given;
    int rc = run_call(c, &w, NULL);
    if (rc == MC_OK && nout)
        mc_half_narrow(a->dt, out, a->rbuf, nout);
    return rc;
}

STEP int mc_run_call(mc_comm_t *c, const mc_args_t *a,
                     const mc_sel_t *given)
{
    /* one compare for the other dtypes (the coll's bit folds away in the
     * blocking calls, where it is a constant) */
    if (__builtin_expect((REDUCING >> a->coll & 1) &&
                         (a->dt | 1) == MC_BFLOAT16, 0))
        return run_wide(c, a, given);
    return run_call(c, a, given);
}

/* a blocking call's own run, once c's earlier calls are done */
static STEP int run_body(mc_comm_t *c, int prep, const mc_args_t *a)
{
    if (prep == MC_PREP_EMPTY)
        return mc_run_empty(c, a);
    return mc_run_call(c, a, NULL);
}

/* a recorded blocking call (MC_TRACE, api/trace.c): its body between two
 * clock reads, out of line (a second inlined body costs every call's
 * frame more registers) */
static __attribute__((noinline, cold)) int
run_recorded(mc_comm_t *c, int prep, const mc_args_t *a, uint64_t t0)
{
    int rc = run_body(c, prep, a);
    mc_trace_end(c, prep, a, t0);
    return rc;
}

/* the rare cases of a blocking call: c has non-blocking calls to
 * complete first (api/nbc.c), or is recorded */
static __attribute__((noinline, cold)) int
run_rare(mc_comm_t *c, int prep, const mc_args_t *a)
{
    if (mc_nb_pending(c))
        MC_CHECK(mc_nb_drain(c));
    uint64_t t0;
    if (c->traced && mc_trace_begin(c, &t0))
        return run_recorded(c, prep, a, t0);
    return run_body(c, prep, a);
}

/* A blocking call: one branch for both rare cases, from the line of c
 * the checks read (c is known good only once prep is not an error: a
 * NULL c fails in prep) */
static STEP int run(mc_comm_t *c, int prep, const mc_args_t *a)
{
    if (prep < 0)
        return prep;
    if (__builtin_expect(((uintptr_t)c->nb_head | (unsigned)c->nb_ctx |
                          (unsigned)c->traced) != 0, 0))
        return run_rare(c, prep, a);
    return run_body(c, prep, a);
}

/* count 0 (the call does nothing; with MC_CHECK_ARGS the ranks still
 * compare arguments: MC_PREP_EMPTY, run by mc_run_empty) or a count too
 * large for any buffer */
static int zero_or_huge(mc_comm_t *c, mc_coll_t coll, size_t count,
                        mc_dtype_t dt, mc_op_t op, int root, const char *fn,
                        mc_args_t *a)
{
    if (count) {
        int blocks = c->max_block_count < c->max_count;
        return arg_error(c, mc_error(MC_ERR_ARG, "%s: argument 'count' (%zu) "
                         "is too large: count x %zu bytes of 'dt'%s must "
                         "stay below 2^62 bytes", fn, count,
                         mc_dtype_size(dt), blocks ? " x ranks" : ""));
    }
    *a = (mc_args_t){.coll = coll, .dt = dt, .op = op, .root = root,
                     .dsize = mc_dtype_size(dt)};
    return MC_PREP_EMPTY;
}

int mc_run_empty(mc_comm_t *c, const mc_args_t *a)
{
    if (!c->check_args)
        return MC_OK;
    c->team.seq++;
    int rc = mc_check_args_exchange(c, a);
    return rc < 0 ? failed(c, rc) : MC_OK;
}

/* the count check on the fast path: one compare covers both cases */
#define COUNT_OK(c, count, lim) ((size_t)(count) - 1 < (lim))

/* Field by field, not a compound literal: that zeroes the whole struct
 * first (a `rep stos` of 13 words, 23 instructions in the 8-byte
 * allreduce under valgrind and a microcoded start on the CPU), where these
 * stores are the ones the caller does not overwrite. */
static STEP void init_args(mc_args_t *a, mc_coll_t coll, size_t count,
                           mc_dtype_t dt)
{
    /* dt is a datatype (check_dtype, or the barrier's constant) */
    size_t dsize = mc_dtype_sizes_[dt];
    a->coll = coll;
    a->sbuf = NULL;
    a->rbuf = NULL;
    a->count = count;
    a->bytes = count * dsize;
    a->dsize = dsize;
    a->dt = dt;
    a->op = (mc_op_t)0;
    a->root = 0;
    a->in_place = 0;
    a->scounts = a->sdispls = a->rcounts = a->rdispls = NULL;
    a->sel_bytes = 0;
}

STEP int mc_prep_barrier(mc_comm_t *c, mc_args_t *a)
{
    MC_CHECK(check_comm(c, "mc_barrier"));
    init_args(a, MC_COLL_BARRIER, 0, MC_UINT8);
    return MC_OK;
}

STEP int mc_prep_bcast(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt,
                       int root, mc_args_t *a)
{
    static const char fn[] = "mc_bcast";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_root(c, root, fn));
    ARG(c, check_buf(buf, count, "buf", fn));
    ARG(c, no_in_place(buf, "buf", fn));
    if (!COUNT_OK(c, count, c->max_count))
        return zero_or_huge(c, MC_COLL_BCAST, count, dt, 0, root, fn, a);
    init_args(a, MC_COLL_BCAST, count, dt);
    a->root = root;
    a->sbuf = a->rbuf = buf;
    return MC_OK;
}

STEP int mc_prep_reduce(mc_comm_t *c, const void *sbuf, void *rbuf,
                        size_t count, mc_dtype_t dt, mc_op_t op, int root,
                        mc_args_t *a)
{
    static const char fn[] = "mc_reduce";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_op(op, dt, fn));
    ARG(c, check_root(c, root, fn));
    ARG(c, check_buf(sbuf, count, "sbuf", fn));
    int is_root = c->team.rank == root;
    if (is_root) {
        ARG(c, check_buf(rbuf, count, "rbuf", fn));
        ARG(c, no_in_place(rbuf, "rbuf", fn));
    } else {
        ARG(c, no_in_place(sbuf, "sbuf (on a rank other than the root)",
                             fn));
    }
    if (!COUNT_OK(c, count, c->max_count))
        return zero_or_huge(c, MC_COLL_REDUCE, count, dt, op, root, fn, a);
    init_args(a, MC_COLL_REDUCE, count, dt);
    a->op = op;
    a->root = root;
    a->in_place = sbuf == MC_IN_PLACE;
    a->rbuf = is_root ? rbuf : NULL;
    a->sbuf = a->in_place ? rbuf : sbuf;
    return MC_OK;
}

/* allreduce, scan and exscan: a vector in, one out, in place in rbuf */
static STEP int prep_vector(mc_comm_t *c, mc_coll_t coll, const char *fn,
                            const void *sbuf, void *rbuf, size_t count,
                            mc_dtype_t dt, mc_op_t op, mc_args_t *a)
{
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_op(op, dt, fn));
    ARG(c, check_buf(sbuf, count, "sbuf", fn));
    ARG(c, check_buf(rbuf, count, "rbuf", fn));
    ARG(c, no_in_place(rbuf, "rbuf", fn));
    if (!COUNT_OK(c, count, c->max_count))
        return zero_or_huge(c, coll, count, dt, op, 0, fn, a);
    init_args(a, coll, count, dt);
    a->op = op;
    a->in_place = sbuf == MC_IN_PLACE;
    a->rbuf = rbuf;
    a->sbuf = a->in_place ? rbuf : sbuf;
    return MC_OK;
}

STEP int mc_prep_allreduce(mc_comm_t *c, const void *sbuf, void *rbuf,
                           size_t count, mc_dtype_t dt, mc_op_t op,
                           mc_args_t *a)
{
    return prep_vector(c, MC_COLL_ALLREDUCE, "mc_allreduce", sbuf, rbuf,
                       count, dt, op, a);
}

STEP int mc_prep_scan(mc_comm_t *c, const void *sbuf, void *rbuf,
                      size_t count, mc_dtype_t dt, mc_op_t op, mc_args_t *a)
{
    return prep_vector(c, MC_COLL_SCAN, "mc_scan", sbuf, rbuf, count, dt, op,
                       a);
}

STEP int mc_prep_exscan(mc_comm_t *c, const void *sbuf, void *rbuf,
                        size_t count, mc_dtype_t dt, mc_op_t op,
                        mc_args_t *a)
{
    return prep_vector(c, MC_COLL_EXSCAN, "mc_exscan", sbuf, rbuf, count, dt,
                       op, a);
}

STEP int mc_prep_allgather(mc_comm_t *c, const void *sbuf, void *rbuf,
                           size_t count, mc_dtype_t dt, mc_args_t *a)
{
    static const char fn[] = "mc_allgather";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_buf(sbuf, count, "sbuf", fn));
    ARG(c, check_buf(rbuf, count, "rbuf", fn));
    ARG(c, no_in_place(rbuf, "rbuf", fn));
    if (!COUNT_OK(c, count, c->max_block_count))
        return zero_or_huge(c, MC_COLL_ALLGATHER, count, dt, 0, 0, fn, a);
    init_args(a, MC_COLL_ALLGATHER, count, dt);
    a->in_place = sbuf == MC_IN_PLACE;
    a->rbuf = rbuf;
    a->sbuf = a->in_place ? (char *)rbuf + (size_t)c->team.rank * a->bytes
                          : sbuf;
    return MC_OK;
}

STEP int mc_prep_alltoall(mc_comm_t *c, const void *sbuf, void *rbuf,
                          size_t count, mc_dtype_t dt, mc_args_t *a)
{
    static const char fn[] = "mc_alltoall";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_buf(sbuf, count, "sbuf", fn));
    ARG(c, check_buf(rbuf, count, "rbuf", fn));
    ARG(c, no_in_place(rbuf, "rbuf", fn));
    if (!COUNT_OK(c, count, c->max_block_count))
        return zero_or_huge(c, MC_COLL_ALLTOALL, count, dt, 0, 0, fn, a);
    init_args(a, MC_COLL_ALLTOALL, count, dt);
    a->in_place = sbuf == MC_IN_PLACE;
    a->rbuf = rbuf;
    a->sbuf = a->in_place ? rbuf : sbuf; /* copied by mc_run_call */
    return MC_OK;
}

STEP int mc_prep_reduce_scatter_block(mc_comm_t *c, const void *sbuf,
                                      void *rbuf, size_t count, mc_dtype_t dt,
                                      mc_op_t op, mc_args_t *a)
{
    static const char fn[] = "mc_reduce_scatter_block";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_op(op, dt, fn));
    ARG(c, check_buf(sbuf, count, "sbuf", fn));
    ARG(c, check_buf(rbuf, count, "rbuf", fn));
    ARG(c, no_in_place(rbuf, "rbuf", fn));
    if (!COUNT_OK(c, count, c->max_block_count))
        return zero_or_huge(c, MC_COLL_REDUCE_SCATTER_BLOCK, count, dt, op,
                            0, fn, a);
    init_args(a, MC_COLL_REDUCE_SCATTER_BLOCK, count, dt);
    a->op = op;
    a->in_place = sbuf == MC_IN_PLACE;
    a->rbuf = rbuf;
    a->sbuf = a->in_place ? rbuf : sbuf;
    return MC_OK;
}

STEP int mc_prep_gather(mc_comm_t *c, const void *sbuf, void *rbuf,
                        size_t count, mc_dtype_t dt, int root, mc_args_t *a)
{
    static const char fn[] = "mc_gather";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_root(c, root, fn));
    ARG(c, check_buf(sbuf, count, "sbuf", fn));
    int is_root = c->team.rank == root;
    if (is_root) {
        ARG(c, check_buf(rbuf, count, "rbuf", fn));
        ARG(c, no_in_place(rbuf, "rbuf", fn));
    } else {
        ARG(c, no_in_place(sbuf, "sbuf (on a rank other than the root)",
                             fn));
    }
    if (!COUNT_OK(c, count, c->max_block_count))
        return zero_or_huge(c, MC_COLL_GATHER, count, dt, 0, root, fn, a);
    init_args(a, MC_COLL_GATHER, count, dt);
    a->root = root;
    a->in_place = sbuf == MC_IN_PLACE;
    a->rbuf = is_root ? rbuf : NULL;
    a->sbuf = a->in_place ? (char *)rbuf + (size_t)root * a->bytes : sbuf;
    return MC_OK;
}

STEP int mc_prep_scatter(mc_comm_t *c, const void *sbuf, void *rbuf,
                         size_t count, mc_dtype_t dt, int root, mc_args_t *a)
{
    static const char fn[] = "mc_scatter";
    MC_CHECK(check_comm(c, fn));
    ARG(c, check_dtype(dt, fn));
    ARG(c, check_root(c, root, fn));
    ARG(c, check_buf(rbuf, count, "rbuf", fn));
    int is_root = c->team.rank == root;
    if (is_root) {
        ARG(c, check_buf(sbuf, count, "sbuf", fn));
        ARG(c, no_in_place(sbuf, "sbuf", fn));
    } else {
        ARG(c, no_in_place(rbuf, "rbuf (on a rank other than the root)",
                             fn));
    }
    if (!COUNT_OK(c, count, c->max_block_count))
        return zero_or_huge(c, MC_COLL_SCATTER, count, dt, 0, root, fn, a);
    init_args(a, MC_COLL_SCATTER, count, dt);
    a->root = root;
    a->in_place = rbuf == MC_IN_PLACE;
    a->sbuf = is_root ? sbuf : NULL;
    a->rbuf = a->in_place ? (char *)sbuf + (size_t)root * a->bytes : rbuf;
    return MC_OK;
}

/* ---- the blocking calls ---- */

int mc_barrier(mc_comm_t *c)
{
    mc_args_t a;
    return run(c, mc_prep_barrier(c, &a), &a);
}

int mc_bcast(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt, int root)
{
    mc_args_t a;
    return run(c, mc_prep_bcast(c, buf, count, dt, root, &a), &a);
}

int mc_reduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
              mc_dtype_t dt, mc_op_t op, int root)
{
    mc_args_t a;
    return run(c, mc_prep_reduce(c, sbuf, rbuf, count, dt, op, root, &a), &a);
}

int mc_allreduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                 mc_dtype_t dt, mc_op_t op)
{
    mc_args_t a;
    return run(c, mc_prep_allreduce(c, sbuf, rbuf, count, dt, op, &a), &a);
}

int mc_allgather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                 mc_dtype_t dt)
{
    mc_args_t a;
    return run(c, mc_prep_allgather(c, sbuf, rbuf, count, dt, &a), &a);
}

int mc_alltoall(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                mc_dtype_t dt)
{
    mc_args_t a;
    return run(c, mc_prep_alltoall(c, sbuf, rbuf, count, dt, &a), &a);
}

int mc_reduce_scatter_block(mc_comm_t *c, const void *sbuf, void *rbuf,
                            size_t count, mc_dtype_t dt, mc_op_t op)
{
    mc_args_t a;
    return run(c, mc_prep_reduce_scatter_block(c, sbuf, rbuf, count, dt,
                                                op, &a), &a);
}

int mc_gather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
              mc_dtype_t dt, int root)
{
    mc_args_t a;
    return run(c, mc_prep_gather(c, sbuf, rbuf, count, dt, root, &a), &a);
}

int mc_scatter(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
               mc_dtype_t dt, int root)
{
    mc_args_t a;
    return run(c, mc_prep_scatter(c, sbuf, rbuf, count, dt, root, &a), &a);
}

int mc_scan(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
            mc_dtype_t dt, mc_op_t op)
{
    mc_args_t a;
    return run(c, mc_prep_scan(c, sbuf, rbuf, count, dt, op, &a), &a);
}

int mc_exscan(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
              mc_dtype_t dt, mc_op_t op)
{
    mc_args_t a;
    return run(c, mc_prep_exscan(c, sbuf, rbuf, count, dt, op, &a), &a);
}
