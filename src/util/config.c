#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/colls.h"
#include "util/config.h"
#include "util/error.h"

/* The seconds limit of MC_TIMEOUT: a year, so that adding it to a clock
 * reading stays exact and a typo such as 1e300 is refused. */
#define YEAR_S (365.0 * 24 * 3600)

const mc_envvar_t mc_envvars[] = {
    {"MC_ALGO_<COLL>", "",
     "force an algorithm for a collective, e.g. MC_ALGO_BCAST=binomial or "
     "MC_ALGO_ALLREDUCE=rsag:chunk=4096; COLL is any collective's name in "
     "capitals (BARRIER ... REDUCE_SCATTER: `manycoll info` lists them)",
     MC_ENV_TEXT, 0, 0, 0},
    {"MC_TUNING", "",
     "tuning file (`manycoll tune`): per collective, rank count and size, "
     "the algorithm to run; unset = $XDG_CONFIG_HOME/manycoll/tuning.json "
     "(~/.config/...) if it exists, none = no tuning file (docs/tuning.md)",
     MC_ENV_TEXT, 0, 0, 0},
    {"MC_MPB_SIZE", "64K", "bytes of MPB payload per rank (shm transport)",
     MC_ENV_INT, 256, 1 << 30, 0},
    {"MC_P2P_CHUNK", "0",
     "payload bytes per two-sided chunk; 0 = the whole MPB",
     MC_ENV_INT, 0, 1 << 30, 8},
    {"MC_P2P_PIPE", "0",
     "two-sided messages above this many bytes go in half chunks, two in "
     "flight (iRCCE's pipelining; 4096 in iRCCE's evaluation); 0 = off. "
     "Not with the rp_lg and lp_lg schemes",
     MC_ENV_INT, 0, 1 << 30, 0},
    {"MC_P2P_SCHEME", "auto",
     "how two-sided chunks reach a peer on another chip of a simulated "
     "multi-chip platform (Reble et al.): lp_rg local put / remote get "
     "(RCCE, with the host's cache), rp_lg remote put / local get, lp_lg "
     "local put / local get through the host's virtual DMA; auto = lp_lg",
     MC_ENV_TEXT, 0, 0, 0},
    {"MC_TIMEOUT", "60", "seconds a wait may last before MC_ERR_TIMEOUT",
     MC_ENV_NUM, 0.001, YEAR_S, 0},
    {"MC_SPIN", "-1",
     "polls before a waiting rank yields the CPU; -1 = automatic (0 "
     "when the machine's processes outnumber its CPUs, MC_LOCAL_RANKS "
     "and MC_CPUS; else 4000)",
     MC_ENV_INT, -1, 2147483647, 0},
    {"MC_CPUS", "-1",
     "CPUs the ranks of a machine share; -1 = automatic (the machine's "
     "online CPUs, not a rank's affinity mask). More ranks than this: "
     "waiters yield at once (MC_SPIN) and the selection takes its rules "
     "for oversubscribed ranks (docs/selection.md). The same on every "
     "rank, as MC_ALGO_<COLL>",
     MC_ENV_INT, -1, 1 << 20, 0},
    {"MC_LOCAL_RANKS", "-1",
     "processes of the job on this machine, sharing its CPUs with a "
     "communicator's ranks (a communicator may be part of a larger MPI "
     "job); -1 = automatic (the launcher's count: Open MPI's "
     "OMPI_COMM_WORLD_LOCAL_SIZE, Hydra's MPI_LOCALNRANKS; a split's "
     "parent's; at least the communicator's size). More than MC_CPUS: "
     "oversubscribed, as above. The same on every rank",
     MC_ENV_INT, -1, 1 << 20, 0},
    {"MC_SINGLE_COPY", "1",
     "1: large-message algorithms read peers' buffers directly "
     "(process_vm_readv) when the kernel allows it; 0: never (staged "
     "through the MPBs)",
     MC_ENV_INT, 0, 1, 0},
    {"MC_BIND", "0",
     "1: rank r runs on the r-th PU of the machine (round robin, bound to "
     "it) and the topology-aware algorithms (bcast:hier, reduce:hier) know "
     "every rank's package, NUMA node and L3 cache (hwloc, or Linux sysfs "
     "in a build without it: `manycoll info` says which; HWLOC_SYNTHETIC "
     "describes another machine for testing, with hwloc)",
     MC_ENV_INT, 0, 1, 0},
    {"MC_CHECK_ARGS", "0",
     "1: every collective first checks that all ranks passed the same "
     "collective, count, datatype, op and root, and fails with "
     "MC_ERR_ARG on every rank if not (costs a round of flag lines per "
     "call); 0: trust the caller, as MPI does",
     MC_ENV_INT, 0, 1, 0},
    {"MC_TRACE", "",
     "DIR: record the program's collectives and communicators; `manycoll "
     "run` writes them as the OTF2 archive DIR/traces.otf2 when the job "
     "ends (docs/replay.md)",
     MC_ENV_TEXT, 0, 0, 0},
    {"MC_TRACE_TSC", "",
     "0: MC_TRACE reads clock_gettime for each call's times; otherwise it "
     "reads the TSC where the CPU's is constant and non-stop and the "
     "kernel keeps time with it",
     MC_ENV_TEXT, 0, 0, 0},
    {"MC_DATA_DIR", "",
     "a directory searched first for platforms/ and platforms/profiles/ "
     "(`manycoll --version` lists the others)",
     MC_ENV_TEXT, 0, 0, 0},
    {"MC_JOB", "", "job name (set by `manycoll run`)", MC_ENV_TEXT, 0, 0, 0},
    {"MC_RANK", "", "rank of this process (set by `manycoll run`)",
     MC_ENV_INT, 0, 1 << 20, 0},
    {"MC_SIZE", "", "number of ranks (set by `manycoll run`)",
     MC_ENV_INT, 1, 1 << 20, 0},
    {"MC_JOB_FD", "",
     "descriptor of the job's unnamed shared memory (set by `manycoll "
     "run`)",
     MC_ENV_INT, 0, 1 << 20, 0},
    {"MC_NOTE_FD", "",
     "descriptor on which ranks tell `manycoll run` which peer they found "
     "dead (set by `manycoll run`)",
     MC_ENV_INT, 0, 1 << 20, 0},
    {NULL, NULL, NULL, 0, 0, 0, 0},
};

