/*
 * Data movement with any datatype. MPI only requires the type signatures
 * of the two sides of a bcast, gather, scatter, allgather or alltoall to
 * match: the root may describe its buffer with a vector type while the
 * others use MPI_INT. So whether manycoll takes such a call must not
 * depend on the datatype (a rank that went to PMPI alone would hang the
 * others). It never does: every rank moves count * size bytes through
 * manycoll, and a rank whose datatype is not one contiguous run of bytes
 * packs its input (MPI_Pack) into scratch before and unpacks its output
 * (MPI_Unpack) after. Contiguous layouts, predefined types among them,
 * are used where they are.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#include "mpi/mcmpi.h"

long long mcm_type_size(MPI_Datatype dt)
{
    const mcm_type_t *t = mcm_type(dt);
    if (t)
        return t->size;
    MPI_Count size;
    if (PMPI_Type_size_x(dt, &size) != MPI_SUCCESS || size < 0)
        return -1;
    return (long long)size;
}

MPI_Aint mcm_contiguous_at(MPI_Datatype dt, int count, long long size)
{
    if (mcm_type(dt))
        return 0;
    MPI_Aint lb, extent, tlb, textent;
    if (PMPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(dt, &tlb, &textent) != MPI_SUCCESS)
        return -1;
    if (textent != size || (count > 1 && extent != size))
        return -1;
    return tlb;
}

/* The scratch of freed communicators, one per slot, for the next that
 * needs one: a program that makes and frees many communicators would
 * otherwise map, fault in and unmap megabytes for each (an munmap waits
 * for every CPU the process ran on). */
static void *spare[2];
static size_t spare_len[2];
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;

void mcm_scratch_release(mcm_comm_t *s)
{
    pthread_mutex_lock(&spare_lock);
    for (int i = 0; i < 2; i++) {
        if (s->scratch_len[i] > spare_len[i]) {
            void *p = spare[i];
            spare[i] = s->scratch[i];
            spare_len[i] = s->scratch_len[i];
            s->scratch[i] = p;
        }
        free(s->scratch[i]);
        s->scratch[i] = NULL;
        s->scratch_len[i] = 0;
    }
    pthread_mutex_unlock(&spare_lock);
}

void mcm_scratch_drain(void)
{
    pthread_mutex_lock(&spare_lock);
    for (int i = 0; i < 2; i++) {
        free(spare[i]);
        spare[i] = NULL;
        spare_len[i] = 0;
    }
    pthread_mutex_unlock(&spare_lock);
}

/* the spare of slot if it holds n bytes: into s */
static void take_spare(mcm_comm_t *s, size_t n, int slot)
{
    pthread_mutex_lock(&spare_lock);
    if (spare_len[slot] >= n) {
        free(s->scratch[slot]);
        s->scratch[slot] = spare[slot];
        s->scratch_len[slot] = spare_len[slot];
        spare[slot] = NULL;
        spare_len[slot] = 0;
    }
    pthread_mutex_unlock(&spare_lock);
}

/* one buffer per slot, so staging the second never moves the first;
 * slot -1: a buffer of the caller's own (a non-blocking call's), freed
 * by mcm_buf_free */
static int scratch(mcm_comm_t *s, size_t n, int slot, char **out)
{
    if (slot < 0)
        return (*out = malloc(n ? n : 1)) ? 0 : -1;
    if (n > s->scratch_len[slot])
        take_spare(s, n, slot);
    if (n > s->scratch_len[slot]) {
        void *p = malloc(n);
        if (!p)
            return -1;
        free(s->scratch[slot]);
        s->scratch[slot] = p;
        s->scratch_len[slot] = n;
    }
    *out = s->scratch[slot];
    return 0;
}

void *mcm_scratch(mcm_comm_t *s, size_t n, int slot)
{
    char *p;
    return scratch(s, n, slot, &p) ? NULL : p;
}

int mcm_stage(mcm_comm_t *s, mcm_buf_t *b, void *buf, int count,
              MPI_Datatype dt, int input, int slot)
{
    long long size = mcm_type_size(dt);
    *b = (mcm_buf_t){.user = buf, .count = count, .dt = dt};
    if (size < 0 || count < 0)
        return MPI_ERR_TYPE;
    b->bytes = (size_t)count * (size_t)size;
    MPI_Aint at = mcm_contiguous_at(dt, count, size);
    if (at >= 0 || b->bytes == 0) {
        b->p = (char *)buf + (at > 0 ? at : 0);
        return MPI_SUCCESS;
    }
    if (b->bytes > INT_MAX)
        return MPI_ERR_COUNT; /* MPI_Pack takes an int size */
    if (scratch(s, b->bytes, slot, &b->p))
        return MPI_ERR_NO_MEM;
    b->packed = 1;
    b->owned = slot < 0;
    /* a request's: the program may free its datatype before the call
     * completes (MPI keeps it alive; so do we, with a duplicate) */
    if (b->owned && PMPI_Type_dup(dt, &b->dt) != MPI_SUCCESS) {
        free(b->p);
        *b = (mcm_buf_t){0};
        return MPI_ERR_TYPE;
    }
    return input ? mcm_repack(s, b) : MPI_SUCCESS;
}

int mcm_repack(mcm_comm_t *s, mcm_buf_t *b)
{
    int pos = 0;
    if (!b->packed)
        return MPI_SUCCESS;
    int rc = PMPI_Pack(b->user, b->count, b->dt, b->p, (int)b->bytes, &pos,
                       s->comm);
    if (rc == MPI_SUCCESS && (size_t)pos != b->bytes)
        rc = MPI_ERR_INTERN; /* packed form is not the plain bytes */
    return rc;
}

void mcm_buf_free(mcm_buf_t *b)
{
    if (b->owned) {
        free(b->p);
        PMPI_Type_free(&b->dt);
    }
    b->owned = b->packed = 0;
    b->p = NULL;
}

int mcm_unstage(mcm_comm_t *s, mcm_buf_t *b)
{
    if (!b->packed)
        return MPI_SUCCESS;
    int pos = 0;
    return PMPI_Unpack(b->p, (int)b->bytes, &pos, b->user, b->count, b->dt,
                       s->comm);
}
