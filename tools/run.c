/* manycoll run -n N [--timeout S] PROG [ARGS] */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

int cmd_run(int argc, char **argv)
{
    int n = 0, i = 1;
    double timeout = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "--np")) &&
            i + 1 < argc) {
            char *end;
            n = (int)strtol(argv[++i], &end, 10);
            if (*end || n < 1)
                return mc_usage_error("run", "-n: '%s' is not a rank count "
                                             ">= 1", argv[i]);
        } else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
            timeout = strtod(argv[++i], NULL);
        } else if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else {
            return mc_usage_error("run", "unknown option '%s'", argv[i]);
        }
    }
    if (n < 1)
        return mc_usage_error("run", "missing -n N");
    if (i >= argc)
        return mc_usage_error("run", "missing program to run");
    return mc_launch(n, argv + i, timeout);
}
