/*
 * replay_gen DIR [scorep|odd|nodes]: writes an OTF2 archive of a known program of
 * 6 ranks (a grid of 3 rows of 2) for the replay tests: in the form of
 * /work/notes/otf2_contract.md (manycoll::* attributes, global comm ids),
 * or with "scorep" as Score-P writes it (no attributes, every rank's
 * events with its own local comm ids, mapped by an IdMap). Per rank:
 *   3 x { compute 20 us; allreduce 8 float64 on the world }
 *   compute 5 us; bcast of 1024 bytes from rank 0
 *   allreduce 4 float64 on its row (MPI_Comm_split by row, rows of 2),
 *         MPI_IN_PLACE
 *   halo: irecv/isend 4096 bytes to the ranks above and below (+-2),
 *         one MPI_Waitall
 *   MPI_Iallreduce of 2 float64 on the world, compute 3 us, MPI_Wait
 *   MPI_Sendrecv of 512 bytes around a ring (to r + 1, from r - 1)
 *   MPI_Send of 2048 bytes from each even rank to the odd one beside it,
 *         which MPI_Recvs it
 *   MPI_Allgatherv on its row: 1 float64 from the first, 2 from the second
 * odd: the rows are {0,1}, {2,5}, {3,4} (a split --ranks cannot extend)
 * nodes: the rows named as node splits ("split_type_shared"): --ranks
 *   extends them as chips, rows of one rank on a chip of one core, and
 *   every added rank replays a middle rank's stream, so ranks that send
 *   beside ranks that receive cannot be extended (replay says so)
 *   MPI_Comm_split itself: a call with no event (unreplayable, 3 us)
 */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define P 6
#define ROW 2
enum { S_EMPTY, S_WORLD, S_ROW, S_ALLRED, S_BCAST, S_ISEND, S_IRECV,
       S_WAITALL, S_SPLIT, S_COUNT, S_DTYPE, S_OP, S_NODE, S_RANK, S_THREAD,
       S_LOCS, S_F64, S_SUM, S_U8, S_NONE, S_IALLRED, S_WAIT, S_SENDRECV,
       S_SEND, S_RECV, S_VCOUNTS, S_INPLACE, S_ALLGATHERV, S_V12, S_NSTR };
static const char *const strs[S_NSTR] = {
    "", "MPI_COMM_WORLD", "split", "MPI_Allreduce", "MPI_Bcast",
    "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Comm_split",
    "manycoll::count", "manycoll::datatype", "manycoll::op", "node",
    "MPI Rank", "Master thread", "locations", "f64", "sum", "u8", "",
    "MPI_Iallreduce", "MPI_Wait", "MPI_Sendrecv", "MPI_Send", "MPI_Recv",
    "manycoll::vcounts", "manycoll::in_place", "MPI_Allgatherv", "1,2"};
enum { R_ALLRED, R_BCAST, R_ISEND, R_IRECV, R_WAITALL, R_SPLIT, R_IALLRED,
       R_WAIT, R_SENDRECV, R_SEND, R_RECV, R_ALLGATHERV, R_N };
/* vcounts is defined, as the recording defines it, but no event here
 * carries it (a reader must test for it); in_place on the row's
 * allreduce */
enum { A_COUNT, A_DTYPE, A_OP, A_VCOUNTS, A_INPLACE };

static OTF2_FlushType pre(void *u, OTF2_FileType t, OTF2_LocationRef l,
                          void *c, bool final)
{
    return OTF2_FLUSH;
}
static OTF2_TimeStamp post(void *u, OTF2_FileType t, OTF2_LocationRef l)
{
    return 0;
}
static OTF2_FlushCallbacks flush = {pre, post};

static int scorep, odd, nodes;
/* the row of each rank: rows of 2 in order, or (odd) not a grid */
static int row_of(int r)
{
    static const int g[P] = {0, 0, 1, 2, 2, 1};
    return odd ? g[r] : r / ROW;
}
static uint64_t now;

/* comm ids as rank r's events write them: global, or Score-P's local
 * (world 7, its row 9, mapped to 0 and 1 + row) */
static uint32_t cid(int r, int row)
{
    return scorep ? (row ? 9u : 7u) : (row ? 1u + (uint32_t)row_of(r) : 0u);
}

/* an attribute list of a collective's count, datatype and op (none in
 * Score-P's form) */
