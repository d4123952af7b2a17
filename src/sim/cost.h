/*
 * The cost models of the simulator, behind one interface, apart from the
 * engine (engine_impl.h: clock, event queue, cores, waits). Private to
 * src/sim.
 *
 * A model is a table of functions (mc_sim_model_t). Which models a
 * simulation has is decided once, from the platform description and the
 * contention chosen (compose.c), not by flags tested at every line:
 *
 *   model  file         composed when                 prices operations
 *   cal    cal.c        any contention (mpb, link,    no: MPB ports, links,
 *                       mc) is on                     controllers for others
 *   cache  cache.c      the platform has "cache"      no: private memory
 *   host   cost_host.c  several chips                 no: the host link
 *   cc     cost_cc.c    a cache-coherent chip         yes
 *   msg    cost_msg.c   a message network             yes
 *   mpb    cost.c       any other chip (MPBs, the     yes
 *                       OC-Bcast paper's model)
 *
 * Exactly one model prices operations (`chip`): the engine calls only it,
 * through mc_cost_t. It uses the parts it needs through their fields of
 * mc_cost_t, which are NULL where the platform has none: a part is there
 * or not, there is no "on" flag to forget. Each model owns its state, a
 * struct of its own made by its init and freed by its fini.
 *
 * Memory. A model that cannot allocate what it needs says what and how
 * much (mc_cost_nomem): at init the simulation is not made; during the run
 * the simulation fails with MC_ERR_NOMEM. It never goes on with a
 * different model (uncached, without contention) instead.
 */
#ifndef MC_SIM_COST_H
#define MC_SIM_COST_H

#include "sim/domain.h"
#include "sim/engine.h"

typedef struct mc_cost mc_cost_t;

/* What a flag write costs, after the writer began it: when the flag lands
 * (lat) and when the writer may go on (done); queue is waited at the
 * owner's MPB port and comes on top of both, after any jitter. */
typedef struct mc_flag_cost {
    mc_ps_t lat, done, queue;
} mc_flag_cost_t;

typedef struct mc_sim_model {
    const char *name;
    /* whether the simulation c describes has this model */
    int (*wanted)(const mc_cost_t *c);
    /* makes its state in its own field of c: MC_OK, or MC_ERR_NOMEM
     * naming what and how much (mc_cost_nomem) */
    int (*init)(mc_cost_t *c);
    /* frees it, and NULLs the field */
    void (*fini)(mc_cost_t *c);

    /* ---- the model that prices operations (NULL in parts) ---- */
    /* Operation op of core begins at now: returns d, and *step = -1 if it
     * completes at now + d (the engine adds jitter), or the line from
     * which the engine steps it, line by line (line), from now + d. */
    mc_ps_t (*op)(mc_cost_t *c, int core, const mc_sim_op_t *op,
                  mc_ps_t now, int64_t *step);
    /* line `line` of the operation of core, starting at t: when it ends
     * (the lines' costs; the engine adds the reduction) */
    mc_ps_t (*line)(mc_cost_t *c, int core, const mc_sim_op_t *op,
                    int64_t line, mc_ps_t t);
    /* core writes flag *addr of owner (with n bytes of payload) at now */
    void (*flag)(mc_cost_t *c, int core, int owner, uint64_t *addr,
                 size_t n, mc_ps_t now, mc_flag_cost_t *fc);
    /* core reads a flag of owner that is set, at now */
    mc_ps_t (*poll)(mc_cost_t *c, int core, int owner, uint64_t *addr,
                    mc_ps_t now);

    /* ---- any model (optional): a communicator's memory ---- */
    int (*domain_init)(mc_cost_t *c, mc_sim_domain_t *d);
    void (*domain_fini)(mc_cost_t *c, mc_sim_domain_t *d);
} mc_sim_model_t;

/* The models of one simulation: what they share, and each one's state. */
struct mc_cost {
    const mc_platform_t *p;
    int ncores;                 /* cores simulated */
    int c_mpb, c_link, c_mc;    /* contention chosen (options, else the
                                   platform's) */
    mc_sim_stats_t *st;         /* the engine's counters of waits */
    mc_sim_domain_t *const *domains; /* the engine's list (coherence
                                        finds a flag's line there) */
    mc_sim_t *sim;              /* for mc_cost_nomem only */
    /* the model that prices operations */
    const mc_sim_model_t *chip;
    /* each model's state: NULL where it is not composed */
    struct mc_cal *cal;
    struct mc_cache *cache;
    struct mc_host *host;
    struct mc_cc *cc;
    struct mc_msg *msg;
    struct mc_mpb *mpb;
};

/* the models, in the order they are made (compose.c) */
extern const mc_sim_model_t mc_model_cal, mc_model_cache, mc_model_host,
    mc_model_cc, mc_model_msg, mc_model_mpb;

/* compose.c: c->p, ncores, c_*, st, domains and sim set; makes every
 * model the platform needs. On failure nothing is left made. */
int mc_cost_init(mc_cost_t *c);
void mc_cost_fini(mc_cost_t *c);
/* every model's domain hook, in order */
int mc_cost_domain_init(mc_cost_t *c, mc_sim_domain_t *d);
void mc_cost_domain_fini(mc_cost_t *c, mc_sim_domain_t *d);
/* MC_ERR_NOMEM: "simulator: out of memory for <what> (<bytes>)"; during a
 * run the simulation fails with it (engine.c mc_sim_fail) */
int mc_cost_nomem(const mc_cost_t *c, const char *what, size_t bytes);

