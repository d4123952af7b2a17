/*
 * Loading platforms: JSON files read with jansson, or mesh<X>x<Y>
 * generated with SCC-like parameters. See docs/platforms.md.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/platform.h"
#include "plat/platform_keys.h"
#include "plat/profile.h"
#include "util/datapath.h"
#include "util/error.h"

/* SCC parameters (Petrovic et al., Table 1) for generated meshes */
static const double scc_costs_us[] = {0.005, 0.126, 0.208, 0.461, 0.069,
                                      0.33,  0.19,  0.095, 0.01};
static const char *const cost_names[] = {
    "L_hop",     "o_mpb",     "o_mem_r",   "o_mem_w",  "o_put_mpb",
    "o_get_mpb", "o_put_mem", "o_get_mem", "o_reduce_elem",
    /* optional, 0 when absent: software overheads (tp->charge) */
    "o_call",    "o_req_ircce", "o_req_light", "o_flop"};
#define NCOSTS (sizeof cost_names / sizeof *cost_names)
#define NCOSTS_REQUIRED 8 /* Table 1 of Petrovic et al. */

static mc_ps_t ps_of_us(double us)
{
    return (mc_ps_t)llround(us * MC_PS_PER_US);
}

static mc_ps_t *cost_slot(mc_costs_t *c, size_t i)
{
    mc_ps_t *slots[NCOSTS] = {
        &c->L_hop,       &c->o_mpb,       &c->o_mem_r,     &c->o_mem_w,
        &c->o_put_mpb,   &c->o_get_mpb,   &c->o_put_mem,   &c->o_get_mem,
        &c->o_reduce,    &c->o_charge[0], &c->o_charge[1], &c->o_charge[2],
        &c->o_charge[3]};
    return slots[i];
}

/* (d, m) at i takes (d[j] + 1, m[j]) if that is smaller: distances first,
 * then the controller listed first */
static void relax(int *d, int *m, size_t i, size_t j)
{
    if (d[j] + 1 < d[i] || (d[j] + 1 == d[i] && m[j] < m[i]))
        d[i] = d[j] + 1, m[i] = m[j];
}

/* The nearest memory controller of every used tile (ties: the first
 * listed) and the distance to it: the L1 distance transform of the
 * controllers, in two passes along every row, then two along every
 * column, O(tiles + controllers) (a million cores with a thousand
 * controllers load in a moment). A controller outside the used tiles
 * starts from the nearest used tile with the distance between them. */
static void nearest_mc(const mc_platform_t *p, int *d, int *m)
{
    size_t w = (size_t)p->used_x, h = (size_t)p->used_y;
    for (size_t i = 0; i < w * h; i++)
        d[i] = 1 << 30, m[i] = -1;
    for (int c = 0; c < p->nmc; c++) {
        size_t x = (size_t)p->mc_x[c] < w ? (size_t)p->mc_x[c] : w - 1;
        size_t y = (size_t)p->mc_y[c] < h ? (size_t)p->mc_y[c] : h - 1;
        int base = (p->mc_x[c] - (int)x) + (p->mc_y[c] - (int)y);
        size_t i = y * w + x;
        if (base < d[i] || (base == d[i] && c < m[i]))
            d[i] = base, m[i] = c;
    }
    for (size_t y = 0; y < h; y++) {
        for (size_t x = 1; x < w; x++)
            relax(d, m, y * w + x, y * w + x - 1);
        for (size_t x = w - 1; x-- > 0;)
            relax(d, m, y * w + x, y * w + x + 1);
    }
    for (size_t x = 0; x < w; x++) {
        for (size_t y = 1; y < h; y++)
            relax(d, m, y * w + x, (y - 1) * w + x);
        for (size_t y = h - 1; y-- > 0;)
            relax(d, m, y * w + x, (y + 1) * w + x);
    }
}