static OTF2_AttributeList *attrs(uint64_t count, int f64)
{
    OTF2_AttributeList *a = OTF2_AttributeList_New();
    if (!scorep) {
        OTF2_AttributeList_AddUint64(a, A_COUNT, count);
        OTF2_AttributeList_AddStringRef(a, A_DTYPE, f64 ? S_F64 : S_U8);
        OTF2_AttributeList_AddStringRef(a, A_OP, f64 ? S_SUM : S_NONE);
    }
    return a;
}

static void coll(OTF2_EvtWriter *w, int r, uint32_t region, int op,
                 int row, uint32_t root, uint64_t count, int f64)
{
    uint64_t b = count * (f64 ? 8 : 1);
    OTF2_EvtWriter_Enter(w, NULL, now, region);
    OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, now + 100);
    OTF2_AttributeList *a = attrs(count, f64);
    if (!scorep && row)
        OTF2_AttributeList_AddUint8(a, A_INPLACE, 1);
    uint64_t sent = b, recvd = b;
    if (op == OTF2_COLLECTIVE_OP_BCAST) /* Score-P: the root sends all */
        sent = r == 0 ? b * (P - 1) : 0, recvd = r == 0 ? 0 : b;
    OTF2_EvtWriter_MpiCollectiveEnd(w, a, now + 4000, (OTF2_CollectiveOp)op,
                                    cid(r, row), root, sent, recvd);
    OTF2_AttributeList_Delete(a);
    OTF2_EvtWriter_Leave(w, NULL, now + 5000, region);
    now += 5000;
}

static void halo(OTF2_EvtWriter *w, int r)
{
    int nb[2] = {r - ROW, r + ROW}, n = 0;
    for (int k = 0; k < 2; k++)
        if (nb[k] >= 0 && nb[k] < P) {
            OTF2_EvtWriter_Enter(w, NULL, now, R_IRECV);
            OTF2_EvtWriter_MpiIrecvRequest(w, NULL, now + 50, 100 + k);
            OTF2_EvtWriter_Leave(w, NULL, now + 100, R_IRECV);
            OTF2_EvtWriter_Enter(w, NULL, now + 200, R_ISEND);
            OTF2_EvtWriter_MpiIsend(w, NULL, now + 250, (uint32_t)nb[k],
                                    cid(r, 0), 5, 4096, 200 + k);
            OTF2_EvtWriter_Leave(w, NULL, now + 300, R_ISEND);
            now += 400, n++;
        }
    OTF2_EvtWriter_Enter(w, NULL, now, R_WAITALL);
    for (int k = 0; k < 2; k++)
        if (nb[k] >= 0 && nb[k] < P) {
            OTF2_EvtWriter_MpiIrecv(w, NULL, now + 1000, (uint32_t)nb[k],
                                    cid(r, 0), 5, 4096, 100 + k);
            OTF2_EvtWriter_MpiIsendComplete(w, NULL, now + 1000, 200 + k);
        }
    OTF2_EvtWriter_Leave(w, NULL, now + 2000 * (uint64_t)n, R_WAITALL);
    now += 2000 * (uint64_t)n;
}

/* MPI_Iallreduce of 2 float64, 3 us of computation, its MPI_Wait */
static void iallreduce(OTF2_EvtWriter *w, int r)
{
    OTF2_EvtWriter_Enter(w, NULL, now, R_IALLRED);
    OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, now + 100);
    OTF2_EvtWriter_Leave(w, NULL, now + 1000, R_IALLRED);
    now += 4000;
    OTF2_EvtWriter_Enter(w, NULL, now, R_WAIT);
    OTF2_AttributeList *a = attrs(2, 1);
    OTF2_EvtWriter_MpiCollectiveEnd(w, a, now + 1500,
                                    OTF2_COLLECTIVE_OP_ALLREDUCE, cid(r, 0),
                                    OTF2_UNDEFINED_UINT32, 16, 16);
    OTF2_AttributeList_Delete(a);
    OTF2_EvtWriter_Leave(w, NULL, now + 2000, R_WAIT);
    now += 3000;
}

