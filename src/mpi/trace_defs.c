/*
 * The archive's global definitions, written by rank 0 at MPI_Finalize
 * after gathering, over PMPI on the private world duplicate, what only
 * the other ranks know:
 *
 *   every rank -> rank 0   events written, first and last timestamps
 *                          (PMPI_Gather); regions used (PMPI_Allreduce,
 *                          bor: every rank learns them all);
 *                          its event strings, in order (PMPI_Gatherv), whose
 *                          ids it chose as base + i * P + rank;
 *                          the communicators it knows (PMPI_Gatherv of
 *                          id, parent, kind, size, members)
 *   rank 0 writes          clock; strings; the system tree (one node,
 *                          a location group "MPI Rank r" and a location
 *                          "Master thread" per rank); regions; the
 *                          manycoll::* attributes; the group of all
 *                          locations; a group and a Comm per communicator,
 *                          parents first
 *   rank 0 -> every rank   each comm's recorded id and its number in the
 *                          archive (PMPI_Bcast)
 *   every rank writes      its local definitions: two mapping tables,
 *                          OTF2_MAPPING_REGION and OTF2_MAPPING_COMM,
 *                          from the ids its events carry to the archive's
 *
 * Ids: the events carry a region's fixed id (coll * MCM_FORMS + form,
 * ...) and a comm's recorded id (w + P * k, trace_comm.c), known without
 * talking to other ranks but far apart; the archive numbers the regions
 * used and the comms 0, 1, 2, ... in the order it defines them (readers
 * such as otf2-print ask for it), and a reader that reads the local
 * definitions (OTF2 does it for the events it hands over) sees those.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/trace.h"

#if MCM_HAVE_OTF2
#include "mpi/trace_impl.h"

/* what rank 0 holds while it writes */
typedef struct defs {
    OTF2_GlobalDefWriter *w;
    uint32_t next_str;       /* next fixed string id */
    uint64_t *info;          /* [P][3]: events, first, last */
    char *strs;              /* every rank's event strings */
    int *str_n, *str_at;     /* bytes and offsets per rank */
    uint32_t *cw;            /* every rank's comm words */
    int *cw_n, *cw_at;
    uint64_t regions[(MCM_R_COUNT + 63) / 64]; /* used by any rank */
    const uint32_t **order;  /* the distinct comms, parents first */
    size_t ncomm;
    uint32_t *ids;           /* [2 * ncomm]: recorded id, archive id */
} defs_t;

static uint32_t fixed(defs_t *d, const char *s)
{
    OTF2_GlobalDefWriter_WriteString(d->w, d->next_str, s);
    return d->next_str++;
}

/* this rank's strings, each with its nul, as one run of bytes */
static char *pack_strings(int *len)
{
    size_t n = 0;
    for (size_t i = 0; i < mcm_tr.nstr; i++)
        n += strlen(mcm_tr.strs[i]) + 1;
    char *b = malloc(n + 1), *p = b;
    for (size_t i = 0; b && i < mcm_tr.nstr; i++) {
        size_t l = strlen(mcm_tr.strs[i]) + 1;
        memcpy(p, mcm_tr.strs[i], l);
        p += l;
    }
    *len = (int)n;
    return b;
}

/* this rank's communicators: id, parent, kind, n, members, each */
static uint32_t *pack_comms(int *len)
{
    size_t n = 0;
    for (size_t i = 0; i < mcm_tr.ncomm; i++)
        n += 4 + (size_t)mcm_tr.comms[i].n;
    uint32_t *b = malloc((n + 1) * sizeof *b), *p = b;
    for (size_t i = 0; b && i < mcm_tr.ncomm; i++) {
        const mcm_tcomm_t *c = &mcm_tr.comms[i];
        *p++ = c->id;
        *p++ = c->parent;
        *p++ = (uint32_t)c->kind;
        *p++ = (uint32_t)c->n;
        memcpy(p, c->members, (size_t)c->n * sizeof *p);
        p += c->n;
    }
    *len = (int)n;
    return b;
}

/* gathers n items of type t from every rank into *all at rank 0 (with
 * the counts and offsets); 0, or -1 if no memory */
static int gatherv(const void *mine, int n, MPI_Datatype t, size_t esize,
                   void **all, int **cnt, int **at)
{
    int P = mcm_tr.size, root = mcm_tr.rank == 0;
    *cnt = calloc(2 * (size_t)P, sizeof **cnt);
    if (!*cnt)
        return -1;
    *at = *cnt + P;
    PMPI_Gather(&n, 1, MPI_INT, *cnt, 1, MPI_INT, 0, mcm_tr.comm);
    size_t total = 0;
    for (int r = 0; root && r < P; r++) {
        (*at)[r] = (int)total;
        total += (size_t)(*cnt)[r];
    }
    *all = root ? malloc(total * esize + 1) : NULL;
    return PMPI_Gatherv(mine, n, t, *all, *cnt, *at, t, 0, mcm_tr.comm) ==
                       MPI_SUCCESS && (!root || *all)
               ? 0
               : -1;
}

