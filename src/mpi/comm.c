/*
 * Per-communicator state, cached as an MPI attribute.
 *
 *   first collective on comm (every rank: collectives are ordered)
 *     -> cache miss -> PMPI_Comm_get_attr: none
 *     -> topology (topo.c): from the world's table made at MPI_Init
 *        (no communication), or split_type and one allgather -> path
 *     -> build: each node's parked node communicator where all its
 *        ranks took the same (park.c; one PMPI_Allreduce says so), else
 *        a job name from comm rank 0 by PMPI_Bcast, then
 *        mc_comm_create_shm(job.n<node>, local, node size) on the nodes
 *        that need one,
 *        one PMPI_Allreduce so all ranks agree it worked, and for
 *        several nodes PMPI_Comm_split into slices (src/hier/hier.h)
 *     -> PMPI_Comm_set_attr; the handle cache points at the state
 *   MPI_Comm_dup / idup: the copy callback gives the duplicate a new
 *     state sharing the topology; its first collective builds its own
 *     node communicator and slices (same path, no split_type again)
 *   MPI_Comm_free (and MPI_Finalize): the delete callback parks the
 *     node's manycoll communicator for the next communicator of the same
 *     processes (park.c: its first collective then reuses it, with no
 *     new segment), frees the slices and prints the MC_MPI_VERBOSE
 *     report
 *
 * The cache is direct-mapped on the handle's bits; a state holds its key,
 * so a hit is a load and a compare. States are recycled, never returned
 * to the system, so a stale cache entry read by another thread still
 * points at a state (whose key then does not match).
 *
 * With MC_MPI_EAGER=1 the same setup runs inside MPI_Init and the
 * communicator constructors instead (measured against lazy creation in
 * docs/mpi.md).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi/mcmpi.h"


_Atomic(mcm_comm_t *) mcm_cache[1 << MCM_CACHE_BITS];
static int keyval = MPI_KEYVAL_INVALID;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static mcm_comm_t *pool; /* every state ever made, in use or not */

/* ---- the pool ---- */

static mcm_comm_t *state_new(mcm_topo_t *topo)
{
    pthread_mutex_lock(&pool_lock);
    mcm_comm_t *s = pool;
    while (s && s->in_use)
        s = s->next;
    if (!s && (s = calloc(1, sizeof *s)) != NULL) {
        s->next = pool;
        pool = s;
    }
    if (s) {
        s->in_use = 1;
        s->topo = topo;
        s->path = MCM_PMPI;
        s->group = MPI_GROUP_NULL;
    }
    pthread_mutex_unlock(&pool_lock);
    return s;
}

static void state_free(mcm_comm_t *s)
{
    pthread_mutex_lock(&pool_lock);
    mcm_comm_t *next = s->next;
    memset(s, 0, sizeof *s);
    s->next = next;
    pthread_mutex_unlock(&pool_lock);
}

static void cache_put(mcm_comm_t *s)
{
    /* release: the state is complete before another thread can see it */
    atomic_store_explicit(&mcm_cache[mcm_slot(s->key, MCM_CACHE_BITS)], s,
                          memory_order_release);
}

static void cache_drop(mcm_comm_t *s)
{
    mcm_comm_t *want = s;
    atomic_compare_exchange_strong(
        &mcm_cache[mcm_slot(s->key, MCM_CACHE_BITS)], &want, NULL);
}

/* ---- building a state's resources ---- */

static void fill_hier(mcm_comm_t *s)
{
    const mcm_topo_t *t = s->topo;
    mc_hier_t *h = &s->hier;
    *h = (mc_hier_t){.node = s->node, .peers = s->has_slice ? s : NULL,
                     .prov = &mcm_provider, .rank = t->rank,
                     .size = t->size, .local = t->local, .ppn = t->ppn,
                     .nodeid = t->nodeid, .nnodes = t->nnodes,
                     .uniform = t->uniform, .block = t->block,
                     .node_of = t->node_of, .local_of = t->local_of,
                     .par = mcm_cfg.par};
}

static int make_slices(mcm_comm_t *s)
{
    const mcm_topo_t *t = s->topo;
    int color = t->uniform ? t->local : (t->local ? MPI_UNDEFINED : 0);
    int rc = PMPI_Comm_split(s->comm, color, t->nodeid, &s->slice);
    if (rc != MPI_SUCCESS)
        return rc;
    s->has_slice = color != MPI_UNDEFINED;
    if (s->has_slice)
        PMPI_Comm_set_errhandler(s->slice, MPI_ERRORS_RETURN);
    return MPI_SUCCESS;
}

