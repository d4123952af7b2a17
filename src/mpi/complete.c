/*
 * MPI_Wait, MPI_Test and their all/any/some forms, MPI_Start(all) and
 * MPI_Request_free, for arrays that mix manycoll's requests (nbreq.c)
 * with the MPI library's. With none of ours in the call and none active
 * anywhere, each goes straight to its PMPI twin (one table probe per
 * request). Otherwise the MPI library sees a copy of the array in which
 * ours are MPI_REQUEST_NULL, so that its own rules for null and inactive
 * requests, statuses and MPI_UNDEFINED hold for its requests, while ours
 * are tested by manycoll; the waits poll both (sched_yield between
 * rounds), so that manycoll's active calls progress while the program
 * waits for any request. The status of a collective is empty.
 */
#include <sched.h>
#include <stdlib.h>

#include "mpi/mcmpi.h"

#define SMALL 32

/* the array as MPI sees it: ours replaced by MPI_REQUEST_NULL */
typedef struct view {
    int n, ours;
    MPI_Request *tmp;
    mcm_nb_t **xs;
    MPI_Request small[SMALL];
    mcm_nb_t *xsmall[SMALL];
} view_t;

/* 1 if reqs holds a request of ours (then v is open), else 0; -1 if no
 * memory */
static int view_open(view_t *v, int n, const MPI_Request *reqs)
{
    v->n = n;
    v->ours = 0;
    for (int i = 0; i < n && !v->ours; i++)
        v->ours = mcm_nb_find(reqs[i]) != NULL;
    if (!v->ours && !mcm_nb_live)
        return 0;
    v->tmp = n <= SMALL ? v->small : malloc((size_t)n * sizeof *v->tmp);
    v->xs = n <= SMALL ? v->xsmall : malloc((size_t)n * sizeof *v->xs);
    if (!v->tmp || !v->xs) {
        if (n > SMALL) {
            free(v->tmp);
            free(v->xs);
        }
        return -1;
    }
    for (int i = 0; i < n; i++) {
        v->xs[i] = mcm_nb_find(reqs[i]);
        v->tmp[i] = v->xs[i] ? MPI_REQUEST_NULL : reqs[i];
    }
    return 1;
}

/* MPI's requests back into the program's array (MPI may have freed
 * them); ours were updated in place */
static void view_close(view_t *v, MPI_Request *reqs)
{
    for (int i = 0; i < v->n; i++)
        if (!v->xs[i])
            reqs[i] = v->tmp[i];
    if (v->n > SMALL) {
        free(v->tmp);
        free(v->xs);
    }
}

static MPI_Status *at(MPI_Status *sts, int i)
{
    return sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i];
}

int mcm_wait_req(MPI_Request *req, MPI_Status *st)
{
    mcm_nb_t *x = req ? mcm_nb_find(*req) : NULL;
    if (x)
        return mcm_nb_wait(x, req, st);
    if (!mcm_nb_live || !req)
        return PMPI_Wait(req, st);
    for (;;) {
        int flag = 0, rc = PMPI_Test(req, &flag, st);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        mcm_nb_progress();
        sched_yield();
    }
}

int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
    MCM_TRACE_CALL(mcm_tr_done(MCM_TW_WAIT, 1, req, NULL, NULL, NULL, st));
    return mcm_wait_req(req, st);
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
    MCM_TRACE_CALL(mcm_tr_done(MCM_TW_TEST, 1, req, flag, NULL, NULL, st));
    mcm_nb_t *x = req ? mcm_nb_find(*req) : NULL;
    if (x && flag)
        return mcm_nb_test(x, req, flag, st);
    mcm_nb_progress();
    return PMPI_Test(req, flag, st);
}

/* every active one of ours tested once (finished when done); the number
 * still running; the first error in *rc */
