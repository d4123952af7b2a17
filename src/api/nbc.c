/*
 * Non-blocking and persistent collectives, with the algorithms written
 * once: a request runs the same call as the blocking one (mc_run_call) in
 * a coroutine of its own. When the algorithm waits for a flag that is not
 * there yet, the transport notes the wait and yields (tp.h:
 * tp_wait_yield); test and wait resume it.
 *
 *   mc_iallreduce     queue on c ──> first of c? start: run to its first
 *                                    unmet wait
 *   mc_test / mc_wait progress: resume every running request once; a
 *                     finished one hands c to the next of c's queue
 *   mc_wait, idle     one request running: wait for its noted flag as a
 *                     blocking call would (timeouts, dead peers, and on
 *                     the simulator a suspended core); several: a pause
 *                     (the simulator: one poll) between rounds
 *
 * The calls of one communicator run one at a time in call order, as MPI
 * orders them, and a blocking call first completes the earlier ones
 * (mc_nb_drain), so each sees the communicator as a blocking call does.
 * Progress is global (every running request of the process, or of the
 * simulated core: mc_coro_local), as MPI's: waiting for a call on one
 * communicator progresses the others, which peers may wait on first.
 *
 * Requests and their stacks are pooled per thread: after the first, a
 * start allocates nothing.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "api/nbc.h"
#include "api/trace.h"
#include "util/error.h"

#if defined(__SANITIZE_ADDRESS__)
#define NB_STACK (1024 * 1024)
#else
#define NB_STACK (256 * 1024) /* reserved, not committed (as the sim's) */
#endif

enum { RQ_INACTIVE = 0, RQ_QUEUED, RQ_RUNNING, RQ_DONE, RQ_FREE };

struct mc_request {
    mc_coro_t co;            /* runs the call; its stack is pooled */
    mc_tp_wait_note_t note;  /* what it waits for when it yields */
    mc_comm_t *c;
    mc_args_t a;
    mc_sel_t sel;            /* persistent: selected once */
    int has_sel, empty, persistent;
    int own_ctx;             /* c is the request's context (nbc_ctx.c) */
    int begun;               /* its coroutine has started */
    int state;
    int rc;                  /* of the finished call */
    mc_request_t *next;      /* c's queue; the free list */
    mc_request_t *next_run;  /* the running list of this context */
    uint64_t trace_id;       /* its start's id in the recording (MC_TRACE,
                                api/trace.h), until a wait completes it */
};

static _Thread_local __attribute__((tls_model("initial-exec")))
mc_request_t *pool;
static _Thread_local __attribute__((tls_model("initial-exec")))
unsigned guarded; /* requests of this thread with a guard page */

/* A guard page below a stack costs a memory mapping; a simulation with
 * many cores waiting in non-blocking calls at once would exhaust the
 * process's (about 65,000): the first ones get guards, the others plain
 * stacks (adjacent, so the kernel merges their mappings). */
#define NB_GUARDED 64

/* the running requests of this thread (or simulated core) */
static mc_request_t **running(void)
{
    return (mc_request_t **)mc_coro_local();
}

static void body(void *arg)
{
    mc_request_t *r = arg;
    mc_comm_t *c = r->c;
    if (c->broken) /* an earlier call failed: its message stays */
        r->rc = c->broken;
    else if (r->empty)
        r->rc = mc_run_empty(c, &r->a);
    else
        r->rc = mc_run_call(c, &r->a, r->has_sel ? &r->sel : NULL);
}