/* every core's router, controller and distance to it */
static int derive(mc_platform_t *p)
{
    int n = p->ncores;
    size_t tiles = (size_t)p->used_x * (size_t)p->used_y;
    p->tile_x = calloc((size_t)n, sizeof(int));
    p->tile_y = calloc((size_t)n, sizeof(int));
    p->mc_of = calloc((size_t)n, sizeof(int));
    p->d_mem = calloc((size_t)n, sizeof(int));
    int *d = malloc(sizeof(int) * tiles), *m = malloc(sizeof(int) * tiles);
    if (!p->tile_x || !p->tile_y || !p->mc_of || !p->d_mem || !d || !m) {
        free(d), free(m);
        return mc_error(MC_ERR_NOMEM, "platform %s: out of memory", p->name);
    }
    nearest_mc(p, d, m);
    for (int core = 0; core < n; core++) {
        int tile = core / p->cores_per_tile;
        p->tile_x[core] = tile % p->used_x;
        p->tile_y[core] = tile / p->used_x;
        p->mc_of[core] = m[tile];
        p->d_mem[core] = d[tile] + 1;
    }
    free(d), free(m);
    return MC_OK;
}

static int check(mc_platform_t *p)
{
    if (p->host.nchips > 1)
        return MC_OK; /* copies of a chip checked when it was loaded */
    if (p->mesh_x < 1 || p->mesh_y < 1 || p->cores_per_tile < 1)
        return mc_error(MC_ERR_ARG, "platform %s: bad mesh size", p->name);
    if (p->used_x < 1 || p->used_x > p->mesh_x || p->used_y < 1 ||
        p->used_y > p->mesh_y)
        return mc_error(MC_ERR_ARG, "platform %s: usable tiles outside mesh",
                        p->name);
    if (p->line < 16 || p->line > 256 || p->line % 8 ||
        p->mpb_bytes < MC_PLAT_MIN_MPB_LINES * (size_t)p->line ||
        p->mpb_bytes % (size_t)p->line)
        return mc_error(MC_ERR_ARG, "platform %s: lines of %d bytes and "
                        "MPBs of %zu: lines must be a multiple of 8 bytes "
                        "(16 to 256), MPBs at least %d whole lines",
                        p->name, p->line, p->mpb_bytes,
                        MC_PLAT_MIN_MPB_LINES);
    if (p->nmc < 1)
        return mc_error(MC_ERR_ARG, "platform %s: no memory controllers",
                        p->name);
    long long ncores = (long long)p->used_x * p->used_y * p->cores_per_tile;
    if (ncores > MC_PLAT_MAX_CORES)
        return mc_error(MC_ERR_UNSUPPORTED, "platform %s: %lld cores; the "
                        "simulator takes at most %d", p->name, ncores,
                        MC_PLAT_MAX_CORES);
    if (p->p2p_chunk % 8 || p->p2p_chunk > p->mpb_bytes)
        return mc_error(MC_ERR_ARG, "platform %s: p2p_chunk_bytes (%zu) must "
                        "be a multiple of 8 and at most mpb_bytes", p->name,
                        p->p2p_chunk);
    if (p->cc && ncores > 64)
        return mc_error(MC_ERR_UNSUPPORTED,
                        "platform %s: coherent chips of more than 64 cores "
                        "are not supported",
                        p->name);
    for (int m = 0; m < p->nmc; m++)
        if (p->mc_x[m] < 0 || p->mc_x[m] >= p->mesh_x || p->mc_y[m] < 0 ||
            p->mc_y[m] >= p->mesh_y)
            return mc_error(MC_ERR_ARG,
                            "platform %s: memory controller %d at (%d,%d) is "
                            "off the mesh",
                            p->name, m, p->mc_x[m], p->mc_y[m]);
    if (p->outstanding < 1)
        p->outstanding = 1;
    p->ncores = (int)ncores;
    return derive(p);
}

/* mesh<X>x<Y>: one core per tile, 8 KiB MPBs, 32-byte lines, SCC costs,
 * a memory controller at both ends of every other row (the SCC has 4 for
 * 24 tiles, at both ends of rows 0 and 2) */
