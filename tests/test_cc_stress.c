/*
 * Back-to-back calls of the cc-* algorithms with NO barrier between them,
 * the root, the tree, the algorithm and the size changing at every call
 * (the same random sequence on every rank). This is what the argument of
 * src/coll/cc.h is about: the child at a position of a shared ack line
 * changes from call to call, and a fast rank is already in the next call
 * while a slow one finishes this one. Every result is checked.
 *
 *   manycoll run -n N test_cc_stress [ITERATIONS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manycoll.h"

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static const char *const bcasts[] = {
    "cc-tree", "cc-tree:k1=1", "cc-tree:k1=2,k2=1", "cc-tree:k1=3,inline=0",
    "cc-flat", "cc-pipeline", "cc-pipeline:block=256", "cc-flat:chunk=128",
};
static const size_t sizes[] = {1, 8, 56, 57, 300, 5000, 70000};

static int one(mc_comm_t *c, uint64_t *s, int it, unsigned char *buf,
               int64_t *red)
{
    int me = mc_comm_rank(c), n = mc_comm_size(c);
    int root = (int)(rnd(s) % (uint64_t)n), kind = (int)(rnd(s) % 4);
    char spec[64];
    if (kind == 0) { /* barrier */
        snprintf(spec, sizeof spec, "dissemination-m:m=%d",
                 (int)(rnd(s) % 4));
        if (mc_comm_set_algo(c, "barrier", spec) || mc_barrier(c))
            return -1;
        return 0;
    }
    if (kind == 1) { /* reduce, 1 or 9 elements */
        size_t cnt = rnd(s) % 2 ? 9 : 1;
        snprintf(spec, sizeof spec, "cc-tree:k1=%d", (int)(rnd(s) % 4));
        int64_t in[9], out[9];
        for (size_t i = 0; i < cnt; i++)
            in[i] = (int64_t)(me + 1) * (it + (int64_t)i);
        if (mc_comm_set_algo(c, "reduce", spec) ||
            mc_reduce(c, in, out, cnt, MC_INT64, MC_SUM, root))
            return -1;
        for (size_t i = 0; me == root && i < cnt; i++)
            if (out[i] != (int64_t)n * (n + 1) / 2 * (it + (int64_t)i))
                return fprintf(stderr, "reduce %s wrong at call %d\n", spec,
                               it), -1;
        (void)red;
        return 0;
    }
    const char *b = bcasts[rnd(s) % (sizeof bcasts / sizeof *bcasts)];
    size_t len = sizes[rnd(s) % (sizeof sizes / sizeof *sizes)];
    for (size_t i = 0; i < len; i++)
        buf[i] = me == root ? (unsigned char)(i * 7 + (size_t)it) : 0;
    if (mc_comm_set_algo(c, "bcast", b) ||
        mc_bcast(c, buf, len, MC_UINT8, root))
        return -1;
    for (size_t i = 0; i < len; i++)
        if (buf[i] != (unsigned char)(i * 7 + (size_t)it))
            return fprintf(stderr, "bcast %s of %zu bytes from %d wrong at "
                           "call %d, byte %zu\n", b, len, root, it, i), -1;
    return 0;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 2000;
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK) {
        fprintf(stderr, "test_cc_stress: %s\n", mc_last_error());
        return 1;
    }
    unsigned char *buf = malloc(70000);
    int64_t red[9];
    uint64_t s = 12345;
    for (int it = 0; it < iters; it++)
        if (one(c, &s, it, buf, red)) {
            fprintf(stderr, "test_cc_stress: rank %d, call %d: %s\n",
                    mc_comm_rank(c), it, mc_last_error());
            return 1;
        }
    if (mc_comm_rank(c) == 0)
        printf("test_cc_stress: %d ranks, %d calls back to back, all "
               "right\n", mc_comm_size(c), iters);
    free(buf);
    mc_finalize();
    return 0;
}