/* rank 0's new job name, sent to every rank, and s->node_name from it:
 * 0, or -1 (no name) */
static int agree_job(mcm_comm_t *s)
{
    const mcm_topo_t *t = s->topo;
    char job[MC_JOB_NAME_MAX] = "";
    if (t->rank == 0 && mc_job_name(job, sizeof job) != MC_OK)
        job[0] = 0;
    if (PMPI_Bcast(job, sizeof job, MPI_CHAR, 0, s->comm) != MPI_SUCCESS)
        job[0] = 0;
    snprintf(s->node_name, sizeof s->node_name, "%s.n%d", job, t->nodeid);
    return job[0] ? 0 : -1;
}

/* a parked name taken (park.c) as two 31-bit numbers, not both 0; 0, 0:
 * none taken. Ints, not one uint64_t: an MPI's MAX of unsigned 64-bit
 * integers compares them signed (MPICH 4.0; Open MPI's unsigned MIN and
 * MAX are wrong too, src/mpi/provider.c) */
#define M31 0x7fffffff
static void name_hash(const char *job, int part[2])
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const char *c = job; *c; c++)
        h = (h ^ (unsigned char)*c) * 0x100000001b3u;
    part[0] = *job ? (int)(h & M31) | 1 : 0;
    part[1] = *job ? (int)(h >> 33 & M31) : 0;
}

/* Which nodes take back a parked node communicator (park.c). Every rank
 * takes its newest one for its place; one allreduce (MAX of the name's
 * hash and of its complement, in its node's slot: they add up to M31
 * where all of the node's ranks took the same) says per node whether
 * they agree. Nodes are independent (a segment is one node's), so each
 * that agrees reuses its own, whatever the others took; a rank of one
 * that does not parks its own again. Beyond REUSE_SLOTS nodes share a
 * slot: two nodes of different names in one slot disagree, and both make
 * new ones. The same allreduce says whether every rank took back its
 * slice, used when every node reused (s->sliced; else a rank frees the
 * one it took). Returns 1 if my node reuses its own; *every: 1 if every
 * node does. */
#define REUSE_SLOTS 64
static int slot_agrees(const int *v)
{
    return (v[0] || v[2]) && v[0] + v[1] == M31 && v[2] + v[3] == M31;
}

static int reuse_node(mcm_comm_t *s, int *every)
{
    const mcm_topo_t *t = s->topo;
    char job[MC_JOB_NAME_MAX] = "";
    int v[4 * REUSE_SLOTS + 2] = {0}, h[2];
    const mcm_place_t at = {t->local, t->node_n, t->nodeid, t->node_sig,
                            t->comm_sig};
    mcm_slice_t sl;
    s->node = mcm_unpark(&at, job, sizeof job, &sl);
    name_hash(s->node ? job : "", h);
    int *mine_v = v + 4 * (t->nodeid % REUSE_SLOTS);
    mine_v[0] = h[0], mine_v[1] = M31 - h[0];
    mine_v[2] = h[1], mine_v[3] = M31 - h[1];
    v[4 * REUSE_SLOTS] = sl.kept != 0;
    v[4 * REUSE_SLOTS + 1] = sl.kept == 0;
    int rc = PMPI_Allreduce(MPI_IN_PLACE, v, (int)(sizeof v / sizeof *v),
                            MPI_INT, MPI_MAX, s->comm);
    int mine = rc == MPI_SUCCESS && s->node && slot_agrees(mine_v) &&
               mine_v[0] == h[0] && mine_v[2] == h[1];
    *every = rc == MPI_SUCCESS;
    for (int n = 0; n < t->nnodes && *every; n++)
        *every = slot_agrees(v + 4 * (n % REUSE_SLOTS));
    snprintf(s->node_name, sizeof s->node_name, "%s.n%d", job, t->nodeid);
    if (!mine && s->node) {
        mcm_park(s->node_name, &at, s->node, sl);
        s->node = NULL;
    } else if (*every && v[4 * REUSE_SLOTS] == 1 &&
               v[4 * REUSE_SLOTS + 1] == 0) {
        s->slice = sl.comm; /* every rank has its slice back */
        s->has_slice = sl.comm != MPI_COMM_NULL;
        s->sliced = 1;
        mcm_park_count_slices();
    } else if (sl.kept && sl.comm != MPI_COMM_NULL) {
        PMPI_Comm_free(&sl.comm);
    }
    return mine;
}

