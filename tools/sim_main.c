/* manycoll sim: its output (the options are in sim_opts.c, the simulation
 * in sim.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select/registry.h"
#include "sim/grid.h"
#include "sim_cmd.h"
#include "tools.h"

void mc_sim_row_fill(const sim_opts_t *o, const mc_platform_t *p,
                     const sim_result_t *r, mc_sim_row_t *w)
{
    const mc_sim_stats_t *st = &r->st;
    memset(w, 0, sizeof *w);
    snprintf(w->platform, sizeof w->platform, "%s", p->name);
    snprintf(w->coll, sizeof w->coll, "%s", mc_coll_name(o->k.coll));
    snprintf(w->algo, sizeof w->algo, "%s", r->algo);
    snprintf(w->ran, sizeof w->ran, "%s", r->ran);
    snprintf(w->why, sizeof w->why, "%s", r->why);
    snprintf(w->contention, sizeof w->contention, "%s%s%s%s%s",
             o->cont_mpb ? "mpb" : "",
             o->cont_mpb && (o->cont_link || o->cont_mc) ? "," : "",
             o->cont_link ? "link" : "",
             o->cont_link && o->cont_mc ? "," : "", o->cont_mc ? "mc" : "");
    if (!*w->contention)
        strcpy(w->contention, "none");
    if (o->grid)
        snprintf(w->grid, sizeof w->grid, "%dx%d@%d,%d", o->g.w, o->g.h,
                 o->g.x0, o->g.y0);
    w->ranks = o->ranks;
    w->root = o->k.root;
    w->check = o->check != 0;
    w->iters = o->iters > 1 ? o->iters : 1;
    w->warmup = o->warmup;
    w->chips = p->host.nchips > 1 ? p->host.nchips : 1;
    w->jitter = (unsigned long long)o->jitter;
    w->bytes = r->bytes;
    w->lat_us = r->lat_us;
    w->bw_MBps = r->bw_MBps;
    w->done_min_us = r->done_min_us;
    w->done_max_us = r->done_max_us;
    w->done_stdev_us = r->done_stdev_us;
    w->events = st->events;
    w->ops = st->ops;
    w->lines = st->lines;
    w->wall_s = st->wall_s;
    w->events_per_s = st->wall_s > 0 ? (double)st->events / st->wall_s : 0;
    w->rank0_avg_us = r->rank0_avg_us;
    w->iter_mean_us = r->iter_mean_us;
    w->iter_var_us2 = r->iter_var_us2;
    w->link_waits = st->link_waits;
    w->link_wait_us = (double)st->link_wait_ps / MC_PS_PER_US;
    w->flag_link_waits = st->flag_waits;
    w->flag_link_wait_us = (double)st->flag_wait_ps / MC_PS_PER_US;
    w->port_wait_us = (double)st->port_wait_ps / MC_PS_PER_US;
    w->start_events = st->start_events;
    w->start_wall_s = st->start_wall_s;
    w->host_wait_us = (double)st->host_wait_ps / MC_PS_PER_US;
}

/* the fields after "check" in --json: what ran and why (`algo` is the
 * algorithm asked for), contention accounting, grid and iterations
 * (NoCMsg reproduction) */
static void print_json_extra(const mc_sim_row_t *w, const sim_result_t *r)
{
    mc_json_pair("ran", w->ran);
    mc_json_pair("why", w->why);
    printf(",\"link_waits\":%llu,\"link_wait_us\":%.4f,\"flag_link_waits\":%llu,"
           "\"flag_link_wait_us\":%.4f,\"port_wait_us\":%.4f",
           w->link_waits, w->link_wait_us, w->flag_link_waits,
           w->flag_link_wait_us, w->port_wait_us);
    printf(",\"start_events\":%llu,\"start_wall_s\":%.6f", w->start_events,
           w->start_wall_s);
    if (w->chips > 1)
        printf(",\"host_wait_us\":%.4f", w->host_wait_us);
    if (*w->grid)
        printf(",\"grid\":\"%s\"", w->grid);
    if (r->runs > 1) {
        printf(",\"runs\":%d,\"run_mean_us\":%.4f,\"run_var_us2\":%.6f,"
               "\"run_lat_us\":[", r->runs, r->lat_us, r->run_var);
        for (int i = 0; i < r->runs; i++)
            printf("%s%.4f", i ? "," : "", r->run_lat[i]);
        printf("]");
    }
}

