/*
 * Chrome/Perfetto trace of a simulation (open in ui.perfetto.dev or
 * chrome://tracing): one track per core, a span per operation (put, get,
 * flag, wait, copy, reduce), times in microseconds of virtual time; or,
 * for a FILE named NAME.otf2, the same spans as an OTF2 archive (Vampir,
 * otf2-print; src/trace/spans.c). The
 * tracks are named for the cores that have spans, found in one pass over
 * the records (a scan of the records per core was cores x records: days
 * for a replay at 65,536 ranks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_cmd.h"
#include "trace/trace.h"

/* FILE ending in .otf2: an OTF2 archive there (src/trace/spans.c) */
static int write_otf2(const mc_platform_t *p, const mc_sim_trace_rec_t *t,
                      size_t n, const char *file)
{
    uint64_t clipped = 0;
    if (mc_trace_write_spans(file, p, t, n, &clipped) != MC_OK) {
        fprintf(stderr, "manycoll: %s\n", mc_last_error());
        return -1;
    }
    fprintf(stderr, "manycoll: wrote %zu trace spans to the OTF2 archive %s"
                    "%s\n", n, file, clipped ? " (some overlapping spans "
                    "start where the one before them ends)" : "");
    return 0;
}

int mc_sim_write_trace(const mc_platform_t *p, const mc_sim_trace_rec_t *t,
                       size_t n, const char *file)
{
    size_t len = strlen(file);
    if (len > 5 && !strcmp(file + len - 5, ".otf2"))
        return write_otf2(p, t, n, file);
    unsigned char *used = calloc((size_t)p->ncores + 1, 1);
    if (!used) {
        fprintf(stderr, "manycoll: out of memory for the trace's tracks\n");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (t[i].core >= 0 && t[i].core < p->ncores)
            used[t[i].core] = 1;
    FILE *f = fopen(file, "w");
    if (!f) {
        perror(file);
        free(used);
        return -1;
    }
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    int first = 1;
    for (int c = 0; c < p->ncores; c++) {
        if (!used[c])
            continue;
        fprintf(f, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
                   "\"tid\":%d,\"args\":{\"name\":\"core %d (tile %d,%d)\"}}",
                first ? "" : ",\n", c, c, p->tile_x[c], p->tile_y[c]);
        first = 0;
    }
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s{\"name\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":%d,"
                   "\"ts\":%.6f,\"dur\":%.6f}",
                first && i == 0 ? "" : ",\n", t[i].name, t[i].core,
                (double)t[i].start / MC_PS_PER_US,
                (double)(t[i].end - t[i].start) / MC_PS_PER_US);
    fprintf(f, "\n]}\n");
    fclose(f);
    free(used);
    fprintf(stderr, "manycoll: wrote %zu trace events to %s\n", n, file);
    return 0;
}
