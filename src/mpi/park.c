/*
 * Parked node communicators: a program that makes and frees many
 * communicators over the same ranks (a test suite, a solver that splits
 * per phase) would otherwise create, join, unlink and unmap a shared
 * memory segment for every one. When an MPI communicator is freed, its
 * node's manycoll communicator is parked here instead of freed, under its
 * name (job.n<node>) and this rank's place in it; the next communicator
 * whose ranks on this node are the same processes in the same order takes
 * it back (comm.c, make_node):
 *
 *   every rank    takes its newest parked communicator of this node
 *                 (name job.n<node>) in which it has its new place (its
 *                 local index and node size) and whose processes are
 *                 those of its node now (a hash of their world ranks in
 *                 order, where the topology knows them: topo.c), if it
 *                 has one
 *   PMPI_Allreduce(MAX) of the names' hashes and their complements, in
 *                 a slot per node: the ranks of a node took the same
 *                 one: reused (one collective in all where every node
 *                 did); the ranks of a node that did not park theirs
 *                 again and make one, with a new job name from rank 0
 *                 (PMPI_Bcast) as before
 *
 * Names are random per creation, so a name and a place name one segment,
 * whose ranks are then exactly the processes that parked it in those
 * places: every manycoll call of the old communicator is done on each of
 * them (they freed it), and the segment goes on as one communicator's
 * would from one collective to the next. A rank that has not freed the
 * old communicator yet, evicted it, or has a non-blocking call in flight
 * (nothing is parked then) just answers no: a new segment is made, as
 * before. At most MCM_PARK_MAX are parked per process, the oldest freed
 * first; all at MPI_Finalize.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mpi/mcmpi.h"

#define MCM_PARK_MAX 8

typedef struct parked {
    char name[MCM_NODE_NAME_MAX];
    mcm_place_t at;
    unsigned long age;      /* 0: empty slot */
    mc_comm_t *c;
    mcm_slice_t slice;      /* of the communicator c served */
} parked_t;

static parked_t park[MCM_PARK_MAX];
static unsigned long clock_;
static long made, reused, slices_reused;

static void slice_free(mcm_slice_t *sl)
{
    if (sl->kept && sl->comm != MPI_COMM_NULL)
        PMPI_Comm_free(&sl->comm);
    *sl = (mcm_slice_t){MPI_COMM_NULL, 0};
}
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void mcm_park(const char *name, const mcm_place_t *at, mc_comm_t *c,
              mcm_slice_t slice)
{
    mc_comm_t *evict = NULL;
    mcm_slice_t evict_slice = {MPI_COMM_NULL, 0};
    pthread_mutex_lock(&lock);
    parked_t *p = &park[0];
    for (int i = 1; i < MCM_PARK_MAX && p->age; i++)
        if (!park[i].age || park[i].age < p->age)
            p = &park[i];
    if (p->age) {
        evict = p->c;
        evict_slice = p->slice;
    }
    snprintf(p->name, sizeof p->name, "%s", name);
    p->at = *at;
    p->c = c;
    p->slice = slice;
    p->age = ++clock_;
    pthread_mutex_unlock(&lock);
    if (evict)
        mc_comm_free(evict);
    slice_free(&evict_slice);
}

/* the newest parked entry at place `at` (of the same processes where
 * both know them) that was node at->nodeid's of its job (its name ends
 * in suffix), or NULL; under the lock */
static parked_t *find(const mcm_place_t *at, const char *suffix)
{
    parked_t *best = NULL;
    size_t k = strlen(suffix);
    for (int i = 0; i < MCM_PARK_MAX; i++) {
        parked_t *p = &park[i];
        size_t l = strlen(p->name);
        if (p->age && p->at.local == at->local && p->at.n == at->n &&
            (!p->at.sig || !at->sig || p->at.sig == at->sig) && l > k &&
            !strcmp(p->name + l - k, suffix) &&
            (!best || p->age > best->age))
            best = p;
    }
    return best;
}

mc_comm_t *mcm_unpark(const mcm_place_t *at, char *job, size_t len,
                      mcm_slice_t *slice)
{
    char suffix[24];
    mc_comm_t *c = NULL;
    mcm_slice_t old = {MPI_COMM_NULL, 0};
    *slice = old;
    snprintf(suffix, sizeof suffix, ".n%d", at->nodeid);
    pthread_mutex_lock(&lock);
    parked_t *p = find(at, suffix);
    size_t l = p ? strlen(p->name) : 0, k = strlen(suffix);
    if (p && l - k < len) {
        memcpy(job, p->name, l - k);
        job[l - k] = 0;
        c = p->c;
        if (at->comm_sig && p->at.comm_sig == at->comm_sig)
            *slice = p->slice;
        else
            old = p->slice;
        *p = (parked_t){0};
    }
    pthread_mutex_unlock(&lock);
    slice_free(&old);
    return c;
}

void mcm_park_count(int was_reused)
{
    pthread_mutex_lock(&lock);
    if (was_reused)
        reused++;
    else
        made++;
    pthread_mutex_unlock(&lock);
}

void mcm_park_count_slices(void)
{
    pthread_mutex_lock(&lock);
    slices_reused++;
    pthread_mutex_unlock(&lock);
}

void mcm_park_drain(void)
{
    for (;;) {
        pthread_mutex_lock(&lock);
        mc_comm_t *c = NULL;
        mcm_slice_t sl = {MPI_COMM_NULL, 0};
        for (int i = 0; i < MCM_PARK_MAX && !c; i++)
            if (park[i].age) {
                c = park[i].c;
                sl = park[i].slice;
                park[i] = (parked_t){0};
            }
        pthread_mutex_unlock(&lock);
        if (!c)
            return;
        mc_comm_free(c);
        slice_free(&sl);
    }
}

/* for tests and tools (found with dlsym, so declared here only): this
 * process's node communicators made and reused (taken from the parked
 * ones), and the communicators whose topology came from the world's table
 * without communicating (topo.c); mc_mpi_slice_counts: the slices reused
 * with them */
MCM_API long mc_mpi_slice_counts(void);
MCM_API long mc_mpi_slice_counts(void)
{
    pthread_mutex_lock(&lock);
    long n = slices_reused;
    pthread_mutex_unlock(&lock);
    return n;
}

MCM_API int mc_mpi_setup_counts(long *node_made, long *node_reused,
                                long *topo_local);
MCM_API int mc_mpi_setup_counts(long *node_made, long *node_reused,
                                long *topo_local)
{
    if (!node_made || !node_reused || !topo_local)
        return -1;
    pthread_mutex_lock(&lock);
    *node_made = made;
    *node_reused = reused;
    pthread_mutex_unlock(&lock);
    *topo_local = mcm_topo_from_world();
    return 0;
}
