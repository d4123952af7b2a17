/*
 * The clock of the recordings (MC_MPI_TRACE, src/mpi/trace*.c; MC_TRACE,
 * src/api/trace.c): CLOCK_MONOTONIC in ns, read as the TSC's ticks where
 * the TSC can stand for it. A call is timed by two reads, and one
 * clock_gettime costs twice a TSC read (23 against 10 ns on this
 * project's 2-CPU VM: docs/benchmarks.md); the ticks are turned into ns
 * afterwards, from two (tick, ns) pairs read at the recording's start
 * and end.
 */
#ifndef MC_UTIL_TICK_H
#define MC_UTIL_TICK_H

#include <stdint.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

uint64_t mc_mono_ns(void);

/* 1 if the TSC can stand for the clock: constant and non-stop
 * (/proc/cpuinfo) and the kernel keeps time with it (so it agrees across
 * cores), and the environment variable env (if any) is not "0" */
int mc_tsc_usable(const char *env);

/* now: the TSC's ticks (tsc 1) or ns */
static inline uint64_t mc_tick(int tsc)
{
#if defined(__x86_64__)
    if (tsc)
        return __rdtsc();
#endif
    (void)tsc;
    return mc_mono_ns();
}

/* a tick and the ns at it, read as close together as can be */
void mc_tick_pair(int tsc, uint64_t *tick, uint64_t *ns);

/* ns per tick between the pairs (tick0, ns0) and (tick1, ns1); 1 when
 * they do not say (no TSC, or no time between them) */
double mc_tick_rate(uint64_t tick0, uint64_t ns0, uint64_t tick1,
                    uint64_t ns1);

#endif