static int gather_all(defs_t *d)
{
    int P = mcm_tr.size, root = mcm_tr.rank == 0;
    uint64_t mine[3] = {mcm_tr.nev, mcm_tr.first, mcm_tr.last};
    d->info = root ? malloc(3 * (size_t)P * sizeof *d->info) : NULL;
    PMPI_Gather(mine, 3, MPI_UINT64_T, d->info, 3, MPI_UINT64_T, 0,
                mcm_tr.comm);
    PMPI_Allreduce(mcm_tr.regions, d->regions, (MCM_R_COUNT + 63) / 64,
                   MPI_UINT64_T, MPI_BOR, mcm_tr.comm);
    int ns = 0, nc = 0;
    char *s = pack_strings(&ns);
    uint32_t *c = pack_comms(&nc);
    int rc = gatherv(s, ns, MPI_CHAR, 1, (void **)&d->strs, &d->str_n,
                     &d->str_at);
    int rc2 = gatherv(c, nc, MPI_UINT32_T, 4, (void **)&d->cw, &d->cw_n,
                      &d->cw_at);
    free(s);
    free(c);
    return rc || rc2 || (root && !d->info) ? -1 : 0;
}

static void write_clock(defs_t *d)
{
    uint64_t first = UINT64_MAX, last = 0;
    for (int r = 0; r < mcm_tr.size; r++) {
        const uint64_t *x = &d->info[3 * r];
        if (x[1] && x[1] < first)
            first = x[1];
        if (x[2] > last)
            last = x[2];
    }
    if (first == UINT64_MAX)
        first = last = 0;
    OTF2_GlobalDefWriter_WriteClockProperties(d->w, 1000000000u, first,
                                              last - first + 1,
                                              OTF2_UNDEFINED_TIMESTAMP);
}

static void write_event_strings(defs_t *d)
{
    uint32_t P = (uint32_t)mcm_tr.size;
    for (uint32_t r = 0; r < P; r++) {
        const char *p = d->strs + d->str_at[r], *end = p + d->str_n[r];
        for (uint32_t i = 0; p < end; i++, p += strlen(p) + 1)
            OTF2_GlobalDefWriter_WriteString(d->w, mcm_tr.str_base + i * P + r,
                                             p);
    }
}

static void write_system(defs_t *d)
{
    char host[256] = "localhost", name[64];
    gethostname(host, sizeof host - 1);
    uint32_t h = fixed(d, host), node = fixed(d, "node");
    uint32_t thread = fixed(d, "Master thread");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d->w, 0, h, node,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int r = 0; r < mcm_tr.size; r++) {
        snprintf(name, sizeof name, "MPI Rank %d", r);
        OTF2_GlobalDefWriter_WriteLocationGroup(
            d->w, (OTF2_LocationGroupRef)r, fixed(d, name),
            OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
            OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(d->w, (OTF2_LocationRef)r, thread,
                                           OTF2_LOCATION_TYPE_CPU_THREAD,
                                           d->info[3 * r],
                                           (OTF2_LocationGroupRef)r);
    }
}

static int region_used(const defs_t *d, int r)
{
    return d->regions[r / 64] >> (r % 64) & 1;
}

/* the regions used, numbered 0, 1, ... in the order of their fixed ids */
static void write_regions(defs_t *d)
{
    char buf[64];
    uint32_t empty = fixed(d, ""), self = 0;
    for (int r = 0; r < MCM_R_COUNT; r++) {
        if (!region_used(d, r))
            continue;
        uint32_t n = fixed(d, mcm_tr_region_name(r, buf, sizeof buf));
        OTF2_GlobalDefWriter_WriteRegion(
            d->w, self++, n, n, empty, mcm_tr_region_role(r),
            OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0);
    }
}

static void write_attributes(defs_t *d)
{
    static const struct {
        const char *name, *what;
        OTF2_Type type;
    } a[MCM_A_N] = {
        [MCM_A_COUNT] = {"manycoll::count", "the call's count argument (a "
                         "rank's block where the call has blocks)",
                         OTF2_TYPE_UINT64},
        [MCM_A_DATATYPE] = {"manycoll::datatype", "the element: i8 .. "
                            "bf16, or bytes:N (N bytes of extent)",
                            OTF2_TYPE_STRING},
        [MCM_A_OP] = {"manycoll::op", "the reduction op (sum, max, ...), "
                      "empty when none", OTF2_TYPE_STRING},
        [MCM_A_VCOUNTS] = {"manycoll::vcounts", "per-rank counts of a "
                           "v-collective, comma-separated",
                           OTF2_TYPE_STRING},
        [MCM_A_IN_PLACE] = {"manycoll::in_place", "1 if MPI_IN_PLACE",
                            OTF2_TYPE_UINT8},
        [MCM_A_PATH] = {"manycoll::path", "which path took the call: "
                        "manycoll, hier or mpi", OTF2_TYPE_STRING},
    };
    for (int i = 0; i < MCM_A_N; i++) {
        uint32_t n = fixed(d, a[i].name), w = fixed(d, a[i].what);
        OTF2_GlobalDefWriter_WriteAttribute(d->w, (OTF2_AttributeRef)i, n, w,
                                            a[i].type);
    }
}

