/*
 * Loading platforms: JSON files read with jansson, or mesh<X>x<Y>
 * generated with SCC-like parameters. See docs/platforms.md.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "model/profile.h"
#include "sim/platform.h"
#include "util/datapath.h"

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

/* every core's router, controller and distance to it */
static int derive(mc_platform_t *p)
{
    int n = p->ncores;
    p->tile_x = calloc((size_t)n, sizeof(int));
    p->tile_y = calloc((size_t)n, sizeof(int));
    p->mc_of = calloc((size_t)n, sizeof(int));
    p->d_mem = calloc((size_t)n, sizeof(int));
    if (!p->tile_x || !p->tile_y || !p->mc_of || !p->d_mem)
        return mc_error(MC_ERR_NOMEM, "platform %s: out of memory", p->name);
    for (int core = 0; core < n; core++) {
        int tile = core / p->cores_per_tile;
        p->tile_x[core] = tile % p->used_x;
        p->tile_y[core] = tile / p->used_x;
        int best = -1, bestd = 1 << 30;
        for (int m = 0; m < p->nmc; m++) {
            int d = abs(p->mc_x[m] - p->tile_x[core]) +
                    abs(p->mc_y[m] - p->tile_y[core]);
            if (d < bestd)
                best = m, bestd = d; /* ties: the first listed */
        }
        p->mc_of[core] = best;
        p->d_mem[core] = bestd + 1;
    }
    return MC_OK;
}

static int check(mc_platform_t *p)
{
    if (p->mesh_x < 1 || p->mesh_y < 1 || p->cores_per_tile < 1)
        return mc_error(MC_ERR_ARG, "platform %s: bad mesh size", p->name);
    if (p->used_x < 1 || p->used_x > p->mesh_x || p->used_y < 1 ||
        p->used_y > p->mesh_y)
        return mc_error(MC_ERR_ARG, "platform %s: usable tiles outside mesh",
                        p->name);
    if (p->line < 16 || p->line % 8 || p->mpb_bytes < (size_t)p->line)
        return mc_error(MC_ERR_ARG, "platform %s: bad line or MPB size",
                        p->name);
    if (p->nmc < 1)
        return mc_error(MC_ERR_ARG, "platform %s: no memory controllers",
                        p->name);
    if (p->cc && p->used_x * p->used_y * p->cores_per_tile > 64)
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
    p->ncores = p->used_x * p->used_y * p->cores_per_tile;
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

typedef struct jctx {
    const char *file;
    int rc;
} jctx_t;

static double jnum(jctx_t *j, json_t *obj, const char *key, double def,
                   int required)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required && j->rc == MC_OK)
            j->rc = mc_error(MC_ERR_ARG, "%s: missing \"%s\"", j->file, key);
        return def;
    }
    if (!json_is_number(v)) {
        if (j->rc == MC_OK)
            j->rc = mc_error(MC_ERR_ARG, "%s: \"%s\" must be a number",
                             j->file, key);
        return def;
    }
    return json_number_value(v);
}

/* a ring of stops (Xeon Phi): a coherent chip whose line costs do not
 * depend on the distance, so it is laid out as one row of tiles */
static void load_ring(jctx_t *j, json_t *t, mc_platform_t *p)
{
    p->cc = 1;
    p->mesh_x = p->used_x = (int)jnum(j, t, "stops", 0, 1);
    p->mesh_y = p->used_y = 1;
    p->cores_per_tile = (int)jnum(j, t, "cores_per_stop", 1, 0);
    p->nmc = 1; /* unused by the coherent cost model */
}

static void load_topology(jctx_t *j, json_t *t, mc_platform_t *p)
{
    const char *kind = json_string_value(json_object_get(t, "kind"));
    if (kind && strcmp(kind, "ring") == 0) {
        load_ring(j, t, p);
        return;
    }
    if (!kind || strcmp(kind, "mesh") != 0) {
        if (j->rc == MC_OK)
            j->rc = mc_error(MC_ERR_UNSUPPORTED,
                             "%s: topology kind \"%s\" is not known (\"mesh\" "
                             "or \"ring\")",
                             j->file, kind ? kind : "(none)");
        return;
    }
    p->mesh_x = (int)jnum(j, t, "x", 0, 1);
    p->mesh_y = (int)jnum(j, t, "y", 0, 1);
    p->cores_per_tile = (int)jnum(j, t, "cores_per_tile", 1, 0);
    json_t *u = json_object_get(t, "used");
    p->used_x = u ? (int)jnum(j, u, "x", 0, 1) : p->mesh_x;
    p->used_y = u ? (int)jnum(j, u, "y", 0, 1) : p->mesh_y;
}