static int test_ours(view_t *v, MPI_Request *reqs, MPI_Status *sts, int *rc)
{
    int running = 0;
    for (int i = 0; i < v->n; i++) {
        int f = 1, e;
        if (v->xs[i] && v->xs[i]->active &&
            (e = mcm_nb_test(v->xs[i], &reqs[i], &f, at(sts, i))) !=
                MPI_SUCCESS &&
            *rc == MPI_SUCCESS)
            *rc = e;
        if (v->xs[i] && !f)
            running++;
        if (v->xs[i] && f && reqs[i] == MPI_REQUEST_NULL)
            v->xs[i] = NULL; /* finished and freed: now MPI's null */
    }
    return running;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
    MCM_TRACE_CALL(
        mcm_tr_done(MCM_TW_WAITALL, n, reqs, NULL, NULL, NULL, sts));
    view_t v;
    int o = n > 0 && reqs ? view_open(&v, n, reqs) : 0;
    if (o <= 0)
        return o < 0 ? MPI_ERR_NO_MEM : PMPI_Waitall(n, reqs, sts);
    int rc = MPI_SUCCESS, mpi_done = 0;
    for (;;) {
        int running = test_ours(&v, reqs, sts, &rc);
        if (!mpi_done) {
            int e = PMPI_Testall(n, v.tmp, &mpi_done, sts);
            if (e != MPI_SUCCESS) {
                rc = rc == MPI_SUCCESS ? e : rc;
                mpi_done = 1;
            }
        }
        if (!running && mpi_done)
            break;
        mcm_nb_progress();
        sched_yield();
    }
    view_close(&v, reqs);
    return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
    MCM_TRACE_CALL(
        mcm_tr_done(MCM_TW_TESTALL, n, reqs, flag, NULL, NULL, sts));
    view_t v;
    int o = n > 0 && reqs && flag ? view_open(&v, n, reqs) : 0;
    if (o <= 0)
        return o < 0 ? MPI_ERR_NO_MEM : PMPI_Testall(n, reqs, flag, sts);
    /* all or nothing: MPI's are tested only once ours are all done */
    int all = 1, rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++)
        if (v.xs[i] && !mcm_nb_poll(v.xs[i]))
            all = 0;
    *flag = 0;
    if (all && (rc = PMPI_Testall(n, v.tmp, flag, sts)) == MPI_SUCCESS &&
        *flag)
        test_ours(&v, reqs, sts, &rc);
    view_close(&v, reqs);
    return rc;
}

/* one round of any: ours first, then MPI's; 1 if one completed (or none
 * is active: *idx = MPI_UNDEFINED) */
static int any_round(view_t *v, MPI_Request *reqs, int *idx,
                     MPI_Status *st, int *rc)
{
    int active = 0;
    for (int i = 0; i < v->n; i++) {
        mcm_nb_t *x = v->xs[i];
        if (!x || !x->active)
            continue;
        active = 1;
        int f = 0;
        *rc = mcm_nb_test(x, &reqs[i], &f, st);
        if (f) {
            *idx = i;
            return 1;
        }
    }
    int f = 0;
    *rc = PMPI_Testany(v->n, v->tmp, idx, &f, st);
    if (*rc != MPI_SUCCESS || (f && *idx != MPI_UNDEFINED))
        return 1;
    if (f && !active)
        return 1; /* nothing active at all: MPI_UNDEFINED, empty status */
    return 0;
}

static int any(int n, MPI_Request reqs[], int *idx, int *flag,
               MPI_Status *st, int wait)
{
    view_t v;
    int o = view_open(&v, n, reqs), rc = MPI_SUCCESS, done;
    if (o < 0)
        return MPI_ERR_NO_MEM;
    while (!(done = any_round(&v, reqs, idx, st, &rc)) && wait) {
        mcm_nb_progress();
        sched_yield();
    }
    if (flag)
        *flag = done;
    view_close(&v, reqs);
    return rc;
}

/* 1 if the call must look at ours: one of them is in reqs, or one is
 * active somewhere (then MPI's waits must let it progress) */
static int has_ours(int n, const MPI_Request *reqs)
{
    if (mcm_nb_live)
        return 1;
    for (int i = 0; i < n; i++)
        if (mcm_nb_find(reqs[i]))
            return 1;
    return 0;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *idx, MPI_Status *st)
{
    MCM_TRACE_CALL(
        mcm_tr_done(MCM_TW_WAITANY, n, reqs, NULL, idx, NULL, st));
    if (n <= 0 || !reqs || !idx || !has_ours(n, reqs))
        return PMPI_Waitany(n, reqs, idx, st);
    return any(n, reqs, idx, NULL, st, 1);
}

