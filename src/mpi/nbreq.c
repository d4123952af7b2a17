/*
 * The records of the non-blocking and persistent MPI collectives that
 * manycoll runs (coll_nb.c), and their completion.
 *
 *   MPI_Iallreduce(..., &h)
 *     mc_iallreduce(node, ..., &x->r)      the call starts (a coroutine)
 *     PMPI_Grequest_start(..., &x->h)      a real MPI handle for it
 *     h = x->h, the record in a table keyed by the handle's bits
 *   MPI_Wait(&h) / MPI_Test / ...         (complete.c)
 *     the record: mc_test / mc_wait, unpack a staged output, then
 *     PMPI_Grequest_complete + PMPI_Wait  (MPI frees the handle)
 *     not ours: PMPI, polling ours meanwhile while any is active
 *
 * A persistent record keeps its generalized request, never completed,
 * until MPI_Request_free. The table is small and chained through the
 * records themselves; lookups of handles that are not ours cost one probe
 * of an empty bucket (the slot: mcm_slot, the project's one hash). It is
 * not the map of util/map.h on purpose: adding a record must not fail,
 * since the call has started and a handle whose record is missing would
 * go to PMPI_Wait and never complete; an intrusive chain allocates
 * nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi/mcmpi.h"

#define NB_BITS 6
static mcm_nb_t *table[1 << NB_BITS];
int mcm_nb_live;

static int query_fn(void *extra, MPI_Status *st)
{
    (void)extra;
    PMPI_Status_set_elements(st, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS; /* a collective cannot be cancelled */
}

mcm_nb_t *mcm_nb_new(mcm_comm_t *s, const char *fn, int persistent)
{
    mcm_nb_t *x = calloc(1, sizeof *x);
    if (x) {
        x->s = s;
        x->fn = fn;
        x->persistent = persistent;
        x->vin_pack = x->vout_pack = MCM_V_OUT;
    }
    return x;
}

int mcm_nb_take(mcm_comm_t *s, mc_coll_t coll, const char *fn, int pers,
                const mcm_call_t *a, mcm_plan_t *p, mcm_nb_t **x)
{
    *x = NULL;
    if (mcm_plan(s, coll, pers ? MCM_PERSISTENT : MCM_NONBLOCKING, a, p) ==
        MCM_PMPI)
        return MCM_NOT_TAKEN;
    *x = mcm_nb_new(s, fn, pers);
    return *x ? MPI_SUCCESS
              : mcm_fail(s, fn, MC_ERR_NOMEM, "no memory for a request");
}

void mcm_nb_drop(mcm_nb_t *x)
{
    mcm_buf_free(&x->in);
    mcm_buf_free(&x->out);
    for (int i = 0; i < 2; i++) {
        mcm_vbuf_t *v = i ? &x->vout : &x->vin;
        if (v->packed) {
            free(v->p);
            PMPI_Type_free(&v->dt);
        }
    }
    free(x->v);
    free(x);
}

static void insert(mcm_nb_t *x)
{
    x->key = mcm_key(&x->h, sizeof x->h);
    unsigned b = mcm_slot(x->key, NB_BITS);
    x->next = table[b];
    table[b] = x;
}

static void unlink_nb(mcm_nb_t *x)
{
    mcm_nb_t **p = &table[mcm_slot(x->key, NB_BITS)];
    while (*p && *p != x)
        p = &(*p)->next;
    if (*p)
        *p = x->next;
}

mcm_nb_t *mcm_nb_find(MPI_Request h)
{
    uintptr_t k = mcm_key(&h, sizeof h);
    for (mcm_nb_t *x = table[mcm_slot(k, NB_BITS)]; x; x = x->next)
        if (x->key == k)
            return x;
    return NULL;
}

int mcm_nb_started(mcm_nb_t *x, int rc, MPI_Request *req)
{
    if (rc != MC_OK) {
        mcm_comm_t *s = x->s;
        const char *fn = x->fn;
        mcm_nb_drop(x);
        return mcm_fail(s, fn, rc, NULL);
    }
    if (PMPI_Grequest_start(query_fn, free_fn, cancel_fn, x, &x->h) !=
        MPI_SUCCESS) {
        /* the call runs; without a handle the program cannot wait for
         * it, so finish it here */
        (void)mc_wait(x->r);
        if (x->persistent)
            mc_request_free(&x->r);
        mcm_nb_drop(x);
        return MPI_ERR_INTERN;
    }
    x->active = !x->persistent;
    mcm_nb_live += x->active;
    insert(x);
    *req = x->h;
    return MPI_SUCCESS;
}

static void empty_status(MPI_Status *st)
{
    if (st != MPI_STATUS_IGNORE)
        query_fn(NULL, st);
}

/* the end of an active record's call: output unpacked, the record
 * inactive (persistent) or gone with its handle */
static int finish(mcm_nb_t *x, MPI_Request *hp, MPI_Status *st)
{
    int rc = x->err ? mcm_fail(x->s, x->fn, x->err, x->msg) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS &&
        ((x->out.packed && mcm_unstage(x->s, &x->out) != MPI_SUCCESS) ||
         (x->vout.packed && mcm_vunstage(x->s, &x->vout) != MPI_SUCCESS)))
        rc = mcm_fail(x->s, x->fn, MC_ERR_ARG,
                      "a datatype could not be unpacked");
    x->active = x->done = x->err = 0;
    mcm_nb_live--;
    if (x->persistent) {
        empty_status(st);
        return rc;
    }
    unlink_nb(x);
    PMPI_Grequest_complete(x->h);
    PMPI_Wait(hp, st); /* frees the handle: *hp = MPI_REQUEST_NULL */
    mcm_nb_drop(x);
    return rc;
}