/* MPI_Sendrecv around the ring; MPI_Send / MPI_Recv between pairs */
static void blocking(OTF2_EvtWriter *w, int r)
{
    OTF2_EvtWriter_Enter(w, NULL, now, R_SENDRECV);
    OTF2_EvtWriter_MpiSend(w, NULL, now + 100, (uint32_t)((r + 1) % P),
                           cid(r, 0), 7, 512);
    OTF2_EvtWriter_MpiRecv(w, NULL, now + 2000, (uint32_t)((r + P - 1) % P),
                           cid(r, 0), 7, 512);
    OTF2_EvtWriter_Leave(w, NULL, now + 2500, R_SENDRECV);
    now += 4000;
    int even = r % 2 == 0;
    OTF2_EvtWriter_Enter(w, NULL, now, even ? R_SEND : R_RECV);
    if (even)
        OTF2_EvtWriter_MpiSend(w, NULL, now + 100, (uint32_t)r + 1,
                               cid(r, 0), 8, 2048);
    else
        OTF2_EvtWriter_MpiRecv(w, NULL, now + 1500, (uint32_t)r - 1,
                               cid(r, 0), 8, 2048);
    OTF2_EvtWriter_Leave(w, NULL, now + 3000, even ? R_SEND : R_RECV);
    now += 3000;
}

/* MPI_Allgatherv on the row: the row's first rank gives 1 float64, the
 * second 2 (manycoll::vcounts "1,2" on both) */
static void allgatherv(OTF2_EvtWriter *w, int r)
{
    uint64_t mine = 1 + (uint64_t)(r % ROW);
    OTF2_EvtWriter_Enter(w, NULL, now, R_ALLGATHERV);
    OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, now + 100);
    OTF2_AttributeList *a = attrs(mine, 1);
    if (!scorep)
        OTF2_AttributeList_AddStringRef(a, A_VCOUNTS, S_V12);
    OTF2_EvtWriter_MpiCollectiveEnd(w, a, now + 1500,
                                    OTF2_COLLECTIVE_OP_ALLGATHERV,
                                    cid(r, 1), OTF2_UNDEFINED_UINT32,
                                    8 * mine, 24);
    OTF2_AttributeList_Delete(a);
    OTF2_EvtWriter_Leave(w, NULL, now + 2000, R_ALLGATHERV);
    now += 2000;
}

static void events(OTF2_Archive *ar, int r)
{
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, (uint64_t)r);
    now = 1000000;
    for (int i = 0; i < 3; i++) {
        now += 20000;
        coll(w, r, R_ALLRED, OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
             OTF2_UNDEFINED_UINT32, 8, 1);
    }
    now += 5000;
    coll(w, r, R_BCAST, OTF2_COLLECTIVE_OP_BCAST, 0, 0, 1024, 0);
    now += 1000;
    OTF2_EvtWriter_Enter(w, NULL, now, R_SPLIT);
    OTF2_EvtWriter_Leave(w, NULL, now + 3000, R_SPLIT);
    now += 4000;
    coll(w, r, R_ALLRED, OTF2_COLLECTIVE_OP_ALLREDUCE, 1,
         OTF2_UNDEFINED_UINT32, 4, 1);
    now += 2000;
    halo(w, r);
    now += 1000;
    iallreduce(w, r);
    now += 1000;
    blocking(w, r);
    now += 1000;
    allgatherv(w, r);
    OTF2_Archive_CloseEvtWriter(ar, w);
    if (scorep) { /* local comm ids: 7 -> 0 (world), 9 -> 1 + row */
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(ar, (uint64_t)r);
        OTF2_IdMap *m = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, 2);
        OTF2_IdMap_AddIdPair(m, 7, 0);
        OTF2_IdMap_AddIdPair(m, 9, 1 + (uint64_t)row_of(r));
        OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_COMM, m);
        OTF2_IdMap_Free(m);
        OTF2_Archive_CloseDefWriter(ar, d);
    }
}