static int generate_mesh(const char *name, mc_platform_t *p)
{
    int x, y;
    char tail;
    if (sscanf(name, "mesh%dx%d%c", &x, &y, &tail) != 2 || x < 1 || y < 1 ||
        (long)x * y > 1 << 20)
        return 0;
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->description, sizeof p->description,
             "generated %dx%d mesh, 1 core per tile, SCC costs (Table 1 of "
             "Petrovic et al.), 8 KiB MPBs, controllers at both ends of every "
             "other row; MPB and controller contention on, links off",
             x, y);
    p->mesh_x = p->used_x = x;
    p->mesh_y = p->used_y = y;
    p->cores_per_tile = 1;
    p->line = 32;
    p->mpb_bytes = 8192;
    p->p2p_chunk = 8032;
    p->outstanding = 1;
    p->flags_rcce = 1;
    for (size_t i = 0; i < sizeof scc_costs_us / sizeof *scc_costs_us; i++)
        *cost_slot(&p->c, i) = ps_of_us(scc_costs_us[i]);
    p->c.local_mpb = -1;
    for (int row = 0; row < y && p->nmc + 2 <= MC_PLAT_MAX_MC; row += 2) {
        p->mc_x[p->nmc] = 0, p->mc_y[p->nmc++] = row;
        if (x > 1)
            p->mc_x[p->nmc] = x - 1, p->mc_y[p->nmc++] = row;
    }
    /* link contention costs a calendar lookup per hop per line, which
     * dominates at thousands of cores: off unless asked (--contention) */
    p->cont = (mc_contention_t){1, 0, 1, ps_of_us(0.013), ps_of_us(0.004),
                                ps_of_us(0.005)};
    return 1;
}

/* ---- JSON ---- */

/* Every number of a platform file has a range; a value outside it is an
 * error naming the field, so a typo or a hostile file cannot overflow the
 * simulator's integer arithmetic or make a run last forever. Costs are at
 * most 10 ms per operation (an on-chip simulator has no use for more) */
#define MAX_COST_US 1e4
#define MAX_SIDE 4096     /* routers per mesh side, stops per ring */
#define MAX_PER_TILE 64   /* cores per tile or stop */

typedef struct jctx {
    const char *file;
    int rc;
} jctx_t;

/* key of obj ("section.key" in messages) in [lo, hi], whole if `whole`;
 * def when absent (an error if required) */
static double jnum_in(jctx_t *j, json_t *obj, const char *section,
                      const char *key, double def, int required, double lo,
                      double hi, int whole)
{
    json_t *v = json_object_get(obj, key);
    const char *dot = *section ? "." : "";
    if (j->rc != MC_OK)
        return def;
    if (!v) {
        if (required)
            j->rc = mc_error(MC_ERR_ARG, "%s: missing \"%s%s%s\"", j->file,
                             section, dot, key);
        return def;
    }
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    if (!isfinite(x) || x < lo || x > hi || (whole && x != floor(x))) {
        j->rc = mc_error(MC_ERR_ARG, "%s: \"%s%s%s\" must be %s in [%.*f, "
                         "%.*f]", j->file, section, dot, key,
                         whole ? "a whole number" : "a number", whole ? 0 : 3,
                         lo, whole ? 0 : 3, hi);
        return def;
    }
    return x;
}

static int jint(jctx_t *j, json_t *obj, const char *section, const char *key,
                int def, int required, int lo, int hi)
{
    return (int)jnum_in(j, obj, section, key, def, required, lo, hi, 1);
}

static mc_ps_t jcost(jctx_t *j, json_t *obj, const char *section,
                     const char *key, int required)
{
    return ps_of_us(jnum_in(j, obj, section, key, 0, required, 0,
                            MAX_COST_US, 0));
}

/* a ring of stops (Xeon Phi): a coherent chip whose line costs do not
 * depend on the distance, so it is laid out as one row of tiles */
static void load_ring(jctx_t *j, json_t *t, mc_platform_t *p)
{
    p->cc = 1;
    p->mesh_x = p->used_x = jint(j, t, "topology", "stops", 0, 1, 1,
                                 MAX_SIDE);
    p->mesh_y = p->used_y = 1;
    p->cores_per_tile = jint(j, t, "topology", "cores_per_stop", 1, 0, 1,
                             MAX_PER_TILE);
    p->nmc = 1; /* unused by the coherent cost model */
}

/* "topology": {"kind": "mesh" | "ring", ...}; its keys are checked
 * (platform_keys.c) before, so a misspelt one is named there */
