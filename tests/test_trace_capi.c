/*
 * A C API program for MC_TRACE (api/trace.h, src/trace): a known sequence
 * of calls, which tests/trace_capi_check.py finds again in the archive
 * `manycoll run` writes. Run with 3 or more ranks.
 *
 *   world   barrier; allreduce 5 x f64 sum; bcast 7 x i32 from P-1;
 *           allreduce in place 3 x i64 max; gatherv to 1 (rank r sends
 *           r+1 x u8); alltoallv (to q: r+q+1 x f32); allreduce 2 x i32
 *           with a user op (replayed as a sum)
 *   halves  split by rank < P/2 (key -rank: reversed order), reduce 4 x
 *           u16 sum to its rank 0, dup of it, barrier on the dup
 *   world   iallreduce 6 x f64 + mc_wait; ibcast 2 x f32 + mc_test until
 *           done; allreduce_init 1 x i32 sum started twice (mc_start +
 *           mc_wait, mc_start + mc_waitall); reduce_scatter (r+1 x i32
 *           to rank r); an mc_test of the inactive persistent request
 *           (completes nothing: not recorded)
 *
 * Every result is checked; exit 0 if all are right.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <manycoll.h>

#define OK(x)                                                                \
    do {                                                                     \
        if ((x) != MC_OK) {                                                  \
            fprintf(stderr, "rank %d: %s: %s\n", me, #x, mc_last_error());   \
            return 1;                                                        \
        }                                                                    \
    } while (0)
#define EXPECT(c)                                                            \
    do {                                                                     \
        if (!(c)) {                                                          \
            fprintf(stderr, "rank %d: wrong: %s\n", me, #c);                 \
            return 1;                                                        \
        }                                                                    \
    } while (0)

static int me, P;

/* a user op: inout += in */
static void add_i32(const void *in, void *inout, size_t n, mc_dtype_t dt)
{
    (void)dt;
    for (size_t i = 0; i < n; i++)
        ((int32_t *)inout)[i] += ((const int32_t *)in)[i];
}

static int world_part(mc_comm_t *w)
{
    double x[5], y[5];
    for (int i = 0; i < 5; i++)
        x[i] = me + i;
    OK(mc_barrier(w));
    OK(mc_allreduce(w, x, y, 5, MC_FLOAT64, MC_SUM));
    EXPECT(y[4] == P * (P - 1) / 2.0 + 4.0 * P);
    int32_t b[7] = {0};
    if (me == P - 1)
        for (int i = 0; i < 7; i++)
            b[i] = 40 + i;
    OK(mc_bcast(w, b, 7, MC_INT32, P - 1));
    EXPECT(b[6] == 46);
    int64_t m[3] = {me, -me, 2 * me};
    OK(mc_allreduce(w, MC_IN_PLACE, m, 3, MC_INT64, MC_MAX));
    EXPECT(m[0] == P - 1 && m[1] == 0 && m[2] == 2 * (P - 1));
    uint8_t s[64], g[1024];
    size_t cnt[64], dis[64], at = 0;
    memset(s, me, sizeof s);
    for (int r = 0; r < P; r++) {
        cnt[r] = (size_t)r + 1;
        dis[r] = at;
        at += cnt[r];
    }
    OK(mc_gatherv(w, s, (size_t)me + 1, g, cnt, dis, MC_UINT8, 1));
    EXPECT(me != 1 || g[dis[P - 1]] == P - 1);
    float sf[4096], rf[4096];
    size_t sc[64], sd[64], rc[64], rd[64], sa = 0, ra = 0;
    for (int q = 0; q < P; q++) {
        sc[q] = (size_t)(me + q + 1), sd[q] = sa, sa += sc[q];
        rc[q] = (size_t)(q + me + 1), rd[q] = ra, ra += rc[q];
    }
    for (size_t i = 0; i < sa; i++)
        sf[i] = (float)me;
    OK(mc_alltoallv(w, sf, sc, sd, rf, rc, rd, MC_FLOAT32));
    EXPECT(rf[rd[P - 1]] == (float)(P - 1));
    mc_op_t add;
    int32_t u[2] = {me, 1}, us[2];
    OK(mc_op_create(add_i32, 1, &add));
    OK(mc_allreduce(w, u, us, 2, MC_INT32, add));
    EXPECT(us[0] == P * (P - 1) / 2 && us[1] == P);
    OK(mc_op_free(&add));
    return 0;
}

static int halves_part(mc_comm_t *w)
{
    mc_comm_t *h, *d;
    OK(mc_comm_split(w, me < P / 2, -me, &h));
    uint16_t v[4] = {1, 2, 3, 4}, out[4] = {0};
    OK(mc_reduce(h, v, out, 4, MC_UINT16, MC_SUM, 0));
    EXPECT(mc_comm_rank(h) != 0 || out[3] == 4 * mc_comm_size(h));
    OK(mc_comm_dup(h, &d));
    OK(mc_barrier(d));
    OK(mc_comm_free(d));
    OK(mc_comm_free(h));
    return 0;
}

static int requests_part(mc_comm_t *w)
{
    mc_request_t *r;
    double x[6] = {1, 1, 1, 1, 1, 1}, y[6];
    OK(mc_iallreduce(w, x, y, 6, MC_FLOAT64, MC_SUM, &r));
    OK(mc_wait(r));
    EXPECT(y[5] == P);
    float f[2] = {me == 0 ? 3.f : 0.f, me == 0 ? 4.f : 0.f};
    int done = 0;
    OK(mc_ibcast(w, f, 2, MC_FLOAT32, 0, &r));
    while (!done)
        OK(mc_test(r, &done));
    EXPECT(f[1] == 4.f);
    int32_t one = 1, sum = 0;
    mc_request_t *p;
    OK(mc_allreduce_init(w, &one, &sum, 1, MC_INT32, MC_SUM, &p));
    OK(mc_start(p));
    OK(mc_wait(p));
    EXPECT(sum == P);
    sum = 0;
    OK(mc_start(p));
    OK(mc_waitall(1, &p));
    EXPECT(sum == P);
    OK(mc_test(p, &done)); /* inactive: done at once, nothing completed */
    OK(mc_request_free(&p));
    int32_t in[64 * 65], res[64];
    size_t counts[64], total = 0;
    for (int r2 = 0; r2 < P; r2++)
        total += counts[r2] = (size_t)r2 + 1;
    for (size_t i = 0; i < total; i++)
        in[i] = 1;
    OK(mc_reduce_scatter(w, in, res, counts, MC_INT32, MC_SUM));
    EXPECT(res[me] == P);
    return 0;
}

int main(void)
{
    mc_comm_t *w;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        return 1;
    }
    me = mc_comm_rank(w), P = mc_comm_size(w);
    if (P < 3 || P > 64) {
        fprintf(stderr, "test_trace_capi: run with 3 to 64 ranks\n");
        return 2;
    }
    int bad = world_part(w) || halves_part(w) || requests_part(w);
    mc_finalize();
    return bad;
}
