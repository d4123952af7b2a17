/*
 * Several chips behind one host: the vSCC of Reble, Fischer, Lankes and
 * Mueller (PMAM'15), five SCCs on one host's PCIe. A platform file with
 * "chips" names one chip platform and how many copies, and the host link
 * between them (docs/platforms.md):
 *
 *   {"name": "vscc240",
 *    "chips": [{"platform": "scc48", "count": 5}],
 *    "interconnect": {"kind": "host", "port_tile": [3, 0],
 *                     "pcie_latency_us": ..., "host_service_us": ...,
 *                     "link_MBps": ..., "dma_setup_us": ..., "dma_MBps": ...,
 *                     "write_ack": "host", "vdma_threshold_bytes": 64},
 *    "failed_cores": [...]}
 *
 * Cores are numbered chip by chip as RCCE numbers them (chip i holds cores
 * i*48 .. i*48+47 on the vSCC); each keeps its tile and its nearest memory
 * controller within its own chip.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plat/platform.h"
#include "util/error.h"
#include "util/jsonrd.h"

#define MAX_CHIPS 64

/* a number of o at key in [lo, hi] (whole if `whole`), or def when absent
 * and not required; *rc takes the first error */
static double num(const mc_jrd_t *r, json_t *o, const char *key, double def,
                  int required, double lo, double hi, int whole, int *rc)
{
    json_t *v = json_object_get(o, key);
    if (*rc != MC_OK || (!v && !required))
        return def;
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    if (!isfinite(x) || x < lo || x > hi || (whole && x != floor(x))) {
        char what[96];
        snprintf(what, sizeof what, "must be %s in [%g, %g]",
                 whole ? "a whole number" : "a number", lo, hi);
        *rc = mc_jrd_bad(r, key, v ? what : "is missing");
        return def;
    }
    return x;
}

static mc_ps_t ps_of_us(double us)
{
    return (mc_ps_t)llround(us * MC_PS_PER_US);
}

/* one line at `MBps` (bytes per microsecond) */
static mc_ps_t line_ps(int line, double MBps)
{
    return MBps > 0 ? (mc_ps_t)llround((double)line * MC_PS_PER_US / MBps)
                    : 0;
}

static int load_link(const char *path, json_t *ic, mc_platform_t *p)
{
    mc_jrd_t r = {path, "", "interconnect"};
    if (!json_is_object(ic))
        return mc_jrd_bad(&r, "kind", "the section is missing");
    int rc = MC_OK; /* its keys: platform_keys.c */
    const char *kind = json_string_value(json_object_get(ic, "kind"));
    if (rc == MC_OK && (!kind || strcmp(kind, "host")))
        rc = mc_jrd_bad(&r, "kind", "must be \"host\" (chips behind one "
                                    "host's PCIe links)");
    mc_hostlink_t *h = &p->host;
    json_t *port = json_object_get(ic, "port_tile");
    json_t *px = json_array_get(port, 0), *py = json_array_get(port, 1);
    if (rc == MC_OK &&
        (json_array_size(port) != 2 || !json_is_integer(px) ||
         !json_is_integer(py) || json_integer_value(px) < 0 ||
         json_integer_value(px) >= p->used_x || json_integer_value(py) < 0 ||
         json_integer_value(py) >= p->used_y))
        rc = mc_jrd_bad(&r, "port_tile", "must be [x, y], a used tile of "
                                         "the chip");
    if (rc == MC_OK) {
        h->port_x = (int)json_integer_value(px);
        h->port_y = (int)json_integer_value(py);
    }
    h->pcie = ps_of_us(num(&r, ic, "pcie_latency_us", 0, 1, 0, 1e4, 0, &rc));
    h->host_service =
        ps_of_us(num(&r, ic, "host_service_us", 0, 1, 0, 1e4, 0, &rc));
    h->link_line = line_ps(p->line, num(&r, ic, "link_MBps", 0, 1, 0.001,
                                        1e6, 0, &rc));
    h->dma_setup = ps_of_us(num(&r, ic, "dma_setup_us", 0, 0, 0, 1e4, 0, &rc));
    h->dma_line = line_ps(p->line, num(&r, ic, "dma_MBps", 0, 0, 0, 1e6, 0,
                                       &rc));
    h->vdma_threshold = (size_t)num(&r, ic, "vdma_threshold_bytes", 64, 0, 0,
                                    1 << 20, 1, &rc);
    const char *ack = json_string_value(json_object_get(ic, "write_ack"));
    h->write_ack = !ack || !strcmp(ack, "host")  ? MC_ACK_HOST
                   : !strcmp(ack, "target")      ? MC_ACK_TARGET
                   : !strcmp(ack, "port")        ? MC_ACK_PORT
                                                 : -1;
    if (rc == MC_OK && h->write_ack < 0)
        rc = mc_jrd_bad(&r, "write_ack", "must be \"target\" (transparent "
                                         "routing), \"host\" (the "
                                         "communication task) or \"port\" "
                                         "(the FPGA's fast acknowledge)");
    return rc;
}