static void load_topology(jctx_t *j, json_t *t, mc_platform_t *p)
{
    json_t *k = json_object_get(t, "kind");
    const char *kind = json_string_value(k);
    if (j->rc != MC_OK)
        return;
    if (!json_is_object(t)) {
        j->rc = mc_error(MC_ERR_ARG, "%s: \"topology\" %s: an object with "
                         "\"kind\": \"mesh\" or \"ring\" "
                         "(docs/platforms.md)", j->file,
                         t ? "is not an object" : "is missing");
        return;
    }
    if (kind && strcmp(kind, "ring") == 0) {
        load_ring(j, t, p);
        return;
    }
    if (!kind || strcmp(kind, "mesh") != 0) {
        if (kind)
            j->rc = mc_error(MC_ERR_UNSUPPORTED, "%s: \"topology.kind\": "
                             "\"%s\" is not known (\"mesh\" or \"ring\")",
                             j->file, kind);
        else
            j->rc = mc_error(MC_ERR_ARG, "%s: \"topology.kind\" %s "
                             "(\"mesh\" or \"ring\")", j->file,
                             k ? "must be a string" : "is missing");
        return;
    }
    p->mesh_x = jint(j, t, "topology", "x", 0, 1, 1, MAX_SIDE);
    p->mesh_y = jint(j, t, "topology", "y", 0, 1, 1, MAX_SIDE);
    p->cores_per_tile = jint(j, t, "topology", "cores_per_tile", 1, 0, 1,
                             MAX_PER_TILE);
    json_t *u = json_object_get(t, "used");
    p->used_x = u ? jint(j, u, "topology.used", "x", 0, 1, 1, p->mesh_x)
                  : p->mesh_x;
    p->used_y = u ? jint(j, u, "topology.used", "y", 0, 1, 1, p->mesh_y)
                  : p->mesh_y;
}

static void load_mcs(jctx_t *j, json_t *arr, mc_platform_t *p)
{
    size_t i;
    json_t *v;
    if (!json_is_array(arr) || json_array_size(arr) < 1) {
        if (j->rc == MC_OK)
            j->rc = mc_error(MC_ERR_ARG,
                             "%s: \"memory_controllers\" must be a list of "
                             "[x, y]",
                             j->file);
        return;
    }
    json_array_foreach(arr, i, v)
    {
        json_t *x = json_array_get(v, 0), *y = json_array_get(v, 1);
        if (i >= MC_PLAT_MAX_MC || json_array_size(v) != 2 ||
            !json_is_integer(x) || !json_is_integer(y) ||
            json_integer_value(x) < 0 ||
            json_integer_value(x) >= p->mesh_x ||
            json_integer_value(y) < 0 || json_integer_value(y) >= p->mesh_y) {
            if (j->rc == MC_OK)
                j->rc = mc_error(MC_ERR_ARG,
                                 "%s: memory_controllers[%zu] is not [x, y] "
                                 "with whole numbers on the %dx%d mesh (at "
                                 "most %d controllers)",
                                 j->file, i, p->mesh_x, p->mesh_y,
                                 MC_PLAT_MAX_MC);
            return;
        }
        p->mc_x[i] = (int)json_integer_value(x);
        p->mc_y[i] = (int)json_integer_value(y);
        p->nmc = (int)i + 1;
    }
}

/* key of obj as 0 or 1 (absent: 0); "mpb": 1 must not turn it off */
static int jbool(jctx_t *j, json_t *obj, const char *section,
                 const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (v && !json_is_boolean(v) && j->rc == MC_OK)
        j->rc = mc_error(MC_ERR_ARG, "%s: \"%s.%s\" must be true or false",
                         j->file, section, key);
    return json_is_true(v);
}

static void load_contention(jctx_t *j, json_t *c, mc_platform_t *p)
{
    p->cont.mpb = jbool(j, c, "contention", "mpb");
    p->cont.link = jbool(j, c, "contention", "link");
    p->cont.mc = jbool(j, c, "contention", "mc");
    p->cont.mpb_service = jcost(j, c, "contention", "mpb_service_us", !p->cc);
    p->cont.link_time = jcost(j, c, "contention", "link_us", !p->cc);
    p->cont.mc_service = jcost(j, c, "contention", "mc_service_us", !p->cc);
}

