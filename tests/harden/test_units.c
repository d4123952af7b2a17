/*
 * Small pieces of the hardening, tested alone:
 *   - SipHash-2-4 against the test vector of Aumasson and Bernstein's
 *     paper (Appendix A: 15 bytes) and the reference code's first vector
 *     (the empty message); messages of 0..63 bytes all hash differently;
 *   - mc_parse_size and mc_parse_int: what they take and refuse;
 *   - mc_tp_flag_writer: the writer of each kind of flag;
 *   - mc_env_hold: a held thread reads each variable once (a change of the
 *     environment is seen again only after the last release), never keeps
 *     an invalid value, and another thread is not held;
 *   - the collectives' table (util/colls.c): every collective's
 *     MC_ALGO_<COLL> is a known variable, a name that is none is not, and
 *     every name is found again by mc_coll_lookup;
 *   - MC_ASSERT (util/assert.h), checked here whatever the build: a true
 *     condition passes, a false one prints file, line, the condition and
 *     the message on stderr and aborts.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* this file checks its asserts in every build (util/assert.h) */
#undef MC_ASSERTS
#define MC_ASSERTS 1
#include "util/assert.h"

#include "tp/tp.h"
#include "util/colls.h"
#include "util/config.h"
#include "util/siphash.h"

static int failed;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "line %d: %s\n", __LINE__, #cond);               \
            failed++;                                                        \
        }                                                                    \
    } while (0)

static void siphash(void)
{
    unsigned char key[16], msg[64];
    for (int i = 0; i < 16; i++)
        key[i] = (unsigned char)i;
    for (int i = 0; i < 64; i++)
        msg[i] = (unsigned char)i;
    CHECK(mc_siphash(key, msg, 15) == 0xa129ca6149be45e5ULL);
    uint64_t seen[64];
    for (int n = 0; n < 64; n++) {
        seen[n] = mc_siphash(key, msg, (size_t)n);
        for (int j = 0; j < n; j++)
            CHECK(seen[j] != seen[n]);
    }
    /* the reference implementation's first vector: the empty message */
    CHECK(seen[0] == 0x726fdb47dd0e0e31ULL);
}

static void parsers(void)
{
    long long v;
    CHECK(mc_parse_size("64K") == 65536);
    CHECK(mc_parse_size("1.5M") == 1572864);
    CHECK(mc_parse_size("16KiB") == 16384);
    CHECK(mc_parse_size("0.5K") == 512);
    CHECK(mc_parse_size("0.5") == -1); /* half a byte */
    CHECK(mc_parse_size("-1") == -1);
    CHECK(mc_parse_size("1e3") == -1);
    CHECK(mc_parse_size("0x10") == -1);
    CHECK(mc_parse_size("nan") == -1);
    CHECK(mc_parse_size(" 8") == -1);
    CHECK(mc_parse_size("8 ") == -1);
    CHECK(mc_parse_size("8G") == 8LL << 30);
    CHECK(mc_parse_size("99999999999G") == -1); /* past 2^62 */
    CHECK(mc_parse_int("-1", -1, 10, &v) == 0 && v == -1);
    CHECK(mc_parse_int("11", -1, 10, &v) == -1);
    CHECK(mc_parse_int("4294967297", 1, 1 << 20, &v) == -1);
}

static void writers(void)
{
    /* 4 ranks, 64-byte lines (8 flags): words 0-3 "sent", 4-7 "ready" */
    CHECK(mc_tp_flag_writer(4, 64, 0, 2) == 2);
    CHECK(mc_tp_flag_writer(4, 64, 0, 6) == 2);
    /* bank lines follow the one p2p line: line 1 + 0..7 = (bank, writer) */
    CHECK(mc_tp_flag_writer(4, 64, 0, 8 * (1 + 3)) == 3);
    CHECK(mc_tp_flag_writer(4, 64, 0, 8 * (1 + 4 + 1)) == 1);
    /* after the banks: owner-written lines, then shared ack words */
    CHECK(mc_tp_flag_writer(4, 64, 2, 8 * (1 + 8 + 0)) == 2);
    CHECK(mc_tp_flag_writer(4, 64, 2, 8 * (1 + 8 + 48)) == -1);
}

static long long chunk(int *rc)
{
    long long v = -1;
    *rc = mc_env_int("MC_P2P_CHUNK", &v);
    return v;
}

static void *other_thread(void *arg)
{
    int rc;
    *(long long *)arg = chunk(&rc);
    return NULL;
}

