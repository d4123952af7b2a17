/*
 * The communicators of a recording. Each gets, when it is made, a global
 * id its members agree on and its members as world ranks:
 *
 *   MPI_Comm_split / split_type / dup / create (comm.c), on each member:
 *     new comm rank 0 proposes rank + P * k (its k-th comm, k >= 1)
 *     PMPI_Bcast of the proposal inside the new comm
 *     PMPI_Comm_group + PMPI_Group_translate_ranks: members in world ranks
 *   a comm made by a call not intercepted (MPI_Comm_idup, MPI_Cart_create,
 *     MPI_COMM_SELF, ...), met in an event: its members, and an id every
 *     member computes alike without talking: 0x80000000 | a hash of them
 *
 * A handle maps to its entry until MPI_Comm_free (MPI may reuse the
 * handle); the entries themselves are kept for the definitions, written
 * by rank 0 at finalize (mcm_tr_write_comms), parents first, numbered
 * 0, 1, ... in that order; each rank's local definitions map the ids its
 * events carry to those (trace_defs.c).
 */
#include <stdlib.h>
#include <string.h>

#include "mpi/trace.h"

#if MCM_HAVE_OTF2
#include "mpi/trace_impl.h"

static const char *const kind_name[MCM_TC_KINDS] = {
    [MCM_TC_WORLD] = "MPI_COMM_WORLD", [MCM_TC_SPLIT] = "split",
    [MCM_TC_SHARED] = "split_type_shared", [MCM_TC_DUP] = "dup",
    [MCM_TC_CREATE] = "create", [MCM_TC_OTHER] = "other"};

/* members of c in world ranks into a new array (*n of them), or NULL */
static uint32_t *members(MPI_Comm c, int *n)
{
    MPI_Group g, w;
    *n = 0;
    if (PMPI_Comm_group(c, &g) != MPI_SUCCESS)
        return NULL;
    PMPI_Comm_group(MPI_COMM_WORLD, &w);
    PMPI_Group_size(g, n);
    int *in = malloc(2 * (size_t)*n * sizeof *in + 1);
    uint32_t *out = malloc((size_t)*n * sizeof *out + 1);
    if (in && out) {
        for (int i = 0; i < *n; i++)
            in[i] = i;
        PMPI_Group_translate_ranks(g, *n, in, w, in + *n);
        for (int i = 0; i < *n; i++)
            out[i] = (uint32_t)in[*n + i];
    }
    PMPI_Group_free(&g);
    PMPI_Group_free(&w);
    free(in);
    if (!in) {
        free(out);
        return NULL;
    }
    return out;
}

/* adds a comm (taking m) and maps c's handle to it; caller holds the
 * lock; 0 or -1 (no memory: m freed) */
static int add(MPI_Comm c, uint32_t id, uint32_t parent, int kind,
               uint32_t *m, int n)
{
    if (mcm_tr.ncomm == mcm_tr.capcomm) {
        size_t cap = mcm_tr.capcomm ? 2 * mcm_tr.capcomm : 8;
        mcm_tcomm_t *x = realloc(mcm_tr.comms, cap * sizeof *x);
        if (!x) {
            free(m);
            return -1;
        }
        mcm_tr.comms = x;
        mcm_tr.capcomm = cap;
    }
    mcm_tr.comms[mcm_tr.ncomm] = (mcm_tcomm_t){
        .id = id, .parent = parent, .kind = kind, .n = n, .members = m};
    void *v;
    if (mc_map_put(&mcm_tr.comm_of, mcm_key(&c, sizeof c), &v) < 0)
        return -1;
    *(uint32_t *)v = (uint32_t)mcm_tr.ncomm++;
    return 0;
}

int mcm_tr_comm_world(void)
{
    int n = mcm_tr.size;
    uint32_t *m = malloc((size_t)n * sizeof *m);
    if (!m)
        return -1;
    for (int i = 0; i < n; i++)
        m[i] = (uint32_t)i;
    return add(MPI_COMM_WORLD, 0, MCM_T_UNDEF_COMM, MCM_TC_WORLD, m, n);
}

static const mcm_tcomm_t *find(MPI_Comm c)
{
    const uint32_t *i = mc_map_get(&mcm_tr.comm_of, mcm_key(&c, sizeof c));
    return i ? &mcm_tr.comms[*i] : NULL;
}

/* caller holds the lock */
uint32_t mcm_tr_comm_id(MPI_Comm comm)
{
    const mcm_tcomm_t *t = find(comm);
    if (t)
        return t->id;
    int n;
    uint32_t *m = members(comm, &n);
    if (!m)
        return MCM_T_UNDEF_COMM;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < n; i++)
        h = (h ^ m[i]) * 0x100000001b3ull;
    uint32_t id = 0x80000000u | (uint32_t)(h ^ h >> 32);
    add(comm, id, MCM_T_UNDEF_COMM, MCM_TC_OTHER, m, n);
    return id;
}