/* a profile's line cost (ns) as simulated time, checked like a cost */
static mc_ps_t prof_ps(jctx_t *j, const char *name, const char *what,
                       double ns)
{
    if (j->rc == MC_OK && !(isfinite(ns) && ns >= 0 &&
                            ns <= MAX_COST_US * 1000))
        j->rc = mc_error(MC_ERR_ARG, "%s: profile %s: %s must be in [0, "
                         "%g] ns for the simulator", j->file, name, what,
                         MAX_COST_US * 1000);
    return j->rc == MC_OK ? ps_of_us(ns / 1000) : 0;
}

/* "network": {"kind": "message", ...}: the message-network model of
 * cost_msg.c (docs/platforms.md) */
static void load_network(jctx_t *j, json_t *n, mc_platform_t *p)
{
    const char *kind = json_string_value(json_object_get(n, "kind"));
    if (!kind || strcmp(kind, "message") != 0) {
        if (j->rc == MC_OK)
            j->rc = mc_error(MC_ERR_ARG, "%s: \"network\": \"kind\" must be "
                                         "\"message\"", j->file);
        return;
    }
    mc_msgnet_t *m = &p->net;
    m->on = 1;
    m->pkt_link = ps_of_us(jnum_in(j, n, "network", "packet_link_us", 0, 1, 0, MAX_COST_US, 0));
    m->copy_line = ps_of_us(jnum_in(j, n, "network", "copy_line_us", 0, 1, 0, MAX_COST_US, 0));
    m->o_send = ps_of_us(jnum_in(j, n, "network", "o_send_us", 0, 1, 0, MAX_COST_US, 0));
    m->o_recv = ps_of_us(jnum_in(j, n, "network", "o_recv_us", 0, 1, 0, MAX_COST_US, 0));
    m->o_flag = ps_of_us(jnum_in(j, n, "network", "o_flag_us", 0, 1, 0, MAX_COST_US, 0));
    json_t *sn = json_object_get(n, "static_network");
    if (sn) {
        m->sn_hop = ps_of_us(jnum_in(j, sn, "network.static_network", "hop_us", 0, 1, 0, MAX_COST_US, 0));
        m->sn_setup = ps_of_us(jnum_in(j, sn, "network.static_network", "setup_us", 0, 1, 0, MAX_COST_US, 0));
    }
    if (j->rc == MC_OK && (m->pkt_link <= 0 || m->copy_line < 0 ||
                           m->o_send < 0 || m->o_recv < 0 || m->o_flag < 0 ||
                           m->sn_hop < 0 ||
                           m->sn_setup < 0))
        j->rc = mc_error(MC_ERR_ARG, "%s: \"network\": times must be >= 0 "
                                     "(packet_link_us > 0)", j->file);
}

/* "coherence": {"profile": NAME, "contention": "E-E"}: line costs R_L,
 * R_R, R_I and the contention slope c of the named profile */
static void load_coherence(jctx_t *j, json_t *c, mc_platform_t *p)
{
    const char *name = json_string_value(json_object_get(c, "profile"));
    const char *cst = json_string_value(json_object_get(c, "contention"));
    mc_profile_t prof;
    mc_profile_init(&prof);
    if (!name || mc_profile_load(name, &prof) != MC_OK) {
        if (j->rc == MC_OK)
            j->rc = name ? MC_ERR_ARG
                         : mc_error(MC_ERR_ARG, "%s: \"coherence\" needs a "
                                                "\"profile\"", j->file);
        mc_profile_free(&prof);
        return;
    }
    p->R_L = prof_ps(j, name, "R_L", prof.r_l);
    p->R_R = prof_ps(j, name, "R_R", prof.r_r);
    p->R_I = prof_ps(j, name, "R_I", prof.r_i);
    for (int i = 0; i < prof.ncont; i++)
        if (!cst || strcmp(prof.cont[i].states, cst) == 0) {
            p->cont.mpb_service = prof_ps(j, name, "the contention slope c",
                                          prof.cont[i].slope);
            break;
        }
    mc_profile_free(&prof);
}