/* copies of the chip's per-core tables, chip after chip */
static int replicate(const mc_platform_t *chip, int count, mc_platform_t *p)
{
    size_t n = (size_t)chip->ncores * (size_t)count;
    p->tile_x = malloc(n * sizeof(int));
    p->tile_y = malloc(n * sizeof(int));
    p->mc_of = malloc(n * sizeof(int));
    p->d_mem = malloc(n * sizeof(int));
    if (!p->tile_x || !p->tile_y || !p->mc_of || !p->d_mem)
        return mc_error(MC_ERR_NOMEM, "platform %s: out of memory", p->name);
    for (size_t c = 0; c < n; c++) {
        size_t k = c % (size_t)chip->ncores, i = c / (size_t)chip->ncores;
        p->tile_x[c] = chip->tile_x[k];
        p->tile_y[c] = chip->tile_y[k];
        p->mc_of[c] = chip->mc_of[k] + (int)i * chip->nmc;
        p->d_mem[c] = chip->d_mem[k];
    }
    for (int m = 0; m < chip->nmc * count; m++) {
        p->mc_x[m] = chip->mc_x[m % chip->nmc];
        p->mc_y[m] = chip->mc_y[m % chip->nmc];
    }
    return MC_OK;
}

static int load_failed(const char *path, json_t *arr, mc_platform_t *p)
{
    mc_jrd_t r = {path, "", ""};
    if (!arr)
        return MC_OK;
    if (!json_is_array(arr))
        return mc_jrd_bad(&r, "failed_cores", "must be a list of cores");
    p->failed = calloc((size_t)p->ncores, 1);
    if (!p->failed)
        return mc_error(MC_ERR_NOMEM, "platform %s: out of memory", p->name);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v)
    {
        json_int_t c = json_is_integer(v) ? json_integer_value(v) : -1;
        if (c < 0 || c >= p->ncores)
            return mc_jrd_bad(&r, "failed_cores", "lists a core that is not "
                                                  "a core of the platform");
        p->failed[c] = 1;
    }
    return MC_OK;
}

/* the chip list: one platform, count copies (loaded into *chip) */
static int load_chip(const char *path, json_t *chips,
                     mc_plat_load_opts_t *o, mc_platform_t **chip,
                     int *count)
{
    mc_jrd_t r = {path, "", "chips[0]"};
    json_t *c0 = json_array_get(chips, 0);
    const char *name = json_string_value(json_object_get(c0, "platform"));
    if (json_array_size(chips) != 1 || !name)
        return mc_jrd_bad(&r, "platform", "\"chips\" must list one chip "
                                          "platform (copies of one chip)");
    int rc = MC_OK;
    *count = (int)num(&r, c0, "count", 0, 1, 2, MAX_CHIPS, 1, &rc);
    if (rc != MC_OK || mc_platform_load_opts(name, o, chip) != MC_OK)
        return MC_ERR_ARG; /* the chip's own load said why */
    const mc_platform_t *k = *chip;
    if (k->host.nchips > 1 || k->cc || k->net.on)
        return mc_jrd_bad(&r, "platform", "must be one chip with MPBs (not "
                                          "several chips, a coherent chip or "
                                          "a message network)");
    if ((long)k->ncores * *count > MC_PLAT_MAX_CORES ||
        (long)k->nmc * *count > MC_PLAT_MAX_MC)
        return mc_jrd_bad(&r, "count", "makes more cores or memory "
                                       "controllers than the simulator takes");
    return MC_OK;
}

/* the keys of root are checked (platform_keys.c); the chip platform is
 * read as o says (strictly or leniently) */
int mc_platform_load_multi(const char *path, json_t *root,
                           mc_plat_load_opts_t *o, mc_platform_t *p)
{
    int count = 0;
    mc_platform_t *chip = NULL;
    int rc = load_chip(path, json_object_get(root, "chips"), o, &chip,
                       &count);
    if (rc != MC_OK) {
        mc_platform_free(chip);
        return rc;
    }
    char name[sizeof p->name], desc[sizeof p->description];
    memcpy(name, p->name, sizeof name);
    memcpy(desc, p->description, sizeof desc);
    *p = *chip; /* costs, contention, line and MPB sizes of the chip */
    memcpy(p->name, name, sizeof name);
    memcpy(p->description, desc, sizeof desc);
    p->tile_x = p->tile_y = p->mc_of = p->d_mem = NULL;
    p->failed = NULL;
    p->ncores = chip->ncores * count;
    p->nmc = chip->nmc * count;
    p->host = (mc_hostlink_t){.nchips = count, .chip_cores = chip->ncores,
                              .chip_mc = chip->nmc};
    rc = replicate(chip, count, p);
    mc_platform_free(chip);
    if (rc == MC_OK)
        rc = load_link(path, json_object_get(root, "interconnect"), p);
    if (rc == MC_OK)
        rc = load_failed(path, json_object_get(root, "failed_cores"), p);
    return rc;
}

int mc_plat_working(const mc_platform_t *p)
{
    int n = 0;
    for (int c = 0; c < p->ncores; c++)
        n += !(p->failed && p->failed[c]);
    return n;
}

int mc_plat_map_linear(const mc_platform_t *p, int n, int *cores)
{
    int r = 0;
    for (int c = 0; c < p->ncores && r < n; c++)
        if (!(p->failed && p->failed[c]))
            cores[r++] = c;
    if (r < n)
        return mc_error(MC_ERR_ARG, "%d ranks: platform %s has %d cores that "
                        "work (%d in failed_cores)", n, p->name, r,
                        p->ncores - r);
    return MC_OK;
}
