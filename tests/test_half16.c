/*
 * 16-bit float SUMs round once (issue 44): a bfloat16 or binary16 SUM over
 * p ranks equals the exact sum rounded once to the type, where rounding at
 * every combining would not (bfloat16 256 + 1 + 1 is 258, not 256; the
 * same at 2048 for binary16). Every reducing collective, in every form:
 * blocking, blocking in place, non-blocking, persistent (started twice
 * with new inputs), with the big value on each rank in turn so that every
 * order of combining meets it first. The reference is computed here, in
 * integers, with its own rounding to nearest even.
 *
 *   manycoll run -n N test_half16      shared memory
 *   test_half16 --sim PLATFORM N       N cores of a simulated chip
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manycoll.h"
#include "sim_run.h"

enum { N = 6 }; /* elements per block */

#define FAIL(...)                                                            \
    do {                                                                     \
        fprintf(stderr, "rank %d: ", me);                                    \
        fprintf(stderr, __VA_ARGS__);                                        \
        fputc('\n', stderr);                                                 \
        return 1;                                                            \
    } while (0)
#define OK(call)                                                             \
    do {                                                                     \
        int rc_ = (call);                                                    \
        if (rc_ != MC_OK)                                                    \
            FAIL("%s: %s (%s)", #call, mc_strerror(rc_), mc_last_error());   \
    } while (0)

/* an integer |v| < 2^16 as the 16-bit float nearest to it, ties to even
 * (bfloat16: 8 significant bits; binary16: 11) */
static uint16_t round16(mc_dtype_t dt, long v)
{
    int bits = dt == MC_BFLOAT16 ? 8 : 11;
    uint16_t sign = v < 0 ? 0x8000 : 0;
    unsigned long a = (unsigned long)(v < 0 ? -v : v);
    if (!a)
        return sign;
    int e = 0; /* a in [2^e, 2^(e+1)) */
    while (a >> (e + 1))
        e++;
    int drop = e + 1 - bits; /* bits below the significand */
    unsigned long m = a;
    if (drop > 0) {
        unsigned long half = 1ul << (drop - 1), rest = a & ((1ul << drop) - 1);
        m = a >> drop;
        if (rest > half || (rest == half && (m & 1)))
            m++;
        if (m >> bits) /* carried into the next power of two */
            m >>= 1, e++;
    } else {
        m <<= -drop;
    }
    m &= (1ul << (bits - 1)) - 1; /* the stored bits */
    if (dt == MC_BFLOAT16)
        return sign | (uint16_t)((e + 127) << 7 | m);
    return sign | (uint16_t)((e + 15) << 10 | m);
}

/* element i of block b of rank r: the big value (the type's first
 * integer whose successor is not representable) on rank (i + b) % p, 1
 * elsewhere; negated in a persistent request's second round */
static long input(mc_dtype_t dt, int r, int p, int b, int i, int round)
{
    long big = dt == MC_BFLOAT16 ? 256 : 2048;
    long v = r == (i + b) % p ? big : 1;
    return round ? -v : v;
}

/* the sum over ranks [lo, hi) of block b, element i, rounded once */
static uint16_t want(mc_dtype_t dt, int lo, int hi, int p, int b, int i,
                     int round)
{
    long s = 0;
    for (int r = lo; r < hi; r++)
        s += input(dt, r, p, b, i, round);
    return round16(dt, s);
}

typedef enum { BLOCKING, IN_PLACE, NONBLOCKING, PERSISTENT, NFORMS } form_t;
static const char *const form_names[] = {"blocking", "in place",
                                         "non-blocking", "persistent"};

static const mc_coll_t colls[] = {
    MC_COLL_REDUCE, MC_COLL_ALLREDUCE, MC_COLL_REDUCE_SCATTER_BLOCK,
    MC_COLL_REDUCE_SCATTER, MC_COLL_SCAN, MC_COLL_EXSCAN};

/* starts (or runs, req == NULL) one call */
static int call(mc_comm_t *c, mc_coll_t coll, const void *s, void *r,
                const size_t *rc, mc_dtype_t dt, int root, int persistent,
                mc_request_t **req)
{
    switch (coll) {
    case MC_COLL_REDUCE:
        return !req ? mc_reduce(c, s, r, N, dt, MC_SUM, root)
               : persistent ? mc_reduce_init(c, s, r, N, dt, MC_SUM, root, req)
               : mc_ireduce(c, s, r, N, dt, MC_SUM, root, req);
    case MC_COLL_ALLREDUCE:
        return !req ? mc_allreduce(c, s, r, N, dt, MC_SUM)
               : persistent ? mc_allreduce_init(c, s, r, N, dt, MC_SUM, req)
               : mc_iallreduce(c, s, r, N, dt, MC_SUM, req);
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        return !req ? mc_reduce_scatter_block(c, s, r, N, dt, MC_SUM)
               : persistent
                   ? mc_reduce_scatter_block_init(c, s, r, N, dt, MC_SUM, req)
                   : mc_ireduce_scatter_block(c, s, r, N, dt, MC_SUM, req);
    case MC_COLL_REDUCE_SCATTER:
        return !req ? mc_reduce_scatter(c, s, r, rc, dt, MC_SUM)
               : persistent ? mc_reduce_scatter_init(c, s, r, rc, dt, MC_SUM,
                                                     req)
               : mc_ireduce_scatter(c, s, r, rc, dt, MC_SUM, req);
    case MC_COLL_SCAN:
        return !req ? mc_scan(c, s, r, N, dt, MC_SUM)
               : persistent ? mc_scan_init(c, s, r, N, dt, MC_SUM, req)
               : mc_iscan(c, s, r, N, dt, MC_SUM, req);
    default:
        return !req ? mc_exscan(c, s, r, N, dt, MC_SUM)
               : persistent ? mc_exscan_init(c, s, r, N, dt, MC_SUM, req)
               : mc_iexscan(c, s, r, N, dt, MC_SUM, req);
    }
}

static int one(mc_comm_t *c, mc_dtype_t dt, mc_coll_t coll, form_t form)
{
    int me = mc_comm_rank(c), p = mc_comm_size(c), root = p - 1;
    size_t rc[64], off[65];
    if (p > 64)
        FAIL("at most 64 ranks");
    /* reduce_scatter: rank q gets N + q % 3 elements */
    off[0] = 0;
    for (int q = 0; q < p; q++) {
        rc[q] = coll == MC_COLL_REDUCE_SCATTER ? N + (size_t)(q % 3) : N;
        off[q + 1] = off[q] + rc[q];
    }
    int scatters = coll == MC_COLL_REDUCE_SCATTER_BLOCK ||
                   coll == MC_COLL_REDUCE_SCATTER;
    size_t nin = scatters ? off[p] : N, nout = scatters ? rc[me] : N;
    uint16_t *in = calloc(nin, 2), *out = calloc(nin, 2);
    if (!in || !out)
        FAIL("out of memory");
    /* MPI allows MC_IN_PLACE for reduce at the root only */
    int in_place = form == IN_PLACE &&
                   (coll != MC_COLL_REDUCE || me == root);
    mc_request_t *req = NULL;
    int rounds = form == PERSISTENT ? 2 : 1, err = 0;
    for (int round = 0; round < rounds && !err; round++) {
        /* element k of the input: block b (the rank it is for when the
         * call scatters), element i of that block */
        for (int q = 0, k = 0; q < (scatters ? p : 1); q++)
            for (size_t i = 0; i < (scatters ? rc[q] : N); i++, k++)
                in[k] = round16(dt, input(dt, me, p, q, (int)i, round));
        const uint16_t exscan_rank0 = 0x1234;
        for (size_t k = 0; k < nin; k++)
            out[k] = in_place ? in[k] : exscan_rank0;
        const void *s = in_place ? MC_IN_PLACE : in;
        if (form == BLOCKING || form == IN_PLACE) {
            OK(call(c, coll, s, out, rc, dt, root, 0, NULL));
        } else {
            if (round == 0)
                OK(call(c, coll, s, out, rc, dt, root, form == PERSISTENT,
                        &req));
            if (form == PERSISTENT)
                OK(mc_start(req));
            OK(mc_wait(req));
        }
        if (coll == MC_COLL_REDUCE && me != root)
            continue;
        for (size_t i = 0; i < nout && !err; i++) {
            int lo = 0, hi = p, b = scatters ? me : 0;
            if (coll == MC_COLL_SCAN)
                hi = me + 1;
            if (coll == MC_COLL_EXSCAN)
                hi = me;
            uint16_t w = hi > lo ? want(dt, lo, hi, p, b, (int)i, round)
                                 : in_place ? in[i] : exscan_rank0;
            if (out[i] != w) {
                fprintf(stderr, "rank %d: %s %s SUM (%s, %d ranks, round "
                        "%d): element %zu is %#06x, rounded once %#06x\n",
                        me, dt == MC_BFLOAT16 ? "bfloat16" : "float16",
                        mc_coll_info(coll)->name, form_names[form], p, round,
                        i, out[i], w);
                err = 1;
            }
        }
    }
    if (form == PERSISTENT) /* mc_wait freed a non-blocking one */
        OK(mc_request_free(&req));
    free(in);
    free(out);
    return err;
}

static int program(mc_comm_t *c)
{
    int fails = 0;
    static const mc_dtype_t dts[] = {MC_BFLOAT16, MC_FLOAT16};
    for (int d = 0; d < 2; d++)
        for (size_t k = 0; k < sizeof colls / sizeof *colls; k++)
            for (int f = 0; f < NFORMS; f++)
                fails += one(c, dts[d], colls[k], (form_t)f);
    return fails ? 1 : 0;
}

static int sim_rank(mc_comm_t *c, int rank, void *arg)
{
    (void)rank, (void)arg;
    return program(c) ? MC_ERR_INTERNAL : MC_OK;
}

static int on_sim(const char *platform, int n)
{
    int rc = sim_run("test_half16", platform, n, sim_rank);
    mc_finalize();
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--sim"))
        return on_sim(argv[2], atoi(argv[3]));
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK) {
        fprintf(stderr, "test_half16: mc_init: %s\n", mc_last_error());
        return 1;
    }
    int rc = program(c);
    if (rc == 0 && mc_comm_rank(c) == 0)
        printf("test_half16: %d ranks: every 16-bit SUM rounded once\n",
               mc_comm_size(c));
    mc_finalize();
    return rc;
}
