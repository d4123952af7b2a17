/*
 * mc_comm_split: even and odd ranks, ordered by descending key; a rank
 * with MC_UNDEFINED gets NULL; collectives on the parts and on the parent
 * interleave correctly. A part shares the machine's CPUs with the whole
 * job: it is oversubscribed exactly when its parent is (ctest sets
 * MC_CPUS=3, so 4 and 5 ranks are and parts of 2 and 3 only as parts).
 */
#include <stdio.h>

#include "api/comm.h"
#include "manycoll.h"

int main(void)
{
    mc_comm_t *w, *part, *none;
    if (mc_init(&w) != MC_OK)
        return 1;
    int me = mc_comm_rank(w), n = mc_comm_size(w), bad = 0;
    if (mc_comm_split(w, me % 2, -me, &part) != MC_OK) {
        fprintf(stderr, "split: %s\n", mc_last_error());
        return 1;
    }
    int psize = (n + (me % 2 == 0)) / 2;
    /* descending key: the highest parent rank of the part is its rank 0 */
    int want_rank = (psize - 1) - me / 2;
    if (mc_comm_size(part) != psize || mc_comm_rank(part) != want_rank) {
        fprintf(stderr, "rank %d: part size %d rank %d, expected %d %d\n", me,
                mc_comm_size(part), mc_comm_rank(part), psize, want_rank);
        bad++;
    }
    if (part->team.tp->oversubscribed != w->team.tp->oversubscribed) {
        fprintf(stderr, "rank %d: the part of %d ranks says %s, the job of "
                "%d %s\n", me, mc_comm_size(part),
                part->team.tp->oversubscribed ? "oversubscribed" : "not",
                n, w->team.tp->oversubscribed ? "oversubscribed" : "not");
        bad++;
    }
    for (int it = 0; it < 3; it++) {
        long x = me, sum = 0, all = 0;
        mc_allreduce(part, &x, &sum, 1, MC_INT64, MC_SUM);
        mc_allreduce(w, &x, &all, 1, MC_INT64, MC_SUM);
        long want = 0;
        for (int r = me % 2; r < n; r += 2)
            want += r;
        if (sum != want || all != (long)n * (n - 1) / 2) {
            fprintf(stderr, "rank %d: sums %ld %ld, expected %ld %ld\n", me,
                    sum, all, want, (long)n * (n - 1) / 2);
            bad++;
        }
    }
    if (mc_comm_split(w, me == 0 ? MC_UNDEFINED : 7, 0, &none) != MC_OK ||
        (me == 0) != (none == NULL)) {
        fprintf(stderr, "rank %d: MC_UNDEFINED split wrong\n", me);
        bad++;
    }
    if (none) {
        long x = 1, y = 0;
        mc_allreduce(none, &x, &y, 1, MC_INT64, MC_SUM);
        bad += y != n - 1;
        mc_comm_free(none);
    }
    mc_comm_free(part);
    mc_finalize();
    if (!bad && me == 0)
        printf("test_split: %d ranks split and reduced correctly\n", n);
    return bad != 0;
}
