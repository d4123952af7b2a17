/*
 * Pipelined large broadcast with cyclic slices (Ramos & Hoefler 2013,
 * Section 4.1.3, Eq. 4.8, 4.9). The message is cut into S = P - 1
 * slices; in stage 0 rank i (vrank, 1..P-1) copies slice i-1 from the
 * root, and in stage j it copies slice (i-1+j) mod S from rank
 * ((i-1+j) mod S) + 1, the rank that took that slice from the root. So
 * after stage 0 every location is read by one rank per stage:
 *
 *   P = 5, S = 4       stage 0     stage 1     stage 2     stage 3
 *   rank 1 copies      s0 <- 0     s1 <- 2     s2 <- 3     s3 <- 4
 *   rank 2 copies      s1 <- 0     s2 <- 3     s3 <- 4     s0 <- 1
 *   rank 3 copies      s2 <- 0     s3 <- 4     s0 <- 1     s1 <- 2
 *   rank 4 copies      s3 <- 0     s0 <- 1     s1 <- 2     s2 <- 3
 *
 * Slices are whole cache lines; a message of fewer than P - 1 lines has
 * S = its line count, and ranks S+1 .. P-1 only copy from the owners
 * (stage j: slice (i-1+j) mod S). Flags, block b, V_b = mc_flagval(c,
 * b + 1):
 *
 *   root    put block -> own MPB;  own line 0 = V_b
 *   owner   wait root's line >= V_b;  get_mpb its slice -> own MPB at the
 *           same offset;  own line 0 = V_b;  ack the root;  own MPB -> rbuf
 *   stage   wait owner's line 0 >= V_b;  get owner's MPB -> rbuf;  ack it
 *   end     the root waits for its S owners' acks, an owner for the P - 2
 *           other ranks' acks (rule 1)
 *
 * Acks are words of the shared notification-backwards lines (cc.h): at
 * the root the owner at vrank i writes word i - 1; at owner o, reader r
 * writes word r - 1 (r < o) or r - 2 (r > o). Messages larger than half
 * the MPB go in blocks (parameter block, by default half the MPB), double
 * buffered: block b in half b % 2, reused once the readers of block b-2
 * have acknowledged it. Every block has the same S (from the first), so
 * the owners never change within a call; the last block's slices may be
 * empty, which keeps their flags and skips the copy.
 */
#include "coll/cc.h"
#include "sched/sched.h"

enum { P_BLOCK = MC_CC_HALF, P_COUNT };

typedef struct pipe {
    mc_team_t *c;
    const mc_args_t *a;
    int n, v, S; /* ranks, my vrank, slices (owners are vranks 1..S) */
    size_t half; /* block size, and the offset of the second buffer */
    mc_cc_fl_t fl;
} pipe_t;

static int rank_of(const pipe_t *p, int vr)
{
    return mc_unvrank(vr, p->a->root, p->n);
}

/* slice s of a block of B bytes: whole lines, the last one cut at B */
static void slice(const pipe_t *p, size_t B, int s, size_t *off, size_t *len)
{
    size_t line = p->c->tp->line, lines = (B + line - 1) / line;
    size_t lo = mc_block_start(lines, p->S, s) * line;
    size_t hi = lo + mc_block_len(lines, p->S, s) * line;
    *off = lo < B ? lo : B;
    *len = (hi < B ? hi : B) - *off;
}

static int ack_pos(int reader, int owner)
{
    return reader < owner ? reader - 1 : reader - 2;
}

/* waits for every reader of my MPB to have acknowledged >= val */
static int wait_readers(const pipe_t *p, uint64_t val)
{
    mc_team_t *c = p->c;
    for (int r = 1; r < p->n; r++) {
        if (r == p->v || (p->v == 0 && r > p->S))
            continue;
        int pos = p->v == 0 ? r - 1 : ack_pos(r, p->v);
        MC_CHECK(tp_flag_wait(c->tp, c->rank,
                              mc_cc_ack(&p->fl, pos, rank_of(p, r)), val));
    }
    return MC_OK;
}

