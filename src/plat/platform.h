/*
 * A simulated chip: topology, cost parameters and contention settings,
 * read from platforms/<name>.json (format: docs/platforms.md) or generated
 * for mesh<X>x<Y>. Times are integer picoseconds, so the cost formulas are
 * exact and runs are bit-for-bit repeatable.
 */
#ifndef MC_SIM_PLATFORM_H
#define MC_SIM_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

typedef int64_t mc_ps_t;

#define MC_PS_PER_US 1000000
/* simulated times saturate here (2^61 ps, about 27 days; engine_impl.h) */
#define MC_PS_LIMIT ((mc_ps_t)1 << 61)
#define MC_PLAT_MAX_MC 1024
#define MC_PLAT_MAX_CORES (1 << 20)
/* an MPB holds at least this many lines (the algorithms' fixed slots) */
#define MC_PLAT_MIN_MPB_LINES 16

typedef struct mc_costs {
    mc_ps_t L_hop;     /* one packet through one router */
    mc_ps_t o_mpb;     /* core overhead of one MPB line read or write */
    mc_ps_t o_mem_r;   /* ... of one private-memory line read */
    mc_ps_t o_mem_w;   /* ... of one private-memory line write */
    mc_ps_t o_put_mpb; /* fixed overhead of a put from the local MPB */
    mc_ps_t o_get_mpb; /* ... of a get into the local MPB */
    mc_ps_t o_put_mem; /* ... of a put from private memory */
    mc_ps_t o_get_mem; /* ... of a get into private memory */
    mc_ps_t o_reduce;  /* combining one element (reductions) */
    /* software overheads charged by the two-sided layer and applications
     * (tp->charge, indexed by mc_charge_t of tp/tp.h); 0 unless a platform
     * sets them: o_call, o_req_ircce, o_req_light, o_flop */
    mc_ps_t o_charge[4];
    /* one line of the own tile's MPB without the router (the SCC with its
     * local-MPB bug fixed); < 0: through the router like any MPB at
     * distance 1 (the bug's workaround, the default) */
    mc_ps_t local_mpb;
} mc_costs_t;

typedef struct mc_contention {
    int mpb, link, mc;   /* which models are on */
    mc_ps_t mpb_service; /* an MPB port serves one line per this time */
    mc_ps_t link_time;   /* a packet occupies a link this long */
    mc_ps_t mc_service;  /* a memory controller serves one line per ... */
} mc_contention_t;

/* A message network instead of MPB reads and writes (TilePro64's UDN,
 * "network" in the platform file, src/sim/cost_msg.c): a put is one
 * wormhole packet train on its XY path, injected at link rate, posted. */
typedef struct mc_msgnet {
    int on;
    mc_ps_t pkt_link;  /* one packet (line_bytes) on a link */
    mc_ps_t copy_line; /* a core copies one line within its memory */
    mc_ps_t o_send;    /* software overhead of sending a data message */
    mc_ps_t o_recv;    /* ... of receiving one */
    mc_ps_t o_flag;    /* ... of sending, and of receiving, a notification
                          (a flag without payload: one UDN word) */
    mc_ps_t sn_hop;    /* static network: one hop; 0 = no static network */
    mc_ps_t sn_setup;  /* configuring a core's static route */
} mc_msgnet_t;

/* Caches of private memory (sim/cache.c); off unless the platform file
 * has a "cache" section with "enabled": true. */
typedef struct mc_cache_cfg {
    int on;
    size_t l1_bytes, l2_bytes;
    int l1_ways, l2_ways;
    mc_ps_t l1_hit, l2_hit; /* one line read or written from a hit */
} mc_cache_cfg_t;

/* Several chips behind one host (the vSCC of Reble et al., "chips" in the
 * platform file, docs/platforms.md): copies of one chip, core c on chip
 * c / chip_cores at the tile of core c % chip_cores. An access to another
 * chip's MPB leaves its chip at the port router, crosses the device's PCIe
 * link to the host, is handled by the host thread of that device (one
 * request at a time, in order), crosses the other device's link and its
 * mesh to the target (sim/cost_host.c). */
enum {
    MC_ACK_TARGET = 0, /* a write completes when the target acknowledges:
                          the transparent routing of the first prototype */
    MC_ACK_HOST = 1,   /* the host's communication task acknowledges a
                          remote write at once (posted writes) */
    MC_ACK_PORT = 2    /* the device's FPGA acknowledges it at the port
                          ("fast write acknowledge", the paper's bound) */
};
typedef struct mc_hostlink {
    int nchips;            /* 1: a single chip; the rest is unused */
    int chip_cores;        /* cores per chip */
    int chip_mc;           /* memory controllers per chip */
    int port_x, port_y;    /* router of every chip's host link */
    mc_ps_t pcie;          /* one way between a device port and the host */
    mc_ps_t host_service;  /* a host thread handles one request */
    mc_ps_t link_line;     /* a line on a device's PCIe link (line/rate) */
    mc_ps_t dma_setup;     /* host DMA: programming one copy */
    mc_ps_t dma_line;      /* ... and one line of it (line/rate) */
    int write_ack;         /* MC_ACK_* */
    size_t vdma_threshold; /* below it a direct remote put (bytes) */
} mc_hostlink_t;

