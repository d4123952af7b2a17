/*
 * Coroutines: a function on its own stack that runs until it yields and
 * is resumed where it left off. The simulator runs every simulated core
 * as one (the unmodified algorithm code); a non-blocking collective runs
 * its algorithm in one (api/nbc.c), which test and wait resume.
 *
 * They nest: a coroutine resumed from inside another yields back to it.
 * A simulated core that runs a non-blocking collective is a coroutine
 * (the core) resuming another (the collective): when the collective waits
 * for a simulated flag it yields to the core's test or wait; when it
 * moves data it suspends the whole core, the collective's stack included,
 * to the event loop (mc_coro_yield_all), and the next resume of the core
 * lands back inside the collective.
 *
 * x86-64 uses a six-register context switch (no system call, unlike
 * swapcontext, which saves the signal mask with a syscall on every
 * switch); other architectures fall back to ucontext. Under
 * AddressSanitizer every switch is announced with the fiber API.
 */
#ifndef MC_UTIL_CORO_H
#define MC_UTIL_CORO_H

#include <stddef.h>

typedef struct mc_coro mc_coro_t;
struct mc_coro {
    void *sp;          /* its stack pointer while switched out */
    void *ret_sp;      /* its resumer's, while it runs */
    mc_coro_t *parent; /* the coroutine that resumed it, or NULL */
    mc_coro_t *inner;  /* outermost one suspended with mc_coro_yield_all
                          from inside a nested one: that one */
    void *stack;       /* its block: the bottom page (a guard page, or
                          with no guard the low-water mark), the stack */
    size_t stack_size; /* of the block */
    int owned;         /* the block is its own mapping (mc_coro_init) */
    void (*fn)(void *);
    void *arg;
    int done;
    /* what the code running in it keeps per coroutine (mc_coro_local) */
    void *local;
    /* when it runs, a flag wait that is not yet satisfied yields to the
     * resumer (with the wait described in *wait_note) instead of
     * blocking: set for a non-blocking collective's coroutine */
    void *wait_note;
    void *asan_fake;   /* AddressSanitizer: fake-stack handle */
    const void *ret_bottom; /* ... and the resumer's stack */
    size_t ret_size;
    void *uctx;        /* ucontext fallback: its context */
    void *ret_uctx;    /* ... and its resumer's */
};

/* Prepares co to run fn(arg) on a fresh stack of stack_size bytes, its
 * own mapping with a guard page below. */
int mc_coro_init(mc_coro_t *co, size_t stack_size, void (*fn)(void *),
                 void *arg);
/* The same on a block the caller owns (block_size bytes, page-aligned,
 * its first page the bottom). guard: make that page a guard page (an
 * overflow faults; costs the process a memory mapping per coroutine, of
 * which Linux allows about 65,000); else the page is the low-water mark
 * mc_coro_stack_ok checks. */
int mc_coro_init_in(mc_coro_t *co, void *block, size_t block_size, int guard,
                    void (*fn)(void *), void *arg);
/* Runs fn(arg) again from the start on co's stack (co finished). */
void mc_coro_restart(mc_coro_t *co, void (*fn)(void *), void *arg);
/* After a resume: 0 if the stack pointer of co (or of the coroutine
 * suspended inside it) went below the bottom page (an overflow that no
 * guard page caught; the block below may be damaged). Always 1 on the
 * ucontext fallback, which keeps no stack pointer. */
int mc_coro_stack_ok(const mc_coro_t *co);
void mc_coro_destroy(mc_coro_t *co);
/* Runs co until it yields or finishes (from a thread's own stack or from
 * inside another coroutine). */
void mc_coro_resume(mc_coro_t *co);
/* Back to the resumer of the running coroutine (call from inside one). */
void mc_coro_yield(void);
/* Back to the resumer of the outermost running coroutine, suspending the
 * ones nested in it with it: its next resume continues the innermost. */
void mc_coro_yield_all(void);
/* The running coroutine (innermost), or NULL on a thread's own stack. */
mc_coro_t *mc_coro_current(void);
/* The `local` word of the outermost running coroutine, or of the thread
 * when none runs. */
void **mc_coro_local(void);

#endif