static void print_json(const mc_sim_row_t *w, const sim_result_t *r)
{
    printf("{\"platform\":\"%s\",\"coll\":\"%s\",\"algo\":\"%s\","
           "\"ranks\":%d,\"root\":%d,\"bytes\":%zu,\"lat_us\":%.4f,"
           "\"bw_MBps\":%.4f,\"done_min_us\":%.4f,\"done_max_us\":%.4f,"
           "\"done_stdev_us\":%.4f,\"events\":%llu,\"events_per_s\":%.0f,"
           "\"ops\":%llu,\"lines\":%llu,\"wall_s\":%.3f,"
           "\"contention\":\"%s\",\"jitter\":%llu,\"check\":%s,"
           "\"iters\":%d,\"warmup\":%d,\"rank0_avg_us\":%.4f,"
           "\"iter_mean_us\":%.4f,\"iter_var_us2\":%.6f",
           w->platform, w->coll, w->algo, w->ranks, w->root, w->bytes,
           w->lat_us, w->bw_MBps, w->done_min_us, w->done_max_us,
           w->done_stdev_us, w->events, w->events_per_s, w->ops, w->lines,
           w->wall_s, w->contention, w->jitter, w->check ? "true" : "false",
           w->iters, w->warmup, w->rank0_avg_us, w->iter_mean_us,
           w->iter_var_us2);
    print_json_extra(w, r);
    printf("}\n");
}

static void print(const sim_opts_t *o, const mc_platform_t *p,
                  const sim_result_t *r, int first)
{
    mc_sim_row_t w;
    mc_sim_row_fill(o, p, r, &w);
    if (o->json) {
        print_json(&w, r);
        fflush(stdout);
        return;
    }
    if (first)
        printf("# %s, %d ranks, root %d\n%-10s %12s %12s %12s %12s %10s  "
               "%s\n",
               mc_coll_name(o->k.coll), o->ranks, o->k.root, "bytes",
               "lat_us", "MB/s", "done_min", "done_max", "stdev",
               "algorithm");
    printf("%-10zu %12.3f %12.3f %12.3f %12.3f %10.3f  %s", r->bytes,
           r->lat_us, r->bw_MBps, r->done_min_us, r->done_max_us,
           r->done_stdev_us, r->ran);
    if (r->runs > 1) /* lat_us is the mean of the runs then */
        printf("  (%d runs, variance %.4f us^2)", r->runs, r->run_var);
    printf("\n");
    if (o->iters > 1 || o->warmup)
        printf("# %d calls after %d warm-up: rank 0 %.3f us per call, "
               "calls %.3f us mean, %.4f us^2 variance\n",
               o->iters > 1 ? o->iters : 1, o->warmup, r->rank0_avg_us,
               r->iter_mean_us, r->iter_var_us2);
    fflush(stdout);
}

/* --check keeps every core's buffers: say so before a run that needs
 * gigabytes (one that needs more than the machine has is refused per size
 * by mc_sim_run_size) */
static void check_memory(const sim_opts_t *o)
{
    size_t big = 0;
    for (int i = 0; i < o->nsizes; i++)
        big = o->sizes[i] > big ? o->sizes[i] : big;
    mc_case_t k = o->k;
    size_t d = mc_dtype_size(k.dt);
    k.count = k.coll == MC_COLL_BARRIER ? 0 : (big + d - 1) / d;
    double need = (double)mc_case_bytes(&k, o->ranks) * o->ranks;
    if (need > 1e9)
        fprintf(stderr, "manycoll sim: warning: --check at %zu bytes on %d "
                        "cores holds about %.1f GB of buffers\n", big,
                o->ranks, need / 1e9);
}

int mc_sim_place(sim_opts_t *o, mc_platform_t *p)
{
    int rc = MC_OK;
    if (o->grid) {
        int n = o->g.w * o->g.h * p->cores_per_tile;
        if (o->ranks > 0 && o->ranks != n)
            return mc_error(MC_ERR_ARG, "--ranks %d and --grid %dx%d (%d "
                            "ranks) disagree; give one", o->ranks, o->g.w,
                            o->g.h, n);
        int *cores = malloc(sizeof(int) * (size_t)p->ncores);
        rc = cores ? mc_plat_grid_cores(p, &o->g, "--grid", cores)
                   : mc_error(MC_ERR_NOMEM, "out of memory");
        free(cores);
        if (rc != MC_OK)
            return MC_ERR_ARG; /* mc_last_error() says why */
        o->ranks = n;
    }
    if (o->grid && o->map)
        rc = mc_error(MC_ERR_ARG, "--grid and --map both place the ranks; "
                      "give one");
    else if (!o->grid && o->ranks <= p->ncores)
        rc = mc_plat_map(p, o->map, &o->ranks, &o->cores);
    if (rc)
        return rc;
    if (o->ranks <= 0)
        o->ranks = p->ncores;
    if (o->ranks > p->ncores || o->k.root < 0 || o->k.root >= o->ranks)
        return mc_error(MC_ERR_ARG, "--ranks %d / --root %d: platform %s "
                        "has %d cores", o->ranks, o->k.root, o->platform,
                        p->ncores);
    /* resolve "platform default" so the output says what ran, and the
     * platform's banner what this run simulates */
    o->cont_mpb = o->cont_mpb < 0 ? p->cont.mpb : o->cont_mpb;
    o->cont_link = o->cont_link < 0 ? p->cont.link : o->cont_link;
    o->cont_mc = o->cont_mc < 0 ? p->cont.mc : o->cont_mc;
    p->cont.mpb = o->cont_mpb;
    p->cont.link = o->cont_link;
    p->cont.mc = o->cont_mc;
    return MC_OK;
}

