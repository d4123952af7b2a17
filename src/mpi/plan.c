/*
 * The plan: where one call of an interposed collective goes, manycoll
 * (flat or hierarchical) or the MPI library, and why. Every rank must
 * decide alike, or those that took manycoll wait for ever for those that
 * went to MPI, so the plan reads only values MPI requires to agree
 * between the ranks (the communicator, the root, the datatype and op of a
 * reduction, the counts that pair up) or values significant on this rank
 * alone where the peers' answer cannot differ (see "counts" below).
 * Every interposed collective, in every form, asks here; the counts of
 * the MC_MPI_VERBOSE report and of mc_mpi_query are the plans' results.
 *
 *   MPI_Gather(...), MPI_Igather(..., &req), MPI_Gather_init(...)
 *     s = mcm_comm(comm)                     the communicator's path
 *     mcm_plan(s, MC_COLL_GATHER, form, {sbuf, rbuf, root, counts}, &p)
 *       -> p.path  MCM_PMPI  PMPI_Gather (p.why: the reason, counted)
 *                  MCM_FLAT  mc_gather / mc_igather / mc_gather_init
 *                  MCM_HIER  mc_hier_gather
 *
 * The steps, in this order; the first that applies sends the call to MPI
 * with its reason (docs/mpi.md, "What takes which path", says the same):
 *
 *  step  looks at           goes to MPI when                     reason
 *  ----  -----------------  -----------------------------------  --------
 *   0    the communicator   across nodes, one of the first       deferred
 *                           MC_MPI_HIER_AFTER - 1 calls of each
 *                           collective (comm.c: the next call of
 *                           one builds the hierarchy)
 *   1    the communicator   its path is MPI (topo.c, comm.c:     topo's
 *                           intercomm, one rank, settings that   or
 *                           differ, MC_MPI_HIER=0, failed setup) no_comm
 *   2    form, on several   no hierarchical form: non-blocking   no_hier
 *        nodes              and persistent calls, the v-variants,
 *                           scans, reduce_scatter
 *   3    shape (not         the hierarchy cannot keep MPI's      shape
 *        reducing)          order (mc_hier_supports(coll, 1))
 *   4    root (ROOTED)      outside [0, size)                    root
 *   5    counts             a count significant here is not      counts
 *                           usable (table below)
 *   6    datatype, op       mcm_reduction says no (types.c);     its own,
 *        (REDUCES)          not blocking: a user op              user_op
 *   7    shape (reducing)   mc_hier_supports(coll, commutative)  shape,
 *                           says no                              noncomm
 *   8    thread level       not blocking, and some rank of the   multi
 *                           communicator runs MPI_THREAD_MULTIPLE
 *   9    the pick (hier     MC_MPI_HIER_PICK=mpi; or measure     pick.c's:
 *        only; pick.c)      (the default): a trial call of MPI's forced,
 *                           side, or MPI's measured faster for   trial,
 *                           this collective and size class       measured
 *   -    otherwise          the communicator's path: flat or hier
 *
 * Step 9 chooses per collective and size class between the hierarchy and
 * the MPI library's own collective, from the first calls of the class
 * (timed on both sides, alternately) and one PMPI_Allreduce that gives
 * every rank the same times (pick.c). A trial call is timed after it
 * returns (mcm_picked, in the wrappers of the hierarchy's collectives).
 *
 * The shape of a reduction waits until step 7 because it depends on the
 * op's commutativity (a non-commutative op needs nodes of consecutive
 * ranks); the other shapes do not, so they come first.
 *
 * Counts (step 5). A count is looked at only where MPI says it is
 * significant: programs pass -1 where it is not (a non-root's root side,
 * the send count beside MPI_IN_PLACE), and a rank that went to MPI on it
 * while its peers took manycoll would hang the job. "root" is the root of
 * a rooted collective; the others have one column. IP: MPI_IN_PLACE
 * takes the side away where mc_coll_info's in_place puts it.
 *
 *   collective              count  send (root / other)  recv (root / other)
 *   barrier                   -      -                    -
 *   bcast, reduce, allreduce,
 *   reduce_scatter_block,    >= 0    -                    -
 *   scan, exscan
 *   allgather                 -      1 (IP)               P
 *   alltoall                  -      P (IP)               P
 *   gather                    -      1 (IP) / 1           P / -
 *   scatter                   -      P / -                1 (IP) / 1
 *   allgatherv                -      1 (IP)               V
 *   alltoallv                 -      V (IP)               V
 *   gatherv                   -      1 (IP) / 1           V / -
 *   scatterv                  -      V / -                1 (IP) / 1
 *   reduce_scatter            -      -                    V (no displs)
 *
 *   1: the count >= 0; P: P blocks of the count, >= 0 and P x count at
 *   most INT_MAX (a packed side has an int size); V: P counts, none
 *   negative, and the displacements given
 *
 * The fast paths (MPI_Allreduce, MPI_Bcast, MPI_Barrier on one node) do
 * not call mcm_plan: they read s->fast, which mcm_plan_setup fills from
 * this plan once per communicator (a predefined type, a builtin op, root
 * 0, counts 0: a call the plan gives the communicator's path unless the
 * communicator itself decides otherwise), and check the call's own count,
 * type, op and root inline, as steps 4-6 would for such a call.
 */
