/*
 * Fuzzing target: the command line and the environment. The input is a
 * parser number (its first byte), then arguments separated by newlines:
 *   0 `manycoll run` options     1 `manycoll sim` options
 *   2 `manycoll bench` options   3 an algorithm spec (MC_ALGO_<COLL>)
 *   4 a size list (--sizes)      5 a value of each numeric variable
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "select/registry.h"
#include "sim_cmd.h"
#include "tools.h"
#include "util/config.h"

#define MAX_ARGS 32

static int split_args(char *text, char **argv)
{
    int argc = 0;
    argv[argc++] = "manycoll";
    for (char *t = text; t && argc < MAX_ARGS;) {
        argv[argc++] = t;
        t = strchr(t, '\n');
        if (t)
            *t++ = 0;
    }
    argv[argc] = NULL;
    return argc;
}

static void env_values(const char *v)
{
    static const char *const ints[] = {"MC_MPB_SIZE", "MC_P2P_CHUNK",
                                       "MC_SPIN", "MC_SINGLE_COPY",
                                       "MC_CHECK_ARGS", "MC_RANK"};
    long long x;
    double d;
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        setenv(ints[i], v, 1);
        mc_env_int(ints[i], &x);
        unsetenv(ints[i]);
    }
    setenv("MC_TIMEOUT", v, 1);
    mc_env_num("MC_TIMEOUT", &d);
    unsetenv("MC_TIMEOUT");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int quiet;
    char *text = mc_fuzz_text(data, size, 4096), *argv[MAX_ARGS + 1];
    if (!quiet++)
        mc_fuzz_quiet();
    if (!text || !size)
        return 0;
    int which = (unsigned char)text[0] % 6, argc = split_args(text + 1, argv);
    int n, prog;
    double timeout;
    sim_opts_t so;
    mc_sel_t sel;
    size_t sizes[64];
    switch (which) {
    case 0: mc_run_parse(argc, argv, &n, &timeout, &prog); break;
    case 1: mc_sim_parse(argc, argv, &so); break;
    case 2: mc_bench_parse(argc, argv); break;
    case 3:
        mc_algo_parse((mc_coll_t)((unsigned)size % MC_COLL_COUNT), argv[1],
                      "fuzz", &sel);
        break;
    case 4: mc_parse_size_list(argv[1], sizes, 64); break;
    default: env_values(argv[1]); break;
    }
    return 0;
}
