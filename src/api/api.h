/*
 * What the API layer offers the tools and tests beyond manycoll.h:
 * communicators on the simulator's cores, and what a communicator would
 * run for a call.
 */
#ifndef MC_API_API_H
#define MC_API_API_H

#include <stddef.h>

#include "manycoll.h"
#include "select/select.h"
#include "tp/sim.h"

/* A communicator for `rank` of domain `dom`; call from the core's
 * program. */
int mc_sim_comm_create(mc_sim_t *sim, mc_sim_domain_t *dom, int rank,
                       mc_comm_t **out);

/* "name:k=v,..." of what a call of coll with `bytes` and op would run on
 * c, with the parameter values it would use */
void mc_comm_describe(const mc_comm_t *c, mc_coll_t coll, size_t bytes,
                      mc_op_t op, char *buf, size_t len);
/* ... and the algorithm asked for, why the one that runs does, and the
 * rule's largest message (select/select.h) */
void mc_comm_explain(const mc_comm_t *c, mc_coll_t coll, size_t bytes,
                     mc_op_t op, mc_explain_t *out);
/* x (mc_comm_explain of the last call's collective) corrected for that
 * call if its algorithm declined it: what ran it instead, and why */
void mc_comm_explain_last(const mc_comm_t *c, mc_explain_t *x);

#endif
