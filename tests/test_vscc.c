/*
 * Several chips behind one host (platforms/vscc240.json, the vSCC of Reble
 * et al., PMAM'15), computed here from the platform's numbers and the
 * SCC's layout, independently of the simulator's code:
 *
 *   test_vscc layout     cores numbered chip by chip, each chip a copy of
 *       scc48 (tiles, controllers), tp_locality per pair, and bad files
 *       refused with a message naming the field
 *   test_vscc formulas   puts and gets of 1-3 lines from three cores of
 *       chip 0 to every core of chips 1 and 4 take the host path's
 *       formula to the picosecond, without contention (closed form) and
 *       with it (line-stepped, one pair at a time), for writes acknowledged
 *       by the host (vscc240) and by the target (vscc240-routing)
 *   test_vscc ratio      the fit: a one-line read from another chip takes
 *       120 times a one-line read on the chip, both over every pair of
 *       cores (Reble et al., section 5), and about 10^4 cycles of the
 *       533 MHz core (section 3)
 *   test_vscc host       47 cores of chip 0 write one flag each to chip 1
 *       at once: the host thread of chip 0 takes them one after the other,
 *       so the last completes 46 host services after the first; 47 data
 *       lines go into the host's write-combining buffer, one link slot
 *       apart, without waiting for the thread
 *   test_vscc chips      47 cores of each of two chips read from core 0 of
 *       their own chip at once: each takes exactly what it takes with the
 *       other chip idle (links, MPB ports, controllers are per chip)
 *   test_vscc task       the host task's copy of an MPB (sim/host_task.c):
 *       a read from another chip of a prefetched range saves the owner's
 *       side of every line (2 d L_hop + 2 pcie + 2 host_service each), and
 *       a read made at once, over a slow link, ends when the last line
 *       has reached the host and come back, not before; after an
 *       invalidation the read costs what it costs without the copy
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/engine.h"
#include "tp/sim.h"
#include "tp/tp.h"

#include "scc_layout.h"

/* vscc240.json, in picoseconds (Table 1 of scc48: scc_layout.h) */
enum { PCIE = 3341000, HOST = 3341000 };

/* the host link at router (3,0) of every chip */
static int dport(int c) { return abs(tx(c) - 3) + ty(c) + 1; }

/* one line between chips: one way, a read, a data write's
 * acknowledgement (by the target; by the host's write-combining buffer,
 * without its thread) and a flag write's (by the host's thread) */
static long way(int a, int b)
{
    return (long)(dport(a) + dport(b)) * L_HOP + 2L * PCIE + HOST;
}
static long rd(int a, int b) { return O_MPB + 2 * way(a, b); }
static long wr(int a, int b, int routing)
{
    return O_MPB +
           (routing ? 2 * way(a, b) : 2L * dport(a) * L_HOP + 2L * PCIE);
}
static long flag_wr(int a)
{
    return O_PUT_MEM + O_MEM_R + 2L * dmem(a) * L_HOP + O_MPB +
           2L * dport(a) * L_HOP + 2L * PCIE + HOST;
}

static int fails;
#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond) && fails++ < 20) {                                        \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
        }                                                                     \
    } while (0)

typedef struct probe {
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    int core, routing, checked;
    int targets[96], ntargets;
    mc_ps_t start, end;
} probe_t;

static mc_sim_t *make(mc_platform_t *pl, int cont, int n, int *cores,
                      mc_sim_domain_t **dom)
{
    mc_sim_opts_t o = {cont, cont, cont, 0, 0, 0, NULL, NULL, 0};
    mc_sim_t *sim;
    if (mc_sim_create(pl, pl->ncores, &o, &sim) != MC_OK ||
        mc_sim_tp_domain(sim, NULL, 0, cores, n, dom) != MC_OK) {
        fprintf(stderr, "setup: %s\n", mc_last_error());
        exit(1);
    }
    return sim;
}