int MPI_Testany(int n, MPI_Request reqs[], int *idx, int *flag,
                MPI_Status *st)
{
    MCM_TRACE_CALL(
        mcm_tr_done(MCM_TW_TESTANY, n, reqs, flag, idx, NULL, st));
    if (n <= 0 || !reqs || !idx || !flag || !has_ours(n, reqs))
        return PMPI_Testany(n, reqs, idx, flag, st);
    return any(n, reqs, idx, flag, st, 0);
}

/* one round of some: ours first, then MPI's after them; 1 when done */
static int some_round(view_t *v, MPI_Request *reqs, int *outc, int idxs[],
                      MPI_Status sts[], int wait, int *rc)
{
    int k = 0, active = 0, oc = 0;
    for (int i = 0; i < v->n; i++) {
        mcm_nb_t *x = v->xs[i];
        int f = 0;
        if (!x || !x->active)
            continue;
        active = 1;
        int e = mcm_nb_test(x, &reqs[i], &f, at(sts, k));
        if (e != MPI_SUCCESS && *rc == MPI_SUCCESS)
            *rc = e;
        if (f)
            idxs[k++] = i;
    }
    int e = PMPI_Testsome(v->n, v->tmp, &oc, idxs + k,
                          sts == MPI_STATUSES_IGNORE ? sts : sts + k);
    if (e != MPI_SUCCESS && *rc == MPI_SUCCESS)
        *rc = e;
    if (oc == MPI_UNDEFINED) {
        if (!active) {
            *outc = MPI_UNDEFINED;
            return 1;
        }
        oc = 0;
    }
    *outc = k + oc;
    return *outc > 0 || !wait || *rc != MPI_SUCCESS;
}

static int some(int n, MPI_Request reqs[], int *outc, int idxs[],
                MPI_Status sts[], int wait)
{
    view_t v;
    int rc = MPI_SUCCESS;
    if (view_open(&v, n, reqs) < 0)
        return MPI_ERR_NO_MEM;
    while (!some_round(&v, reqs, outc, idxs, sts, wait, &rc)) {
        mcm_nb_progress();
        sched_yield();
    }
    view_close(&v, reqs);
    return rc;
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outc, int idxs[],
                 MPI_Status sts[])
{
    MCM_TRACE_CALL(
        mcm_tr_done(MCM_TW_WAITSOME, n, reqs, NULL, outc, idxs, sts));
    if (n <= 0 || !reqs || !outc || !idxs || !has_ours(n, reqs))
        return PMPI_Waitsome(n, reqs, outc, idxs, sts);
    return some(n, reqs, outc, idxs, sts, 1);
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outc, int idxs[],
                 MPI_Status sts[])
{
    MCM_TRACE_CALL(
        mcm_tr_done(MCM_TW_TESTSOME, n, reqs, NULL, outc, idxs, sts));
    if (n <= 0 || !reqs || !outc || !idxs || !has_ours(n, reqs))
        return PMPI_Testsome(n, reqs, outc, idxs, sts);
    return some(n, reqs, outc, idxs, sts, 0);
}

int MPI_Start(MPI_Request *req)
{
    MCM_TRACE_CALL(mcm_tr_start(0, 1, req));
    mcm_nb_t *x = req ? mcm_nb_find(*req) : NULL;
    return x ? mcm_nb_start(x) : PMPI_Start(req);
}

int MPI_Startall(int n, MPI_Request reqs[])
{
    MCM_TRACE_CALL(mcm_tr_start(1, n, reqs));
    if (n <= 0 || !reqs || !has_ours(n, reqs))
        return PMPI_Startall(n, reqs);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = MPI_Start(&reqs[i]);
    return rc;
}

int MPI_Request_free(MPI_Request *req)
{
    if (req)
        MCM_TRACE_REQ_FREE(*req);
    mcm_nb_t *x = req ? mcm_nb_find(*req) : NULL;
    return x ? mcm_nb_free(x, req) : PMPI_Request_free(req);
}
