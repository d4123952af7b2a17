/*
 * A simulated core that runs past the bottom of its stack gets a message
 * naming the core and the stack size, not a bare segmentation fault.
 *
 * While mc_sim_run runs a simulation whose stacks have guard pages
 * (engine.c), a SIGSEGV handler on its own signal stack looks at the
 * faulting address: inside the guard page of core i's block, it writes
 *
 *     manycoll sim: simulated core i overflowed its N-byte stack ...
 *
 * and aborts, as the check of the stack pointer does where there are no
 * guard pages (engine_run.c). Any other fault goes, unchanged, to the
 * handler there was before (the default's core dump, AddressSanitizer's
 * report). Without guard pages nothing is installed.
 */
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/engine_impl.h"

#define GUARD_PAGE 4096

/* one simulation at a time has its handler in (the first to start) */
static mc_sim_t *_Atomic guarded;
static struct sigaction prev;
static stack_t prev_alt;
static int own_alt;
static _Alignas(64) unsigned char alt_stack[64 * 1024];

/* decimal digits of v at the end of buf; returns their start */
static char *digits(char *end, uint64_t v)
{
    *--end = '\0';
    do
        *--end = (char)('0' + v % 10);
    while (v /= 10);
    return end;
}

static void say(const char *m)
{
    ssize_t r = write(2, m, strlen(m));
    (void)r;
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    mc_sim_t *s = guarded;
    const unsigned char *a = si->si_addr;
    if (s && a >= s->stacks.pool && a < s->stacks.pool + s->stacks.len) {
        size_t block = s->stacks.len / (size_t)s->n;
        size_t off = (size_t)(a - s->stacks.pool);
        if (off % block < GUARD_PAGE) {
            char n1[24], n2[24];
            say("manycoll sim: simulated core ");
            say(digits(n1 + sizeof n1, off / block));
            say(" overflowed its ");
            say(digits(n2 + sizeof n2, s->stacks.size));
            say("-byte stack (give it more: manycoll sim --stack-size, "
                "mc_sim_opts_t.stack_size)\n");
            abort();
        }
    }
    /* not ours: the fault happens again under the handler before us */
    sigaction(sig, &prev, NULL);
}

void mc_sim_guard_begin(mc_sim_t *s)
{
    mc_sim_t *none = NULL;
    if (!s->stacks.guard || !s->stacks.pool ||
        !atomic_compare_exchange_strong(&guarded, &none, s))
        return;
    stack_t cur;
    own_alt = sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE);
    if (own_alt) {
        stack_t alt = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack};
        prev_alt = cur;
        if (sigaltstack(&alt, NULL) != 0)
            own_alt = 0;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &prev);
}

void mc_sim_guard_end(mc_sim_t *s)
{
    if (guarded != s)
        return;
    sigaction(SIGSEGV, &prev, NULL);
    if (own_alt)
        sigaltstack(&prev_alt, NULL);
    own_alt = 0;
    guarded = NULL;
}