/* the node's manycoll communicator: its parked one if all its ranks took
 * the same (reuse_node), else made; every rank learns whether all have
 * theirs. 0, or -1 after calling the error handler. */
static int make_node(mcm_comm_t *s, char *msg, size_t len)
{
    const mcm_topo_t *t = s->topo;
    int every, mine = reuse_node(s, &every);
    if (every) {
        mcm_park_count(1);
        return 0;
    }
    /* some node makes a new one: every rank takes part in the name's
     * bcast; a rank whose node reuses keeps its own name */
    char kept[MCM_NODE_NAME_MAX];
    snprintf(kept, sizeof kept, "%s", s->node_name);
    int ok = agree_job(s) == 0;
    int mc = MC_OK;
    if (mine)
        snprintf(s->node_name, sizeof s->node_name, "%s", kept);
    else
        mc = ok ? mc_comm_create_shm(s->node_name, t->local, t->node_n,
                                     &s->node)
                : MC_ERR_ARG;
    if (mc != MC_OK) {
        snprintf(msg, len, "manycoll communicator of node %d: %s",
                 t->nodeid, ok ? mc_last_error() : "no job name");
        /* at once: node peers may be waiting for this rank to join, and
         * the default (fatal) handler ends the job now rather than when
         * their wait times out */
        mcm_fail(s, "communicator setup", mc, msg);
    }
    int got = mc == MC_OK, all = 0;
    if (PMPI_Allreduce(&got, &all, 1, MPI_INT, MPI_MIN, s->comm) !=
        MPI_SUCCESS)
        all = 0;
    if (!all && got)
        mcm_fail(s, "communicator setup", MC_ERR_SYS,
                 "another rank could not create its node's manycoll "
                 "communicator");
    if (!all && s->node) {
        mc_comm_free(s->node);
        s->node = NULL;
    }
    if (all)
        mcm_park_count(mine);
    return all ? 0 : -1;
}

/* 1 if a new communicator across nodes leaves its first calls to MPI:
 * MC_MPI_HIER_AFTER above 1, with the pick measuring every collective
 * (a side forced by MC_MPI_HIER_PICK, or MC_MPI_EAGER, builds at once) */
static int deferred(void)
{
    if (mcm_cfg.hier_after <= 1 || mcm_cfg.eager)
        return 0;
    for (int c = 0; c < MC_COLL_COUNT; c++)
        if (mcm_cfg.pick[c] != MCM_PICK_MEASURE)
            return 0;
    return 1;
}

/* Builds what the path needs; on failure every rank falls back to PMPI
 * for this communicator and the error handler is called. Across nodes,
 * by default, not yet: the first MC_MPI_HIER_AFTER - 1 calls of each
 * collective go to MPI (plan.c counts them in s->defer_n), and the next
 * call of one builds it (mcm_build_deferred). Every rank makes the same
 * collective calls on a communicator in the same order, so all build at
 * the same call. */
static void build(mcm_comm_t *s)
{
    char msg[400] = "";
    s->ready = 1;
    s->path = MCM_PMPI;
    if (s->topo->path == MCM_PMPI)
        return;
    if (s->topo->path == MCM_HIER && !s->defer && deferred()) {
        s->defer = mcm_cfg.hier_after; /* the plan counts this call */
        return;
    }
    s->defer = 0;
    if (make_node(s, msg, sizeof msg)) {
        return; /* reported */
    }
    if (s->topo->path == MCM_HIER) {
        if (!s->sliced && make_slices(s) != MPI_SUCCESS) {
            mcm_fail(s, "communicator setup", MC_ERR_SYS,
                     "PMPI_Comm_split of the slices failed");
            return;
        }
        fill_hier(s);
        if (mc_hier_check(&s->hier) != MC_OK) {
            mcm_fail(s, "communicator setup", MC_ERR_INTERNAL,
                     mc_hier_last_error());
            return;
        }
    }
    s->path = s->topo->path;
    mcm_plan_setup(s);
}

