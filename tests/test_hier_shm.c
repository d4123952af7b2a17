/*
 * Under `manycoll run` with MC_BIND=1 and HWLOC_SYNTHETIC="pack:2 l3:2
 * core:2 pu:1": every rank knows where every rank is (rank r on PU r,
 * round robin over the 8 PUs), and a communicator split from it keeps
 * the places of its members.
 */
#include <stdio.h>

#include "api/comm.h"

int main(void)
{
    mc_comm_t *w, *odd;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "test_hier_shm: %s\n", mc_last_error());
        return 1;
    }
    int me = mc_comm_rank(w), n = mc_comm_size(w), bad = 0;
    const mc_topo_t *t = &w->team.tp->topo;
    if (t->kind != MC_TOPO_HIER || t->levels != 3) {
        fprintf(stderr, "rank %d: no hierarchy (kind %d)\n", me, t->kind);
        bad = 1;
    }
    for (int r = 0; !bad && r < n; r++) {
        int pu = r % 8, want[3] = {pu / 4, 0, pu / 2};
        for (int l = 0; l < 3; l++)
            if (t->pus[r] != pu || t->ids[r * 3 + l] != want[l]) {
                fprintf(stderr, "rank %d: rank %d level %d: pu %d id %d, want "
                        "pu %d id %d\n", me, r, l, t->pus[r], t->ids[r * 3 + l],
                        pu, want[l]);
                bad = 1;
            }
    }
    mc_comm_split(w, me % 2, me, &odd);
    const mc_topo_t *s = &odd->team.tp->topo;
    for (int i = 0; !bad && i < mc_comm_size(odd); i++)
        if (s->kind != MC_TOPO_HIER || s->pus[i] != (2 * i + me % 2) % 8) {
            fprintf(stderr, "rank %d: split rank %d on pu %d\n", me, i,
                    s->pus[i]);
            bad = 1;
        }
    mc_comm_free(odd);
    mc_finalize();
    if (me == 0 && !bad)
        printf("test_hier_shm: %d ranks placed on the synthetic machine, "
               "split included\n", n);
    return bad;
}