static mc_platform_t *load(const char *name)
{
    mc_platform_t *pl;
    if (mc_platform_load(name, &pl) != MC_OK) {
        fprintf(stderr, "%s: %s\n", name, mc_last_error());
        exit(1);
    }
    return pl;
}

/* ---- layout ---- */

static void bad_file(const char *json, const char *want)
{
    char path[] = "/tmp/manycoll-vscc-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        CHECK(0, "cannot write a temporary file");
        return;
    }
    fputs(json, f);
    fclose(f);
    mc_platform_t *pl = NULL;
    int rc = mc_platform_load(path, &pl);
    CHECK(rc != MC_OK && strstr(mc_last_error(), want),
          "%s: wanted an error naming \"%s\", got %s", json, want,
          rc == MC_OK ? "success" : mc_last_error());
    mc_platform_free(pl);
    unlink(path);
}

#define LINK "\"interconnect\": {\"kind\": \"host\", \"port_tile\": [3, 0], " \
             "\"pcie_latency_us\": 1, \"host_service_us\": 1, \"link_MBps\": 10"

static void locality_main(void *arg)
{
    probe_t *p = arg;
    mc_tp_t *tp;
    if (mc_sim_tp_create(p->sim, p->dom, 0, &tp) != MC_OK)
        return;
    /* ranks 0..4 on cores 0, 1, 2, 47, 48 */
    static const int want[5] = {MC_LOC_SELF, MC_LOC_TILE, MC_LOC_CHIP,
                                MC_LOC_CHIP, MC_LOC_OTHER};
    for (int r = 0; r < 5; r++, p->checked++)
        CHECK(tp_locality(tp, r) == want[r], "locality of rank %d: %d, not "
              "%d", r, tp_locality(tp, r), want[r]);
    tp->ops->destroy(tp);
}

static int layout(void)
{
    mc_platform_t *pl = load("vscc240"), *chip = load("scc48");
    CHECK(pl->ncores == 240 && pl->host.nchips == 5 &&
              pl->host.chip_cores == 48 && pl->nmc == 20,
          "vscc240: %d cores, %d chips", pl->ncores, pl->host.nchips);
    for (int c = 0; c < pl->ncores; c++) {
        int k = c % 48;
        CHECK(mc_plat_chip(pl, c) == c / 48 &&
                  pl->tile_x[c] == chip->tile_x[k] &&
                  pl->tile_y[c] == chip->tile_y[k] &&
                  pl->mc_of[c] == chip->mc_of[k] + 4 * (c / 48) &&
                  pl->d_mem[c] == chip->d_mem[k] && tx(c) == pl->tile_x[c],
              "core %d is not core %d of scc48 on chip %d", c, k, c / 48);
    }
    int cores[5] = {0, 1, 2, 47, 48};
    mc_sim_domain_t *dom;
    mc_sim_t *sim = make(pl, 0, 5, cores, &dom);
    probe_t p = {.sim = sim, .dom = dom};
    mc_sim_spawn(sim, 0, locality_main, &p);
    mc_sim_run(sim);
    CHECK(p.checked == 5, "locality: %d checked", p.checked);
    mc_sim_destroy(sim);
    mc_platform_free(pl);
    mc_platform_free(chip);
    bad_file("{\"chips\": [{\"platform\": \"scc48\", \"count\": 1}], " LINK
             "}}", "count");
    bad_file("{\"chips\": [{\"platform\": \"vscc240\", \"count\": 2}], " LINK
             "}}", "platform");
    bad_file("{\"chips\": [{\"platform\": \"xeonphi60\", \"count\": 2}], " LINK
             "}}", "platform");
    bad_file("{\"chips\": [{\"platform\": \"scc48\", \"count\": 2}]}",
             "interconnect");
    bad_file("{\"chips\": [{\"platform\": \"scc48\", \"count\": 2}], "
             "\"interconnect\": {\"kind\": \"host\", \"port_tile\": [6, 0]}}",
             "port_tile");
    bad_file("{\"chips\": [{\"platform\": \"scc48\", \"count\": 2}], " LINK
             ", \"write_ack\": \"never\"}}", "write_ack");
    bad_file("{\"chips\": [{\"platform\": \"scc48\", \"count\": 2}], " LINK
             ", \"pcie_latency_us\": -1}}", "pcie_latency_us");
    bad_file("{\"chips\": [{\"platform\": \"scc48\", \"count\": 2}], " LINK
             "}, \"failed_cores\": [96]}", "failed_cores");
    bad_file("{\"chips\": [{\"platform\": \"scc48\", \"count\": 2}], " LINK
             ", \"speed\": 1}}", "speed");
    printf("layout: 240 cores as 5 copies of scc48, localities, %s\n",
           fails ? "FAILED" : "bad files refused by name");
    return fails != 0;
}