#include <stdio.h>

#include "mpi/mcmpi.h"

static const char *const no_comm = "not a communicator manycoll takes";
static const char *const no_hier = "several nodes (no hierarchical form)";
static const char *const shape =
    "nodes not all alike, or not blocks of consecutive ranks";
static const char *const noncomm =
    "non-commutative op on nodes that are not blocks of ranks";
static const char *const root_why = "root out of range";
static const char *const user_op =
    "a user op, not blocking (its trampoline would run inside another "
    "call)";
static const char *const deferred =
    "one of a new communicator's first calls across nodes "
    "(MC_MPI_HIER_AFTER)";
static const char *const multi =
    "MPI_THREAD_MULTIPLE on a rank (manycoll's requests are one "
    "thread's)";

/* ---- step 5: the counts ---- */

enum { NO, ONE, BLOCKS, VEC };

/* what a side of each collective carries, as the root ([0]) and as
 * another rank ([1]); `count`: the call's one count */
typedef struct sides {
    unsigned char count, send[2], recv[2];
} sides_t;

/* clang-format off */
static const sides_t sides[MC_COLL_COUNT] = {
    [MC_COLL_BARRIER] =              {0, {NO, NO},         {NO, NO}},
    [MC_COLL_BCAST] =                {1, {NO, NO},         {NO, NO}},
    [MC_COLL_REDUCE] =               {1, {NO, NO},         {NO, NO}},
    [MC_COLL_ALLREDUCE] =            {1, {NO, NO},         {NO, NO}},
    [MC_COLL_REDUCE_SCATTER_BLOCK] = {1, {NO, NO},         {NO, NO}},
    [MC_COLL_SCAN] =                 {1, {NO, NO},         {NO, NO}},
    [MC_COLL_EXSCAN] =               {1, {NO, NO},         {NO, NO}},
    [MC_COLL_ALLGATHER] =            {0, {ONE, ONE},       {BLOCKS, BLOCKS}},
    [MC_COLL_ALLTOALL] =             {0, {BLOCKS, BLOCKS}, {BLOCKS, BLOCKS}},
    [MC_COLL_GATHER] =               {0, {ONE, ONE},       {BLOCKS, NO}},
    [MC_COLL_SCATTER] =              {0, {BLOCKS, NO},     {ONE, ONE}},
    [MC_COLL_ALLGATHERV] =           {0, {ONE, ONE},       {VEC, VEC}},
    [MC_COLL_ALLTOALLV] =            {0, {VEC, VEC},       {VEC, VEC}},
    [MC_COLL_GATHERV] =              {0, {ONE, ONE},       {VEC, NO}},
    [MC_COLL_SCATTERV] =             {0, {VEC, NO},        {ONE, ONE}},
    [MC_COLL_REDUCE_SCATTER] =       {0, {NO, NO},         {VEC, VEC}},
};
/* clang-format on */

/* the reason a side of this kind is not usable, or NULL */
static const char *side(int kind, int n, const int *v, const int *d,
                        int displs, int P)
{
    switch (kind) {
    case ONE:
        return n >= 0 ? NULL : "a negative count";
    case BLOCKS:
        return mcm_blocks_ok(n, P)
                   ? NULL
                   : "a negative count, or more than INT_MAX elements";
    case VEC:
        if (!v || (displs && !d))
            return "no counts or no displacements";
        for (int i = 0; i < P; i++)
            if (v[i] < 0)
                return "a negative count";
        return NULL;
    default:
        return NULL;
    }
}

/* 1 if MPI_IN_PLACE is where the collective has it, on this rank */
static int in_place(mc_in_place_t where, int root, const mcm_call_t *a)
{
    switch (where) {
    case MC_IN_PLACE_SEND: return a->sbuf == MPI_IN_PLACE;
    case MC_IN_PLACE_ROOT_SEND: return root && a->sbuf == MPI_IN_PLACE;
    case MC_IN_PLACE_ROOT_RECV: return root && a->rbuf == MPI_IN_PLACE;
    default: return 0;
    }
}

static const char *counts(const mc_coll_info_t *ci, const mcm_call_t *a,
                          const mcm_plan_t *p, int P)
{
    const sides_t *k = &sides[ci->coll];
    int who = p->root ? 0 : 1;
    int displs = !(ci->props & MC_COLL_REDUCES); /* reduce_scatter: none */
    int ip_send = p->ip && ci->in_place != MC_IN_PLACE_ROOT_RECV;
    int ip_recv = p->ip && ci->in_place == MC_IN_PLACE_ROOT_RECV;
    const char *why = k->count ? side(ONE, a->count, NULL, NULL, 0, P) : NULL;
    if (!why && !ip_send)
        why = side(k->send[who], a->scount, a->scounts, a->sdispls, displs,
                   P);
    if (!why && !ip_recv)
        why = side(k->recv[who], a->rcount, a->rcounts, a->rdispls, displs,
                   P);
    return why;
}

