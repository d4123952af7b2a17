/* manycoll run -n N [--timeout S] PROG [ARGS] */
#include <stdlib.h>
#include <string.h>

#include "tp/tp.h"
#include "tools.h"

int mc_run_parse(int argc, char **argv, int *n, double *timeout, int *prog)
{
    int i = 1;
    *n = 0;
    *timeout = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        long long v;
        if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "--np")) &&
            i + 1 < argc) {
            if (mc_opt_int("run", "-n", argv[++i], 1, MC_MAX_RANKS, &v))
                return 2;
            *n = (int)v;
        } else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
            /* seconds; 0 = none */
            if (mc_opt_num("run", "--timeout", argv[++i], 0, 1e9, timeout))
                return 2;
        } else if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else {
            int known = !strcmp(argv[i], "-n") || !strcmp(argv[i], "--np") ||
                        !strcmp(argv[i], "--timeout");
            return mc_usage_error("run", known ? "option '%s' needs a value"
                                               : "unknown option '%s'",
                                  argv[i]);
        }
    }
    if (*n < 1)
        return mc_usage_error("run", "missing -n N");
    if (i >= argc)
        return mc_usage_error("run", "missing program to run");
    *prog = i;
    return 0;
}

int cmd_run(int argc, char **argv)
{
    int n, prog;
    double timeout;
    int rc = mc_run_parse(argc, argv, &n, &timeout, &prog);
    if (rc)
        return rc;
    return mc_launch(n, argv + prog, timeout);
}