/* ---- formulas ---- */

static void formulas_main(void *arg)
{
    probe_t *p = arg;
    mc_tp_t *tp;
    if (mc_sim_tp_create(p->sim, p->dom, p->core, &tp) != MC_OK)
        return;
    static unsigned char buf[3 * 32];
    int me = p->core, dm = dmem(me);
    for (int i = 0; i < p->ntargets; i++) {
        int d = p->targets[i]; /* rank d - 48 of the domain is core d */
        for (int m = 1; m <= 3; m++, p->checked += 2) {
            mc_ps_t t0 = mc_sim_now(p->sim);
            tp_put(tp, d - 48, 0, buf, (size_t)m * 32);
            mc_ps_t t1 = mc_sim_now(p->sim);
            tp_get(tp, buf, d - 48, 0, (size_t)m * 32);
            mc_ps_t t2 = mc_sim_now(p->sim);
            long put = O_PUT_MEM +
                       m * (O_MEM_R + 2L * dm * L_HOP + wr(me, d, p->routing));
            long get = O_GET_MEM +
                       m * (rd(me, d) + O_MEM_W + 2L * dm * L_HOP);
            CHECK(t1 - t0 == put, "put %d lines %d -> %d: %lld ps, formula "
                  "%ld", m, me, d, (long long)(t1 - t0), put);
            CHECK(t2 - t1 == get, "get %d lines %d <- %d: %lld ps, formula "
                  "%ld", m, me, d, (long long)(t2 - t1), get);
        }
    }
    tp->ops->destroy(tp);
}

/* the domain: cores 48..239 as ranks 0..191, the probe on chip 0 */
static int formulas_on(const char *name, int cont)
{
    mc_platform_t *pl = load(name);
    int routing = !strcmp(name, "vscc240-routing"), checked = 0;
    static const int from[3] = {0, 21, 46};
    for (int i = 0; i < 3; i++) { /* one probe at a time: no waiting */
        int cores[193];
        for (int c = 0; c < 192; c++)
            cores[c] = c + 48;
        cores[192] = from[i];
        mc_sim_domain_t *dom;
        mc_sim_t *sim = make(pl, cont, 193, cores, &dom);
        probe_t p = {.sim = sim, .dom = dom, .core = from[i],
                     .routing = routing};
        for (int d = 48; d < 96; d++)
            p.targets[p.ntargets++] = d;
        for (int d = 192; d < 240; d++)
            p.targets[p.ntargets++] = d;
        mc_sim_spawn(sim, from[i], formulas_main, &p);
        mc_sim_run(sim);
        checked += p.checked;
        mc_sim_destroy(sim);
    }
    mc_platform_free(pl);
    printf("formulas %s, contention %s: %d put/get times checked, %s\n",
           name, cont ? "on" : "off", checked, fails ? "FAILED" : "exact");
    return fails != 0;
}

static int formulas(void)
{
    int bad = formulas_on("vscc240", 0);
    bad |= formulas_on("vscc240", 1);
    bad |= formulas_on("vscc240-routing", 0);
    bad |= formulas_on("vscc240-routing", 1);
    return bad;
}

/* ---- the fit ---- */

