/*
 * manycoll sim --traffic FILE: the bytes each rank moved to each other
 * rank in the first size's simulation, as JSON, to be drawn like Fig. 8 of
 * Reble et al. (tools/plot_traffic.py): which pairs talk, and how much of
 * it crosses between chips.
 *
 *   {"platform": "vscc240", "coll": "allreduce", "algo": "...", "ran": "...",
 *    "bytes": 4096, "ranks": 240, "chip": [0, 0, ..., 4],
 *    "inter_chip_bytes": ..., "total_bytes": ...,
 *    "matrix": [[0, 4096, ...], ...]}     matrix[from][to], by rank
 *
 * Data only: whole lines of puts and gets into or out of another core's
 * MPB; flags are not counted, nor anything before the first measured call
 * (communicator setup, --warmup calls).
 */
#include <stdio.h>
#include <string.h>

#include "sim_cmd.h"
#include "tools.h"

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    fputc('"', f);
}

int mc_sim_write_traffic(const uint64_t *t, const mc_platform_t *p,
                         const int *cores, int n, const sim_result_t *r,
                         const char *coll, const char *file)
{
    FILE *f = t ? fopen(file, "w") : NULL;
    if (!f)
        return -1;
    uint64_t total = 0, inter = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            uint64_t v = t[(size_t)a * (size_t)n + (size_t)b];
            total += v;
            inter += mc_plat_remote(p, cores[a], cores[b]) ? v : 0;
        }
    fprintf(f, "{\"platform\": ");
    json_str(f, p->name);
    fprintf(f, ", \"coll\": ");
    json_str(f, coll);
    fprintf(f, ", \"algo\": ");
    json_str(f, r->algo);
    fprintf(f, ", \"ran\": ");
    json_str(f, r->ran);
    fprintf(f, ", \"bytes\": %zu, \"ranks\": %d,\n \"total_bytes\": %llu, "
               "\"inter_chip_bytes\": %llu,\n \"chip\": [",
            r->bytes, n, (unsigned long long)total,
            (unsigned long long)inter);
    for (int a = 0; a < n; a++)
        fprintf(f, "%s%d", a ? ", " : "", mc_plat_chip(p, cores[a]));
    fprintf(f, "],\n \"matrix\": [");
    for (int a = 0; a < n; a++) {
        fprintf(f, "%s\n  [", a ? "," : "");
        for (int b = 0; b < n; b++)
            fprintf(f, "%s%llu", b ? ", " : "",
                    (unsigned long long)t[(size_t)a * (size_t)n + (size_t)b]);
        fputc(']', f);
    }
    fprintf(f, "]}\n");
    return fclose(f) == 0 ? 0 : -1;
}