/* "cache": {"enabled": true, "l1_bytes": ..., "l1_ways": ..., "l2_bytes":
 * ..., "l2_ways": ..., "l1_hit_us": ..., "l2_hit_us": ...} */
static void load_cache(jctx_t *j, json_t *c, mc_platform_t *p)
{
    mc_cache_cfg_t *k = &p->cache;
    k->on = jbool(j, c, "cache", "enabled");
    k->l1_bytes = (size_t)jnum_in(j, c, "cache", "l1_bytes", 0, 1, 1, 1 << 30, 1);
    k->l2_bytes = (size_t)jnum_in(j, c, "cache", "l2_bytes", 0, 1, 1, 1 << 30, 1);
    k->l1_ways = jint(j, c, "cache", "l1_ways", 1, 1, 1, 1024);
    k->l2_ways = jint(j, c, "cache", "l2_ways", 1, 1, 1, 1024);
    k->l1_hit = jcost(j, c, "cache", "l1_hit_us", 1);
    k->l2_hit = jcost(j, c, "cache", "l2_hit_us", 1);
    if (j->rc == MC_OK &&
        (k->l1_bytes < (size_t)p->line * (size_t)k->l1_ways ||
         k->l2_bytes < (size_t)p->line * (size_t)k->l2_ways ||
         (p->line & (p->line - 1))))
        j->rc = mc_error(MC_ERR_ARG,
                         "%s: \"cache\": sizes must hold a line per way, "
                         "lines a power of two",
                         j->file);
    if (p->cc && k->on && j->rc == MC_OK)
        j->rc = mc_error(MC_ERR_UNSUPPORTED,
                         "%s: \"cache\" is for chips with MPBs; a coherent "
                         "chip has its own line model",
                         j->file);
}

/* the keys of the file at path and of those it extends, merged and
 * checked against the schema; NULL on an error */
static json_t *read_checked(const char *path, mc_plat_load_opts_t *o)
{
    mc_plat_files_t f;
    json_t *root = mc_plat_read_files(path, &f);
    size_t used = o ? strlen(o->ignored) : 0;
    char *ignored = o && o->lenient ? o->ignored + used : NULL;
    if (root && mc_plat_check_keys(&f, root, ignored,
                                   sizeof o->ignored - used) != MC_OK) {
        json_decref(root);
        root = NULL;
    }
    mc_plat_files_free(&f);
    return root;
}

