/* manycoll run -n N [--timeout S] PROG [ARGS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp/launch.h"
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

/* the launcher's timeout, said when it happens */
static void timed_out(double timeout)
{
    fprintf(stderr, "manycoll run: job timed out after %.0f s\n", timeout);
}

int mc_run_job(int n, char **argv, double timeout)
{
    mc_launch_opts_t o = {.timeout = timeout, .who = "manycoll run",
                          .on_timeout = timed_out};
    mc_launch_end_t end;
    if (mc_launch(n, argv, &o, &end) != MC_OK) {
        fprintf(stderr, "manycoll run: %s\n", mc_last_error());
        if (end.named)
            fprintf(stderr, "manycoll run: cannot start %d ranks\n", n);
        return 1;
    }
    if (end.fork_errno)
        fprintf(stderr, "manycoll run: fork: %s\n", strerror(end.fork_errno));
    if (end.rank >= 0)
        fprintf(stderr, "manycoll run: rank %d (pid %d) %s%s\n", end.rank,
                end.pid, end.why,
                end.early ? ", before its peers were done with it" : "");
    return end.code;
}

int cmd_run(int argc, char **argv)
{
    int n, prog;
    double timeout;
    int rc = mc_run_parse(argc, argv, &n, &timeout, &prog);
    if (rc || mc_parse_only())
        return rc;
    return mc_run_job(n, argv + prog, timeout);
}