void mcm_build_deferred(mcm_comm_t *s)
{
    s->defer = -1; /* (not deferred again) */
    build(s);
}

int mcm_setup(MPI_Comm comm, mcm_comm_t **out)
{
    mcm_topo_t *t = NULL;
    int rc = mcm_topo_compute(comm, &t);
    mcm_comm_t *s = t ? state_new(t) : NULL;
    if (!s) {
        mcm_topo_put(t);
        return MPI_ERR_NO_MEM;
    }
    s->key = mcm_key(&comm, sizeof comm);
    s->comm = comm;
    if (rc != MPI_SUCCESS) {
        s->ready = 1;
        s->topo->why = "setting up failed in MPI";
    } else {
        build(s);
    }
    PMPI_Comm_set_attr(comm, keyval, s);
    *out = s;
    return MPI_SUCCESS;
}

/* A state MPI copied to comm (copy_fn) describes the parent's group. MPI
 * copies attributes on MPI_Comm_dup, where the groups are the same, but
 * Open MPI 4.1 also does so on MPI_Comm_create_group (a subset of the
 * parent): the copy is kept only if comm's group is the parent's, which
 * every rank finds alike. NULL: set comm up from scratch. */
static mcm_comm_t *adopt(mcm_comm_t *s, MPI_Comm comm)
{
    MPI_Group g = MPI_GROUP_NULL;
    int same = MPI_UNEQUAL;
    if (s->group != MPI_GROUP_NULL &&
        PMPI_Comm_group(comm, &g) == MPI_SUCCESS) {
        PMPI_Group_compare(g, s->group, &same);
        PMPI_Group_free(&g);
    }
    if (s->group != MPI_GROUP_NULL)
        PMPI_Group_free(&s->group);
    if (same != MPI_IDENT) {
        PMPI_Comm_delete_attr(comm, keyval); /* releases s */
        return NULL;
    }
    s->key = mcm_key(&comm, sizeof comm);
    s->comm = comm;
    return s;
}

mcm_comm_t *mcm_comm_slow(MPI_Comm comm)
{
    if (!mcm_inited)
        mcm_lazy_init();
    if (!mcm_inited || !mcm_cfg.on || comm == MPI_COMM_NULL)
        return NULL;
    void *v = NULL;
    int flag = 0;
    if (PMPI_Comm_get_attr(comm, keyval, &v, &flag) != MPI_SUCCESS)
        return NULL;
    mcm_comm_t *s = flag ? v : NULL;
    if (s && !s->key) /* a copied state, first seen */
        s = adopt(s, comm);
    if (s && !s->ready)
        build(s);
    if (!s && mcm_setup(comm, &s) != MPI_SUCCESS)
        return NULL;
    cache_put(s);
    return s;
}

/* ---- attribute callbacks ---- */

static int copy_fn(MPI_Comm old, int kv, void *extra, void *in, void *out,
                   int *flag)
{
    mcm_comm_t *o = in, *n;
    *flag = 0;
    atomic_fetch_add(&o->topo->refs, 1);
    n = state_new(o->topo);
    if (!n) {
        mcm_topo_put(o->topo);
        return MPI_SUCCESS; /* the duplicate is set up from scratch */
    }
    n->ready = o->topo->path == MCM_PMPI;
    if (PMPI_Comm_group(old, &n->group) != MPI_SUCCESS)
        n->group = MPI_GROUP_NULL; /* then comm is set up from scratch */
    *(void **)out = n;
    *flag = 1;
    return MPI_SUCCESS;
}

static void release(mcm_comm_t *s)
{
    if (mcm_cfg.verbose)
        mcm_report(s);
    if (s->key)
        cache_drop(s);
    /* parked for the next communicator of the same processes, unless a
     * non-blocking call may still be in flight on it */
    const mcm_topo_t *t = s->topo;
    const mcm_place_t at = {t->local, t->node_n, t->nodeid, t->node_sig,
                            t->comm_sig};
    /* the slices go with it where the hierarchy made them */
    mcm_slice_t sl = {s->slice, s->path == MCM_HIER};
    if (s->node && s->path != MCM_PMPI && !mcm_nb_live) {
        mcm_park(s->node_name, &at, s->node, sl);
    } else {
        sl.kept = 0;
        if (s->node)
            mc_comm_free(s->node);
    }
    if (s->has_slice && !sl.kept)
        PMPI_Comm_free(&s->slice);
    s->has_slice = s->sliced = 0;
    mc_hier_release(&s->hier);
    mcm_scratch_release(s);
    free(s->v);
    mcm_topo_put(s->topo);
    if (s->group != MPI_GROUP_NULL)
        PMPI_Group_free(&s->group);
    state_free(s);
}