static int ratio(void)
{
    double on = 0, off = 0;
    long n_on = 0, n_off = 0;
    for (int a = 0; a < 96; a++)
        for (int b = 0; b < 96; b++) {
            if (a == b)
                continue;
            if (a / 48 == b / 48)
                on += O_MPB + 2.0 * dist(a, b) * L_HOP, n_on++;
            else
                off += rd(a, b), n_off++;
        }
    on /= n_on, off /= n_off;
    double cycles = off / 1e6 * 533;
    printf("ratio: a one-line read takes %.3f us on a chip and %.3f us "
           "from another chip (transparent routing): %.1f times, %.0f "
           "cycles of 533 MHz (the paper: 120 times, ~10^4 cycles)\n",
           on / 1e6, off / 1e6, off / on, cycles);
    CHECK(fabs(off / on / 120 - 1) < 0.01, "the fit: %.2f, not 120",
          off / on);
    CHECK(fabs(cycles / 1e4 - 1) < 0.15, "%.0f cycles, not ~10^4", cycles);
    return fails != 0;
}

/* ---- the host thread, first come first served ---- */

static void writer_main(void *arg)
{
    probe_t *p = arg;
    mc_tp_t *tp;
    if (mc_sim_tp_create(p->sim, p->dom, p->core, &tp) != MC_OK)
        return;
    static unsigned char line[32];
    p->start = mc_sim_now(p->sim);
    if (p->checked) /* a data line, through the write-combining buffer */
        tp_put_mpb(tp, 48 + p->core, 0, 0, sizeof line);
    else /* a flag, through the host thread; the transport's own op: a
          * probe of its cost, where 47 writers of one word are the point,
          * not an algorithm bound by rule 4 of tp.h (whose MC_ASSERT is
          * in tp_flag_set) */
        tp->ops->flag_set(tp, 48 + p->core, 0, 1);
    p->end = mc_sim_now(p->sim);
    tp->ops->destroy(tp);
}

/* 47 cores of chip 0 write one line each to chip 1 at once: how far
 * apart they complete; *first: when core 1's write completed */
static double spread_of(mc_platform_t *pl, int cont, int data,
                        mc_ps_t *first)
{
    int cores[96];
    for (int c = 0; c < 96; c++)
        cores[c] = c;
    mc_sim_domain_t *dom;
    mc_sim_t *sim = make(pl, cont, 96, cores, &dom);
    probe_t p[47];
    for (int i = 0; i < 47; i++) {
        p[i] = (probe_t){.sim = sim, .dom = dom, .core = i + 1,
                         .checked = data};
        mc_sim_spawn(sim, i + 1, writer_main, &p[i]);
    }
    mc_sim_run(sim);
    mc_ps_t lo = p[0].end, hi = p[0].end;
    for (int i = 0; i < 47; i++) {
        lo = p[i].end < lo ? p[i].end : lo;
        hi = p[i].end > hi ? p[i].end : hi;
    }
    *first = p[0].end - p[0].start;
    mc_sim_destroy(sim);
    return (double)(hi - lo);
}

static int host(void)
{
    mc_platform_t *pl = load("vscc240");
    mc_ps_t one, ignore;
    double flags0 = spread_of(pl, 0, 0, &one);
    double flags1 = spread_of(pl, 1, 0, &ignore);
    double data1 = spread_of(pl, 1, 1, &ignore);
    mc_platform_free(pl);
    long link = 320000; /* a line on the 100 MB/s link */
    printf("host: 47 one-line flag writes to chip 1 at once complete within "
           "%.2f us of each other without contention, %.2f us with it "
           "(46 host services: %.2f us); 47 data lines within %.2f us (46 "
           "link slots: %.2f us)\n",
           flags0 / 1e6, flags1 / 1e6, 46.0 * HOST / 1e6, data1 / 1e6,
           46.0 * link / 1e6);
    CHECK(one == flag_wr(1), "a flag write from core 1 to chip 1: %lld ps, "
          "formula %ld", (long long)one, flag_wr(1));
    CHECK(flags0 < HOST, "without contention: %.0f ps apart", flags0);
    CHECK(flags1 >= 45.5 * HOST && flags1 < 47.0 * HOST,
          "with contention: %.0f ps apart", flags1);
    CHECK(data1 >= 44.0 * link && data1 < 47.0 * link,
          "data lines, with contention: %.0f ps apart, not one link slot "
          "(the host thread acknowledged them?)", data1);
    return fails != 0;
}

