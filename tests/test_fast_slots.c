/*
 * The fast paths' slots (src/coll/fast.h), with fast.c's asserts on
 * (tests/fast_asserted.c): a broadcast root may run up to 32 calls ahead
 * of the others, never more, and reuses a line slot only once every peer
 * is done with the call that read it last (MC_ASSERT in mc_fast_publish
 * checks it on each publication, also where the data would come out
 * right by luck); MPB slots (payloads beyond a line) likewise after 4
 * calls. Under `manycoll run -n N`, with the flat algorithms forced:
 *
 *   300 8-byte broadcasts from rank 0    line slots, root far ahead
 *   100 1-KiB broadcasts from rank 1     MPB slots
 *   300 8-byte allreduces                line slots, symmetric
 *
 * every result checked.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <manycoll.h>

static int check(int ok, const char *what, int i, int rank)
{
    if (!ok)
        fprintf(stderr, "test_fast_slots: rank %d: %s %d is wrong\n", rank,
                what, i);
    return ok ? 0 : 1;
}

int main(void)
{
    mc_comm_t *w;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        return 1;
    }
    int me = mc_comm_rank(w), p = mc_comm_size(w), bad = 0;
    static unsigned char buf[1024];
    for (int i = 0; i < 300 && !bad; i++) {
        uint64_t v = me == 0 ? (uint64_t)i * 7 + 1 : 0;
        bad |= mc_bcast(w, &v, 1, MC_UINT64, 0) != MC_OK;
        bad |= check(v == (uint64_t)i * 7 + 1, "8-byte bcast", i, me);
    }
    for (int i = 0; i < 100 && !bad; i++) {
        int root = 1 % p;
        memset(buf, me == root ? i + 1 : 0, sizeof buf);
        bad |= mc_bcast(w, buf, sizeof buf, MC_UINT8, root) != MC_OK;
        bad |= check(buf[0] == (unsigned char)(i + 1) &&
                         buf[sizeof buf - 1] == (unsigned char)(i + 1),
                     "1-KiB bcast", i, me);
    }
    for (int i = 0; i < 300 && !bad; i++) {
        int64_t x = me + i, y = 0;
        bad |= mc_allreduce(w, &x, &y, 1, MC_INT64, MC_SUM) != MC_OK;
        bad |= check(y == (int64_t)p * (p - 1) / 2 + (int64_t)p * i,
                     "allreduce", i, me);
    }
    if (bad)
        fprintf(stderr, "test_fast_slots: rank %d: %s\n", me,
                mc_last_error());
    else if (me == 0)
        printf("test_fast_slots: %d ranks, flat bcast and allreduce, slot "
               "ownership asserted\n", p);
    mc_finalize();
    return bad;
}
