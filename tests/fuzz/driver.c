/*
 * A small fuzzing driver for the targets of tests/fuzz/ where clang's
 * libFuzzer is not used (`make test`, any compiler):
 *
 *   fuzz_T CORPUS_DIR [--seconds S] [--runs N] [--seed X] [--timeout T]
 *
 * replays every file of the corpus, then mutates them at random (bit
 * flips, byte changes, deletions, duplications, splices of two inputs,
 * and "interesting" numbers written over digits: 0, -1, 1e300, 2^31,
 * 2^63, nan, ...) for S seconds or N inputs, whichever comes first.
 * Crashes, sanitizer reports (ASan+UBSan builds) and an input that runs
 * longer than T seconds (10; SIGALRM) end the run; the input that did it
 * is written to ./fuzz-crash-<pid> first. The seed is
 * printed, so a run can be repeated.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define FUZZ_MAX_INPUT 65536
#define MAX_CORPUS 512

static unsigned char *cur;
static size_t cur_len;

/* called by the sanitizers before they end the process (absent without
 * them) */
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void save_crash(void)
{
    char name[64];
    snprintf(name, sizeof name, "fuzz-crash-%d", (int)getpid());
    FILE *f = fopen(name, "wb");
    if (f) {
        fwrite(cur, 1, cur_len, f);
        fclose(f);
        fprintf(stdout, "driver: input that failed written to %s\n", name);
    }
}

static uint64_t rng;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *const numbers[] = {
    "0", "-1", "1", "-2147483648", "2147483648", "4294967296",
    "9223372036854775807", "18446744073709551616", "1e300", "-1e300",
    "1e-300", "1e13", "0.5", "nan", "inf", "1073741824", "65536", "7",
    "\"x\"", "null", "[]", "{}", "true"};

typedef struct input {
    unsigned char *d;
    size_t n;
} input_t;

static size_t mutate(unsigned char *d, size_t n, const input_t *corpus,
                     int ncorpus)
{
    int steps = 1 + (int)(next() % 4);
    for (int s = 0; s < steps; s++) {
        size_t at = n ? next() % n : 0;
        switch (next() % 7) {
        case 0: /* flip a bit */
            if (n)
                d[at] ^= (unsigned char)(1u << (next() % 8));
            break;
        case 1: /* a random byte */
            if (n)
                d[at] = (unsigned char)next();
            break;
        case 2: { /* delete a run */
            size_t len = n ? next() % (n - at < 16 ? n - at : 16) : 0;
            memmove(d + at, d + at + len, n - at - len);
            n -= len;
            break;
        }
        case 3: { /* duplicate a run */
            size_t len = n ? next() % (n - at < 64 ? n - at : 64) : 0;
            if (n + len <= FUZZ_MAX_INPUT) {
                memmove(d + at + len, d + at, n - at);
                n += len;
            }
            break;
        }
        case 4: { /* splice: the tail of another input */
            const input_t *o = &corpus[next() % (unsigned)ncorpus];
            size_t from = o->n ? next() % o->n : 0, len = o->n - from;
            if (at + len > FUZZ_MAX_INPUT)
                len = FUZZ_MAX_INPUT - at;
            memcpy(d + at, o->d + from, len);
            n = at + len;
            break;
        }
        default: { /* an interesting number over a number of the input */
            const char *v = numbers[next() % (sizeof numbers /
                                              sizeof *numbers)];
            size_t start = at, end = at, len = strlen(v);
            while (start > 0 && strchr("0123456789.-+eE", d[start - 1]))
                start--;
            while (end < n && strchr("0123456789.-+eE", d[end]))
                end++;
            if (n - (end - start) + len > FUZZ_MAX_INPUT)
                break;
            memmove(d + start + len, d + end, n - end);
            memcpy(d + start, v, len);
            n = n - (end - start) + len;
            break;
        }
        }
    }
    return n;
}

static int load_corpus(const char *dir, input_t *corpus)
{
    DIR *dp = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (dp && (e = readdir(dp)) && n < MAX_CORPUS) {
        char path[4096];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        corpus[n].d = malloc(FUZZ_MAX_INPUT);
        corpus[n].n = fread(corpus[n].d, 1, FUZZ_MAX_INPUT, f);
        fclose(f);
        n++;
    }
    if (dp)
        closedir(dp);
    return n;
}

static unsigned per_input_s = 10;

static void too_slow(int sig)
{
    (void)sig;
    static const char msg[] = "driver: an input ran past its time limit\n";
    if (write(1, msg, sizeof msg - 1) < 0)
        _exit(3);
    save_crash();
    _exit(3);
}

static void run_one(const unsigned char *d, size_t n)
{
    memcpy(cur, d, n);
    cur_len = n;
    alarm(per_input_s);
    LLVMFuzzerTestOneInput(cur, n);
    alarm(0);
}

int main(int argc, char **argv)
{
    double seconds = 3;
    long runs = -1;
    rng = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seconds"))
            seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--runs"))
            runs = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            rng = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--timeout"))
            per_input_s = (unsigned)atoi(argv[i + 1]);
    }
    if (argc < 2 || !rng) {
        fprintf(stderr, "usage: %s CORPUS_DIR [--seconds S] [--runs N] "
                        "[--seed X]\n", argv[0]);
        return 2;
    }
    static input_t corpus[MAX_CORPUS];
    int ncorpus = load_corpus(argv[1], corpus);
    if (ncorpus == 0) {
        fprintf(stderr, "%s: no inputs in %s\n", argv[0], argv[1]);
        return 2;
    }
    printf("driver: %s, %d inputs, seed %#llx\n", argv[0], ncorpus,
           (unsigned long long)rng);
    fflush(stdout);
    cur = malloc(FUZZ_MAX_INPUT);
    signal(SIGALRM, too_slow);
    unsigned char *work = malloc(FUZZ_MAX_INPUT);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(save_crash);
    LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 0; i < ncorpus; i++)
        run_one(corpus[i].d, corpus[i].n);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long done = 0;
    for (;; done++) {
        if (runs >= 0 && done >= runs)
            break;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (runs < 0 && (double)(t.tv_sec - t0.tv_sec) +
                                (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 >
                            seconds)
            break;
        const input_t *base = &corpus[next() % (unsigned)ncorpus];
        memcpy(work, base->d, base->n);
        size_t n = mutate(work, base->n, corpus, ncorpus);
        run_one(work, n);
    }
    printf("driver: %d corpus inputs and %ld mutations, no crash\n",
           ncorpus, done);
    free(work);
    free(cur);
    for (int i = 0; i < ncorpus; i++)
        free(corpus[i].d);
    return 0;
}
