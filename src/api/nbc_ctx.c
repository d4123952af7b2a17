/*
 * Contexts of persistent requests. Persistent collectives match in the
 * order they were initialised (MPI 4.0, 6.13), not in the order they are
 * started: ranks may start them in different orders (MPICH's test
 * coll/p_order). A communicator runs its calls in the order they are
 * started, so a persistent request runs on a context, a duplicate of its
 * communicator (its own flags and call numbers), chosen by its init
 * number, which is the same on every rank:
 *
 *   init A, B, C on c (init numbers 0, 1, 2): contexts 0, 1, 2, each made
 *                     by mc_comm_dup the first time it is needed
 *   rank 0: start A, B, C        rank 1: start C, B, A
 *           each runs on its own context on both ranks: no hang
 *   init number 8: context 0 again, shared with A
 *
 * No agreement is needed (no communication at init beyond the first use
 * of a context). The price: two requests whose init numbers are a
 * multiple of CONTEXTS apart share a context, and run in start order
 * there, so they must be started in the same order on every rank
 * (docs/mpi.md). A context is a whole duplicate (flags of O(ranks) per
 * rank, MPB), so CONTEXTS stays small. A blocking call
 * on c first completes the started requests of its contexts, as it does
 * c's non-blocking calls (mc_nb_pending, mc_nb_drain). Contexts go with
 * their communicator, or, still held by requests then, with the last.
 */
#include <stdlib.h>

#include "api/nbc.h"
#include "api/trace.h"
#include "util/error.h"

#define CONTEXTS 8

int mc_nb_ctx_take(mc_comm_t *c, mc_comm_t **out)
{
    if (!c->ctx && !(c->ctx = calloc(CONTEXTS, sizeof *c->ctx)))
        return mc_error(MC_ERR_NOMEM, "persistent call: out of memory");
    mc_comm_t **slot = &c->ctx[c->ninit % CONTEXTS];
    if (!*slot) { /* collective: every rank reaches this init number */
        mc_trace_hold(1); /* not the program's comm (MC_TRACE) */
        int rc = mc_comm_dup(c, slot);
        mc_trace_hold(0);
        MC_CHECK(rc);
        mc_comm_unlist(*slot); /* freed with c, not by mc_finalize */
        (*slot)->ctx_parent = c;
    }
    c->ninit++;
    mc_comm_t *x = *slot;
    x->ctx_refs++;
    mc_comm_rules_share(x, c); /* c's rules, as set now */
    x->check_args = c->check_args;
    *out = x;
    return MC_OK;
}

void mc_nb_ctx_put(mc_comm_t *x)
{
    if (--x->ctx_refs == 0 && !x->ctx_parent)
        mc_comm_destroy(x); /* its communicator went first */
}

void mc_nb_ctx_free_all(mc_comm_t *c)
{
    for (int i = 0; c->ctx && i < CONTEXTS; i++) {
        mc_comm_t *x = c->ctx[i];
        if (x && x->ctx_refs == 0)
            mc_comm_destroy(x);
        else if (x) /* held by requests: it goes with the last */
            x->ctx_parent = NULL;
    }
    free(c->ctx);
    c->ctx = NULL;
}