static int new_stack(mc_request_t *r)
{
    if (guarded < NB_GUARDED) {
        guarded++;
        return mc_coro_init(&r->co, NB_STACK, body, r);
    }
    void *m = mmap(NULL, NB_STACK, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    if (mc_coro_init_in(&r->co, m, NB_STACK, 0, body, r) != 0) {
        munmap(m, NB_STACK);
        return -1;
    }
    r->co.owned = 1; /* mc_coro_destroy unmaps it */
    return 0;
}

static int get_request(mc_request_t **out)
{
    mc_request_t *r = pool;
    if (r) {
        pool = r->next;
    } else {
        r = calloc(1, sizeof *r);
        if (!r || new_stack(r) != 0) {
            free(r);
            return mc_error(MC_ERR_NOMEM, "non-blocking call: no memory for "
                                          "a request and its stack");
        }
    }
    r->co.wait_note = &r->note;
    r->next = r->next_run = NULL;
    *out = r;
    return MC_OK;
}

static void put_request(mc_request_t *r)
{
    r->state = RQ_FREE;
    r->next = pool;
    pool = r;
}

/* runs r's coroutine until it yields or finishes */
static void resume(mc_request_t *r)
{
    mc_coro_resume(&r->co);
    if (!mc_coro_stack_ok(&r->co)) { /* a stack without a guard page */
        fprintf(stderr, "manycoll: a non-blocking call overflowed its "
                        "%d-byte stack\n", NB_STACK);
        abort();
    }
}

/* r's coroutine starts, and runs until its first unmet wait */
static void begin(mc_request_t *r)
{
    r->begun = 1;
    r->note.tp = NULL; /* set when it yields */
    mc_coro_restart(&r->co, body, r);
    resume(r);
}

/* r is first of its communicator: it runs now, or (lazy) at the next
 * progress; a wait for it alone before that runs it directly */
static void start_running(mc_request_t *r, int lazy)
{
    mc_request_t **head = running();
    r->state = RQ_RUNNING;
    r->begun = 0;
    r->note.tp = NULL;
    r->next_run = *head;
    *head = r;
    if (!lazy)
        begin(r);
}

/* r's call finished (or failed while waited for outside): c goes on */
static void finish(mc_request_t *r)
{
    mc_request_t **p = running();
    while (*p != r)
        p = &(*p)->next_run;
    *p = r->next_run;
    r->state = RQ_DONE;
    mc_comm_t *c = r->c;
    if (c->ctx_parent)
        c->ctx_parent->nb_ctx--;
    c->nb_head = r->next;
    if (!c->nb_head)
        c->nb_tail = NULL;
    r->next = NULL;
    if (c->nb_head)
        start_running(c->nb_head, 0);
}

/* resumes every running request once; 1 if one finished */
static int progress(void)
{
    int any = 0;
    mc_request_t *r = *running();
    while (r) {
        mc_request_t *next = r->next_run;
        if (!r->begun)
            begin(r);
        else if (!r->co.done)
            resume(r);
        if (r->co.done) {
            finish(r);
            any = 1;
            next = *running(); /* the list changed: from the top */
        }
        r = next;
    }
    return any;
}

/* Nothing finished: with one request running, wait for its flag here as
 * a blocking call would; a failure there fails the request (its
 * coroutine is dropped where it stands). With several, a pause. */
static void idle(unsigned *rounds)
{
    mc_request_t *r = *running();
    if (!r)
        return;
    mc_tp_t *tp = r->note.tp;
    if (!r->next_run && tp) {
        int rc = tp_flag_wait(tp, r->note.rank, r->note.idx, r->note.v);
        if (rc < 0) {
            r->rc = rc;
            r->c->broken = rc;
            if (tp->ops->fail)
                tp->ops->fail(tp, r->c->team.seq, rc, mc_last_error());
            r->co.done = 1;
            finish(r);
        }
        return;
    }
    if (tp && tp->ops->idle)
        (void)tp->ops->idle(tp);
    else if (++*rounds % 64 == 0)
        sched_yield();
}

int mc_nb_drain(mc_comm_t *c)
{
    unsigned rounds = 0;
    while (mc_nb_pending(c))
        if (!progress())
            idle(&rounds);
    return MC_OK;
}

int mc_nb_request(mc_comm_t *c, int prep, const mc_args_t *a,
                  int persistent, mc_request_t **req)
{
    if (prep < 0)
        return prep;
    mc_comm_t *ctx = c;
    if (persistent && c->team.size > 1) /* matched in init order */
        MC_CHECK(mc_nb_ctx_take(c, &ctx));
    mc_request_t *r = NULL;
    int rc = get_request(&r);
    if (rc != MC_OK) {
        if (ctx != c)
            mc_nb_ctx_put(ctx);
        return rc;
    }
    r->c = ctx;
    r->own_ctx = ctx != c;
    r->a = *a;
    r->empty = prep == MC_PREP_EMPTY;
    r->persistent = persistent;
    r->has_sel = persistent && !r->empty;
    if (r->has_sel)
        r->sel = *mc_select(ctx->rules, a);
    r->state = RQ_INACTIVE;
    r->trace_id = 0;
    *req = r;
    if (__builtin_expect(mc_trace_on, 0) && persistent)
        (void)mc_trace_start(c, a, 2, mc_trace_now());
    return persistent ? MC_OK : mc_start(r);
}

int mc_start(mc_request_t *r)
{
    if (!r)
        return mc_error(MC_ERR_ARG, "mc_start: argument 'req' is NULL");
    if (r->state != RQ_INACTIVE)
        return mc_error(MC_ERR_ARG, "mc_start: argument 'req' is %s",
                        r->state == RQ_FREE ? "freed"
                        : r->persistent     ? "active (wait for it first)"
                                            : "not persistent");
    mc_comm_t *c = r->c;
    if (__builtin_expect(mc_trace_on, 0))
        r->trace_id = mc_trace_start(c, &r->a, r->persistent,
                                     mc_trace_now());
    r->state = RQ_QUEUED;
    if (c->ctx_parent)
        c->ctx_parent->nb_ctx++;
    r->rc = MC_OK;
    r->next = NULL;
    if (c->nb_tail) {
        c->nb_tail->next = r;
        c->nb_tail = r;
        return MC_OK;
    }
    c->nb_head = c->nb_tail = r;
    /* persistent: lazy, so that a start and a wait right after it cost
     * what the blocking call costs (mc_wait runs it directly) */
    start_running(r, r->persistent);
    if (r->begun && r->co.done)
        finish(r);
    return MC_OK;
}

static int check_req(const mc_request_t *r, const char *fn)
{
    if (!r)
        return mc_error(MC_ERR_ARG, "%s: argument 'req' is NULL", fn);
    if (r->state == RQ_FREE)
        return mc_error(MC_ERR_ARG, "%s: argument 'req' was freed", fn);
    return MC_OK;
}

/* a finished request's status; a non-persistent one is freed */
static int complete(mc_request_t *r)
{
    int rc = r->rc;
    if (r->trace_id) { /* recorded: its end is in this wait's record */
        mc_trace_done(r->trace_id);
        r->trace_id = 0;
    }
    if (r->persistent)
        r->state = RQ_INACTIVE;
    else
        put_request(r);
    return rc;
}

static int test_plain(mc_request_t *r, int *done)
{
    MC_CHECK(check_req(r, "mc_test"));
    if (!done)
        return mc_error(MC_ERR_ARG, "mc_test: argument 'done' is NULL");
    *done = 0;
    if (r->state == RQ_INACTIVE) { /* MPI: an inactive request is done */
        *done = 1;
        return MC_OK;
    }
    if (r->state != RQ_DONE)
        progress();
    if (r->state != RQ_DONE) {
        /* where time is simulated, a test takes a poll's time (a loop of
         * tests would otherwise stop the simulated clock) */
        mc_tp_t *tp = r->c->team.tp;
        if (tp->ops->idle)
            (void)tp->ops->idle(tp);
        return MC_OK;
    }
    *done = 1;
    return complete(r);
}

static int wait_plain(mc_request_t *r)
{
    MC_CHECK(check_req(r, "mc_wait"));
    if (r->state == RQ_INACTIVE)
        return MC_OK;
    if (r->state == RQ_RUNNING && !r->begun && *running() == r &&
        !r->next_run) {
        /* started, not begun, and nothing else to progress: the blocking
         * call's path, on this stack */
        r->begun = 1;
        body(r);
        r->co.done = 1;
        finish(r);
        return complete(r);
    }
    unsigned rounds = 0;
    while (r->state != RQ_DONE) {
        /* alone and waiting: wait for its flag before resuming it */
        mc_request_t *only = *running();
        if (only == r && !r->next_run && r->note.tp && !r->co.done)
            idle(&rounds);
        if (r->state != RQ_DONE && !progress() && r->state != RQ_DONE)
            idle(&rounds);
    }
    return complete(r);
}

static int waitall_plain(int n, mc_request_t **reqs)
{
    if (n < 0 || (n > 0 && !reqs))
        return mc_error(MC_ERR_ARG, "mc_waitall: argument '%s' is invalid",
                        n < 0 ? "n" : "reqs");
    for (int i = 0; i < n; i++)
        if (reqs[i])
            MC_CHECK(check_req(reqs[i], "mc_waitall"));
    int first = MC_OK;
    for (int i = 0; i < n; i++) {
        if (!reqs[i])
            continue;
        int persistent = reqs[i]->persistent;
        int rc = mc_wait(reqs[i]);
        if (!persistent)
            reqs[i] = NULL;
        if (rc < 0 && first == MC_OK)
            first = rc;
    }
    return first;
}

/* ---- the waits, recorded (MC_TRACE: their region, with the ids of the
 * calls they completed) or not: t0 0 when not ---- */

static uint64_t wait_begin(void)
{
    return __builtin_expect(mc_trace_on, 0) && mc_trace_wait_begin()
               ? mc_trace_now()
               : 0;
}

static int wait_end(int which, uint64_t t0, int rc)
{
    if (t0)
        mc_trace_wait_end(which, t0);
    return rc;
}

int mc_test(mc_request_t *r, int *done)
{
    uint64_t t0 = wait_begin();
    return wait_end(MC_TRW_TEST, t0, test_plain(r, done));
}

int mc_wait(mc_request_t *r)
{
    uint64_t t0 = wait_begin();
    return wait_end(MC_TRW_WAIT, t0, wait_plain(r));
}

int mc_waitall(int n, mc_request_t **reqs)
{
    uint64_t t0 = wait_begin();
    return wait_end(MC_TRW_WAITALL, t0, waitall_plain(n, reqs));
}

int mc_request_free(mc_request_t **req)
{
    if (!req || !*req)
        return mc_error(MC_ERR_ARG, "mc_request_free: argument 'req' is "
                                    "NULL");
    mc_request_t *r = *req;
    MC_CHECK(check_req(r, "mc_request_free"));
    if (r->state != RQ_INACTIVE)
        return mc_error(MC_ERR_ARG, "mc_request_free: argument 'req' is "
                                    "active: wait for it first");
    if (r->own_ctx)
        mc_nb_ctx_put(r->c);
    r->own_ctx = 0;
    put_request(r);
    *req = NULL;
    return MC_OK;
}

void mc_nb_pool_free(void)
{
    while (pool) {
        mc_request_t *r = pool;
        pool = r->next;
        mc_coro_destroy(&r->co);
        free(r);
    }
}
