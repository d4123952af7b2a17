/*
 * The generated correctness walk (walk.c) on the shared-memory transport:
 * run under `manycoll run -n N`. Options: --coll C and --algo A restrict
 * the walk; --seed S; --level tiny|light|medium|full (default full).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/comm.h"
#include "walk.h"

int main(int argc, char **argv)
{
    mc_walk_t w = {.seed = 1, .level = MC_WALK_FULL};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--coll")) w.coll = argv[i + 1];
        else if (!strcmp(argv[i], "--algo")) w.algo = argv[i + 1];
        else if (!strcmp(argv[i], "--seed")) w.seed = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--level")) {
            if ((w.level = mc_walk_level(argv[i + 1])) == -2) {
                fprintf(stderr, "test_coll: --level: unknown level '%s'\n",
                        argv[i + 1]);
                return 2;
            }
        }
    }
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK) {
        fprintf(stderr, "test_coll: mc_init: %s\n", mc_last_error());
        return 1;
    }
    /* MC_SINGLE_COPY=0 must turn single copy off (the direct algorithms
     * then run their fallbacks) */
    const char *sc = getenv("MC_SINGLE_COPY");
    if (sc && !strcmp(sc, "0") && c->team.tp->single_copy) {
        fprintf(stderr, "test_coll: MC_SINGLE_COPY=0 but single copy is on\n");
        return 1;
    }
    /* the barrier's arrival record: a segment of the test's own */
    mc_arrivals_t arr;
    if (mc_arrivals_open(mc_comm_rank(c), mc_comm_size(c), w.seed, &arr)) {
        fprintf(stderr, "test_coll: cannot create the arrival record\n");
        return 1;
    }
    w.arrivals = &arr;
    int rc = mc_walk(c, &w);
    mc_arrivals_close(&arr);
    if (mc_comm_rank(c) == 0)
        printf("test_coll: %d ranks, %d algorithms, %d cases per rank, "
               "%d wrong (single copy %s)\n",
               mc_comm_size(c), w.algos, w.cases, w.failures,
               c->team.tp->single_copy ? "on" : "off");
    mc_finalize();
    return rc ? 1 : 0;
}
