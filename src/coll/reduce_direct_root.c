/*
 * Single-copy reduce in which the root alone combines: it reads every
 * rank's input straight from its process (coll/direct.h), in rank order,
 * chunk by chunk through a scratch buffer that stays in cache, straight
 * into rbuf; the others only publish their buffer and wait:
 *
 *   P = 3, root 1:
 *
 *   rank 0:        publish {s0}                           end
 *   rank 1 (root): publish {s1}  r1 = read(s0) op s1 op read(s2)  wait
 *   rank 2:        publish {s2}                           end
 *                  (end: wait until the root has read my input; the
 *                  root ends its call after its last read, before its
 *                  last combine, and waits for no one: no one reads
 *                  its buffers)
 *
 * The same data flow as flat (the root combines all P inputs), with one
 * copy instead of two and one handshake per call instead of one per
 * 2 KiB slot; against reduce:direct (every rank combines a block, the
 * root gathers them) it saves a phase and a handshake but does not
 * spread the combining. In place at the root, its input is rbuf: rank
 * 0's part lands first, so the root's own goes through scratch
 * (direct.c). At 2 ranks out of place nothing goes through scratch: the
 * other rank's input is read straight into rbuf and the root's own is
 * combined into it (on the left when the root is rank 0).
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: flat.
 */
#include "coll/coll.h"
#include "coll/direct.h"
#include "coll/fast.h"

enum { P_CHUNK = MC_DIRECT_CHUNK, P_COUNT };

int mc_reduce_direct_root(mc_team_t *c, const mc_args_t *a,
                          const mc_params_t *p)
{
    MC_CHECK(mc_direct_require(c));
    int scratch = c->size > 2 || a->in_place; /* else none (direct.c) */
    size_t chunk = mc_direct_chunk(a, p->v[P_CHUNK]);
    if (p->v[P_CHUNK] == 0 && !scratch && a->count)
        chunk = a->count * a->dsize; /* one piece: one read per call */
    char *tmp = NULL;
    if (c->rank == a->root && scratch)
        MC_CHECK(mc_scratch(c, 2 * chunk, (void **)&tmp));
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    if (c->rank != a->root) /* only the root reads mine */
        return mc_direct_end_for(c, d.f, a->root);
    if (a->count == 0)
        return mc_direct_end_for(c, d.f, MC_DIRECT_NOBODY);
    d.release = 1; /* the others go once I have read them */
    /* ends my call after the last read; no one reads mine: no wait */
    return mc_direct_reduce(c, &d, 0, a->count, a->sbuf, a->rbuf, tmp,
                            chunk);
}

/* The chunk bounds the scratch a piece goes through. At 2 ranks out of
 * place there is none, and the fewer the pieces, the fewer the
 * process_vm_readv calls and the sooner the other rank may go: through
 * Open MPI 4.1 (osu_reduce -f, 2 ranks) one piece matched Open MPI's own
 * average and slowest-rank times from 256 KiB to 1 MiB; with 64 or 256
 * KiB pieces the average was 1.1-1.3x Open MPI's at 512 KiB and 1 MiB
 * (docs/selection.md). */
static int resolve(const mc_team_t *t, mc_params_t *p)
{
    if (p->v[P_CHUNK] <= 0)
        p->v[P_CHUNK] = t->size == 2 ? 0 : 65536;
    return MC_OK;
}

static const mc_param_desc_t params[P_COUNT + 1] = {
    [P_CHUNK] = {"chunk", 0, 0, 1LL << 30,
                 "bytes combined per step through a scratch buffer; 0 = "
                 "64K, or the whole message at 2 ranks out of place (no "
                 "scratch there)"},
};

const mc_algo_impl_t mc_reduce_direct_root_algo = {
    .fn = mc_reduce_direct_root, .params = params, .resolve = resolve,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "flat",
};