typedef struct mc_platform {
    char name[64];
    char description[512];
    int mesh_x, mesh_y;    /* routers (tiles) */
    int cores_per_tile;
    int used_x, used_y;    /* tiles with cores (a sub-mesh from 0,0) */
    int ncores;
    int line;              /* bytes per cache line / packet */
    size_t mpb_bytes;      /* MPB payload per core */
    size_t p2p_chunk;      /* two-sided chunk (0 = whole MPB) */
    int outstanding;       /* memory transactions a core keeps in flight */
    int flags_rcce;        /* flags go through private memory as in RCCE:
                              a write is a 1-line put from memory, a poll a
                              1-line get into memory (else: one MPB line) */
    mc_costs_t c;
    mc_contention_t cont;
    mc_msgnet_t net;
    mc_cache_cfg_t cache;
    mc_hostlink_t host;
    /* a cache-coherent chip (Ramos & Hoefler's model) instead of a mesh
     * with MPBs: a line costs R_L in the local cache, R_R from another
     * core's cache, R_I from memory; `cont.mpb_service` is then the
     * contention slope c per extra reader of a line */
    int cc;
    mc_ps_t R_L, R_R, R_I;
    int nmc;
    int mc_x[MC_PLAT_MAX_MC], mc_y[MC_PLAT_MAX_MC];
    /* per core, derived */
    int *tile_x, *tile_y;  /* router of the core */
    int *mc_of;            /* its memory controller */
    int *d_mem;            /* routers between it and its controller */
    unsigned char *failed; /* per core: 1 if it does not start (ranks skip
                              it, as RCCE's start script does), or NULL */
} mc_platform_t;

/* A rectangle of tiles with the same number of cores on each (sim/grid.h) */
typedef struct mc_plat_grid {
    int w, h;   /* tiles */
    int cpt;    /* cores on each tile */
    int x0, y0; /* tile of rank 0 */
} mc_plat_grid_t;

/* Loads platform `name` (a file name, a path, or mesh<X>x<Y>). A key
 * that the schema of platform_keys.c does not know is an error naming
 * it (a typo must not change what is simulated). */
int mc_platform_load(const char *name, mc_platform_t **out);
/* How a platform file is read. lenient: unknown keys are ignored (as
 * before they were checked) and appended to `ignored` ("FILE: KEY, KEY";
 * nothing when there are none; start it as "") for the caller to warn
 * about. */
typedef struct mc_plat_load_opts {
    int lenient;
    char ignored[512]; /* out */
} mc_plat_load_opts_t;
/* mc_platform_load with options (o NULL: strict) */
int mc_platform_load_opts(const char *name, mc_plat_load_opts_t *o,
                          mc_platform_t **out);
/* cores[0..n) = the first n cores that are not in the platform's
 * failed_cores, in order (RCCE's start script); an error if fewer work */
int mc_plat_map_linear(const mc_platform_t *p, int n, int *cores);
/* cores that work */
int mc_plat_working(const mc_platform_t *p);
/* map.c: --map "linear" (or NULL) or a FILE of cores, for *ranks ranks
 * (<= 0: every working core, or as many as the file lists; set) into
 * *cores (malloc'd, ncores entries). MC_ERR_ARG names the map. */
int mc_plat_map(const mc_platform_t *p, const char *map, int *ranks,
                int **cores);
/* platform_multi.c: a multi-chip file (root holds "chips") into p */
struct json_t;
int mc_platform_load_multi(const char *path, struct json_t *root,
                           mc_plat_load_opts_t *o, mc_platform_t *p);
void mc_platform_free(mc_platform_t *p);

/* Routers a packet traverses from core a to the MPB of core b: the hops
 * of XY routing plus one (the local router; the other core of the same
 * tile is at distance 1, as on the SCC). Within a chip: on several chips,
 * a pair on two chips goes through the host (mc_plat_remote). */
static inline int mc_plat_dist(const mc_platform_t *p, int a, int b)
{
    int dx = p->tile_x[a] - p->tile_x[b], dy = p->tile_y[a] - p->tile_y[b];
    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) + 1;
}

/* chip of a core (0 on a single chip) */
static inline int mc_plat_chip(const mc_platform_t *p, int core)
{
    return p->host.nchips > 1 ? core / p->host.chip_cores : 0;
}

/* 1 if core a reaching core b crosses the host link */
static inline int mc_plat_remote(const mc_platform_t *p, int a, int b)
{
    return p->host.nchips > 1 &&
           a / p->host.chip_cores != b / p->host.chip_cores;
}

/* Routers from core a to its chip's host port, counted as mc_plat_dist
 * counts them (the local router included) */
static inline int mc_plat_port_dist(const mc_platform_t *p, int a)
{
    int dx = p->tile_x[a] - p->host.port_x, dy = p->tile_y[a] - p->host.port_y;
    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) + 1;
}

/* "scc48, 6x4 mesh, 2 cores/tile, 48 cores, ..." */
void mc_platform_describe(const mc_platform_t *p, char *buf, size_t len);

#endif