/* the name of an algorithm spec, without its parameters */
static size_t name_len(const char *spec)
{
    return strcspn(spec, ":");
}

/* did r run another algorithm than the one asked for (a fallback)? */
static int fell_back(const sim_result_t *r)
{
    size_t n = name_len(r->algo);
    return *r->ran && (n != name_len(r->ran) || strncmp(r->algo, r->ran, n));
}

/* several --algo: the table's header */
static void side_header(const sim_opts_t *o)
{
    printf("# %s, %d ranks, root %d: lat_us (slowest core) and MB/s per "
           "--algo;\n# ratio: its lat_us over %s's (below 1: faster)\n",
           mc_coll_name(o->k.coll), o->ranks, o->k.root, o->algos[0]);
    printf("%-10s", "");
    for (int a = 0; a < o->nalgos; a++)
        printf(" %*.*s", a ? 27 : 20, a ? 27 : 20, o->algos[a]);
    printf("\n%-10s", "bytes");
    for (int a = 0; a < o->nalgos; a++)
        printf(" %10s %9s%s", "lat_us", "MB/s", a ? "  ratio" : "");
    printf("\n");
}

/* several --algo: one size's row */
static void side_row(const sim_opts_t *o, const sim_result_t *r)
{
    printf("%-10zu", r[0].bytes);
    for (int a = 0; a < o->nalgos; a++) {
        printf(" %10.3f %9.3f", r[a].lat_us, r[a].bw_MBps);
        if (a)
            printf(" %6.3f", r[0].lat_us > 0 ? r[a].lat_us / r[0].lat_us : 0);
    }
    printf("\n");
    fflush(stdout);
}

/* each size, each --algo on it; the results printed as they come (one
 * --algo, or --json) or a row per size (several); --plot at the end.
 * Returns 1 if a simulation failed. */
