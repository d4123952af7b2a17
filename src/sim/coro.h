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
    void *stack;       /* mmap'd stack (with a guard page below) */
    size_t stack_size;
    void (*fn)(void *);
    void *arg;
    int done;
    void *asan_fake;   /* AddressSanitizer fake-stack handle */
    void *uctx;        /* ucontext fallback */
} mc_coro_t;

/* Prepares co to run fn(arg) on a fresh stack of stack_size bytes. */
int mc_coro_init(mc_coro_t *co, size_t stack_size, void (*fn)(void *),
                 void *arg);
void mc_coro_destroy(mc_coro_t *co);
/* Scheduler -> coroutine: runs co until it yields or finishes. */
void mc_coro_resume(mc_coro_t *co);
/* Coroutine -> scheduler (call from inside a coroutine only). */
void mc_coro_yield(void);

#endif
