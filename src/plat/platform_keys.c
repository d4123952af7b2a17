/*
 * The schema of platform files: one table of keys per section, the key
 * check, and reading a file with the files it extends. A key the loader
 * (platform.c, platform_multi.c) starts to read goes into its section's
 * `keys` here, and into docs/platforms.md; a key kept for documentation
 * or for the future goes into `reserved`, with a comment saying why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/platform_keys.h"
#include "util/datapath.h"
#include "util/error.h"
#include "util/jsonrd.h"

/* A section: the object at `path` ("" the root, "topology.used" an object
 * in an object, "chips[]" each entry of the list "chips"). Sections of
 * one path that depend on the object's "kind" are neighbours in the
 * table; an object whose kind none of them names is checked against all
 * of them (so that a misspelt key next to a wrong kind is still
 * suggested). */
typedef struct plat_section {
    const char *path;
    const char *kind;            /* this variant's "kind"; NULL: any */
    const char *const *keys;     /* read by the loader */
    const char *const *reserved; /* accepted, not read; NULL: none */
} plat_section_t;

/* reserved at the root of every platform file: documentation, not read */
static const char *const doc_keys[] = {
    "source", /* where the numbers come from (every file in platforms/) */
    NULL};

/* ---- a single chip (platform.c) ---- */

static const char *const chip_root[] = {
    "name", "description", "extends", "topology", "line_bytes",
    "mpb_bytes", "p2p_chunk_bytes", "outstanding", "flags",
    "memory_controllers", "costs_us", "contention", "network", "coherence",
    "cache", NULL};
static const char *const mesh_keys[] = {"kind", "x", "y", "cores_per_tile",
                                        "used", NULL};
static const char *const ring_keys[] = {"kind", "stops", "cores_per_stop",
                                        NULL};
static const char *const used_keys[] = {"x", "y", NULL};
static const char *const cost_keys[] = {
    "L_hop", "o_mpb", "o_mem_r", "o_mem_w", "o_put_mpb", "o_get_mpb",
    "o_put_mem", "o_get_mem", "o_reduce_elem", "o_call", "o_req_ircce",
    "o_req_light", "o_flop", "local_mpb_us", NULL};
static const char *const contention_keys[] = {
    "mpb", "link", "mc", "mpb_service_us", "link_us", "mc_service_us", NULL};
static const char *const network_keys[] = {
    "kind", "packet_link_us", "copy_line_us", "o_send_us", "o_recv_us",
    "o_flag_us", "static_network", NULL};
static const char *const static_net_keys[] = {"hop_us", "setup_us", NULL};
static const char *const coherence_keys[] = {"profile", "contention", NULL};
static const char *const cache_keys[] = {
    "enabled", "l1_bytes", "l1_ways", "l2_bytes", "l2_ways", "l1_hit_us",
    "l2_hit_us", NULL};

static const plat_section_t chip_schema[] = {
    {.path = "", .keys = chip_root, .reserved = doc_keys},
    {.path = "topology", .kind = "mesh", .keys = mesh_keys},
    {.path = "topology", .kind = "ring", .keys = ring_keys},
    {.path = "topology.used", .keys = used_keys},
    {.path = "costs_us", .keys = cost_keys},
    {.path = "contention", .keys = contention_keys},
    {.path = "network", .kind = "message", .keys = network_keys},
    {.path = "network.static_network", .keys = static_net_keys},
    {.path = "coherence", .keys = coherence_keys},
    {.path = "cache", .keys = cache_keys},
    {0}};

/* ---- several chips behind one host (platform_multi.c) ---- */

static const char *const multi_root[] = {
    "name", "description", "extends", "chips", "interconnect",
    "failed_cores", NULL};
static const char *const chip_entry_keys[] = {"platform", "count", NULL};
static const char *const host_keys[] = {
    "kind", "port_tile", "pcie_latency_us", "host_service_us", "link_MBps",
    "dma_setup_us", "dma_MBps", "write_ack", "vdma_threshold_bytes", NULL};

static const plat_section_t multi_schema[] = {
    {.path = "", .keys = multi_root, .reserved = doc_keys},
    {.path = "chips[]", .keys = chip_entry_keys},
    /* "source": the interconnect's own references; accepted since the
     * multi-chip reader first checked keys */
    {.path = "interconnect", .kind = "host", .keys = host_keys,
     .reserved = doc_keys},
    {0}};

/* ---- the check ---- */

