/*
 * What one load costs that misses the caches, and the TLB, on this
 * machine: why a simulated event costs more at a million cores than at a
 * thousand though it executes the same instructions (docs/simulator.md).
 *
 *   load_latency [MiB ...]   (default 16 4096)
 *
 * For each size, in small (4 KiB) and in transparent huge pages: a chain
 * of dependent loads, one per page-sized step at a random cache line of a
 * random page (a random cyclic order over the pages, so every load is a
 * new page), timed over 4 million loads after the memory is touched once.
 * Small sizes stay in the caches; large ones miss the caches and the TLB
 * on every load, as the state of a core last touched a million events
 * earlier does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define PAGE 4096

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* ns per load over a random cycle through the pages of len bytes */
static double chase(size_t len, int huge)
{
    char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    (void)madvise(m, len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    size_t np = len / PAGE;
    size_t *order = malloc(np * sizeof *order);
    if (!order) {
        munmap(m, len);
        return -1;
    }
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < np; i++)
        order[i] = i;
    for (size_t i = np - 1; i > 0; i--) { /* Fisher-Yates */
        size_t j = rnd(&x) % (i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    /* page order[i] points at page order[i+1], at a random line of each */
    for (size_t i = 0; i < np; i++) {
        size_t a = order[i], b = order[(i + 1) % np];
        char **slot = (char **)(m + a * PAGE + (a * 7 % 64) * 64);
        *slot = m + b * PAGE + (b * 7 % 64) * 64;
    }
    free(order);
    char **p = (char **)m; /* page 0, line 0 */
    const long loads = 4000000;
    double t0 = now();
    for (long i = 0; i < loads; i++)
        p = (char **)*p;
    double ns = (now() - t0) / (double)loads * 1e9;
    if (!p)
        ns = -1; /* keeps the chain */
    munmap(m, len);
    return ns;
}

int main(int argc, char **argv)
{
    long sizes[16] = {16, 4096};
    int n = argc > 1 ? argc - 1 : 2;
    if (n > 16)
        n = 16;
    for (int i = 0; i < n && argc > 1; i++)
        sizes[i] = atol(argv[i + 1]);
    printf("%10s %14s %14s\n", "MiB", "4KiB ns/load", "huge ns/load");
    for (int i = 0; i < n; i++) {
        if (sizes[i] < 1) {
            fprintf(stderr, "load_latency: '%s' is not a size in MiB\n",
                    argv[i + 1]);
            return 2;
        }
        size_t len = (size_t)sizes[i] << 20;
        double small = chase(len, 0), huge = chase(len, 1);
        printf("%10ld %14.1f %14.1f\n", sizes[i], small, huge);
    }
    return 0;
}
