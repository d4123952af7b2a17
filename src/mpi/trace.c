/*
 * The recording's life and its writer: MC_MPI_TRACE=DIR opens an OTF2
 * archive at MPI_Init (DIR/traces.otf2, one event file per rank) and
 * the rank's event log (trace_log.c), the wrappers append records to the
 * log, and MPI_Finalize turns the log into OTF2 events, writes the
 * definitions and closes the archive (trace.h has the whole picture).
 *
 * Memory: the log's buffer (MCM_TR_LOG bytes) and, at MPI_Finalize,
 * OTF2's event chunks of MCM_TR_CHUNK bytes, each written to the rank's
 * event file when full (the pre-flush callback says yes), plus the
 * tables that grow with what the program made, not with how long it
 * ran: one entry per communicator, per distinct event string (datatype,
 * op, vcounts) and per request in flight.
 *
 * Clock: CLOCK_MONOTONIC in ns, read as the TSC's ticks where it can
 * stand for it (trace_impl.h) and turned into ns at MPI_Finalize; at
 * MPI_Init every rank reads it right after a barrier and takes rank 0's
 * reading as its own, so that ranks on different hosts share a time axis
 * to within the barrier's skew.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/trace.h"
#include "util/tick.h"

#if MCM_HAVE_OTF2
#include "mpi/trace_impl.h"

int mcm_trace_on;
_Thread_local int mcm_trace_depth
    __attribute__((tls_model("initial-exec")));
mcm_trace_t mcm_tr = {.lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1};

/* events per chunk of the event writer; the definitions' chunk */
#define MCM_TR_CHUNK (1u << 20)
#define MCM_TR_DEF_CHUNK (4u << 20)

static int tsc_usable(void)
{
    return mc_tsc_usable("MC_MPI_TRACE_TSC");
}

/* a tick and the ns at it, read as close together as can be */
static void pair(uint64_t *tick, uint64_t *ns)
{
    mc_tick_pair(mcm_tr.tsc, tick, ns);
}

void mcm_tr_clock_end(void)
{
    mcm_tr.ns_per_tick = 1;
    if (mcm_tr.tsc) {
        uint64_t t1, n1;
        pair(&t1, &n1);
        mcm_tr.ns_per_tick = mc_tick_rate(mcm_tr.tick0, mcm_tr.ns0, t1, n1);
    }
}

uint64_t mcm_tr_ns(uint64_t tick)
{
    int64_t d = (int64_t)(tick - mcm_tr.tick0);
    return mcm_tr.ns0 + (uint64_t)mcm_tr.shift +
           (uint64_t)(int64_t)((double)d * mcm_tr.ns_per_tick);
}

/* ---- event strings ---- */

static uint64_t fnv(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h >> 1; /* never UINT64_MAX (util/map.h) */
}

static uint32_t str_id(size_t i)
{
    return mcm_tr.str_base + (uint32_t)i * (uint32_t)mcm_tr.size +
           (uint32_t)mcm_tr.rank;
}

/* caller holds the lock */
uint32_t mcm_tr_str(const char *s)
{
    uint64_t h = fnv(s);
    uint32_t *at = mc_map_get(&mcm_tr.str_ids, h);
    if (at && !strcmp(mcm_tr.strs[*at - 1], s))
        return str_id(*at - 1);
    if (mcm_tr.nstr == mcm_tr.capstr) {
        size_t cap = mcm_tr.capstr ? 2 * mcm_tr.capstr : 16;
        char **n = realloc(mcm_tr.strs, cap * sizeof *n);
        if (!n)
            return 0;
        mcm_tr.strs = n;
        mcm_tr.capstr = cap;
    }
    char *copy = strdup(s);
    if (!copy)
        return 0;
    size_t i = mcm_tr.nstr++;
    mcm_tr.strs[i] = copy;
    void *v;
    if (!at && mc_map_add(&mcm_tr.str_ids, h, &v) == 1)
        *(uint32_t *)v = (uint32_t)i + 1; /* (a collision: not mapped) */
    return str_id(i);
}

/* the strings every rank writes: "" and the paths' names; 0 or -1 */
static int fixed_strings(void)
{
    static const char *const path[MCM_P_N] = {
        [MCM_P_MANYCOLL] = "manycoll", [MCM_P_HIER] = "hier",
        [MCM_P_MPI] = "mpi"};
    int bad = !(mcm_tr.s_none = mcm_tr_str(""));
    for (int i = 0; i < MCM_P_N; i++)
        bad |= !(mcm_tr.s_path[i] = mcm_tr_str(path[i]));
    return bad ? -1 : 0;
}

/* ---- events ---- */

/* ---- the archive ---- */

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft,
                                OTF2_LocationRef loc, void *caller,
                                bool final)
{
    (void)u, (void)ft, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH;
}

/* no post-flush callback: OTF2 writes its chunks at MPI_Finalize (the
 * log, trace_log.c), not while the program runs, so there is no pause of
 * the program's to record as a BufferFlush */
static const OTF2_FlushCallbacks flush_cbs = {.otf2_pre_flush = pre_flush,
                                              .otf2_post_flush = NULL};

/* opens DIR/traces.otf2 and this rank's event writer; NULL or the
 * reason it could not */
