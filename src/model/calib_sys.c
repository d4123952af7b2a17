/*
 * The machinery of `manycoll calibrate`: the clock, cache-line flushes,
 * topology (from sysfs), pinning, helper threads and a two-party barrier.
 *
 * The clock. A line transfer costs 50-300 ns, about what one
 * clock_gettime() costs under a hypervisor (vDSO read of the TSC plus
 * conversion, 20-50 ns, with its own jitter). So on x86 we read the time
 * stamp counter directly, as BenchIT and the report do: `lfence; rdtsc;
 * lfence` keeps earlier loads from drifting past the read and later ones
 * from starting before it. We use it only when the CPU says the TSC is
 * invariant (constant_tsc and nonstop_tsc in /proc/cpuinfo) and convert
 * ticks to ns with a rate measured against CLOCK_MONOTONIC_RAW. Every
 * interval is started and stopped on the same thread, so TSC offsets
 * between CPUs do not matter. Elsewhere, CLOCK_MONOTONIC_RAW it is, and
 * its cost (mc_calib_tick_overhead_ns) is subtracted.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_X86 1
#else
#define HAVE_X86 0
#endif

#include "model/calib.h"
#include "model/fit.h"
#include "util/error.h"

static int use_tsc;
static double ns_per_tick = 1.0;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t mc_calib_tick(void)
{
#if HAVE_X86
    if (use_tsc) {
        _mm_lfence();
        uint64_t t = __rdtsc();
        _mm_lfence();
        return t;
    }
#endif
    return mono_ns();
}

static int tsc_invariant(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[4096];
    int ok = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5)) {
            ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    fclose(f);
    return ok;
}

int mc_calib_clock_init(int ms)
{
    use_tsc = HAVE_X86 && tsc_invariant();
    ns_per_tick = 1.0;
    if (!use_tsc)
        return MC_OK;
    /* rate over two windows; they must agree within 0.1 % */
    double rate[2];
    for (int i = 0; i < 2; i++) {
        uint64_t n0 = mono_ns(), t0 = mc_calib_tick();
        while (mono_ns() - n0 < (uint64_t)ms * 500000u)
            ;
        uint64_t n1 = mono_ns(), t1 = mc_calib_tick();
        rate[i] = (double)(n1 - n0) / (double)(t1 - t0);
    }
    if (!(rate[0] > 0) || rate[0] / rate[1] > 1.001 ||
        rate[1] / rate[0] > 1.001) {
        use_tsc = 0; /* unstable: fall back to the OS clock */
        return MC_OK;
    }
    ns_per_tick = 0.5 * (rate[0] + rate[1]);
    return MC_OK;
}

double mc_calib_ns(uint64_t ticks)
{
    return (double)ticks * ns_per_tick;
}

const char *mc_calib_clock_name(void)
{
    return use_tsc ? "rdtsc (invariant TSC, rate measured against "
                     "CLOCK_MONOTONIC_RAW)"
                   : "clock_gettime(CLOCK_MONOTONIC_RAW)";
}

double mc_calib_tick_overhead_ns(void)
{
    double v[201];
    for (int i = 0; i < 201; i++) {
        uint64_t t0 = mc_calib_tick(), t1 = mc_calib_tick();
        v[i] = mc_calib_ns(t1 - t0);
    }
    return mc_summarize(v, 201).median;
}

/* The clock's step: the greatest common divisor of the differences
 * between consecutive reads that occur in at least 0.5 % of the reads
 * (under KVM here the TSC advances in steps of 26 ticks = 10 ns, and a
 * fenced read takes 2-3 steps). */
static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

double mc_calib_clock_step_ns(void)
{
    enum { N = 20001, H = 4096 };
    static uint64_t v[N];
    static unsigned hist[H];
    memset(hist, 0, sizeof hist);
    for (int i = 0; i < N; i++)
        v[i] = mc_calib_tick();
    for (int i = 1; i < N; i++)
        if (v[i] > v[i - 1] && v[i] - v[i - 1] < H)
            hist[v[i] - v[i - 1]]++;
    uint64_t g = 0;
    for (uint64_t d = 1; d < H; d++)
        if (hist[d] >= N / 200)
            g = gcd(d, g);
    return mc_calib_ns(g ? g : 1);
}