/* ---- the steps ---- */

/* 1 if the hierarchy has a form of coll at all (on the best shape) */
static int hier_form(mc_coll_t coll, mcm_form_t f)
{
    static const mc_hier_t any = {.uniform = 1, .block = 1};
    return f == MCM_BLOCKING && mc_hier_supports(&any, coll, 1);
}

/* steps 2-9 on a communicator manycoll takes: NULL (its path) or the
 * reason the call goes to MPI */
static const char *steps(mcm_comm_t *s, mc_coll_t coll, mcm_form_t f,
                         const mcm_call_t *a, mcm_plan_t *p)
{
    const mc_coll_info_t *ci = mc_coll_info(coll);
    int hier = s->path == MCM_HIER, reduces = ci->props & MC_COLL_REDUCES;
    const char *why;
    if (hier && !hier_form(coll, f))
        return no_hier;
    if (hier && !reduces && !mc_hier_supports(&s->hier, coll, 1))
        return shape;
    if (ci->props & MC_COLL_ROOTED) {
        if (a->root < 0 || a->root >= s->topo->size)
            return root_why;
        p->root = s->topo->rank == a->root;
    }
    p->ip = in_place(ci->in_place, p->root, a);
    if ((why = counts(ci, a, p, s->topo->size)))
        return why;
    if (reduces) {
        if (mcm_reduction(a->dt, a->op, &p->red, &why))
            return why;
        if (f != MCM_BLOCKING && p->red.user)
            return user_op;
        if (hier && !mc_hier_supports(&s->hier, coll, p->red.commutative))
            return mc_hier_supports(&s->hier, coll, 1) ? noncomm : shape;
    }
    if (f != MCM_BLOCKING && s->topo->multi)
        return multi;
    return hier ? mcm_pick(s, coll, a, p) : NULL; /* step 9 (pick.c) */
}

/* step 0: 1 while a communicator across nodes leaves its calls to MPI;
 * the MC_MPI_HIER_AFTER-th call of one collective (any form) builds its
 * hierarchy (comm.c), so that a communicator that makes few calls of each
 * collective, as a test suite's do, never pays for one */
static int still_deferred(mcm_comm_t *s, mc_coll_t coll)
{
    if (++s->defer_n[coll] < s->defer)
        return 1;
    mcm_build_deferred(s); /* this call builds the hierarchy */
    return 0;
}

int mcm_plan(mcm_comm_t *s, mc_coll_t coll, mcm_form_t f,
             const mcm_call_t *a, mcm_plan_t *p)
{
    *p = (mcm_plan_t){.path = MCM_PMPI, .why = no_comm};
    if (!s)
        return MCM_PMPI; /* interposition off, MPI_COMM_NULL: no state */
    if (__builtin_expect(s->defer > 0, 0) && still_deferred(s, coll))
        p->why = deferred;
    else if (s->path == MCM_PMPI)
        p->why = s->topo && s->topo->why ? s->topo->why : no_comm;
    else if (!(p->why = steps(s, coll, f, a, p)))
        p->path = s->path;
    mcm_count(s, coll, f, p->path, p->why);
    return p->path;
}

void mcm_plan_setup(mcm_comm_t *s)
{
    /* mcm_reduction leaves the type and op in the thread's context: keep
     * the program's call's */
    mcm_ctx_t ctx = mcm_ctx;
    const mcm_call_t any = {.dt = MPI_INT, .op = MPI_SUM};
    s->fast = 0;
    for (int c = 0; c < MC_COLL_COUNT && s->path == MCM_FLAT; c++) {
        mcm_plan_t p = {0};
        if (!(mc_coll_info((mc_coll_t)c)->props & MC_COLL_VECTOR) &&
            !steps(s, (mc_coll_t)c, MCM_BLOCKING, &any, &p))
            s->fast |= 1u << c;
    }
    mcm_ctx = ctx;
}

/* ---- the forms' names ---- */

const char *mcm_form_name(int coll, int form, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", form == MCM_NONBLOCKING ? "i" : "",
             mc_coll_info((mc_coll_t)coll)->name,
             form == MCM_PERSISTENT ? "_init" : "");
    return buf;
}

int mcm_form_lookup(const char *name, int *coll, int *form)
{
    char buf[64];
    for (int c = 0; c < MC_COLL_COUNT; c++) {
        if (!strcmp(name, mc_coll_info((mc_coll_t)c)->name)) {
            *coll = c;
            *form = -1;
            return 0;
        }
        for (int f = MCM_NONBLOCKING; f < MCM_FORMS; f++)
            if (!strcmp(name, mcm_form_name(c, f, buf, sizeof buf))) {
                *coll = c;
                *form = f;
                return 0;
            }
    }
    return -1;
}