#define MAX_ALLOWED 64

typedef struct ck {
    const mc_plat_files_t *f;
    const plat_section_t *schema;
    char *ignored; /* NULL: strict */
    size_t len;
    int listed;    /* keys appended to ignored so far */
    int rc;
} ck_t;

/* the object at `where` ("topology", "chips[0]", "" the root) in tree */
static json_t *at(json_t *tree, const char *where)
{
    char seg[96];
    while (*where && json_is_object(tree)) {
        size_t n = strcspn(where, ".");
        snprintf(seg, sizeof seg, "%.*s", (int)n, where);
        char *br = strchr(seg, '[');
        if (br)
            *br = 0;
        tree = json_object_get(tree, seg);
        if (br)
            tree = json_array_get(tree, strtoul(br + 1, NULL, 10));
        where += n + (where[n] == '.');
    }
    return json_is_object(tree) ? tree : NULL;
}

/* the file that key at `where` comes from: the first of the chain that
 * has it (a file's keys are over those of the file it extends) */
static int origin(const mc_plat_files_t *f, const char *where,
                  const char *key)
{
    for (int i = 0; i < f->n; i++)
        if (json_object_get(at(f->tree[i], where), key))
            return i;
    return 0;
}

/* appends s to the lenient list, or "..." once it is full */
static void list_add(ck_t *c, const char *s)
{
    size_t used = strlen(c->ignored);
    if (used + strlen(s) + 4 < c->len)
        memcpy(c->ignored + used, s, strlen(s) + 1);
    else if (used + 4 <= c->len && (used < 3 ||
                                    strcmp(c->ignored + used - 3, "...")))
        memcpy(c->ignored + used, "...", 4);
}

static void unknown(ck_t *c, const char *where, const char *key,
                    const char *const *allowed)
{
    int from = origin(c->f, where, key);
    const char *dot = *where ? "." : "";
    if (!c->ignored) {
        const char *near = mc_jrd_nearest(key, allowed);
        char what[160];
        snprintf(what, sizeof what, "unknown key%s%s%s (docs/platforms.md "
                 "lists the keys)", near ? "; did you mean \"" : "",
                 near ? near : "", near ? "\"?" : "");
        char file[2100];
        snprintf(file, sizeof file, "%s%s%s%s", c->f->path[from],
                 from ? " (extended by " : "", from ? c->f->path[0] : "",
                 from ? ")" : "");
        mc_jrd_t r = {file, "", ""};
        snprintf(r.where, sizeof r.where, "%s", where);
        c->rc = mc_jrd_bad(&r, key, what);
        return;
    }
    char item[1024];
    if (!c->listed)
        snprintf(item, sizeof item, "%s%s: %s%s%s",
                 c->ignored[0] ? "; " : "", c->f->path[0], where, dot, key);
    else
        snprintf(item, sizeof item, ", %s%s%s", where, dot, key);
    list_add(c, item);
    if (from) {
        snprintf(item, sizeof item, " (in %s)", c->f->path[from]);
        list_add(c, item);
    }
    c->listed++;
}

/* the keys of o (at `where`, a section of path s[0].path) against the
 * variants s[0..n) */
static void check_object(ck_t *c, json_t *o, const char *where,
                         const plat_section_t *s, int n)
{
    const char *kind = json_string_value(json_object_get(o, "kind"));
    const char *allowed[MAX_ALLOWED + 1];
    int na = 0;
    for (int pass = 0; pass < 2 && !na; pass++)
        for (int i = 0; i < n; i++) {
            if (!pass && s[i].kind && (!kind || strcmp(kind, s[i].kind)))
                continue;
            for (int k = 0; s[i].keys[k] && na < MAX_ALLOWED; k++)
                allowed[na++] = s[i].keys[k];
            for (int k = 0; s[i].reserved && s[i].reserved[k] &&
                            na < MAX_ALLOWED; k++)
                allowed[na++] = s[i].reserved[k];
        }
    allowed[na] = NULL;
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        if (c->rc)
            return;
        if (!mc_jrd_known(key, allowed))
            unknown(c, where, key, allowed);
    }
}

/* every object at path (below o, which is at `where`), checked against
 * the n variants s */
