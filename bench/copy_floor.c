/*
 * copy_floor: the data movement of a collective alone, as a floor for it
 * on this machine (no MPI, no manycoll). Two processes, pinned one to
 * each of CPUs 0 and 1, each write their own region, meet at a spin
 * barrier, then copy NB blocks of B bytes from the region the other CPU
 * just wrote; the time of that copy, per round, median and 10th and 90th
 * percentiles over the rounds.
 *
 *   copy_floor [B] [NB] [ROUNDS]     defaults 65536 8 2000
 *
 * With the defaults it is the copying of a 4-rank alltoall of 64 KiB
 * blocks on 2 CPUs: 16 blocks in all, 8 per CPU, every one of them read
 * from the other CPU's cache (in the real call a quarter are a rank's
 * own and half come from the rank sharing its CPU, so this is an upper
 * bound of the floor). docs/benchmarks.md, "OSU at 4 ranks".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* wait until both processes have added to the counter n times */
static void meet(atomic_int *bar, int n)
{
    atomic_fetch_add(bar, 1);
    while (atomic_load(bar) < 2 * n)
        ;
}

static void side(int p, char *m, size_t per, size_t b, int nb, int rounds)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(p, &s);
    if (sched_setaffinity(0, sizeof s, &s))
        perror("copy_floor: sched_setaffinity (unpinned)");
    char *mine = m + (size_t)p * per, *other = m + (size_t)(1 - p) * per;
    char *dst = m + (size_t)(2 + p) * per;
    atomic_int *bar = (atomic_int *)(m + 4 * per);
    double *t = malloc(sizeof(double) * (size_t)rounds);
    if (!t)
        _exit(1);
    for (int r = 0; r < rounds; r++) {
        memset(mine, r, per);
        meet(bar, 2 * r + 1);
        double t0 = now_us();
        for (int i = 0; i < nb; i++)
            memcpy(dst + (size_t)i * b, other + (size_t)i * b, b);
        t[r] = now_us() - t0;
        meet(bar, 2 * r + 2);
    }
    qsort(t, (size_t)rounds, sizeof *t, cmp);
    printf("CPU %d: %d x %zu B from the other CPU's writes: median %.1f us, "
           "p10 %.1f, p90 %.1f\n",
           p, nb, b, t[rounds / 2], t[rounds / 10], t[rounds * 9 / 10]);
    fflush(stdout);
    _exit(0);
}

int main(int argc, char **argv)
{
    long b = argc > 1 ? atol(argv[1]) : 65536;
    int nb = argc > 2 ? atoi(argv[2]) : 8;
    int rounds = argc > 3 ? atoi(argv[3]) : 2000;
    if (b < 1 || nb < 1 || rounds < 10) {
        fprintf(stderr, "usage: copy_floor [B >= 1] [NB >= 1] "
                        "[ROUNDS >= 10]\n");
        return 2;
    }
    size_t per = (size_t)b * (size_t)nb;
    char *m = mmap(NULL, 4 * per + 64, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("copy_floor: mmap");
        return 1;
    }
    memset(m, 1, 4 * per + 64);
    *(atomic_int *)(m + 4 * per) = 0;
    for (int p = 0; p < 2; p++)
        if (!fork())
            side(p, m, per, (size_t)b, nb, rounds);
    int st, bad = 0;
    while (wait(&st) > 0)
        bad |= !WIFEXITED(st) || WEXITSTATUS(st);
    return bad;
}