void mcm_trace_comm_new(MPI_Comm parent, MPI_Comm c, int kind)
{
    int me = 0;
    uint32_t id = 0;
    if (c == MPI_COMM_NULL || PMPI_Comm_rank(c, &me) != MPI_SUCCESS)
        return;
    mcm_tr_lock();
    uint32_t pid = mcm_tr_comm_id(parent);
    if (me == 0)
        id = (uint32_t)mcm_tr.rank +
             (uint32_t)mcm_tr.size * mcm_tr.next_comm++;
    mcm_tr_unlock();
    PMPI_Bcast(&id, 1, MPI_UINT32_T, 0, c);
    int n;
    uint32_t *m = members(c, &n);
    mcm_tr_lock();
    if (m)
        add(c, id, pid, kind, m, n);
    mcm_tr_unlock();
}

void mcm_trace_comm_free(MPI_Comm c)
{
    mcm_tr_lock();
    mc_map_remove(&mcm_tr.comm_of, mcm_key(&c, sizeof c));
    mcm_trace_comm_forget(c);
    mcm_tr_unlock();
}

/* ---- the definitions (rank 0, at finalize) ---- */

typedef struct rec {
    const uint32_t *w; /* id, parent, kind, n, members */
    int done;
} rec_t;

/* the distinct comms of every rank's words, into recs; their number */
static size_t parse(const uint32_t *w, size_t n, rec_t *recs, mc_map_t *ix)
{
    size_t k = 0;
    for (size_t i = 0; i + 4 <= n; i += 4 + w[i + 3]) {
        void *v;
        if (mc_map_add(ix, w[i], &v) != 1)
            continue; /* known (or no memory: left out) */
        *(size_t *)v = k;
        recs[k++] = (rec_t){.w = &w[i]};
    }
    return k;
}

size_t mcm_tr_comm_order(const uint32_t *words, size_t n,
                         const uint32_t ***order)
{
    rec_t *recs = malloc((n / 4 + 1) * sizeof *recs);
    const uint32_t **out = malloc((n / 4 + 1) * sizeof *out);
    size_t k = 0, m = 0;
    mc_map_t ix;
    mc_map_init(&ix, sizeof(size_t));
    if (recs && out) {
        k = parse(words, n, recs, &ix);
        for (int pass = 1; pass && m < k;) {
            pass = 0;
            for (size_t i = 0; i < k; i++) {
                const size_t *p = mc_map_get(&ix, recs[i].w[1]);
                if (recs[i].done || (p && !recs[*p].done))
                    continue;
                out[m++] = recs[i].w;
                recs[i].done = pass = 1;
            }
        }
    }
    mc_map_fini(&ix);
    free(recs);
    *order = out;
    return m;
}

static void write_one(OTF2_GlobalDefWriter *gw, const uint32_t *w,
                      uint32_t self, uint32_t parent,
                      uint32_t (*str)(void *, const char *), void *u)
{
    uint32_t n = w[3], kind = w[2];
    uint64_t *m = malloc(((size_t)n + 1) * sizeof *m);
    if (!m)
        return;
    for (uint32_t i = 0; i < n; i++)
        m[i] = w[4 + i];
    uint32_t name = str(u, kind < MCM_TC_KINDS ? kind_name[kind] : "other");
    OTF2_GlobalDefWriter_WriteGroup(gw, 1 + self, name,
                                    OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    n, m);
    OTF2_GlobalDefWriter_WriteComm(gw, self, name, 1 + self, parent,
                                   OTF2_COMM_FLAG_NONE);
    free(m);
}

/* the group of all locations, then comm i of order as comm i with group
 * 1 + i (so that ids rise as they are written: otf2-print asks for it) */
void mcm_tr_write_comms(OTF2_GlobalDefWriter *gw, const uint32_t **order,
                        size_t k, uint32_t (*str)(void *, const char *),
                        void *u)
{
    uint64_t *all = malloc((size_t)mcm_tr.size * sizeof *all);
    mc_map_t ix; /* recorded id -> its place in order */
    mc_map_init(&ix, sizeof(uint32_t));
    if (all) {
        for (int i = 0; i < mcm_tr.size; i++)
            all[i] = (uint64_t)i;
        OTF2_GlobalDefWriter_WriteGroup(
            gw, 0, str(u, "locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)mcm_tr.size,
            all);
        for (size_t i = 0; i < k; i++) {
            void *v;
            const uint32_t *p = mc_map_get(&ix, order[i][1]);
            write_one(gw, order[i], (uint32_t)i,
                      p ? *p : MCM_T_UNDEF_COMM, str, u);
            if (mc_map_add(&ix, order[i][0], &v) == 1)
                *(uint32_t *)v = (uint32_t)i;
        }
    }
    mc_map_fini(&ix);
    free(all);
}

#endif /* MCM_HAVE_OTF2 */