/* Simulated times saturate at MC_PS_LIMIT (2^61 ps, about 27 days)
 * instead of overflowing: platform costs are bounded (platform.c) but
 * message sizes are not, and a product of the two could pass 2^63. A run
 * that reaches the limit gives meaningless times, never undefined
 * arithmetic. */
static inline mc_ps_t mc_ps_cap(__int128 v)
{
    return v > MC_PS_LIMIT ? MC_PS_LIMIT : (mc_ps_t)v;
}

/* ---- cal.c: contention (slot calendars) ---- */

/* A slot calendar: time cut into slots of `slot` ps; a slot holds one
 * packet (or one line of service). A ring of tags, allocated on first
 * use. */
typedef struct cal {
    uint16_t *tag;
} cal_t;

/* delay until a free slot of calendar k (nslots) at or after t (0 if
 * free; 0 without memory for its ring, the run failing with
 * MC_ERR_NOMEM) */
mc_ps_t mc_cal_reserve(const mc_cost_t *c, cal_t *k, uint32_t nslots,
                       mc_ps_t slot, mc_ps_t t);
mc_ps_t mc_cal_port_wait(mc_cost_t *c, int owner, mc_ps_t t);
mc_ps_t mc_cal_mc_wait(mc_cost_t *c, int core, mc_ps_t t);
mc_ps_t mc_cal_links(mc_cost_t *c, int chip, int x0, int y0, int x1, int y1,
                     mc_ps_t t);

/* The wrappers test whether the resource contends here, inline: they run
 * for every line, and c_mpb, c_link and c_mc sit next to c->chip, which
 * the line has just loaded (c->cal is composed whenever one is set). */

/* a line served at owner's MPB port at t: its wait (0 without MPB
 * contention) */
static inline mc_ps_t mc_cal_port(mc_cost_t *c, int owner, mc_ps_t t)
{
    return c->c_mpb ? mc_cal_port_wait(c, owner, t) : 0;
}

/* ... at the memory controller of core: its wait (0 without controller
 * contention) */
static inline mc_ps_t mc_cal_mc(mc_cost_t *c, int core, mc_ps_t t)
{
    return c->c_mc ? mc_cal_mc_wait(c, core, t) : 0;
}

/* a data packet from router (x0,y0) to (x1,y1) of `chip`, leaving at t:
 * when it reaches the target router (XY routing, link by link, waiting
 * for links with link contention) */
static inline mc_ps_t mc_cal_route(mc_cost_t *c, int chip, int x0, int y0,
                                   int x1, int y1, mc_ps_t t)
{
    int dx = x1 - x0, dy = y1 - y0;
    if (c->c_link)
        return mc_cal_links(c, chip, x0, y0, x1, y1, t);
    /* the local router, then one per hop */
    return t + (1 + (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy)) * c->p->c.L_hop;
}

/* ---- cost.c: the access costs of a chip with MPBs (also the host's) */

/* one line of access `kind` by core to target without waiting (formulas
 * 1-6; latency_only: a write's landing, not its acknowledgement) */
mc_ps_t mc_mpb_access(const mc_cost_t *c, int core, int kind, int write,
                      int target, int latency_only);

/* ---- cache.c: the caches of private memory ---- */

/* the cost of line i of private-memory access a of core if its caches
 * have it (they are updated), else -1 */
mc_ps_t mc_cache_line(mc_cost_t *c, int core, const mc_sim_acc_t *a,
                      int64_t i);

/* ---- cost_host.c: platforms of several chips behind one host ---- */

mc_ps_t mc_host_way(const mc_platform_t *p, int a, int b);
mc_ps_t mc_host_line(const mc_platform_t *p, int core, int target, int write,
                     int latency_only);
/* line `line` of access a of core, through the host link, from t */
mc_ps_t mc_host_step(mc_cost_t *c, int core, const mc_sim_acc_t *a,
                     int64_t line, mc_ps_t t);
/* a line of data written to another chip's MPB, until it is acknowledged
 * (closed form: through the task's write-combining buffer where there is
 * one, else as mc_host_line) */
mc_ps_t mc_host_put_line(const mc_platform_t *p, int core, int target);
/* a flag line to another chip written at now: adds the waits for the
 * host link to the contention-free latency and completion */
void mc_host_flag(mc_cost_t *c, int core, int owner, mc_ps_t now,
                  mc_ps_t *lat, mc_ps_t *done);
/* a read of line `line` of an MPB access a served from the host task's
 * copy: the one-way time between core and host (the read costs it twice)
 * and, in *ready, when that line is in the host; -1 if not there */
mc_ps_t mc_host_cached(const mc_cost_t *c, int core, const mc_sim_acc_t *a,
                       int64_t line, mc_ps_t *ready);
/* the host thread of `chip` takes a request arriving at t: when it is
 * done; a data line on the PCIe link of `chip` (dir 0 up, 1 down) at t:
 * when it is at the other end (both reserve their calendars) */
mc_ps_t mc_host_thread(mc_cost_t *c, int chip, mc_ps_t t);
mc_ps_t mc_host_pcie(mc_cost_t *c, int chip, int dir, mc_ps_t t);

/* The host task's copy of one core's MPB range (host_task.c): lines
 * arrive in the host from `first` to `last` (evenly, in order). */
#define MC_HCOPIES 2
typedef struct hcopy {
    size_t off, n; /* n = 0: none */
    mc_ps_t first, last;
} hcopy_t;
/* the MC_HCOPIES copies of core's MPB ranges in the host (made on first
 * use); NULL without memory (the simulation then fails) */
hcopy_t *mc_host_copies(mc_cost_t *c, int core);

/* ---- cost_cc.c: coherence states ---- */

mc_cc_line_t *mc_cc_flag_line(const mc_cost_t *c, const uint64_t *addr);

#endif
