/*
 * Which core each rank runs on (`manycoll sim --map`, `manycoll replay
 * --map`, Python's map=): linear (the default) is RCCE's: rank i on the
 * i-th core that works, chip by chip, skipping the platform's
 * failed_cores as RCCE's start script does (Reble et al., section 4). A
 * FILE lists one core per rank, whitespace separated ('#' starts a
 * comment): any placement, e.g. ring neighbours kept on one chip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/platform.h"
#include "util/error.h"

/* the cores listed in `path` into out[0..max): how many, or -1 */
static int read_map(const char *path, int *out, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return mc_error(MC_ERR_ARG, "--map: cannot read %s", path), -1;
    int n = 0, ch;
    long v;
    for (;;) {
        while ((ch = fgetc(f)) == ' ' || ch == '\t' || ch == '\n' ||
               ch == '\r')
            ;
        if (ch == '#') {
            while ((ch = fgetc(f)) != EOF && ch != '\n')
                ;
            continue;
        }
        if (ch == EOF)
            break;
        ungetc(ch, f);
        if (fscanf(f, "%ld", &v) != 1 || v < 0 || v >= max || n >= max) {
            fclose(f);
            mc_error(MC_ERR_ARG, "--map %s: entry %d is not a core of the "
                                 "platform (0 to %d)", path, n + 1, max - 1);
            return -1;
        }
        out[n++] = (int)v;
    }
    fclose(f);
    return n;
}

int mc_plat_map(const mc_platform_t *p, const char *map, int *ranks,
                int **out)
{
    int *cores = malloc(sizeof(int) * (size_t)p->ncores);
    if (!cores)
        return mc_error(MC_ERR_NOMEM, "out of memory");
    if (!map || !strcmp(map, "linear")) {
        if (*ranks <= 0)
            *ranks = mc_plat_working(p);
        if (mc_plat_map_linear(p, *ranks, cores) != MC_OK) {
            free(cores);
            return MC_ERR_ARG; /* mc_last_error() says why */
        }
        *out = cores;
        return 0;
    }
    int n = read_map(map, cores, p->ncores);
    char *seen = calloc((size_t)p->ncores, 1);
    int bad = n < 0 || !seen;
    for (int i = 0; !bad && i < n; i++) {
        if (seen[cores[i]] || (p->failed && p->failed[cores[i]]))
            bad = mc_error(MC_ERR_ARG, "--map %s: core %d is listed twice "
                           "or in %s's failed_cores", map, cores[i],
                           p->name);
        seen[cores[i]] = 1;
    }
    free(seen);
    if (!bad && *ranks <= 0)
        *ranks = n;
    if (!bad && (n < 1 || *ranks > n))
        bad = mc_error(MC_ERR_ARG, "--map %s: %d cores for %d ranks",
                       map, n, *ranks);
    if (bad) {
        free(cores);
        return MC_ERR_ARG;
    }
    *out = cores;
    return 0;
}