/* ---- chips are independent: the same traffic on two chips at once ---- */

static void getter_main(void *arg)
{
    probe_t *p = arg;
    mc_tp_t *tp;
    if (mc_sim_tp_create(p->sim, p->dom, p->core % 48, &tp) != MC_OK)
        return;
    p->start = mc_sim_now(p->sim);
    tp_get_mpb(tp, 0, 0, 0, 16 * 32); /* rank 0: core 0 of the chip */
    p->end = mc_sim_now(p->sim);
    tp->ops->destroy(tp);
}

/* cores 1..47 of each chip in `which` (bit 0: chip 0, bit 1: chip 1) get
 * 16 lines from core 0 of their chip at once; took[chip][core] */
static void crowd(mc_platform_t *pl, int which, mc_ps_t took[2][48])
{
    mc_sim_opts_t o = {1, 1, 1, 0, 0, 0, NULL, NULL, 0};
    mc_sim_t *sim;
    if (mc_sim_create(pl, pl->ncores, &o, &sim) != MC_OK)
        exit(1);
    probe_t p[2][48];
    for (int chip = 0; chip < 2; chip++) {
        if (!(which >> chip & 1))
            continue;
        int cores[48];
        for (int i = 0; i < 48; i++)
            cores[i] = 48 * chip + i;
        mc_sim_domain_t *dom;
        if (mc_sim_tp_domain(sim, NULL, (uint64_t)chip + 1, cores, 48, &dom))
            exit(1);
        for (int i = 1; i < 48; i++) {
            p[chip][i] = (probe_t){.sim = sim, .dom = dom,
                                   .core = 48 * chip + i};
            mc_sim_spawn(sim, 48 * chip + i, getter_main, &p[chip][i]);
        }
    }
    mc_sim_run(sim);
    for (int chip = 0; chip < 2; chip++)
        for (int i = 1; i < 48 && (which >> chip & 1); i++)
            took[chip][i] = p[chip][i].end - p[chip][i].start;
    mc_sim_destroy(sim);
}

static int chips(void)
{
    mc_platform_t *pl = load("vscc240");
    mc_ps_t alone[2][48], both[2][48];
    crowd(pl, 1, alone);
    crowd(pl, 2, alone);
    crowd(pl, 3, both);
    mc_ps_t worst = 0;
    for (int chip = 0; chip < 2; chip++)
        for (int i = 1; i < 48; i++) {
            CHECK(both[chip][i] == alone[chip][i], "chip %d core %d: %lld ps "
                  "alone, %lld ps with the other chip busy", chip, i,
                  (long long)alone[chip][i], (long long)both[chip][i]);
            worst = alone[chip][i] > worst ? alone[chip][i] : worst;
        }
    CHECK(alone[0][47] == alone[1][47], "the chips differ");
    mc_platform_free(pl);
    printf("chips: 47 getters on each of two chips at once take what they "
           "take alone (slowest %.2f us): links, ports and controllers are "
           "per chip%s\n", (double)worst / 1e6, fails ? " -- FAILED" : "");
    return fails != 0;
}

/* ---- the host task's copy of an MPB ---- */

typedef struct pf {
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    int rank, publish;
    mc_ps_t at, end;
} pf_t;

static void pf_main(void *arg)
{
    pf_t *p = arg;
    mc_tp_t *tp;
    if (mc_sim_tp_create(p->sim, p->dom, p->rank, &tp) != MC_OK)
        return;
    if (p->rank == 0 && p->publish)
        tp_prefetch(tp, 0, 4 * 32);
    if (p->rank == 0 && p->publish == 2) /* and drop it again */
        tp_invalidate(tp, 32, 32);
    if (p->rank == 1) {
        mc_sim_busy(p->sim, "idle", p->at);
        tp_get_mpb(tp, 0, 0, 0, 4 * 32);
        p->end = mc_sim_now(p->sim);
    }
    tp->ops->destroy(tp);
}

