/*
 * The OTF2 writer of simulated spans (src/trace/spans.c) on spans made
 * to cover its cases: nested, overlapping the end of the one before
 * (written from that end), zero-length, several cores, a core without
 * spans. Writes DIR/spans.otf2 on scc48's cores and prints the clipped
 * count; tests/trace_spans_check.py reads the archive back.
 *
 *   core 0   A [0,10]  B [2,5] inside A  C [4,8] overlaps B's end
 *            D [8,8] zero-length  E [12,20]
 *   core 2   F [1,3]
 */
#include <stdio.h>

#include <manycoll.h>

#include "plat/platform.h"
#include "sim/engine.h"
#include "trace/trace.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_trace_spans DIR/NAME.otf2\n");
        return 2;
    }
    const mc_sim_trace_rec_t t[] = {
        {"E", 0, 12, 20}, {"A", 0, 0, 10}, {"F", 2, 1, 3},
        {"C", 0, 4, 8},   {"B", 0, 2, 5},  {"D", 0, 8, 8}};
    mc_platform_t *p;
    if (mc_platform_load("scc48", &p) != MC_OK) {
        fprintf(stderr, "test_trace_spans: %s\n", mc_last_error());
        return 1;
    }
    uint64_t clipped = 0;
    int rc = mc_trace_write_spans(argv[1], p, t, sizeof t / sizeof *t,
                                  &clipped);
    if (rc != MC_OK)
        fprintf(stderr, "test_trace_spans: %s\n", mc_last_error());
    else
        printf("clipped %llu\n", (unsigned long long)clipped);
    mc_platform_free(p);
    return rc == MC_OK ? 0 : 1;
}