double mc_calib_now_s(void)
{
    return 1e-9 * (double)mono_ns();
}

void mc_calib_sleep_until(double t)
{
    double left;
    while ((left = t - mc_calib_now_s()) > 0) {
        struct timespec ts = {.tv_sec = (time_t)left,
                              .tv_nsec = (long)((left - (double)(time_t)left)
                                                * 1e9)};
        nanosleep(&ts, NULL);
    }
}

int mc_calib_can_flush(void)
{
    return HAVE_X86;
}

void mc_calib_fence(void)
{
    atomic_thread_fence(memory_order_seq_cst);
}

/* clflush writes the line back if dirty and invalidates it in every cache
 * of the coherence domain; the fence orders it before later loads. */
void mc_calib_flush(const void *p)
{
#if HAVE_X86
    _mm_clflush(p);
    _mm_mfence();
#else
    (void)p;
#endif
}

void *mc_calib_alloc(size_t bytes)
{
    void *p = NULL;
    size_t page = 4096;
    bytes = (bytes + page - 1) / page * page;
    if (posix_memalign(&p, page, bytes) != 0)
        return NULL;
    memset(p, 0, bytes);
    return p;
}

/* ---- topology ---- */

static int read_int(const char *fmt, int cpu, int def)
{
    char path[256];
    snprintf(path, sizeof path, fmt, cpu);
    FILE *f = fopen(path, "r");
    int v = def;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = def;
        fclose(f);
    }
    return v;
}

static int same_l3(const mc_calib_topo_t *t, int i, int j)
{
    return t->l3[i] == t->l3[j] && t->package[i] == t->package[j];
}

static void count_domains(mc_calib_topo_t *t)
{
    t->packages = t->l3domains = 0;
    for (int i = 0; i < t->ncpu; i++) {
        int newp = 1, newl = 1;
        for (int j = 0; j < i; j++) {
            newp &= t->package[j] != t->package[i];
            newl &= !same_l3(t, i, j);
        }
        t->packages += newp;
        t->l3domains += newl;
    }
}

/* Picks T0 (a), T1 on another core of a's L3 domain (b), a third core for
 * the S state (third), a core in another L3 domain (far), a's SMT sibling. */
static void pick_roles(mc_calib_topo_t *t)
{
    t->a = 0;
    t->b = t->third = t->far = t->smt = -1;
    for (int i = 1; i < t->ncpu; i++) {
        int samecore = t->package[i] == t->package[0] &&
                       t->core[i] == t->core[0];
        if (samecore && t->smt < 0)
            t->smt = i;
        else if (!samecore && same_l3(t, 0, i) && t->b < 0)
            t->b = i;
        else if (!same_l3(t, 0, i) && t->far < 0)
            t->far = i;
    }
    if (t->b < 0 && t->far >= 0) {
        t->b = t->far;
        t->far = -1;
        t->b_crosses = 1;
    }
    for (int i = 1; i < t->ncpu && t->third < 0; i++) {
        int samecore_a = t->package[i] == t->package[0] &&
                         t->core[i] == t->core[0];
        int samecore_b = t->b >= 0 && t->package[i] == t->package[t->b] &&
                         t->core[i] == t->core[t->b];
        if (!samecore_a && !samecore_b && i != t->b)
            t->third = i;
    }
}