/* stage 0 of an owner: my slice from the root, into my MPB and rbuf */
static int take(const pipe_t *p, size_t bi, char *dst, size_t B)
{
    mc_team_t *c = p->c;
    int root = rank_of(p, 0);
    uint64_t val = mc_flagval(c, (uint32_t)(bi + 1));
    size_t buf = (bi % 2) * p->half, off, len;
    slice(p, B, p->v - 1, &off, &len);
    MC_CHECK(tp_flag_wait(c->tp, root, mc_cc_line(&p->fl, 0, root), val));
    if (bi >= 2) /* the readers of block bi-2 have left my buffer */
        MC_CHECK(wait_readers(p, mc_flagval(c, (uint32_t)(bi - 1))));
    if (len)
        MC_CHECK(tp_get_mpb(c->tp, buf + off, root, buf + off, len));
    tp_flag_set(c->tp, c->rank, mc_cc_line(&p->fl, 0, c->rank), val);
    tp_flag_set(c->tp, root, mc_cc_ack(&p->fl, p->v - 1, c->rank), val);
    return len ? tp_get(c->tp, dst + off, c->rank, buf + off, len) : MC_OK;
}

static int block(const pipe_t *p, size_t bi, char *dst, size_t B)
{
    mc_team_t *c = p->c;
    uint64_t val = mc_flagval(c, (uint32_t)(bi + 1));
    size_t buf = (bi % 2) * p->half, off, len;
    if (p->v == 0) {
        if (bi >= 2)
            MC_CHECK(wait_readers(p, mc_flagval(c, (uint32_t)(bi - 1))));
        MC_CHECK(tp_put(c->tp, c->rank, buf, dst, B));
        tp_flag_set(c->tp, c->rank, mc_cc_line(&p->fl, 0, c->rank), val);
        return MC_OK;
    }
    int j0 = 0;
    if (p->v <= p->S) {
        MC_CHECK(take(p, bi, dst, B));
        j0 = 1;
    }
    for (int j = j0; j < p->S; j++) {
        int s = (p->v - 1 + j) % p->S, o = s + 1, orank = rank_of(p, o);
        slice(p, B, s, &off, &len);
        MC_CHECK(tp_flag_wait(c->tp, orank, mc_cc_line(&p->fl, 0, orank),
                              val));
        if (len)
            MC_CHECK(tp_get(c->tp, dst + off, orank, buf + off, len));
        tp_flag_set(c->tp, orank,
                    mc_cc_ack(&p->fl, ack_pos(p->v, o), c->rank), val);
    }
    return MC_OK;
}

int mc_bcast_cc_pipeline(mc_team_t *c, const mc_args_t *a,
                         const mc_params_t *prm)
{
    int n = c->size;
    if (n == 1)
        return MC_OK;
    size_t line = c->tp->line, blk = mc_cc_half_chunk(c, prm->v[P_BLOCK]);
    pipe_t p = {.c = c, .a = a, .n = n, .v = mc_vrank(c->rank, a->root, n),
                .half = blk};
    mc_cc_fl_init(&p.fl, c);
    size_t first = a->bytes < blk ? a->bytes : blk;
    size_t lines = (first + line - 1) / line;
    p.S = lines < (size_t)(n - 1) ? (int)lines : n - 1;
    size_t nblk = (a->bytes + blk - 1) / blk;
    for (size_t bi = 0; bi < nblk; bi++) {
        size_t off = bi * blk;
        MC_CHECK(block(&p, bi, (char *)a->rbuf + off,
                       a->bytes - off < blk ? a->bytes - off : blk));
    }
    if (p.v > p.S) /* nobody reads my MPB */
        return MC_OK;
    return wait_readers(&p, mc_flagval(c, (uint32_t)nblk));
}

static const mc_param_desc_t params[P_COUNT + 1] = {
    [P_BLOCK] = {"block", 0, 0, 1LL << 30,
                 "bytes per double-buffered block; 0 = half the MPB"},
};

const mc_algo_impl_t mc_bcast_cc_pipeline_algo = {
    .fn = mc_bcast_cc_pipeline, .params = params, .resolve = mc_cc_resolve_half,
};
