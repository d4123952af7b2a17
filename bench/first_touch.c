/*
 * What a page costs the first time a process touches it, on this machine:
 * why a simulation of a million cores pays for every byte of state it
 * touches more than once (docs/simulator.md).
 *
 *   first_touch [MiB]   (default 1024)
 *
 * For small (4 KiB) and transparent huge pages: map MiB of anonymous
 * memory, write one byte per 4 KiB (the kernel faults the page in and
 * clears it), unmap, and again three times; then the same writes once
 * more to the memory already there (no fault: the cost of the stores
 * alone). The first round takes memory this process never had; later
 * ones mostly get back the pages it just gave up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double touch(volatile char *p, size_t n)
{
    double t = now();
    for (size_t i = 0; i < n; i += 4096)
        p[i] = 1;
    return now() - t;
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024;
    size_t n = mib << 20;
    if (!n) {
        fprintf(stderr, "usage: first_touch [MiB]  (MiB > 0)\n");
        return 2;
    }
    printf("pages  round  seconds  GB/s  (%zu MiB, one write per 4 KiB)\n",
           mib);
    for (int huge = 0; huge < 2; huge++) {
        for (int r = 0; r < 4; r++) {
            char *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) {
                perror("first_touch: mmap");
                return 1;
            }
            if (huge)
                (void)madvise(p, n, MADV_HUGEPAGE);
            double s = touch(p, n);
            printf("%-5s  %-5d  %7.3f  %5.2f\n", huge ? "huge" : "4k", r, s,
                   (double)n / s / 1e9);
            if (r == 3) {
                s = touch(p, n);
                printf("%-5s  %-5s  %7.3f  %5.2f\n", huge ? "huge" : "4k",
                       "again", s, (double)n / s / 1e9);
            }
            munmap(p, n);
        }
    }
    return 0;
}