int mc_calib_topo_init(mc_calib_topo_t *t)
{
    memset(t, 0, sizeof *t);
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return mc_error(MC_ERR_SYS, "sched_getaffinity: %s", strerror(errno));
    for (int c = 0; c < CPU_SETSIZE && t->ncpu < MC_CALIB_MAX_CPUS; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int i = t->ncpu++;
        t->cpu[i] = c;
        t->package[i] = read_int(
            "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c, 0);
        t->core[i] = read_int("/sys/devices/system/cpu/cpu%d/topology/core_id",
                              c, c);
        /* first CPU sharing the L3: "0-7,16-23" starts with it */
        t->l3[i] = read_int("/sys/devices/system/cpu/cpu%d/cache/index3/"
                            "shared_cpu_list", c, -1);
    }
    if (t->ncpu == 0)
        return mc_error(MC_ERR_SYS, "no CPU in this process's affinity mask");
    count_domains(t);
    pick_roles(t);
    return MC_OK;
}

int mc_calib_pin_self(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (rc != 0)
        return mc_error(MC_ERR_SYS, "pthread_setaffinity_np(cpu %d): %s",
                        cpu, strerror(rc));
    return MC_OK;
}

/* ---- helper threads ---- */

struct mc_calib_helper {
    _Alignas(MC_CALIB_LINE) _Atomic uint64_t go;   /* jobs posted */
    _Alignas(MC_CALIB_LINE) _Atomic uint64_t done; /* jobs finished */
    _Alignas(MC_CALIB_LINE) mc_calib_job_fn fn;
    void *arg;
    int cpu, quit, pinned;
    pthread_t th;
};

/* Spin (the partner runs on its own CPU), yielding now and then so a
 * helper that waits long does not starve other work on a shared host. */
static void wait_until(_Atomic uint64_t *v, uint64_t want)
{
    for (unsigned spins = 0;
         atomic_load_explicit(v, memory_order_acquire) < want; spins++) {
        mc_calib_pause();
        if (spins > (1u << 20))
            sched_yield();
    }
}

static void *helper_main(void *arg)
{
    mc_calib_helper_t *h = arg;
    h->pinned = mc_calib_pin_self(h->cpu) == MC_OK;
    uint64_t seen = 0;
    for (;;) {
        wait_until(&h->go, seen + 1);
        seen++;
        if (h->quit)
            break;
        h->fn(h->arg);
        /* release: the job's writes are visible to whoever sees done */
        atomic_store_explicit(&h->done, seen, memory_order_release);
    }
    return NULL;
}

static void noop(void *arg)
{
    (void)arg;
}

mc_calib_helper_t *mc_calib_helper_new(int cpu)
{
    mc_calib_helper_t *h = mc_calib_alloc(sizeof *h);
    if (!h) {
        mc_error(MC_ERR_NOMEM, "helper thread");
        return NULL;
    }
    h->cpu = cpu;
    int rc = pthread_create(&h->th, NULL, helper_main, h);
    if (rc != 0) {
        free(h);
        mc_error(MC_ERR_SYS, "pthread_create: %s", strerror(rc));
        return NULL;
    }
    mc_calib_call(h, noop, NULL); /* the helper has tried to pin itself */
    if (!h->pinned) {
        mc_calib_helper_free(h);
        mc_error(MC_ERR_SYS, "cannot pin a helper thread to cpu %d", cpu);
        return NULL;
    }
    return h;
}

void mc_calib_start(mc_calib_helper_t *h, mc_calib_job_fn fn, void *arg)
{
    h->fn = fn;
    h->arg = arg;
    /* release: fn and arg are visible before the helper sees the job */
    atomic_fetch_add_explicit(&h->go, 1, memory_order_release);
}

void mc_calib_wait(mc_calib_helper_t *h)
{
    wait_until(&h->done, atomic_load_explicit(&h->go, memory_order_relaxed));
}

void mc_calib_call(mc_calib_helper_t *h, mc_calib_job_fn fn, void *arg)
{
    mc_calib_start(h, fn, arg);
    mc_calib_wait(h);
}

void mc_calib_helper_free(mc_calib_helper_t *h)
{
    if (!h)
        return;
    h->quit = 1;
    atomic_fetch_add_explicit(&h->go, 1, memory_order_release);
    pthread_join(h->th, NULL);
    free(h);
}

void mc_calib_pair_sync(mc_calib_pair_t *p, int me, uint64_t round)
{
    /* release my arrival; acquire the other's, so everything either side
     * did before the barrier is visible after it */
    atomic_store_explicit(me ? &p->arrive1 : &p->arrive0, round,
                          memory_order_release);
    wait_until(me ? &p->arrive0 : &p->arrive1, round);
}

void mc_calib_progress(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "calibrate: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int mc_calib_store(mc_prof_stat_t *s, const double *v, int n)
{
    mc_summary_t m = mc_summarize(v, n);
    s->mean = m.mean;
    s->stdev = m.stdev;
    s->median = m.median;
    s->count = n;
    return mc_prof_samples_set(&s->samples, v, n);
}