static void load_mcs(jctx_t *j, json_t *arr, mc_platform_t *p)
{
    size_t i;
    json_t *v;
    if (!json_is_array(arr)) {
        if (j->rc == MC_OK)
            j->rc = mc_error(MC_ERR_ARG,
                             "%s: \"memory_controllers\" must be a list of "
                             "[x, y]",
                             j->file);
        return;
    }
    json_array_foreach(arr, i, v)
    {
        if (i >= MC_PLAT_MAX_MC || json_array_size(v) != 2) {
            if (j->rc == MC_OK)
                j->rc = mc_error(MC_ERR_ARG,
                                 "%s: memory controller %zu is not [x, y]",
                                 j->file, i);
            return;
        }
        p->mc_x[i] = (int)json_integer_value(json_array_get(v, 0));
        p->mc_y[i] = (int)json_integer_value(json_array_get(v, 1));
        p->nmc = (int)i + 1;
    }
}

static void load_contention(jctx_t *j, json_t *c, mc_platform_t *p)
{
    p->cont.mpb = json_is_true(json_object_get(c, "mpb"));
    p->cont.link = json_is_true(json_object_get(c, "link"));
    p->cont.mc = json_is_true(json_object_get(c, "mc"));
    p->cont.mpb_service = ps_of_us(jnum(j, c, "mpb_service_us", 0, !p->cc));
    p->cont.link_time = ps_of_us(jnum(j, c, "link_us", 0, !p->cc));
    p->cont.mc_service = ps_of_us(jnum(j, c, "mc_service_us", 0, !p->cc));
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
    p->R_L = ps_of_us(prof.r_l / 1000);
    p->R_R = ps_of_us(prof.r_r / 1000);
    p->R_I = ps_of_us(prof.r_i / 1000);
    for (int i = 0; i < prof.ncont; i++)
        if (!cst || strcmp(prof.cont[i].states, cst) == 0) {
            p->cont.mpb_service = ps_of_us(prof.cont[i].slope / 1000);
            break;
        }
    mc_profile_free(&prof);
}

/* "cache": {"enabled": true, "l1_bytes": ..., "l1_ways": ..., "l2_bytes":
 * ..., "l2_ways": ..., "l1_hit_us": ..., "l2_hit_us": ...} */
static void load_cache(jctx_t *j, json_t *c, mc_platform_t *p)
{
    mc_cache_cfg_t *k = &p->cache;
    k->on = json_is_true(json_object_get(c, "enabled"));
    k->l1_bytes = (size_t)jnum(j, c, "l1_bytes", 0, 1);
    k->l2_bytes = (size_t)jnum(j, c, "l2_bytes", 0, 1);
    k->l1_ways = (int)jnum(j, c, "l1_ways", 0, 1);
    k->l2_ways = (int)jnum(j, c, "l2_ways", 0, 1);
    k->l1_hit = ps_of_us(jnum(j, c, "l1_hit_us", 0, 1));
    k->l2_hit = ps_of_us(jnum(j, c, "l2_hit_us", 0, 1));
    if (j->rc == MC_OK &&
        (k->l1_ways < 1 || k->l2_ways < 1 || k->l1_hit < 0 || k->l2_hit < 0 ||
         k->l1_bytes < (size_t)p->line * (size_t)k->l1_ways ||
         k->l2_bytes < (size_t)p->line * (size_t)k->l2_ways ||
         (p->line & (p->line - 1))))
        j->rc = mc_error(MC_ERR_ARG,
                         "%s: \"cache\": sizes must hold a line per way, "
                         "ways and hit costs must be positive, lines a "
                         "power of two",
                         j->file);
    if (p->cc && k->on && j->rc == MC_OK)
        j->rc = mc_error(MC_ERR_UNSUPPORTED,
                         "%s: \"cache\" is for chips with MPBs; a coherent "
                         "chip has its own line model",
                         j->file);
}

/* A file may start from another ("extends": NAME): the other's keys,
 * with this file's keys (objects merged key by key) over them. */