static void defs(OTF2_Archive *ar)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 2000000, 0);
    for (int i = 0; i < S_NSTR; i++)
        OTF2_GlobalDefWriter_WriteString(
            g, (uint32_t)i,
            nodes && i == S_ROW ? "split_type_shared" : strs[i]);
    static const struct { int name, role; } rg[] = {
        {S_ALLRED, OTF2_REGION_ROLE_COLL_ALL2ALL},
        {S_BCAST, OTF2_REGION_ROLE_COLL_ONE2ALL},
        {S_ISEND, OTF2_REGION_ROLE_POINT2POINT},
        {S_IRECV, OTF2_REGION_ROLE_POINT2POINT},
        {S_WAITALL, OTF2_REGION_ROLE_POINT2POINT},
        {S_SPLIT, OTF2_REGION_ROLE_FUNCTION},
        {S_IALLRED, OTF2_REGION_ROLE_COLL_ALL2ALL},
        {S_WAIT, OTF2_REGION_ROLE_POINT2POINT},
        {S_SENDRECV, OTF2_REGION_ROLE_POINT2POINT},
        {S_SEND, OTF2_REGION_ROLE_POINT2POINT},
        {S_RECV, OTF2_REGION_ROLE_POINT2POINT},
        {S_ALLGATHERV, OTF2_REGION_ROLE_COLL_ALL2ALL}};
    for (int i = 0; i < R_N; i++)
        OTF2_GlobalDefWriter_WriteRegion(g, (uint32_t)i, rg[i].name,
                                         rg[i].name, S_EMPTY, rg[i].role,
                                         OTF2_PARADIGM_MPI,
                                         OTF2_REGION_FLAG_NONE, S_EMPTY, 0,
                                         0);
    if (!scorep) {
        OTF2_GlobalDefWriter_WriteAttribute(g, A_COUNT, S_COUNT, S_EMPTY,
                                            OTF2_TYPE_UINT64);
        OTF2_GlobalDefWriter_WriteAttribute(g, A_DTYPE, S_DTYPE, S_EMPTY,
                                            OTF2_TYPE_STRING);
        OTF2_GlobalDefWriter_WriteAttribute(g, A_OP, S_OP, S_EMPTY,
                                            OTF2_TYPE_STRING);
        OTF2_GlobalDefWriter_WriteAttribute(g, A_VCOUNTS, S_VCOUNTS, S_EMPTY,
                                            OTF2_TYPE_STRING);
        OTF2_GlobalDefWriter_WriteAttribute(g, A_INPLACE, S_INPLACE, S_EMPTY,
                                            OTF2_TYPE_UINT8);
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_NODE, S_NODE,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    uint64_t locs[P], row[ROW];
    for (int r = 0; r < P; r++) {
        OTF2_GlobalDefWriter_WriteLocationGroup(
            g, (uint32_t)r, S_RANK, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
            OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(g, (uint64_t)r, S_THREAD,
                                           OTF2_LOCATION_TYPE_CPU_THREAD, 0,
                                           (uint32_t)r);
        locs[r] = (uint64_t)r;
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, S_LOCS, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    P, locs);
    OTF2_GlobalDefWriter_WriteGroup(g, 1, S_WORLD, OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    P, locs);
    OTF2_GlobalDefWriter_WriteComm(g, 0, S_WORLD, 1, OTF2_UNDEFINED_COMM,
                                   OTF2_COMM_FLAG_NONE);
    for (int k = 0; k < P / ROW; k++) {
        for (int i = 0, n = 0; i < P; i++)
            if (row_of(i) == k)
                row[n++] = (uint64_t)i;
        OTF2_GlobalDefWriter_WriteGroup(g, 2 + (uint32_t)k, S_ROW,
                                        OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, ROW, row);
        OTF2_GlobalDefWriter_WriteComm(g, 1 + (uint32_t)k, S_ROW,
                                       2 + (uint32_t)k, 0,
                                       OTF2_COMM_FLAG_NONE);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: replay_gen DIR [scorep]\n");
        return 2;
    }
    scorep = argc > 2 && !strcmp(argv[2], "scorep");
    odd = argc > 2 && !strcmp(argv[2], "odd");
    nodes = argc > 2 && !strcmp(argv[2], "nodes");
    OTF2_Archive *ar = OTF2_Archive_Open(argv[1], "traces",
                                         OTF2_FILEMODE_WRITE, 1 << 20,
                                         4 << 20, OTF2_SUBSTRATE_POSIX,
                                         OTF2_COMPRESSION_NONE);
    if (!ar) {
        fprintf(stderr, "replay_gen: cannot create %s\n", argv[1]);
        return 1;
    }
    OTF2_Archive_SetFlushCallbacks(ar, &flush, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(ar);
    OTF2_Archive_OpenEvtFiles(ar);
    if (scorep)
        OTF2_Archive_OpenDefFiles(ar);
    for (int r = 0; r < P; r++)
        events(ar, r);
    OTF2_Archive_CloseEvtFiles(ar);
    if (scorep)
        OTF2_Archive_CloseDefFiles(ar);
    defs(ar);
    return OTF2_Archive_Close(ar) == OTF2_SUCCESS ? 0 : 1;
}
