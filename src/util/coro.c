#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "util/coro.h"

#if defined(__x86_64__) && !defined(MC_CORO_UCONTEXT)
#define MC_CORO_ASM 1
#endif

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define MC_ASAN 1
#endif

#define PAGE 4096

/* initial-exec: a plain %fs-relative load, not a __tls_get_addr call per
 * access (a non-blocking call switches several times; two pointers fit
 * the static TLS that glibc keeps for libraries loaded later, too) */
#define TLS _Thread_local __attribute__((tls_model("initial-exec")))
static TLS mc_coro_t *current;
static TLS void *thread_local_word;

#ifdef MC_CORO_ASM
/* mc_coro_switch(save, to): push callee-saved registers, store rsp in
 * *save, load rsp = to, pop the registers of that context, return into it */
void mc_coro_switch(void **save, void *to);
__asm__(".text\n"
        ".globl mc_coro_switch\n"
        ".type mc_coro_switch,@function\n"
        "mc_coro_switch:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n"
        "  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n"
        "  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size mc_coro_switch, .-mc_coro_switch\n");
#endif

static void coro_main(void)
{
    mc_coro_t *co = current;
#ifdef MC_ASAN
    __sanitizer_finish_switch_fiber(NULL, &co->ret_bottom, &co->ret_size);
#endif
    co->fn(co->arg);
    co->done = 1;
    mc_coro_yield(); /* never comes back */
    abort();
}

#ifndef MC_CORO_ASM
static void coro_main_uc(void)
{
    coro_main();
}
#endif

int mc_coro_init(mc_coro_t *co, size_t stack_size, void (*fn)(void *),
                 void *arg)
{
    stack_size = (stack_size + PAGE - 1) / PAGE * PAGE;
    void *m = mmap(NULL, stack_size + PAGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    if (mc_coro_init_in(co, m, stack_size + PAGE, 1, fn, arg) != 0) {
        munmap(m, stack_size + PAGE);
        return -1;
    }
    co->owned = 1;
    return 0;
}

/* a fresh context on co's stack that enters coro_main */
static int prepare(mc_coro_t *co)
{
    char *top = (char *)co->stack + co->stack_size; /* 16-byte aligned */
#ifdef MC_CORO_ASM
    uint64_t *sp = (uint64_t *)top;
    *--sp = 0;                          /* fake return address of main */
    *--sp = (uint64_t)(uintptr_t)coro_main; /* `ret` lands here */
    for (int i = 0; i < 6; i++)
        *--sp = 0;                      /* rbp rbx r12 r13 r14 r15 */
    co->sp = sp;
#else
    if (!co->uctx)
        co->uctx = calloc(1, sizeof(ucontext_t));
    if (!co->ret_uctx)
        co->ret_uctx = calloc(1, sizeof(ucontext_t));
    if (!co->uctx || !co->ret_uctx)
        return -1;
    ucontext_t *uc = co->uctx;
    getcontext(uc);
    uc->uc_stack.ss_sp = (char *)co->stack + PAGE;
    uc->uc_stack.ss_size = co->stack_size - PAGE;
    uc->uc_link = NULL;
    makecontext(uc, coro_main_uc, 0);
    (void)top;
#endif
    return 0;
}

int mc_coro_init_in(mc_coro_t *co, void *block, size_t block_size, int guard,
                    void (*fn)(void *), void *arg)
{
    if (guard)
        mprotect(block, PAGE, PROT_NONE); /* guard page: overflow faults */
    *co = (mc_coro_t){.stack = block, .stack_size = block_size, .fn = fn,
                      .arg = arg};
#ifdef MC_CORO_ASM
    /* the first resume writes the first frame: the stack is touched once,
     * when the coroutine starts, not also here (the simulator makes a
     * million; 7% of a 262,144-core broadcast's time went into touching
     * each stack a second time, long after the first) */
    return 0;
#else
    return prepare(co);
#endif
}

void mc_coro_restart(mc_coro_t *co, void (*fn)(void *), void *arg)
{
    co->fn = fn;
    co->arg = arg;
    co->done = 0;
    co->inner = NULL;
    co->asan_fake = NULL;
    (void)prepare(co); /* the contexts exist: it cannot fail */
}

int mc_coro_stack_ok(const mc_coro_t *co)
{
#ifdef MC_CORO_ASM
    const mc_coro_t *x = co->inner ? co->inner : co;
    return x->done || (const char *)x->sp >= (const char *)x->stack + PAGE;
#else
    (void)co;
    return 1;
#endif
}

void mc_coro_destroy(mc_coro_t *co)
{
    if (co->stack && co->owned)
        munmap(co->stack, co->stack_size);
    free(co->uctx);
    free(co->ret_uctx);
    co->stack = NULL;
    co->uctx = co->ret_uctx = NULL;
}

void mc_coro_resume(mc_coro_t *co)
{
    mc_coro_t *to = co->inner ? co->inner : co;
    co->inner = NULL; /* set again if it suspends from inside one */
    co->parent = current;
    current = to;
#ifdef MC_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, (char *)to->stack + PAGE,
                                   to->stack_size - PAGE);
#endif
#ifdef MC_CORO_ASM
    if (!to->sp) /* its first run */
        (void)prepare(to);
    mc_coro_switch(&co->ret_sp, to->sp);
#else
    swapcontext((ucontext_t *)co->ret_uctx, (ucontext_t *)to->uctx);
#endif
#ifdef MC_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
    current = co->parent;
}

/* from the running coroutine `from` to the resumer of `out` */
static void leave(mc_coro_t *from, mc_coro_t *out)
{
#ifdef MC_ASAN
    __sanitizer_start_switch_fiber(from->done ? NULL : &from->asan_fake,
                                   out->ret_bottom, out->ret_size);
#endif
#ifdef MC_CORO_ASM
    mc_coro_switch(&from->sp, out->ret_sp);
#else
    swapcontext((ucontext_t *)from->uctx, (ucontext_t *)out->ret_uctx);
#endif
    /* resumed: mc_coro_resume of `out` set current to `from` */
#ifdef MC_ASAN
    __sanitizer_finish_switch_fiber(from->asan_fake, &out->ret_bottom,
                                    &out->ret_size);
#endif
}

void mc_coro_yield(void)
{
    mc_coro_t *co = current;
    leave(co, co);
}

void mc_coro_yield_all(void)
{
    mc_coro_t *in = current, *out = in;
    while (out->parent)
        out = out->parent;
    out->inner = in == out ? NULL : in;
    leave(in, out);
}

mc_coro_t *mc_coro_current(void)
{
    return current;
}

void **mc_coro_local(void)
{
    mc_coro_t *out = current;
    if (!out)
        return &thread_local_word;
    while (out->parent)
        out = out->parent;
    return &out->local;
}