static int run_sizes(sim_opts_t *o, const mc_platform_t *p)
{
    int na = o->nalgos > 1 ? o->nalgos : 1, failed = 0, npt = 0;
    int nsizes = o->k.coll == MC_COLL_BARRIER ? 1 : o->nsizes;
    uint64_t events = 0;
    double wall = 0;
    sim_result_t *row = calloc((size_t)na, sizeof *row);
    sim_point_t *pt = calloc((size_t)(na * nsizes), sizeof *pt);
    /* per --algo: the sizes at which another algorithm ran (a bit per
     * size), the first one's name and why */
    uint64_t fb[8] = {0};
    char fb_ran[8][160], fb_why[8][400];
    if (!row || !pt) {
        free(row);
        free(pt);
        fprintf(stderr, "manycoll sim: out of memory\n");
        return 1;
    }
    for (int i = 0; i < nsizes && !failed; i++) {
        for (int a = 0; a < na; a++) {
            sim_result_t *r = &row[a];
            o->algo = o->nalgos ? o->algos[a] : NULL;
            fprintf(stderr, "manycoll sim: %s%s%s %zu bytes on %d cores "
                            "...\n", mc_coll_name(o->k.coll),
                    o->algo ? " " : "", o->algo ? o->algo : "", o->sizes[i],
                    o->ranks);
            const char *first = o->trace ? o->trace : o->traffic ? "" : NULL;
            r->fail[0] = 0;
            int rc = mc_sim_run_runs(o, p, o->sizes[i], r,
                                     i == 0 ? first : NULL);
            if (rc != MC_OK && rc != MC_ERR_INTERNAL) {
                fprintf(stderr, "manycoll sim: %s\n", mc_last_error());
                failed = 1;
                break;
            }
            failed |= rc != MC_OK;
            for (const char *l = r->fail; *l;) { /* the first failing ranks */
                int len = (int)strcspn(l, "\n");
                fprintf(stderr, "manycoll sim: %.*s\n", len, l);
                l += len + (l[len] != 0);
            }
            events += r->st.events;
            wall += r->st.wall_s;
            if (na == 1 || o->json)
                print(o, p, r, i == 0 && a == 0);
            if (fell_back(r) && !fb[a]) {
                snprintf(fb_ran[a], sizeof fb_ran[a], "%s", r->ran);
                snprintf(fb_why[a], sizeof fb_why[a], "%s", r->why);
            }
            fb[a] |= fell_back(r) ? 1ULL << i : 0;
            sim_point_t *q = &pt[npt++]; /* labelled below */
            q->bytes = r->bytes;
            q->lat_us = r->lat_us;
            free(r->run_lat);
            r->run_lat = NULL;
        }
        if (na > 1 && !o->json && !failed) {
            if (i == 0)
                side_header(o);
            side_row(o, row);
        }
    }
    for (int a = 0; na > 1 && !o->json && a < na; a++) {
        if (!fb[a])
            continue;
        printf("# %s: %.*s ran instead at", o->algos[a],
               (int)name_len(fb_ran[a]), fb_ran[a]);
        int first = 0;
        for (int i = 0; i < nsizes; i++)
            if (fb[a] >> i & 1)
                printf("%s %zu", first++ ? "," : "", o->sizes[i]);
        printf(" bytes (%s)\n", fb_why[a]);
    }
    fprintf(stderr, "manycoll sim: %llu events in %.3f s of simulation: %.0f "
                    "events/s\n",
            (unsigned long long)events, wall, wall > 0 ? events / wall : 0.0);
    for (int i = 0; i < npt; i++) { /* asked -> ran, as manycoll.plot */
        int a = i % na;
        const char *asked = o->nalgos ? o->algos[a] : "default";
        if (fb[a])
            snprintf(pt[i].label, sizeof pt[i].label, "%s \xe2\x86\x92 %.*s",
                     asked, (int)name_len(fb_ran[a]), fb_ran[a]);
        else
            snprintf(pt[i].label, sizeof pt[i].label, "%s", asked);
    }
    if (o->plot && npt) {
        char title[256];
        snprintf(title, sizeof title, "%s on %s, %d ranks (manycoll sim)",
                 mc_coll_name(o->k.coll), p->name, o->ranks);
        if (mc_sim_plot(o->plot, title, pt, npt) != 0) {
            unlink(o->plot); /* no empty file left behind */
            failed = 1;
        }
    }
    free(row);
    free(pt);
    return failed;
}

int cmd_sim(int argc, char **argv)
{
    sim_opts_t o;
    int rc = mc_sim_parse(argc, argv, &o);
    if (rc)
        return rc;
    int parse_only = mc_parse_only(); /* no file written, nothing run */
    if (!parse_only && o.plot && mc_sim_plot_check() != 0)
        return 1; /* before a long simulation */
    const char *outs[3] = {o.trace, o.traffic, o.plot};
    static const char *const names[3] = {"--trace", "--traffic", "--plot"};
    for (int i = 0; i < 3 && !parse_only; i++) { /* fail now, not after */
        FILE *f = outs[i] ? fopen(outs[i], "w") : NULL;
        if (outs[i] && !f)
            return mc_usage_error("sim", "%s: cannot write %s: %s", names[i],
                                  outs[i], strerror(errno));
        if (f)
            fclose(f);
    }
    mc_platform_t *p;
    if (mc_tool_platform("sim", o.platform, o.lenient, &p) != MC_OK) {
        fprintf(stderr, "manycoll sim: %s\n", mc_last_error());
        return 2;
    }
    if (mc_sim_place(&o, p) != MC_OK) {
        rc = mc_usage_error("sim", "%s", mc_last_error());
        mc_platform_free(p);
        free(o.cores);
        return rc;
    }
    if (parse_only) {
        mc_platform_free(p);
        free(o.cores);
        return 0;
    }
    char desc[768];
    mc_platform_describe(p, desc, sizeof desc);
    fprintf(stderr, "manycoll sim: %s\n", desc);
    if (o.app || o.pingpong) {
        rc = o.app ? mc_sim_run_app(&o, p) : mc_sim_run_pingpong(&o, p);
        mc_platform_free(p);
        free(o.cores);
        return rc;
    }
    if (o.check)
        check_memory(&o);
    int failed = run_sizes(&o, p);
    mc_platform_free(p);
    free(o.cores);
    return failed ? 1 : 0;
}