/* MC_ names that are not the library's but are expected in the
 * environment: the MPI interposition library's (MC_MPI_*, docs/mpi.md) and
 * those of manycoll's own build and tests */
static const char *const foreign[] = {
    "MC_MPI_", "MC_MPI", "MC_REQUIRE_MPI4PY", "MC_PYTHON", "MC_BENCH_MPI",
    "MC_MPI4PY_DIR", "MC_FUZZ_VERBOSE", "MC_CMD_PARSE_ONLY", NULL};

static int known_var(const char *name, size_t len)
{
    for (const mc_envvar_t *e = mc_envvars; e->name; e++)
        if (strlen(e->name) == len && !strncmp(e->name, name, len))
            return 1;
    if (mc_coll_from_var(name, len) >= 0)
        return 1;
    for (const char *const *f = foreign; *f; f++) {
        size_t n = strlen(*f);
        if ((*f)[n - 1] == '_' ? len > n && !strncmp(name, *f, n)
                               : len == n && !strncmp(name, *f, n))
            return 1;
    }
    return 0;
}

int mc_env_unknown(char *buf, unsigned len)
{
    extern char **environ;
    int n = 0;
    size_t used = 0;
    buf[0] = 0;
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (strncmp(*e, "MC_", 3) || !eq || known_var(*e, (size_t)(eq - *e)))
            continue;
        if (used + (size_t)(eq - *e) + 3 < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%.*s",
                                     n ? ", " : "", (int)(eq - *e), *e);
        n++;
    }
    return n;
}

static const mc_envvar_t *lookup(const char *name)
{
    /* every name is MC_...: its fourth character first */
    char k = name[0] && name[1] && name[2] ? name[3] : 0;
    for (const mc_envvar_t *e = mc_envvars; e->name; e++)
        if (e->name[3] == k && strcmp(e->name, name) == 0)
            return e;
    fprintf(stderr, "manycoll: internal error: unregistered variable %s\n",
            name);
    abort();
}

/* ---- held: each variable read and parsed once (mc_env_hold) ---- */

#define NVARS (sizeof mc_envvars / sizeof mc_envvars[0])

/* what a held thread has read of one variable; an invalid value is never
 * kept (every read of it fails again, with its message) */
typedef struct memo {
    const char *text;
    long long i;
    double d;
    unsigned char has_text, has_i, has_d;
} memo_t;

/* the memo itself is on the heap while held: the thread-local storage a
 * module loaded with dlopen (the Python extension) may take is small */
static _Thread_local int held;
static _Thread_local memo_t *memo;

/* the memo: one entry per variable of the table, then one per
 * collective's MC_ALGO_<COLL> (mc_env_algo) */
void mc_env_hold(void)
{
    if (held++ == 0) /* NULL: read every time */
        memo = calloc(NVARS + MC_COLL_COUNT, sizeof *memo);
}

void mc_env_release(void)
{
    if (held > 0 && --held == 0) {
        free(memo);
        memo = NULL;
    }
}

static memo_t *memo_of(const mc_envvar_t *e)
{
    return memo ? &memo[e - mc_envvars] : NULL;
}

