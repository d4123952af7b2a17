/*
 * Start and end: the environment, MPI_Init / MPI_Init_thread /
 * MPI_Finalize, the keyval and the error code.
 *
 *   MC_MPI=0             no interposition: every call goes to PMPI
 *   MC_MPI_VERBOSE=1     per communicator, where its collectives went
 *                        (rank 0 of each, when it is freed or at
 *                        MPI_Finalize); 2: every rank
 *   MC_MPI_NODE_SIZE=k   every k consecutive ranks of MPI_COMM_WORLD form
 *                        a "node" (several nodes on one machine, for tests)
 *   MC_MPI_HIER=0        communicators spanning nodes go to MPI
 *   MC_MPI_HIER_PICK     measure (default), hier or mpi [,COLL:MODE...]:
 *                        how a call the hierarchy can take across nodes
 *                        chooses between it and MPI's own (pick.c)
 *   MC_MPI_HIER_AFTER=K  a communicator across nodes builds its
 *                        hierarchy at the K-th call of one collective
 *                        (default 128; 1: at the first), its earlier
 *                        calls MPI's own (comm.c)
 *   MC_MPI_EAGER=1       set up communicators when they are made, not at
 *                        their first collective
 *   MC_MPI_TRACE=DIR     record the run as an OTF2 archive at DIR
 *                        (trace.h; needs the library built with OTF2)
 *   MC_MPI_SEGMENT, MC_MPI_ML_MIN, MC_MPI_NB   hierarchy tunables
 *                        (src/hier/hier.h: segment, multi-leader
 *                        threshold, non-blocking overlap)
 *
 * Every setting must be the same on every rank (as mpirun passes the
 * environment); a communicator whose ranks disagree on NODE_SIZE, HIER,
 * HIER_PICK or HIER_AFTER goes to MPI. Under this library MC_TIMEOUT defaults to an
 * hour, not a minute: an MPI rank may legitimately reach a collective
 * long after its peers, and a dead peer is detected within a second
 * regardless.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/mcmpi.h"

mcm_config_t mcm_cfg = {.on = 1, .hier = 1, .pick_skew = -1};
atomic_int mcm_inited;
extern int mcm_errcode;
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

static int bad_env(const char *name, const char *v)
{
    fprintf(stderr, "manycoll_mpi: %s='%s' is not valid; the interposition "
                    "is off (every collective goes to MPI)\n", name, v);
    mcm_cfg.on = 0;
    return -1;
}

/* a non-negative number with an optional K/M/G suffix */
static int env_size(const char *name, long long def, long long *out)
{
    const char *v = getenv(name);
    *out = def;
    if (!v || !*v)
        return 0;
    char *end;
    long long x = strtoll(v, &end, 10);
    long long mul = 1;
    if (*end == 'k' || *end == 'K')
        mul = 1 << 10, end++;
    else if (*end == 'm' || *end == 'M')
        mul = 1 << 20, end++;
    else if (*end == 'g' || *end == 'G')
        mul = 1 << 30, end++;
    if (end == v || *end || x < 0 || x > (1LL << 40))
        return bad_env(name, v);
    *out = x * mul;
    return 0;
}

static void read_config(void)
{
    long long on, verbose, k, hier, eager, seg, ml, nb, after;
    mc_hier_default_params(&mcm_cfg.par);
    if (env_size("MC_MPI", 1, &on) || env_size("MC_MPI_VERBOSE", 0, &verbose)
        || env_size("MC_MPI_NODE_SIZE", 0, &k) ||
        env_size("MC_MPI_HIER", 1, &hier) || env_size("MC_MPI_EAGER", 0,
                                                      &eager) ||
        env_size("MC_MPI_SEGMENT", (long long)mcm_cfg.par.seg_bytes, &seg) ||
        env_size("MC_MPI_ML_MIN", (long long)mcm_cfg.par.ml_min_bytes, &ml) ||
        env_size("MC_MPI_NB", mcm_cfg.par.nonblocking, &nb) ||
        env_size("MC_MPI_HIER_AFTER", MCM_HIER_AFTER, &after))
        return;
    const char *bad = NULL;
    if (mcm_pick_config(getenv("MC_MPI_HIER_PICK"),
                        getenv("MC_MPI_HIER_PICK_SKEW"), &bad)) {
        bad_env(bad, getenv(bad));
        return;
    }
    if (seg < 64)
        seg = 64;
    mcm_cfg.on = on != 0;
    mcm_cfg.verbose = (int)verbose;
    mcm_cfg.node_size = (int)k;
    mcm_cfg.hier = hier != 0;
    mcm_cfg.eager = eager != 0;
    mcm_cfg.hier_after = after > INT_MAX ? INT_MAX : (int)after;
    /* the ranks compare it with the pick's settings (topo.c) */
    mcm_cfg.pick_sig = (int)(((unsigned)mcm_cfg.pick_sig * 31u +
                              (unsigned)mcm_cfg.hier_after) & 0x3fffffffu);
    mcm_cfg.par.seg_bytes = (size_t)seg;
    mcm_cfg.par.ml_min_bytes = (size_t)ml;
    mcm_cfg.par.nonblocking = nb != 0;
}