/* one mc_test of an active record not known to be done */
static void poll1(mcm_nb_t *x)
{
    int done = 0;
    int rc = mc_test(x->r, &done);
    if (rc != MC_OK) {
        x->err = rc;
        x->done = 1;
        snprintf(x->msg, sizeof x->msg, "%s", mc_last_error());
        if (!x->persistent)
            x->r = NULL; /* mc_test freed it with its error */
    } else if (done) {
        x->done = 1;
        if (!x->persistent)
            x->r = NULL;
    }
}

int mcm_nb_poll(mcm_nb_t *x)
{
    if (x->active && !x->done)
        poll1(x);
    return !x->active || x->done;
}

int mcm_nb_wait(mcm_nb_t *x, MPI_Request *hp, MPI_Status *st)
{
    if (!x->active) {
        empty_status(st);
        return MPI_SUCCESS;
    }
    /* not mc_wait, which would wait inside manycoll: a peer may first need
     * this rank's MPI progress (a message, or a collective MPI runs, that
     * it waits for before it starts the call this rank waits for) */
    while (!x->done) {
        poll1(x); /* progresses manycoll's other calls too */
        if (!x->done)
            mcm_mpi_progress();
    }
    return finish(x, hp, st);
}

int mcm_nb_test(mcm_nb_t *x, MPI_Request *hp, int *flag, MPI_Status *st)
{
    *flag = 1;
    if (!x->active) {
        empty_status(st); /* an inactive persistent request */
        return MPI_SUCCESS;
    }
    if (!x->done)
        poll1(x);
    if (!x->done) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    return finish(x, hp, st);
}

/* A request of ours that never completes (until MPI_Finalize): testing
 * it turns MPI's progress engine once, in every MPI (MPI_Test of a
 * request not complete progresses). A probe of MPI_COMM_SELF, used
 * before, progresses nothing in MPICH 4 and 5: ch4 answers it from the
 * self communicator alone, and MPICH's coll/nonblocking3 hung at 4 ranks.
 * Waits inside manycoll call it too (mc_set_progress), in any thread
 * that waits in a blocking collective: one thread at a time tests the
 * request (testing one request in two threads at once is erroneous), and
 * a thread that finds another testing goes on waiting, as that other
 * thread's test progresses the MPI for both. */
static MPI_Request spin = MPI_REQUEST_NULL;
static atomic_flag spin_busy = ATOMIC_FLAG_INIT;

void mcm_mpi_progress(void)
{
    int flag = 0;
    /* acquire: the previous tester's writes to `spin` are seen */
    if (atomic_flag_test_and_set_explicit(&spin_busy, memory_order_acquire))
        return;
    if (spin == MPI_REQUEST_NULL &&
        PMPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &spin) !=
            MPI_SUCCESS) {
        spin = MPI_REQUEST_NULL;
        PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &flag,
                    MPI_STATUS_IGNORE);
    } else {
        PMPI_Test(&spin, &flag, MPI_STATUS_IGNORE);
    }
    /* release: this test's writes to `spin` before the next tester's */
    atomic_flag_clear_explicit(&spin_busy, memory_order_release);
}

/* mc_set_progress's form of it: manycoll's waits call it */
static void progress_hook(void *arg)
{
    (void)arg;
    mcm_mpi_progress();
}

void mcm_mpi_progress_begin(void)
{
    mc_set_progress(progress_hook, NULL);
}

void mcm_mpi_progress_end(void)
{
    mc_set_progress(NULL, NULL);
    if (spin == MPI_REQUEST_NULL)
        return;
    PMPI_Grequest_complete(spin);
    PMPI_Wait(&spin, MPI_STATUS_IGNORE);
}

void mcm_nb_progress(void)
{
    mcm_mpi_progress();
    for (int b = 0; b < (1 << NB_BITS) && mcm_nb_live; b++)
        for (mcm_nb_t *x = table[b]; x; x = x->next)
            if (x->active && !x->done)
                poll1(x);
}

int mcm_nb_start(mcm_nb_t *x)
{
    if (x->active)
        return mcm_fail(x->s, "MPI_Start", MC_ERR_ARG,
                        "the persistent request is active (started and "
                        "not completed)");
    int rc = mcm_repack(x->s, &x->in);
    if (rc == MPI_SUCCESS && x->out_in)
        rc = mcm_repack(x->s, &x->out);
    if (rc == MPI_SUCCESS)
        rc = mcm_vpack(x->s, &x->vin, x->vin_pack);
    if (rc == MPI_SUCCESS)
        rc = mcm_vpack(x->s, &x->vout, x->vout_pack);
    if (rc != MPI_SUCCESS)
        return mcm_fail(x->s, "MPI_Start", MC_ERR_ARG,
                        "a datatype could not be packed");
    rc = mc_start(x->r);
    if (rc != MC_OK)
        return mcm_fail(x->s, "MPI_Start", rc, NULL);
    x->active = 1;
    mcm_nb_live++;
    return MPI_SUCCESS;
}

int mcm_nb_free(mcm_nb_t *x, MPI_Request *hp)
{
    if (!x->persistent || x->active)
        return mcm_fail(x->s, "MPI_Request_free", MC_ERR_ARG,
                        x->persistent
                            ? "the persistent request is active"
                            : "the request of a non-blocking collective "
                              "cannot be freed (MPI: erroneous); wait for it");
    mc_request_free(&x->r);
    unlink_nb(x);
    PMPI_Grequest_complete(x->h);
    int rc = PMPI_Request_free(hp);
    mcm_nb_drop(x);
    return rc;
}