static const char *value_of(const mc_envvar_t *e)
{
    memo_t *m = memo_of(e);
    if (m && m->has_text)
        return m->text;
    const char *v = getenv(e->name);
    v = (v && *v) ? v : e->def;
    if (m) {
        m->text = v;
        m->has_text = 1;
    }
    return v;
}

const char *mc_env(const char *name)
{
    return value_of(lookup(name));
}

const char *mc_env_algo(int coll)
{
    memo_t *m = memo ? &memo[NVARS + coll] : NULL;
    if (m && m->has_text)
        return m->text;
    const char *v = getenv(mc_colls[coll].var);
    v = v ? v : "";
    if (m) {
        m->text = v;
        m->has_text = 1;
    }
    return v;
}

/* the number part of a size or integer, then its suffix */
static int parse_scaled(const char *s, double *out)
{
    char *end;
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v))
        return -1;
    /* hexadecimal and exponents are strtod's, not ours: digits, one dot */
    for (const char *p = s; p < end; p++)
        if (!(isdigit((unsigned char)*p) || *p == '.' ||
              (p == s && (*p == '-' || *p == '+'))))
            return -1;
    switch (*end) {
    case 'k': case 'K': v *= 1024.0; end++; break;
    case 'm': case 'M': v *= 1024.0 * 1024; end++; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end == 'i' && end[1] == 'B')
        end += 2;
    else if (*end == 'B')
        end++;
    if (*end)
        return -1;
    *out = v;
    return 0;
}

long long mc_parse_size(const char *s)
{
    double v;
    if (parse_scaled(s, &v) != 0 || v < 0 || v >= 0x1p62 || v != floor(v))
        return -1;
    return (long long)v;
}

int mc_parse_int(const char *s, long long lo, long long hi, long long *out)
{
    double v;
    if (parse_scaled(s, &v) != 0 || v != floor(v) || v < (double)lo ||
        v > (double)hi)
        return -1;
    *out = (long long)v;
    return 0;
}

void mc_env_describe_range(const mc_envvar_t *e, char *buf, unsigned len)
{
    if (e->kind == MC_ENV_INT && e->mult)
        snprintf(buf, len, "a multiple of %lld in [%.0f, %.0f]", e->mult,
                 e->min, e->max);
    else if (e->kind == MC_ENV_INT)
        snprintf(buf, len, "an integer in [%.0f, %.0f]", e->min, e->max);
    else if (e->kind == MC_ENV_NUM)
        snprintf(buf, len, "a number in [%g, %g]", e->min, e->max);
    else
        snprintf(buf, len, "text");
}

static int bad(const mc_envvar_t *e, const char *v)
{
    char range[96];
    mc_env_describe_range(e, range, sizeof range);
    return mc_error(MC_ERR_ARG, "%s='%.60s' is not valid: it must be %s%s",
                    e->name, v, range,
                    e->kind == MC_ENV_NUM ? " (plain decimal, no unit)"
                                          : " (K/M/G suffixes allowed)");
}

int mc_env_int(const char *name, long long *out)
{
    const mc_envvar_t *e = lookup(name);
    memo_t *m = memo_of(e);
    if (m && m->has_i) {
        *out = m->i;
        return MC_OK;
    }
    const char *v = value_of(e);
    long long x;
    if (e->kind != MC_ENV_INT)
        return mc_error(MC_ERR_INTERNAL, "%s is not an integer variable",
                        name);
    if (mc_parse_int(v, (long long)e->min, (long long)e->max, &x) != 0 ||
        (e->mult && x % e->mult))
        return bad(e, v);
    if (m) {
        m->i = x;
        m->has_i = 1;
    }
    *out = x;
    return MC_OK;
}

int mc_env_num(const char *name, double *out)
{
    const mc_envvar_t *e = lookup(name);
    memo_t *m = memo_of(e);
    if (m && m->has_d) {
        *out = m->d;
        return MC_OK;
    }
    const char *v = value_of(e);
    char *end;
    if (e->kind != MC_ENV_NUM)
        return mc_error(MC_ERR_INTERNAL, "%s is not a number variable", name);
    errno = 0;
    double x = *v ? strtod(v, &end) : NAN;
    /* decimal only: strtod would take "inf", "nan" and hex floats */
    for (const char *p = v; *v && p < end; p++)
        if (!(isdigit((unsigned char)*p) || strchr("+-.eE", *p)))
            x = NAN;
    if (!*v || *end || errno == ERANGE || !isfinite(x) || x < e->min ||
        x > e->max)
        return bad(e, v);
    if (m) {
        m->d = x;
        m->has_d = 1;
    }
    *out = x;
    return MC_OK;
}