/* This library's MPI family, as compiled; the program's, from the
 * version string (whose call has the same signature in every ABI, so it
 * is safe to make before knowing which ABI the program has) */
#if defined(OPEN_MPI) && OPEN_MPI
#define MY_FAMILY "Open MPI"
#define MY_LIB "libmanycoll_mpi_openmpi.so"
#else
#define MY_FAMILY "MPICH"
#define MY_LIB "libmanycoll_mpi_mpich.so"
#endif

static int runs_open_mpi(const char *version)
{
    return strstr(version, "Open MPI") != NULL;
}

/* 1 if the program's MPI is of this library's family. Otherwise one line
 * (from the first rank, where the launcher says which that is) names the
 * variant to use, and the caller turns the interposition off: every call
 * then goes to the MPI with its arguments untouched, whose handles this
 * library could not read. */
static int right_family(void)
{
    /* the other family's MPI_MAX_LIBRARY_VERSION_STRING may be larger
     * than ours (MPICH's is 8192, Open MPI's 256): room for any */
    static char v[16384];
    int n = 0;
    if (PMPI_Get_library_version(v, &n) != MPI_SUCCESS)
        return 1;
    int mine = !strcmp(MY_FAMILY, "Open MPI");
    if (runs_open_mpi(v) == mine)
        return 1;
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!rank)
        rank = getenv("PMI_RANK");
    if (!rank)
        rank = getenv("PMIX_RANK");
    v[strcspn(v, ",\n")] = 0; /* "Open MPI v4.1.4", "MPICH Version: 4.0.2" */
    for (char *t = v; *t; t++)
        if (*t == '\t')
            *t = ' ';
    if (!rank || !strcmp(rank, "0"))
        fprintf(stderr, "manycoll_mpi: this is %s, for %s, but the program "
                        "runs %s: preload %s instead (`manycoll info` "
                        "prints the line); until then every MPI call goes "
                        "to the MPI untouched\n",
                MY_LIB, MY_FAMILY, v,
                mine ? "libmanycoll_mpi_mpich.so"
                     : "libmanycoll_mpi_openmpi.so");
    return 0;
}

#ifdef MCM_STUBS
/* The exported MPI_X of this variant are stubs that jump through a slot
 * (src/mpi/stubs.cmake): the slot holds this library's MPI_X, renamed
 * mcm_impl_MPI_X, unless handles_fit points it at the MPI's own. */
extern void *mcm_stub_slots[];
extern void *const mcm_stub_miss[];
extern const char *const mcm_stub_names[];
extern const int mcm_stub_count;
void mcm_stub_missing(const char *name);

/* where a slot goes when the program's MPI has no such function (Open
 * MPI 4.1 has no MPI_Allreduce_init): only a program built against
 * another MPI than the one it runs calls it */
__attribute__((used, visibility("hidden"), noreturn)) void
mcm_stub_missing(const char *name)
{
    fprintf(stderr, "manycoll_mpi: the program called %s, which its MPI "
                    "does not have; stopping\n", name);
    abort();
}

/* the stubs' slots point at the MPI's own functions, all of them */
static void pass_through(void)
{
    for (int i = 0; i < mcm_stub_count; i++) {
        void *f = dlsym(RTLD_NEXT, mcm_stub_names[i]);
        mcm_stub_slots[i] = f ? f : mcm_stub_miss[i];
    }
}
#define PASS_NOTE "until then every MPI call goes to the MPI untouched"
#else
#define PASS_NOTE "stopping"
#endif

