/*
 * What a read of the recordings' clock costs (util/tick.h): N reads of
 * clock_gettime(CLOCK_MONOTONIC) and N of the TSC, each averaged.
 *
 *   build/bench/clock_cost [N]      (default 10^7)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000L;
    if (n < 1)
        n = 1;
    struct timespec ts;
    unsigned long sink = 0;
    double a = now();
    for (long i = 0; i < n; i++) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sink += (unsigned long)ts.tv_nsec;
    }
    double b = now();
    printf("clock_gettime(CLOCK_MONOTONIC): %.1f ns a read\n",
           (b - a) / (double)n * 1e9);
#if defined(__x86_64__)
    for (long i = 0; i < n; i++)
        sink += __rdtsc();
    double c = now();
    printf("TSC (__rdtsc): %.1f ns a read\n", (c - b) / (double)n * 1e9);
#endif
    return (int)(sink & 0); /* the reads are used */
}