static json_t *load_tree(const char *path, int depth)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root) {
        mc_error(MC_ERR_ARG, "%s:%d: %s", path, err.line, err.text);
        return NULL;
    }
    const char *base = json_string_value(json_object_get(root, "extends"));
    if (!base)
        return root;
    char bpath[1024];
    json_t *b = NULL;
    if (depth >= 8)
        mc_error(MC_ERR_ARG, "%s: \"extends\" nests more than 8 files", path);
    else if (mc_data_path("platforms", base, bpath, sizeof bpath) == MC_OK)
        b = load_tree(bpath, depth + 1);
    if (b && json_object_update_recursive(b, root) != 0) {
        mc_error(MC_ERR_NOMEM, "%s: cannot merge \"%s\"", path, base);
        json_decref(b);
        b = NULL;
    }
    json_decref(root);
    return b;
}

static int load_json(const char *path, mc_platform_t *p)
{
    json_t *root = load_tree(path, 0);
    if (!root)
        return MC_ERR_ARG;
    jctx_t j = {path, MC_OK};
    if (json_object_get(root, "chips"))
        j.rc = mc_error(MC_ERR_UNSUPPORTED,
                        "%s: multi-chip platforms are described in "
                        "docs/platforms.md but not simulated yet",
                        path);
    const char *name = json_string_value(json_object_get(root, "name"));
    const char *desc = json_string_value(json_object_get(root, "description"));
    snprintf(p->name, sizeof p->name, "%s", name ? name : "unnamed");
    snprintf(p->description, sizeof p->description, "%s", desc ? desc : "");
    if (j.rc == MC_OK)
        load_topology(&j, json_object_get(root, "topology"), p);
    p->line = (int)jnum(&j, root, "line_bytes", 0, 1);
    p->mpb_bytes = (size_t)jnum(&j, root, "mpb_bytes", 0, 1);
    p->p2p_chunk = (size_t)jnum(&j, root, "p2p_chunk_bytes", 0, 0);
    p->outstanding = (int)jnum(&j, root, "outstanding", 1, 0);
    const char *fm = json_string_value(json_object_get(root, "flags"));
    if (fm && strcmp(fm, "rcce") && strcmp(fm, "line") && j.rc == MC_OK)
        j.rc = mc_error(MC_ERR_ARG, "%s: \"flags\" must be \"rcce\" or "
                                    "\"line\"", path);
    p->flags_rcce = fm && !strcmp(fm, "rcce");
    json_t *costs = json_object_get(root, "costs_us");
    for (size_t i = 0; i < NCOSTS && j.rc == MC_OK; i++) {
        double us = jnum(&j, costs, cost_names[i], 0,
                         i < NCOSTS_REQUIRED && !p->cc);
        if (us < 0 && j.rc == MC_OK)
            j.rc = mc_error(MC_ERR_ARG, "%s: cost \"%s\" is negative", path,
                            cost_names[i]);
        *cost_slot(&p->c, i) = ps_of_us(us);
    }
    p->c.local_mpb = ps_of_us(jnum(&j, costs, "local_mpb_us", -1, 0));
    if (j.rc == MC_OK && !p->cc)
        load_mcs(&j, json_object_get(root, "memory_controllers"), p);
    json_t *cont = json_object_get(root, "contention");
    if (j.rc == MC_OK && cont)
        load_contention(&j, cont, p);
    if (j.rc == MC_OK && p->cc)
        load_coherence(&j, json_object_get(root, "coherence"), p);
    json_t *cache = json_object_get(root, "cache");
    if (j.rc == MC_OK && cache)
        load_cache(&j, cache, p);
    json_decref(root);
    return j.rc;
}

int mc_platform_load(const char *name, mc_platform_t **out)
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
            rc = load_json(path, p);
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
    free(p);
}

void mc_platform_describe(const mc_platform_t *p, char *buf, size_t len)
{
    snprintf(buf, len,
             "%s: %dx%d mesh (%dx%d used), %d core(s)/tile, %d cores, "
             "%d-byte lines, %zu-byte MPBs, %d memory controllers, %s flags; "
             "contention mpb=%s link=%s mc=%s",
             p->name, p->mesh_x, p->mesh_y, p->used_x, p->used_y,
             p->cores_per_tile, p->ncores, p->line, p->mpb_bytes, p->nmc,
             p->flags_rcce ? "RCCE" : "line", p->cont.mpb ? "on" : "off", p->cont.link ? "on" : "off",
             p->cont.mc ? "on" : "off");
}