/* A variant whose handles are ints (MPICH's ABI) preloaded into a
 * program of Open MPI, whose handles are pointers: every wrapper would
 * cut the program's handles to 32 bits and could not even pass them on
 * to the MPI. Found when the library is loaded (Open MPI's world
 * communicator is a symbol of the process) and said in one line by the
 * first rank. Where the exported functions are stubs (x86-64, aarch64),
 * they are pointed at the MPI's own, before main: no code of this
 * library runs in an MPI call after that (MPI_Init's wrapper included,
 * so nothing is set up, hooked or released at exit), and the program
 * runs as without it. Elsewhere the process stops with status 1. (The
 * other way round, right_family turns the interposition off: pointers
 * carry ints whole.) */
__attribute__((constructor)) static void handles_fit(void)
{
    if (sizeof(MPI_Comm) >= sizeof(void *) ||
        !dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world"))
        return;
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!rank || !strcmp(rank, "0"))
        fprintf(stderr, "manycoll_mpi: this is %s, for %s, but the program "
                        "runs Open MPI, whose handles this library cannot "
                        "take: preload libmanycoll_mpi_openmpi.so instead "
                        "(`manycoll info` prints the line); " PASS_NOTE
                        "\n",
                MY_LIB, MY_FAMILY);
#ifdef MCM_STUBS
    mcm_cfg.on = 0;
    pass_through();
#else
    _exit(1);
#endif
}

void mcm_lazy_init(void)
{
    int up = 0, down = 0;
    pthread_mutex_lock(&init_lock);
    if (!mcm_inited && PMPI_Initialized(&up) == MPI_SUCCESS && up &&
        PMPI_Finalized(&down) == MPI_SUCCESS && !down) {
        read_config();
        if (mcm_cfg.on && !right_family())
            mcm_cfg.on = 0;
        if (mcm_cfg.on) {
            setenv("MC_TIMEOUT", "3600", 0);
            mcm_types_init();
            int cls;
            if (mcm_comm_init() != MPI_SUCCESS)
                mcm_cfg.on = 0;
            else if (PMPI_Add_error_class(&cls) == MPI_SUCCESS)
                PMPI_Add_error_code(cls, &mcm_errcode);
            /* MPI's progress rule: a rank waiting in manycoll on behalf
             * of an MPI call lets the MPI library progress */
            if (mcm_cfg.on)
                mcm_mpi_progress_begin();
        }
        mcm_inited = 1;
    }
    pthread_mutex_unlock(&init_lock);
}

/* MC_MPI_TRACE: the recording starts (or says in one line why not) */
static void trace_start(void)
{
#if MCM_HAVE_OTF2
    mcm_trace_init();
#else
    const char *dir = getenv("MC_MPI_TRACE");
    int me = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (dir && *dir && me == 0)
        fprintf(stderr, "manycoll_mpi: MC_MPI_TRACE='%s': this %s was "
                        "built without OTF2 (libotf2: apt-get install "
                        "libopen-trace-format2-dev, then rebuild); not "
                        "recording\n",
                dir, MY_LIB);
#endif
}

static int started(int rc)
{
    if (rc == MPI_SUCCESS) {
        mcm_lazy_init();
        if (mcm_cfg.on)
            mcm_topo_world();
        if (mcm_cfg.on)
            trace_start();
        if (mcm_cfg.on && mcm_cfg.eager)
            mcm_comm(MPI_COMM_WORLD);
    }
    return rc;
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    return started(rc);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    return started(rc);
}

int MPI_Finalize(void)
{
#if MCM_HAVE_OTF2
    mcm_trace_finalize();
#endif
    if (mcm_inited && mcm_cfg.on)
        mcm_release_all();
    mcm_park_drain();
    mcm_scratch_drain();
    mcm_topo_world_free();
    mcm_mpi_progress_end();
    for (size_t i = 0; i < sizeof mcm_cache / sizeof *mcm_cache; i++)
        atomic_store(&mcm_cache[i], NULL);
    return PMPI_Finalize();
}