static void held(void)
{
    int rc;
    double t = 0;
    setenv("MC_P2P_CHUNK", "1K", 1);
    setenv("MC_TIMEOUT", "7", 1);
    mc_env_hold();
    CHECK(chunk(&rc) == 1024 && rc == 0);
    CHECK(mc_env_num("MC_TIMEOUT", &t) == 0 && t == 7);
    CHECK(!strcmp(mc_env("MC_TIMEOUT"), "7"));
    setenv("MC_P2P_CHUNK", "2K", 1);
    setenv("MC_TIMEOUT", "9", 1);
    CHECK(chunk(&rc) == 1024); /* held: read once */
    CHECK(mc_env_num("MC_TIMEOUT", &t) == 0 && t == 7);
    CHECK(!strcmp(mc_env("MC_TIMEOUT"), "7"));
    long long seen = -1;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, other_thread, &seen) == 0);
    pthread_join(th, NULL);
    CHECK(seen == 2048); /* not held there */
    mc_env_hold(); /* nested */
    mc_env_release();
    CHECK(chunk(&rc) == 1024);
    mc_env_release();
    CHECK(chunk(&rc) == 2048 && rc == 0); /* released: read again */
    CHECK(mc_env_num("MC_TIMEOUT", &t) == 0 && t == 9);
    setenv("MC_P2P_CHUNK", "12", 1); /* not a multiple of 8 */
    mc_env_hold();
    CHECK(chunk(&rc) == -1 && rc == MC_ERR_ARG);
    CHECK(strstr(mc_last_error(), "MC_P2P_CHUNK") != NULL);
    CHECK(chunk(&rc) == -1 && rc == MC_ERR_ARG); /* not kept */
    mc_env_release();
    unsetenv("MC_P2P_CHUNK");
    unsetenv("MC_TIMEOUT");
    mc_env_hold();
    CHECK(chunk(&rc) == 0 && rc == 0); /* the default */
    mc_env_release();
}

/* n unknown MC_ variables in the environment, their names in buf */
static int unknown(char *buf)
{
    return mc_env_unknown(buf, 512);
}

static void colls(void)
{
    char buf[512];
    int before = unknown(buf);
    for (int k = 0; k < MC_COLL_COUNT; k++) {
        const mc_coll_info_t *i = mc_coll_info((mc_coll_t)k);
        mc_coll_t back = MC_COLL_COUNT;
        CHECK(i && i->coll == (mc_coll_t)k);
        CHECK(mc_coll_lookup(i->name, &back) == MC_OK && (int)back == k);
        setenv(i->var, "x", 1);
        CHECK(unknown(buf) == before); /* known: not reported */
        unsetenv(i->var);
    }
    CHECK(mc_coll_info(MC_COLL_COUNT) == NULL);
    mc_coll_t k;
    CHECK(mc_coll_lookup("allreducev", &k) == MC_ERR_ARG);
    CHECK(strstr(mc_last_error(), "reduce_scatter_block") != NULL);
    setenv("MC_ALGO_X", "linear", 1);
    setenv("MC_ALGO_SCANX", "linear", 1);
    CHECK(unknown(buf) == before + 2 && strstr(buf, "MC_ALGO_X") &&
          strstr(buf, "MC_ALGO_SCANX"));
    unsetenv("MC_ALGO_X");
    unsetenv("MC_ALGO_SCANX");
}

/* MC_ASSERT(x == 3) in a child: its stderr, and whether it aborted */
static int assert_in_child(int x, char *out, size_t len)
{
    int fd[2];
    if (pipe(fd))
        return 0;
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        MC_ASSERT(x == 3, "x is %d", x);
        _exit(0);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < len && (r = read(fd[0], out + n, len - n - 1)) > 0)
        n += (size_t)r;
    out[n] = 0;
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void asserts(void)
{
    char out[512];
    CHECK(!assert_in_child(3, out, sizeof out) && !out[0]);
    CHECK(assert_in_child(4, out, sizeof out));
    CHECK(strstr(out, "manycoll: assertion failed at tests/harden/"
                      "test_units.c:") != NULL);
    CHECK(strstr(out, ": x == 3: x is 4\n") != NULL);
}

int main(void)
{
    asserts();
    siphash();
    parsers();
    writers();
    held();
    colls();
    if (failed)
        return 1;
    printf("test_units: siphash, size and number parsers, flag writers, "
           "held variables, the collectives' variables, MC_ASSERT\n");
    return 0;
}
