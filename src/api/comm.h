/*
 * The communicator of the public API: the team the algorithms see
 * (coll/team.h), first so that a communicator and its team share an
 * address, and what only the API keeps: the selection rules, the state
 * of a failed call, the list of live communicators.
 */
#ifndef MC_API_COMM_H
#define MC_API_COMM_H

#include "coll/team.h"
#include "select/select.h"
#include "tp/tp.h"

/* Selection rules, shared by the teams with the same inputs
 * (select/rules.h) */
typedef struct mc_rules mc_rules_t;

struct mc_comm {
    mc_team_t team;      /* first: &c->team == (void *)c; its hot
                            fields fill its first line (team.h), and
                            the communicator starts on a line */
    /* what every blocking call reads, in one line of its own (48 bytes) */
    _Alignas(64) int broken; /* status of a failed collective, or 0 */
    int check_args;      /* MC_CHECK_ARGS: compare every call's arguments */
    /* persistent requests run on contexts of their own (api/nbc_ctx.c) */
    int nb_ctx;                /* requests started on its contexts, not
                                  yet finished */
    int traced;                /* its blocking calls are recorded
                                  (MC_TRACE, api/trace.h): read here, in
                                  a line every call reads anyway */
    const mc_ruleset_t *rules; /* [MC_COLL_COUNT]: sel's, maybe shared */
    size_t max_count;       /* largest count of a call (check_count) ... */
    size_t max_block_count; /* ... of a call with one block per rank */
    /* its non-blocking calls not yet completed, in call order: the first
     * runs, the others wait for it (api/nbc.c) */
    struct mc_request *nb_head, *nb_tail;
    /* the rest: set-up, reports, non-blocking calls */
    uint64_t nsplit;     /* splits made from this communicator */
    uint32_t trace_id;   /* its id in the recording (api/trace.h; 0:
                            not recorded) */
    mc_rules_t *sel;
    int owns_world;      /* created by mc_init */
    uint64_t ninit;            /* persistent requests initialised on it */
    struct mc_comm **ctx;      /* its contexts, by init number */
    struct mc_comm *ctx_parent; /* a context: its communicator, or NULL */
    int ctx_refs;              /* a context: the requests that hold it */
    struct mc_comm *next_live; /* list of communicators for finalize */
    struct mc_comm *prev_live; /* (doubly linked: a free is O(1), which a
                                  simulation of many cores needs) */
    /* the last call whose algorithm declined it (MC_NOT_APPLICABLE): its
     * number (team.seq) and what ran it, for reports (mc_comm_explain_last);
     * written on that rare path only, never by a call that runs */
    uint64_t declined_seq;
    const mc_sel_t *declined_to;
    /* float32 copies of a 16-bit float SUM or PROD's vectors (api/coll.c:
     * run_wide), grown on demand; the calls of c run one at a time */
    void *wide;
    size_t wide_len;
};

/* calls that a blocking call on c completes first: c's non-blocking
 * ones, and the started persistent ones of c's contexts (api/nbc.c) */
static inline int mc_nb_pending(const mc_comm_t *c)
{
    return c->nb_head || c->nb_ctx;
}

/* A call touches at most count * 8 * (ranks, for calls with a block per
 * rank) bytes: keeping that below 2^62 keeps every byte count and offset
 * of the algorithms far from overflowing a size_t. */
#define MC_MAX_COUNT ((size_t)1 << 59)

/* c leaves the list of live communicators (a context of a persistent
 * request: its communicator or request frees it, not mc_finalize) */
void mc_comm_unlist(mc_comm_t *c);
/* frees an unlisted communicator */
void mc_comm_destroy(mc_comm_t *c);

/* ---- selection rules (api/rules.c) ---- */
/* c's rules: the rule set of its team's inputs (select/rules.h), armed
 * for MC_CHECK_ARGS if c checks */
int mc_comm_rules_init(mc_comm_t *c);
void mc_comm_rules_release(mc_comm_t *c);
/* to takes from's rules (a context of from: the same members) */
void mc_comm_rules_share(mc_comm_t *to, mc_comm_t *from);
/* lets go of the rule sets that no communicator holds (api/comm.c,
 * when the last communicator is freed) */
void mc_comm_rules_flush(void);
/* c's rules with coll's set by spec (NULL: the default), as
 * mc_comm_set_algo */
int mc_comm_rules_set(mc_comm_t *c, mc_coll_t coll, const char *spec);

/* ---- memory (api/rules.c) ---- */
/* What one rank's state for a communicator takes, in bytes. */
typedef struct mc_comm_footprint {
    size_t comm;       /* the communicator and its team */
    size_t team_heap;  /* per-peer counters, fast-path state, scratch */
    size_t rules;      /* the selection rules, divided by their sharers */
    int rules_sharers; /* communicators that share them */
    size_t tp;         /* the transport's private state */
    size_t flags;      /* this rank's flag words (shared memory) */
    size_t mpb;        /* its MPB (shared memory) */
    size_t total;      /* private: comm + team_heap + rules + tp */
} mc_comm_footprint_t;
void mc_comm_footprint(const mc_comm_t *c, mc_comm_footprint_t *f);

/* ---- MC_CHECK_ARGS (api/check_args.c) ---- */
/* the entry every selection of a checking communicator runs instead of
 * its algorithm's (if on; else NULL): the check, then the algorithm */
mc_algo_fn mc_check_args_wrap(int on);
/* the check itself: MC_OK if every rank passed the same arguments */
int mc_check_args_exchange(mc_comm_t *c, const mc_args_t *a);

/* A communicator over transport tp (which it then owns, also on
 * failure): the team, then the selection. */
int mc_comm_wrap(mc_tp_t *tp, mc_comm_t **out);

#endif