static uint32_t fixed_cb(void *u, const char *s)
{
    return fixed(u, s);
}

static void write_all(defs_t *d)
{
    d->w = OTF2_Archive_GetGlobalDefWriter(mcm_tr.ar);
    if (!d->w)
        return;
    write_clock(d);
    write_event_strings(d);
    write_system(d);
    write_regions(d);
    write_attributes(d);
    mcm_tr_write_comms(d->w, d->order, d->ncomm, fixed_cb, d);
    OTF2_Archive_CloseGlobalDefWriter(mcm_tr.ar, d->w);
}

/* rank 0: the comms in the archive's order; then every rank gets each
 * one's recorded id and archive id (d->ids, d->ncomm) */
static void number_comms(defs_t *d, int ok)
{
    if (mcm_tr.rank == 0 && ok) {
        size_t n = 0;
        for (int r = 0; r < mcm_tr.size; r++)
            n += (size_t)d->cw_n[r];
        d->ncomm = mcm_tr_comm_order(d->cw, n, &d->order);
    }
    uint64_t k = d->ncomm;
    PMPI_Bcast(&k, 1, MPI_UINT64_T, 0, mcm_tr.comm);
    d->ids = malloc((2 * k + 1) * sizeof *d->ids);
    for (size_t i = 0; d->ids && mcm_tr.rank == 0 && i < k; i++) {
        d->ids[2 * i] = d->order[i][0];
        d->ids[2 * i + 1] = (uint32_t)i;
    }
    int have = d->ids != NULL, all = 0;
    PMPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, mcm_tr.comm);
    if (all)
        PMPI_Bcast(d->ids, (int)(2 * k), MPI_UINT32_T, 0, mcm_tr.comm);
    d->ncomm = all ? k : 0;
}

/* the mapping table of kind from the pairs (local, global) of ids */
static void write_map(OTF2_DefWriter *dw, OTF2_MappingType kind,
                      const uint32_t *pairs, size_t n)
{
    OTF2_IdMap *m = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, n + 1);
    for (size_t i = 0; m && i < n; i++)
        OTF2_IdMap_AddIdPair(m, pairs[2 * i], pairs[2 * i + 1]);
    if (m)
        OTF2_DefWriter_WriteMappingTable(dw, kind, m);
    OTF2_IdMap_Free(m);
}

/* this rank's local definitions: its regions' and comms' ids in the
 * archive */
static void write_local(const defs_t *d)
{
    OTF2_Archive_OpenDefFiles(mcm_tr.ar);
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(
        mcm_tr.ar, (OTF2_LocationRef)mcm_tr.rank);
    uint32_t r_ids[2 * MCM_R_COUNT], self = 0;
    size_t nr = 0;
    for (int r = 0; r < MCM_R_COUNT; r++) {
        if (!region_used(d, r))
            continue;
        if (mcm_tr.regions[r / 64] >> (r % 64) & 1) {
            r_ids[2 * nr] = (uint32_t)r;
            r_ids[2 * nr++ + 1] = self;
        }
        self++;
    }
    mc_map_t at; /* recorded id -> archive id, this rank's comms only */
    mc_map_init(&at, sizeof(uint32_t));
    uint32_t *c_ids = malloc((2 * mcm_tr.ncomm + 1) * sizeof *c_ids);
    size_t nc = 0;
    for (size_t i = 0; i < d->ncomm; i++) {
        void *v;
        if (mc_map_add(&at, d->ids[2 * i], &v) == 1)
            *(uint32_t *)v = d->ids[2 * i + 1];
    }
    for (size_t i = 0; c_ids && i < mcm_tr.ncomm; i++) {
        const uint32_t *g = mc_map_get(&at, mcm_tr.comms[i].id);
        if (g) {
            c_ids[2 * nc] = mcm_tr.comms[i].id;
            c_ids[2 * nc++ + 1] = *g;
        }
    }
    if (dw) {
        write_map(dw, OTF2_MAPPING_REGION, r_ids, nr);
        write_map(dw, OTF2_MAPPING_COMM, c_ids, nc);
        OTF2_Archive_CloseDefWriter(mcm_tr.ar, dw);
    }
    OTF2_Archive_CloseDefFiles(mcm_tr.ar);
    mc_map_fini(&at);
    free(c_ids);
}

void mcm_tr_write_defs(void)
{
    defs_t d = {0};
    int ok = gather_all(&d) == 0;
    number_comms(&d, ok);
    write_local(&d);
    if (mcm_tr.rank == 0 && !ok)
        fprintf(stderr, "manycoll_mpi: MC_MPI_TRACE: no memory for the "
                        "archive's definitions; the archive has events "
                        "only\n");
    if (mcm_tr.rank == 0 && ok)
        write_all(&d);
    free(d.info);
    free(d.strs);
    free(d.str_n);
    free(d.cw);
    free(d.cw_n);
    free(d.order);
    free(d.ids);
}

#endif /* MCM_HAVE_OTF2 */
