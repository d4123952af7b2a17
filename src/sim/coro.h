/*
 * Coroutines for the simulator: one per simulated core, each running the
 * unmodified algorithm code on its own stack. A core runs until it blocks
 * on a simulated operation and then switches back to the scheduler.
 *
 * x86-64 uses a six-register context switch (no system call, unlike
 * swapcontext, which saves the signal mask with a syscall on every
 * switch); other architectures fall back to ucontext. Under
 * AddressSanitizer every switch is announced with the fiber API.
 */
#ifndef MC_SIM_CORO_H
#define MC_SIM_CORO_H

#include <stddef.h>

typedef struct mc_coro {
    void *sp;          /* saved stack pointer while switched out */
    void *stack;       /* its block: the bottom page (a guard page, or
                          with no guard the low-water mark), the stack */
    size_t stack_size; /* of the block */
    int owned;         /* the block is its own mapping (mc_coro_init) */
    void (*fn)(void *);
    void *arg;
    int done;
    void *asan_fake;   /* AddressSanitizer fake-stack handle */
    void *uctx;        /* ucontext fallback */
} mc_coro_t;

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
/* After a resume: 0 if co's stack pointer went below the bottom page (an
 * overflow that no guard page caught; the block below may be damaged).
 * Always 1 on the ucontext fallback, which keeps no stack pointer. */
int mc_coro_stack_ok(const mc_coro_t *co);
void mc_coro_destroy(mc_coro_t *co);
/* Scheduler -> coroutine: runs co until it yields or finishes. */
void mc_coro_resume(mc_coro_t *co);
/* Coroutine -> scheduler (call from inside a coroutine only). */
void mc_coro_yield(void);

#endif
