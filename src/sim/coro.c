#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "sim/coro.h"

#if defined(__x86_64__) && !defined(MC_CORO_UCONTEXT)
#define MC_CORO_ASM 1
#endif

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define MC_ASAN 1
#endif

static _Thread_local mc_coro_t *current;
#ifdef MC_CORO_ASM
static _Thread_local void *sched_sp;
#else
static _Thread_local ucontext_t sched_uc;
#endif
#ifdef MC_ASAN
static _Thread_local const void *sched_stack_bottom;
static _Thread_local size_t sched_stack_size;
#endif

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
    __sanitizer_finish_switch_fiber(NULL, &sched_stack_bottom,
                                    &sched_stack_size);
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
    size_t page = 4096;
    stack_size = (stack_size + page - 1) / page * page;
    void *m = mmap(NULL, stack_size + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    if (mc_coro_init_in(co, m, stack_size + page, 1, fn, arg) != 0) {
        munmap(m, stack_size + page);
        return -1;
    }
    co->owned = 1;
    return 0;
}

int mc_coro_init_in(mc_coro_t *co, void *block, size_t block_size, int guard,
                    void (*fn)(void *), void *arg)
{
    size_t page = 4096, stack_size = block_size - page;
    void *m = block;
    if (guard)
        mprotect(m, page, PROT_NONE); /* guard page: overflow faults */
    co->owned = 0;
    co->stack = m;
    co->stack_size = block_size;
    co->fn = fn;
    co->arg = arg;
    co->done = 0;
    co->asan_fake = NULL;
    co->uctx = NULL;
    char *top = (char *)m + page + stack_size; /* 16-byte aligned */
#ifdef MC_CORO_ASM
    uint64_t *sp = (uint64_t *)top;
    *--sp = 0;                          /* fake return address of main */
    *--sp = (uint64_t)(uintptr_t)coro_main; /* `ret` lands here */
    for (int i = 0; i < 6; i++)
        *--sp = 0;                      /* rbp rbx r12 r13 r14 r15 */
    co->sp = sp;
#else
    ucontext_t *uc = calloc(1, sizeof *uc);
    if (!uc)
        return -1;
    getcontext(uc);
    uc->uc_stack.ss_sp = (char *)m + page;
    uc->uc_stack.ss_size = stack_size;
    uc->uc_link = NULL;
    makecontext(uc, coro_main_uc, 0);
    co->uctx = uc;
    (void)top;
#endif
    return 0;
}

int mc_coro_stack_ok(const mc_coro_t *co)
{
#ifdef MC_CORO_ASM
    return co->done || (const char *)co->sp >= (const char *)co->stack + 4096;
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
    co->stack = NULL;
    co->uctx = NULL;
}

void mc_coro_resume(mc_coro_t *co)
{
    current = co;
#ifdef MC_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, (char *)co->stack + 4096,
                                   co->stack_size - 4096);
#endif
#ifdef MC_CORO_ASM
    mc_coro_switch(&sched_sp, co->sp);
#else
    swapcontext(&sched_uc, (ucontext_t *)co->uctx);
#endif
#ifdef MC_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
    current = NULL;
}

void mc_coro_yield(void)
{
    mc_coro_t *co = current;
#ifdef MC_ASAN
    __sanitizer_start_switch_fiber(co->done ? NULL : &co->asan_fake,
                                   sched_stack_bottom, sched_stack_size);
#endif
#ifdef MC_CORO_ASM
    mc_coro_switch(&co->sp, sched_sp);
#else
    swapcontext((ucontext_t *)co->uctx, &sched_uc);
#endif
#ifdef MC_ASAN
    __sanitizer_finish_switch_fiber(co->asan_fake, &sched_stack_bottom,
                                    &sched_stack_size);
#endif
}
