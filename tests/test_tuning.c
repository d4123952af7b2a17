/*
 * Tuning files (src/select/tuning.h).
 *
 *   test_tuning parse      the reader on good and malformed texts: every
 *                          error is MC_ERR_ARG with a message naming the
 *                          file and the problem
 *   test_tuning describe   under `manycoll run -n N`: mc_init (which
 *                          reads MC_TUNING), then rank 0 prints what
 *                          bcast / reduce of 8 bytes and the barrier
 *                          select, runs them (the results are checked),
 *                          and shows that mc_comm_set_algo comes first.
 *                          If mc_init fails it prints the error and
 *                          exits with status 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "select/select.h"
#include "select/tuning.h"
#include "util/error.h"

static int fails;

static void expect_error(const char *text, const char *want)
{
    mc_tuning_t t;
    int rc = mc_tuning_parse(text, "bad.json", &t);
    const char *msg = mc_last_error();
    if (rc != MC_ERR_ARG || !strstr(msg, "bad.json") || !strstr(msg, want)) {
        fprintf(stderr, "FAIL: expected an error with '%s', got %d '%s'\n"
                "  for: %s\n", want, rc, rc ? msg : "", text);
        fails++;
        if (rc == MC_OK)
            mc_tuning_free(&t);
    }
}

#define HEAD "{\"format\": \"manycoll-tuning/1\", \"transport\": \"shm\", "
#define RULE(c, r, b, a)                                                     \
    "{\"coll\": \"" c "\", \"ranks\": " r ", \"bytes\": " b ", "            \
    "\"algo\": \"" a "\"}"

static int parse_tests(void)
{
    mc_tuning_t t;
    const char *good =
        HEAD "\"profile\": \"x\", \"rules\": ["
        RULE("bcast", "[2, 8]", "[0, 56]", "cc-tree:k1=3,k2=2") ", "
        RULE("bcast", "[2, 8]", "[57, null]", "cc-flat") ", "
        "{\"coll\": \"barrier\", \"ranks\": [2, 2], \"bytes\": [0, null], "
        "\"algo\": \"dissemination-m:m=1\", \"predicted_ns\": {\"min\": 1, "
        "\"max\": 2}, \"model\": \"Eq. 4.11\"}]}";
    if (mc_tuning_parse(good, "good.json", &t) != MC_OK || t.n != 3 ||
        t.rules[0].sel.params.v[0] != 3 || t.rules[1].bytes_hi != SIZE_MAX ||
        t.rules[2].max_ns != 2 || strcmp(t.transport, "shm")) {
        fprintf(stderr, "FAIL: good file: %s\n", mc_last_error());
        fails++;
    }
    mc_tuning_free(&t);
    expect_error("{\"format\": ", "line 1, column");
    expect_error("[1, 2]", "expected an object");
    expect_error("{\"format\": \"x/2\", \"transport\": \"shm\", \"rules\": []}",
                 "format");
    expect_error(HEAD "\"rules\": [], \"colour\": 1}", "colour: unknown key");
    expect_error(HEAD "\"rulez\": []}", "unknown key");
    expect_error("{\"format\": \"manycoll-tuning/1\", \"rules\": []}",
                 "transport: missing");
    expect_error(HEAD "\"rules\": 3}", "rules: missing, or not a list");
    expect_error(HEAD "\"rules\": [" RULE("bcst", "[2, 8]", "[0, 1]", "x")
                 "]}", "rules[0].coll: unknown collective 'bcst'");
    expect_error(HEAD "\"rules\": [" RULE("bcast", "[2, 8]", "[0, 1]",
                 "cc-tre") "]}", "rules[0].algo: unknown bcast algorithm "
                 "'cc-tre'; valid:");
    expect_error(HEAD "\"rules\": [" RULE("bcast", "[2, 8]", "[0, 1]",
                 "cc-tree:q=2") "]}", "has no parameter 'q'");
    expect_error(HEAD "\"rules\": [" RULE("bcast", "[2, 8]", "[0, 1]",
                 "cc-tree:k1=-1") "]}", "must be in");
    expect_error(HEAD "\"rules\": [" RULE("bcast", "[8, 2]", "[0, 1]",
                 "cc-flat") "]}", "rules[0].ranks: needs 0 <= lo <= hi");
    expect_error(HEAD "\"rules\": [" RULE("bcast", "[0, 2]", "[0, 1]",
                 "cc-flat") "]}", "rules[0].ranks: rank counts must be");
    expect_error(HEAD "\"rules\": [" RULE("bcast", "[2, 8]", "[0]",
                 "cc-flat") "]}", "rules[0].bytes: expected [lo, hi]");
    expect_error(HEAD "\"rules\": [" RULE("bcast", "[2, null]", "[0, 1]",
                 "cc-flat") "]}", "rules[0].ranks: expected [lo, hi]");
    expect_error(HEAD "\"rules\": [{\"coll\": \"bcast\", \"ranks\": [2, 3]"
                 "}]}", "rules[0].bytes: missing");
    expect_error(HEAD "\"rules\": [" RULE("bcast", "[2, 8]", "[0, 100]",
                 "cc-flat") ", " RULE("bcast", "[8, 9]", "[100, null]",
                 "cc-tree") "]}", "rules[0] and rules[1] both cover bcast");
    return fails;
}

static int describe(void)
{
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK) {
        fprintf(stderr, "test_tuning: mc_init: %s\n", mc_last_error());
        return 3;
    }
    int me = mc_comm_rank(c), n = mc_comm_size(c);
    char b[160], r[160], z[160], after[160];
    mc_comm_describe(c, MC_COLL_BCAST, 8, MC_SUM, b, sizeof b);
    mc_comm_describe(c, MC_COLL_REDUCE, 8, MC_SUM, r, sizeof r);
    mc_comm_describe(c, MC_COLL_BARRIER, 0, MC_SUM, z, sizeof z);
    /* what was selected must also run, and be right */
    int64_t x = me + 1, sum = 0, v = me == 0 ? 42 : 0;
    int rc = mc_bcast(c, &v, 1, MC_INT64, 0);
    if (rc == MC_OK)
        rc = mc_reduce(c, &x, &sum, 1, MC_INT64, MC_SUM, 0);
    if (rc == MC_OK)
        rc = mc_barrier(c);
    if (rc != MC_OK || v != 42 || (me == 0 && sum != (int64_t)n * (n + 1) / 2)) {
        fprintf(stderr, "test_tuning: rank %d: wrong result (%s)\n", me,
                rc ? mc_last_error() : "values");
        return 1;
    }
    mc_comm_set_algo(c, "bcast", "binomial");
    mc_comm_describe(c, MC_COLL_BCAST, 8, MC_SUM, after, sizeof after);
    if (me == 0)
        printf("bcast 8: %s\nreduce 8: %s\nbarrier: %s\n"
               "bcast 8 after mc_comm_set_algo: %s\n", b, r, z, after);
    mc_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "parse")) {
        if (parse_tests())
            return 1;
        printf("test_tuning: every malformed file gives its error\n");
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "describe"))
        return describe();
    fprintf(stderr, "usage: test_tuning parse|describe\n");
    return 2;
}