static const char *open_archive(const char *dir)
{
    mcm_tr.ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE,
                                  MCM_TR_CHUNK, MCM_TR_DEF_CHUNK,
                                  OTF2_SUBSTRATE_POSIX,
                                  OTF2_COMPRESSION_NONE);
    if (!mcm_tr.ar)
        return "OTF2_Archive_Open failed";
    OTF2_ErrorCode e = OTF2_Archive_SetFlushCallbacks(mcm_tr.ar, &flush_cbs,
                                                      NULL);
    if (e == OTF2_SUCCESS)
        e = mcm_tr_set_collectives(mcm_tr.ar);
    if (e == OTF2_SUCCESS)
        e = OTF2_Archive_SetCreator(mcm_tr.ar, "manycoll libmanycoll_mpi");
    if (e == OTF2_SUCCESS)
        e = OTF2_Archive_OpenEvtFiles(mcm_tr.ar);
    if (e != OTF2_SUCCESS)
        return OTF2_Error_GetDescription(e);
    mcm_tr.ev = OTF2_Archive_GetEvtWriter(mcm_tr.ar,
                                          (OTF2_LocationRef)mcm_tr.rank);
    mcm_tr.al = OTF2_AttributeList_New();
    if (!mcm_tr.ev || !mcm_tr.al)
        return "no event writer";
    return mcm_tr_log_open(dir) ? "cannot create the event log in DIR"
                                : NULL;
}

/* every rank reads the clock after one barrier; rank 0's is the time */
static void sync_clock(void)
{
    PMPI_Barrier(mcm_tr.comm);
    pair(&mcm_tr.tick0, &mcm_tr.ns0);
    int64_t mine = (int64_t)mcm_tr.ns0, zero = mine;
    PMPI_Bcast(&zero, 1, MPI_INT64_T, 0, mcm_tr.comm);
    mcm_tr.shift = zero - mine;
}

void mcm_trace_init(void)
{
    const char *dir = getenv("MC_MPI_TRACE");
    if (!dir || !*dir || mcm_trace_on)
        return;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &mcm_tr.comm) != MPI_SUCCESS)
        return;
    PMPI_Comm_rank(mcm_tr.comm, &mcm_tr.rank);
    PMPI_Comm_size(mcm_tr.comm, &mcm_tr.size);
    mcm_tr.str_base = 256 + (uint32_t)mcm_tr.size;
    mc_map_init(&mcm_tr.str_ids, sizeof(uint32_t));
    mc_map_init(&mcm_tr.comm_of, sizeof(uint32_t));
    mc_map_init(&mcm_tr.reqs, sizeof(mcm_treq_t *));
    int level = MPI_THREAD_MULTIPLE;
    PMPI_Query_thread(&level);
    mcm_tr.mt = level == MPI_THREAD_MULTIPLE;
    mcm_tr.tsc = tsc_usable();
    sync_clock();
    const char *why = open_archive(dir);
    if (!why && fixed_strings())
        why = "no memory for the event strings";
    if (!why && mcm_tr_comm_world())
        why = "no memory for the communicator table";
    int ok = !why, all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, mcm_tr.comm);
    if (all) {
        mcm_tr.next_comm = 1;
        mcm_trace_on = 1;
        return;
    }
    if (why || mcm_tr.rank == 0)
        fprintf(stderr, "manycoll_mpi: MC_MPI_TRACE='%s': rank %d cannot "
                        "write the archive (%s); not recording\n",
                dir, mcm_tr.rank, why ? why : "another rank could not");
    /* the archive is left as it is: OTF2 cannot close half of one */
    mcm_tr.ar = NULL;
    if (mcm_tr.fd >= 0)
        close(mcm_tr.fd);
    mcm_tr.fd = -1;
    free(mcm_tr.log);
    mcm_tr.log = NULL;
}

static void free_tables(void)
{
    mcm_tr_raw_free();
    for (size_t i = 0; i < mcm_tr.nstr; i++)
        free(mcm_tr.strs[i]);
    free(mcm_tr.strs);
    for (size_t i = 0; i < mcm_tr.ncomm; i++)
        free(mcm_tr.comms[i].members);
    free(mcm_tr.comms);
    mc_map_fini(&mcm_tr.str_ids);
    mc_map_fini(&mcm_tr.comm_of);
    size_t pos = 0;
    uint64_t k;
    void *v;
    while (mc_map_next(&mcm_tr.reqs, &pos, &k, &v))
        for (mcm_treq_t *q = *(mcm_treq_t **)v, *n; q; q = n) {
            n = q->next;
            free(q);
        }
    mc_map_fini(&mcm_tr.reqs);
}

void mcm_trace_finalize(void)
{
    if (!mcm_trace_on)
        return;
    mcm_tr_lock();
    mcm_trace_on = 0;
    mcm_tr_unlock();
    mcm_tr_clock_end();
    int lost = mcm_tr_log_write();
    if (lost)
        fprintf(stderr, "manycoll_mpi: MC_MPI_TRACE: rank %d could not "
                        "write its event log (%s): events are missing\n",
                mcm_tr.rank, strerror(lost));
    OTF2_EvtWriter_GetNumberOfEvents(mcm_tr.ev, &mcm_tr.nev);
    OTF2_Archive_CloseEvtWriter(mcm_tr.ar, mcm_tr.ev);
    OTF2_Archive_CloseEvtFiles(mcm_tr.ar);
    mcm_tr_write_defs();
    OTF2_Archive_Close(mcm_tr.ar);
    OTF2_AttributeList_Delete(mcm_tr.al);
    free_tables();
    PMPI_Comm_free(&mcm_tr.comm);
}

#endif /* MCM_HAVE_OTF2 */
