/* manycoll run -n N [--timeout S] PROG [ARGS]; with MC_TRACE=DIR, the
 * ranks' recording made into DIR/traces.otf2 when they are done
 * (src/trace) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tp/launch.h"
#include "tp/tp.h"
#include "trace/trace.h"
#include "util/config.h"
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

/* MC_TRACE=DIR: DIR is a directory without an archive in it (said
 * before the job starts, not after it ran) */
static int trace_dir_ok(const char *dir)
{
    char anchor[4096];
    struct stat st;
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK)) {
        fprintf(stderr, "manycoll run: MC_TRACE=%s is not a directory this "
                        "user can write to\n", dir);
        return 0;
    }
    if (stat(anchor, &st) == 0) {
        fprintf(stderr, "manycoll run: MC_TRACE=%s holds an archive "
                        "already ('%s'); remove it or record into another "
                        "directory\n", dir, anchor);
        return 0;
    }
    return 1;
}

int cmd_run(int argc, char **argv)
{
    int n, prog;
    double timeout;
    int rc = mc_run_parse(argc, argv, &n, &timeout, &prog);
    if (rc || mc_parse_only())
        return rc;
    const char *dir = mc_env("MC_TRACE");
    if (*dir && !mc_trace_have_otf2()) {
        fprintf(stderr, "manycoll run: MC_TRACE: this manycoll was built "
                        "without OTF2, which writes the archive; install "
                        "libopen-trace-format2-dev and rebuild\n");
        return 2;
    }
    if (*dir && !trace_dir_ok(dir))
        return 2;
    rc = mc_run_job(n, argv + prog, timeout);
    if (*dir && rc == 0 && mc_trace_convert(dir, n) != MC_OK) {
        fprintf(stderr, "manycoll run: %s\n", mc_last_error());
        return 1;
    }
    return rc;
}