static int delete_fn(MPI_Comm comm, int kv, void *val, void *extra)
{
    release(val);
    return MPI_SUCCESS;
}

int mcm_comm_init(void)
{
    return PMPI_Comm_create_keyval(copy_fn, delete_fn, &keyval, NULL);
}

/* At MPI_Finalize: every state with a known communicator is deleted
 * through MPI (which calls delete_fn); then the keyval goes. */
void mcm_release_all(void)
{
    for (;;) {
        pthread_mutex_lock(&pool_lock);
        mcm_comm_t *s = pool;
        while (s && !(s->in_use && s->key))
            s = s->next;
        MPI_Comm c = s ? s->comm : MPI_COMM_NULL;
        pthread_mutex_unlock(&pool_lock);
        if (!s)
            break;
        if (PMPI_Comm_delete_attr(c, keyval) != MPI_SUCCESS)
            release(s);
    }
    if (keyval != MPI_KEYVAL_INVALID)
        PMPI_Comm_free_keyval(&keyval);
}

const mcm_comm_t *mcm_comm_peek(MPI_Comm comm)
{
    void *v = NULL;
    int flag = 0;
    if (!mcm_inited || !mcm_cfg.on || comm == MPI_COMM_NULL ||
        PMPI_Comm_get_attr(comm, keyval, &v, &flag) != MPI_SUCCESS || !flag)
        return NULL;
    return v;
}

/* for tests and tools: where comm's collectives went so far (found with
 * dlsym, so declared here only). coll: a collective's name ("allreduce":
 * all its forms), a form's ("iallreduce", "allreduce_init"), or NULL
 * (every collective); *mc_calls counts flat and hierarchical calls. */
MCM_API int mc_mpi_query(MPI_Comm comm, const char *coll, long *mc_calls,
                         long *pmpi_calls, int *path);
MCM_API int mc_mpi_query(MPI_Comm comm, const char *coll, long *mc_calls,
                         long *pmpi_calls, int *path)
{
    const mcm_comm_t *s = mcm_comm_peek(comm);
    *mc_calls = *pmpi_calls = 0;
    *path = -1;
    if (!s)
        return -1;
    int one = -1, form = -1;
    *path = s->path;
    if (coll && mcm_form_lookup(coll, &one, &form))
        return 0; /* no such collective: no calls */
    for (int c = 0; c < MC_COLL_COUNT; c++)
        for (int f = 0; f < MCM_FORMS; f++)
            if ((one < 0 || c == one) && (form < 0 || f == form)) {
                const mcm_stat_t *x = &s->stat[c][f];
                *mc_calls += x->n[MCM_FLAT] + x->n[MCM_HIER];
                *pmpi_calls += x->n[MCM_PMPI];
            }
    return 0;
}

/* ---- where communicators are made: MC_MPI_EAGER sets them up, and
 * MC_MPI_TRACE gives them their global id (trace_comm.c) ---- */

static int made(int rc, MPI_Comm parent, const MPI_Comm *c, int kind)
{
    if (rc != MPI_SUCCESS || *c == MPI_COMM_NULL)
        return rc;
    MCM_TRACE_COMM(parent, *c, kind);
    if (mcm_cfg.eager)
        mcm_comm(*c);
    return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_dup(comm, newcomm);
    return made(rc, comm, newcomm, MCM_TC_DUP);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    return made(rc, comm, newcomm, MCM_TC_SPLIT);
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info,
                        MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_split_type(comm, type, key, info, newcomm);
    return made(rc, comm, newcomm,
                type == MPI_COMM_TYPE_SHARED ? MCM_TC_SHARED : MCM_TC_OTHER);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_create(comm, group, newcomm);
    return made(rc, comm, newcomm, MCM_TC_CREATE);
}

/* for the recording only: the handle no longer names its communicator */
int MPI_Comm_free(MPI_Comm *comm)
{
    if (comm)
        MCM_TRACE_COMM_FREE(*comm);
    return PMPI_Comm_free(comm);
}