static int load_json(const char *path, mc_plat_load_opts_t *o,
                     mc_platform_t *p)
{
    json_t *root = read_checked(path, o);
    if (!root)
        return MC_ERR_ARG;
    jctx_t j = {path, MC_OK};
    const char *name = json_string_value(json_object_get(root, "name"));
    const char *desc = json_string_value(json_object_get(root, "description"));
    snprintf(p->name, sizeof p->name, "%s", name ? name : "unnamed");
    snprintf(p->description, sizeof p->description, "%s", desc ? desc : "");
    if (json_object_get(root, "chips")) { /* platform_multi.c */
        j.rc = mc_platform_load_multi(path, root, o, p);
        json_decref(root);
        return j.rc;
    }
    load_topology(&j, json_object_get(root, "topology"), p);
    p->line = jint(&j, root, "", "line_bytes", 0, 1, 16, 4096);
    /* whole lines, so every flag and payload word is aligned */
    p->mpb_bytes = (size_t)jnum_in(&j, root, "", "mpb_bytes", 0, 1,
                                   MC_PLAT_MIN_MPB_LINES * p->line,
                                   1 << 30, 1);
    if (j.rc == MC_OK && p->mpb_bytes % (size_t)p->line)
        j.rc = mc_error(MC_ERR_ARG, "%s: \"mpb_bytes\" (%zu) must be a "
                        "multiple of \"line_bytes\" (%d)", path,
                        p->mpb_bytes, p->line);
    p->p2p_chunk = (size_t)jnum_in(&j, root, "", "p2p_chunk_bytes", 0, 0, 0,
                                   (double)p->mpb_bytes, 1);
    p->outstanding = jint(&j, root, "", "outstanding", 1, 0, 1, 64);
    const char *fm = json_string_value(json_object_get(root, "flags"));
    if (fm && strcmp(fm, "rcce") && strcmp(fm, "line") && j.rc == MC_OK)
        j.rc = mc_error(MC_ERR_ARG, "%s: \"flags\" must be \"rcce\" or "
                                    "\"line\"", path);
    p->flags_rcce = fm && !strcmp(fm, "rcce");
    json_t *costs = json_object_get(root, "costs_us");
    for (size_t i = 0; i < NCOSTS && j.rc == MC_OK; i++)
        *cost_slot(&p->c, i) = jcost(&j, costs, "costs_us", cost_names[i],
                                     i < NCOSTS_REQUIRED && !p->cc);
    p->c.local_mpb = json_object_get(costs, "local_mpb_us")
                         ? jcost(&j, costs, "costs_us", "local_mpb_us", 0)
                         : -1;
    if (j.rc == MC_OK && !p->cc)
        load_mcs(&j, json_object_get(root, "memory_controllers"), p);
    json_t *cont = json_object_get(root, "contention");
    if (j.rc == MC_OK && cont)
        load_contention(&j, cont, p);
    if (j.rc == MC_OK && p->cc)
        load_coherence(&j, json_object_get(root, "coherence"), p);
    json_t *net = json_object_get(root, "network");
    if (j.rc == MC_OK && net && !p->cc)
        load_network(&j, net, p);
    json_t *cache = json_object_get(root, "cache");
    if (j.rc == MC_OK && cache)
        load_cache(&j, cache, p);
    json_decref(root);
    return j.rc;
}

int mc_platform_load(const char *name, mc_platform_t **out)
{
    return mc_platform_load_opts(name, NULL, out);
}

int mc_platform_load_opts(const char *name, mc_plat_load_opts_t *o,
                          mc_platform_t **out)
{
    mc_platform_t *p = calloc(1, sizeof *p);
    if (!p)
        return mc_error(MC_ERR_NOMEM, "out of memory");
    int rc;
    if (generate_mesh(name, p)) {
        rc = MC_OK;
    } else {
        char path[1024];
        rc = mc_data_path("platforms", name, path, sizeof path);
        if (rc == MC_OK)
            rc = load_json(path, o, p);
    }
    if (rc == MC_OK)
        rc = check(p);
    if (rc != MC_OK) {
        mc_platform_free(p);
        return rc;
    }
    *out = p;
    return MC_OK;
}

void mc_platform_free(mc_platform_t *p)
{
    if (!p)
        return;
    free(p->tile_x);
    free(p->tile_y);
    free(p->mc_of);
    free(p->d_mem);
    free(p->failed);
    free(p);
}

void mc_platform_describe(const mc_platform_t *p, char *buf, size_t len)
{
    snprintf(buf, len,
             "%s: %dx%d mesh (%dx%d used), %d core(s)/tile, %d cores, "
             "%d-byte lines, %zu-byte MPBs, %d memory controllers, %s flags%s; "
             "contention mpb=%s link=%s mc=%s",
             p->name, p->mesh_x, p->mesh_y, p->used_x, p->used_y,
             p->cores_per_tile, p->ncores, p->line, p->mpb_bytes, p->nmc,
             p->flags_rcce ? "RCCE" : "line",
             p->net.on ? (p->net.sn_hop ? ", message network + static network"
                                        : ", message network")
                       : "", p->cont.mpb ? "on" : "off", p->cont.link ? "on" : "off",
             p->cont.mc ? "on" : "off");
    size_t used = strlen(buf);
    if (p->host.nchips > 1 && used < len)
        snprintf(buf + used, len - used,
                 "; %d chips of %d cores behind one host (port tile "
                 "(%d,%d), writes acknowledged by the %s)",
                 p->host.nchips, p->host.chip_cores, p->host.port_x,
                 p->host.port_y,
                 p->host.write_ack == MC_ACK_HOST   ? "host"
                 : p->host.write_ack == MC_ACK_PORT ? "device port"
                                                    : "target");
}
