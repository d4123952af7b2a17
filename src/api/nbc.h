/*
 * Non-blocking and persistent calls (api/nbc.c): a request runs one call
 * of mc_run_call in a coroutine of its own, which test and wait resume.
 */
#ifndef MC_API_NBC_H
#define MC_API_NBC_H

#include "api/coll_prep.h"

/* After mc_prep_<coll> returned prep (MC_OK or MC_PREP_EMPTY; a negative
 * status is returned as it is): a request for the call *a on c, started
 * (persistent 0: mc_i<coll>) or inactive with its algorithm selected
 * once (persistent 1: mc_<coll>_init). */
int mc_nb_request(mc_comm_t *c, int prep, const mc_args_t *a,
                  int persistent, mc_request_t **req);

/* Contexts of persistent requests (api/nbc_ctx.c). take: the context
 * of the next request initialised on c (collective where it makes one);
 * put: a request is freed; free_all: c is being freed. */
int mc_nb_ctx_take(mc_comm_t *c, mc_comm_t **ctx);
void mc_nb_ctx_put(mc_comm_t *ctx);
void mc_nb_ctx_free_all(mc_comm_t *c);

/* Frees this thread's pooled requests (mc_finalize). */
void mc_nb_pool_free(void);

#endif