static void visit(ck_t *c, json_t *o, const char *path, const char *where,
                  const plat_section_t *s, int n)
{
    if (!json_is_object(o) || c->rc)
        return;
    if (!*path) {
        check_object(c, o, where, s, n);
        return;
    }
    size_t len = strcspn(path, ".");
    const char *rest = path + len + (path[len] == '.');
    int list = len > 2 && !strncmp(path + len - 2, "[]", 2);
    char name[64], sub[96];
    snprintf(name, sizeof name, "%.*s", (int)(len - (list ? 2 : 0)), path);
    json_t *child = json_object_get(o, name);
    const char *dot = *where ? "." : "";
    for (size_t i = 0; list && i < json_array_size(child); i++) {
        snprintf(sub, sizeof sub, "%s%s%s[%zu]", where, dot, name, i);
        visit(c, json_array_get(child, i), rest, sub, s, n);
    }
    if (!list) {
        snprintf(sub, sizeof sub, "%s%s%s", where, dot, name);
        visit(c, child, rest, sub, s, n);
    }
}

int mc_plat_check_keys(const mc_plat_files_t *f, json_t *merged,
                       char *ignored, size_t len)
{
    ck_t c = {f, json_object_get(merged, "chips") ? multi_schema
                                                   : chip_schema,
              ignored, len, 0, MC_OK};
    for (const plat_section_t *s = c.schema; s->keys && !c.rc;) {
        int n = 1;
        while (s[n].keys && !strcmp(s[n].path, s->path))
            n++;
        visit(&c, merged, s->path, "", s, n);
        s += n;
    }
    return c.rc;
}

/* ---- reading a file and the files it extends ---- */

static json_t *read_one(const char *path)
{
    json_error_t err;
    char *text;
    if (mc_read_text_file(path, "platform", MC_JSON_FILE_MAX, &text) != MC_OK)
        return NULL;
    json_t *root = json_loads(text, 0, &err);
    free(text);
    if (!root)
        mc_error(MC_ERR_ARG, "%s:%d: %s", path, err.line, err.text);
    else if (!json_is_object(root)) {
        mc_error(MC_ERR_ARG, "%s: a platform file is one JSON object "
                 "({\"name\": ..., ...})", path);
        json_decref(root);
        root = NULL;
    }
    return root;
}

/* the merged keys of f->path[i] and the files it extends */
static json_t *read_chain(mc_plat_files_t *f, int i)
{
    const char *path = f->path[i];
    json_t *root = read_one(path);
    if (!root)
        return NULL;
    f->tree[i] = json_deep_copy(root); /* merging changes root */
    f->n = i + 1;
    json_t *ext = json_object_get(root, "extends");
    if (!ext)
        return root;
    const char *base = json_string_value(ext);
    char bpath[1024], why[512] = "";
    json_t *b = NULL;
    if (!base)
        mc_error(MC_ERR_ARG, "%s: \"extends\" must be the name of a "
                 "platform (a string)", path);
    else if (i >= MC_PLAT_EXTENDS_MAX)
        mc_error(MC_ERR_ARG, "%s: \"extends\": \"%s\": files extend "
                 "files more than %d deep (a loop?)", path, base,
                 MC_PLAT_EXTENDS_MAX);
    else if (mc_data_path("platforms", base, bpath, sizeof bpath) != MC_OK) {
        snprintf(why, sizeof why, "%s", mc_last_error());
        mc_error(MC_ERR_ARG, "%s: \"extends\": \"%s\": %s", path, base, why);
    } else if ((f->path[i + 1] = strdup(bpath)) == NULL)
        mc_error(MC_ERR_NOMEM, "%s: out of memory", path);
    else
        b = read_chain(f, i + 1);
    if (b && json_object_update_recursive(b, root) != 0) {
        mc_error(MC_ERR_NOMEM, "%s: cannot merge \"%s\"", path, base);
        json_decref(b);
        b = NULL;
    }
    json_decref(root);
    return b;
}

json_t *mc_plat_read_files(const char *path, mc_plat_files_t *f)
{
    memset(f, 0, sizeof *f);
    f->path[0] = strdup(path);
    if (!f->path[0]) {
        mc_error(MC_ERR_NOMEM, "%s: out of memory", path);
        return NULL;
    }
    return read_chain(f, 0);
}

void mc_plat_files_free(mc_plat_files_t *f)
{
    for (int i = 0; i <= MC_PLAT_EXTENDS_MAX; i++) {
        free(f->path[i]);
        json_decref(f->tree[i]);
        f->path[i] = NULL, f->tree[i] = NULL;
    }
    f->n = 0;
}