/* rank 0 on core 0 publishes (or not) 4 lines, rank 1 on core 48 reads
 * them at `at`: when its read ends */
static mc_ps_t pf_run(mc_platform_t *pl, int cont, int publish, mc_ps_t at)
{
    int cores[2] = {0, 48};
    mc_sim_domain_t *dom;
    mc_sim_t *sim = make(pl, cont, 2, cores, &dom);
    pf_t p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = (pf_t){.sim = sim, .dom = dom, .rank = i, .publish = publish,
                      .at = at};
        mc_sim_spawn(sim, cores[i], pf_main, &p[i]);
    }
    mc_sim_run(sim);
    mc_sim_destroy(sim);
    return p[1].end;
}

static int task(void)
{
    mc_platform_t *pl = load("vscc240");
    long d0 = dport(0), d48 = dport(48);
    /* read late (100 us): the copy is there; the owner's side is saved */
    mc_ps_t cold = pf_run(pl, 0, 0, 100000000), warm = pf_run(pl, 0, 1,
                                                              100000000);
    long saved = 4 * (2 * d0 * L_HOP + 2L * PCIE + 2L * HOST);
    CHECK(cold - warm == saved, "a prefetched read saves %lld ps, not %ld",
          (long long)(cold - warm), saved);
    mc_ps_t dropped = pf_run(pl, 0, 2, 100000000);
    CHECK(dropped == cold, "a read after invalidate: %lld ps, not %lld as "
          "without the copy", (long long)dropped, (long long)cold);
    mc_platform_free(pl);
    /* over a 1 MB/s link (32 us a line), read when the owner resumes */
    char path[] = "/tmp/manycoll-vscc-XXXXXX";
    int fd = mkstemp(path);
    const char *slow = "{\"extends\": \"vscc240\", \"name\": \"slow\", "
                       "\"interconnect\": {\"link_MBps\": 1}}";
    if (fd < 0 || write(fd, slow, strlen(slow)) < 0)
        return 1;
    close(fd);
    pl = load(path);
    unlink(path);
    long link = 32000000, served = O_MPB + d0 * L_HOP + PCIE + HOST;
    long resume = O_MPB + 2 * d0 * L_HOP + 2L * PCIE + HOST;
    long last = served + 2L * PCIE + 2 * d0 * L_HOP + 4 * link;
    long want = last + d48 * L_HOP + PCIE;
    mc_ps_t got = pf_run(pl, 0, 1, resume), stepped = pf_run(pl, 1, 1, resume);
    CHECK(got == want, "read at once: ends at %lld ps, not %ld",
          (long long)got, want);
    CHECK(stepped >= want, "read at once, contention on: ends at %lld ps, "
          "before the last line is back (%ld)", (long long)stepped, want);
    mc_platform_free(pl);
    printf("task: a prefetched 4-line read from another chip saves %.2f us; "
           "read at once over a 1 MB/s link it ends at %.2f us (stepped "
           "%.2f us), when the last line is back%s\n", saved / 1e6,
           got / 1e6, stepped / 1e6, fails ? " -- FAILED" : "");
    return fails != 0;
}

int main(int argc, char **argv)
{
    const char *what = argc >= 2 ? argv[1] : "";
    if (!strcmp(what, "layout"))
        return layout();
    if (!strcmp(what, "formulas"))
        return formulas();
    if (!strcmp(what, "ratio"))
        return ratio();
    if (!strcmp(what, "host"))
        return host();
    if (!strcmp(what, "chips"))
        return chips();
    if (!strcmp(what, "task"))
        return task();
    fprintf(stderr, "usage: test_vscc layout|formulas|ratio|host|chips|"
                    "task\n");
    return 2;
}
