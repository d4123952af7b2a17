/*
 * The communicators of a replay, and the weak-scaling rules (--ranks).
 *
 * Families. The archive lists communicators, not the calls that made
 * them. The communicators that the events use (the world's copies
 * aside) are put into families, in the order of their ids: a family
 * takes communicators with disjoint members until they cover the world.
 * A simulated rank makes each family with one mc_comm_split of its world
 * (color: which communicator, key: its place in it; MC_UNDEFINED where a
 * rank is in none).
 *
 * At the recorded size that is all. Above it (N ranks, P recorded), a
 * family must follow a rule replay can extend:
 *   CHIP    a node split (named "split_type_shared"): the ranks of one
 *           simulated chip (mc_plat_chip of their cores)
 *   BLOCK   contiguous blocks of g ranks, in order (a grid's rows; nodes
 *           of g ranks): blocks of g, N / g of them
 *   STRIDE  s communicators of ranks j, j + s, j + 2s ... (a grid's
 *           columns): s columns of N / s ranks
 * A communicator of every rank in world order is the world. Anything
 * else is refused, naming the communicator. The row length L (g or s)
 * stays; the grid grows by rows: rank r = (row r / L, column r % L).
 *
 * Templates. Simulated rank r replays the stream of a recorded rank of
 * its column: rows before the middle one m = (R0 - 1) / 2 replay
 * themselves, the last R0 - 1 - m rows the last recorded ones, every
 * row between the middle one (R0 = P / L recorded rows). A halo with
 * neighbours at rank +-k keeps its peers as offsets (a peer beyond half
 * the recorded world wraps around, a periodic halo).
 *
 *   recorded (R0 = 4):   row 0   row 1   row 2   row 3
 *   simulated (R = 8):   0->0  1->1  2..5->1  6->2  7->3
 */
#include <stdlib.h>
#include <string.h>

#include "replay/run_int.h"
#include "util/error.h"

static int world_like(const mc_rp_comm_t *c, int p)
{
    if (c->size != p)
        return 0;
    for (int k = 0; k < p; k++)
        if (c->members[k] != k)
            return 0;
    return 1;
}

/* the family's rule above the recorded size, or an error naming it */
static int classify(const mc_rp_trace_t *t, mc_rp_fam_t *f, int N)
{
    const mc_rp_comm_t *c0 = &t->comms[f->comms[0]];
    int p = t->ranks, n = f->n, g = c0->size, block = 1, stride = 1;
    for (int j = 0; j < n; j++) {
        const mc_rp_comm_t *c = &t->comms[f->comms[j]];
        for (int k = 0; k < c->size; k++) {
            block &= c->size == g && c->members[k] == j * g + k;
            stride &= c->size == p / n && c->members[k] == k * n + j;
        }
    }
    f->rule = !strcmp(c0->name, "split_type_shared") ? MC_RP_CHIP
              : f->covered != p                      ? -1
              : block                                ? MC_RP_BLOCK
              : stride                               ? MC_RP_STRIDE
                                                     : -1;
    f->g = f->rule == MC_RP_BLOCK ? g : n;
    if (f->rule < 0)
        return mc_error(MC_ERR_ARG, "--ranks %d: communicator %u ('%s', %d "
                        "ranks: %d, %d, ...) follows no rule replay can "
                        "extend (the world, a node split, a grid's rows "
                        "or columns); replay at the recorded %d ranks",
                        N, c0->id, c0->name, c0->size, c0->members[0],
                        c0->size > 1 ? c0->members[1] : -1, p);
    if (f->rule != MC_RP_CHIP && N % f->g)
        return mc_error(MC_ERR_ARG, "--ranks %d is not a multiple of %d, "
                        "the %s of communicator %u ('%s')", N, f->g,
                        f->rule == MC_RP_BLOCK ? "size" : "stride", c0->id,
                        c0->name);
    return MC_OK;
}

/* the families of the communicators the events use */
static int families(const mc_rp_trace_t *t, mc_rp_plan_t *pl)
{
    int p = t->ranks;
    char *used = calloc((size_t)t->ncomms, 1), *in = calloc((size_t)p, 1);
    pl->fam = calloc((size_t)t->ncomms + 1, sizeof *pl->fam);
    pl->fam_of = malloc(((size_t)t->ncomms + 1) * sizeof *pl->fam_of);
    if (!used || !in || !pl->fam || !pl->fam_of) {
        free(used), free(in);
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    }
    for (int r = 0; r < p; r++)
        for (size_t i = 0; i < t->s[r].n; i++)
            if (t->s[r].r[i].kind != MC_RP_COMPUTE &&
                t->s[r].r[i].kind != MC_RP_SKIP &&
                t->s[r].r[i].kind != MC_RP_WAIT)
                used[t->s[r].r[i].comm] = 1;
    mc_rp_fam_t *f = NULL;
    for (int i = 0; i < t->ncomms; i++) {
        const mc_rp_comm_t *c = &t->comms[i];
        pl->fam_of[i] = -1;
        if (!used[i] || world_like(c, p))
            continue;
        int clash = !f || f->covered == p;
        for (int k = 0; k < c->size && !clash; k++)
            clash = in[c->members[k]];
        if (clash) {
            f = &pl->fam[pl->nfam++];
            f->comms = malloc((size_t)t->ncomms * sizeof *f->comms);
            if (!f->comms) {
                free(used), free(in);
                return mc_error(MC_ERR_NOMEM, "replay: out of memory");
            }
            memset(in, 0, (size_t)p);
        }
        pl->fam_of[i] = (int)(f - pl->fam);
        f->comms[f->n++] = i;
        f->covered += c->size;
        for (int k = 0; k < c->size; k++)
            in[c->members[k]] = 1;
    }
    free(used), free(in);
    return MC_OK;
}

/* each recorded rank's place in its communicator of each family */
static int places(const mc_rp_trace_t *t, mc_rp_plan_t *pl)
{
    for (int f = 0; f < pl->nfam; f++) {
        mc_rp_fam_t *fa = &pl->fam[f];
        fa->pos = malloc((size_t)t->ranks * sizeof *fa->pos);
        if (!fa->pos)
            return mc_error(MC_ERR_NOMEM, "replay: out of memory");
        memset(fa->pos, 0xff, (size_t)t->ranks * sizeof *fa->pos);
        for (int a = 0; a < fa->n; a++) {
            const mc_rp_comm_t *c = &t->comms[fa->comms[a]];
            for (int k = 0; k < c->size; k++)
                fa->pos[c->members[k]] = k;
        }
    }
    return MC_OK;
}

/* the row length and the middle row (templates) */
static int rows(const mc_rp_trace_t *t, mc_rp_plan_t *pl, int has_p2p)
{
    pl->L = 1;
    for (int i = 0; i < pl->nfam; i++)
        if (pl->fam[i].rule == MC_RP_BLOCK || pl->fam[i].rule == MC_RP_STRIDE) {
            if (pl->L > 1 && pl->fam[i].g != pl->L)
                return mc_error(MC_ERR_ARG, "--ranks %d: the recording's "
                                "grid has rows of %d but communicator %u "
                                "('%s') groups %d", pl->N, pl->L,
                                t->comms[pl->fam[i].comms[0]].id,
                                t->comms[pl->fam[i].comms[0]].name,
                                pl->fam[i].g);
            pl->L = pl->fam[i].g;
        }
    if (pl->N % pl->L)
        return mc_error(MC_ERR_ARG, "--ranks %d is not a multiple of the "
                        "recorded row length %d", pl->N, pl->L);
    pl->R0 = t->ranks / pl->L;
    pl->R = pl->N / pl->L;
    pl->mid = (pl->R0 - 1) / 2;
    if (has_p2p && pl->R0 < 3)
        return mc_error(MC_ERR_ARG, "--ranks %d: the recording has %d rows "
                        "of %d ranks, no interior one whose point-to-point "
                        "pattern the added ranks could repeat (record at "
                        "least 3 rows)", pl->N, pl->R0, pl->L);
    return MC_OK;
}

int mc_rp_plan(const mc_rp_trace_t *t, int N, const mc_platform_t *plat,
               const int *cores, mc_rp_plan_t *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->N = N, pl->P = t->ranks, pl->plat = plat, pl->cores = cores;
    MC_CHECK(families(t, pl));
    MC_CHECK(places(t, pl));
    if (N == t->ranks)
        return MC_OK;
    int has_p2p = 0;
    for (int r = 0; r < t->ranks && !has_p2p; r++)
        for (size_t i = 0; i < t->s[r].n && !has_p2p; i++)
            has_p2p = t->s[r].r[i].kind >= MC_RP_SEND &&
                      t->s[r].r[i].kind <= MC_RP_IRECV;
    int chips = 0;
    for (int i = 0; i < pl->nfam; i++) {
        MC_CHECK(classify(t, &pl->fam[i], N));
        chips |= pl->fam[i].rule == MC_RP_CHIP;
    }
    if (chips)
        MC_CHECK(mc_rp_chips(pl));
    return rows(t, pl, has_p2p);
}

void mc_rp_plan_free(mc_rp_plan_t *pl)
{
    for (int i = 0; pl->fam && i < pl->nfam; i++)
        free(pl->fam[i].comms), free(pl->fam[i].pos);
    free(pl->fam);
    free(pl->fam_of);
    mc_rp_chips_free(pl);
    memset(pl, 0, sizeof *pl);
}

int mc_rp_template(const mc_rp_plan_t *pl, int r)
{
    if (pl->N == pl->P)
        return r;
    int y = r / pl->L, x = r % pl->L, last = pl->R0 - 1 - pl->mid;
    int ty = y < pl->mid ? y : y >= pl->R - last ? y - (pl->R - pl->R0)
                                                 : pl->mid;
    return ty * pl->L + x;
}

static int chip_of(const mc_rp_plan_t *pl, int r)
{
    return mc_plat_chip(pl->plat, pl->cores ? pl->cores[r] : r);
}

/* rank r's color and key in family f's split (recorded size: the
 * communicator it is in and its place there) */
void mc_rp_split_of(const mc_rp_trace_t *t, const mc_rp_plan_t *pl, int f,
                    int r, int *color, int *key)
{
    const mc_rp_fam_t *fa = &pl->fam[f];
    *color = MC_UNDEFINED, *key = 0;
    if (pl->N == pl->P) {
        for (int j = 0; j < fa->n; j++) {
            const mc_rp_comm_t *c = &t->comms[fa->comms[j]];
            for (int k = 0; k < c->size; k++)
                if (c->members[k] == r)
                    *color = j, *key = k;
        }
        return;
    }
    switch (fa->rule) {
    case MC_RP_CHIP:
        *color = chip_of(pl, r), *key = r;
        break;
    case MC_RP_BLOCK:
        *color = r / fa->g, *key = r % fa->g;
        break;
    default: /* STRIDE */
        *color = r % fa->g, *key = r / fa->g;
    }
}

/* world rank of member i of rank r's communicator in family f (-1 for
 * the world itself: i) */
int mc_rp_member(const mc_rp_trace_t *t, const mc_rp_plan_t *pl, int f,
                 int r, int i)
{
    if (f < 0)
        return i;
    int color, key;
    mc_rp_split_of(t, pl, f, r, &color, &key);
    if (pl->N == pl->P)
        return t->comms[pl->fam[f].comms[color]].members[i];
    const mc_rp_fam_t *fa = &pl->fam[f];
    if (fa->rule == MC_RP_BLOCK)
        return color * fa->g + i;
    if (fa->rule == MC_RP_STRIDE)
        return i * fa->g + color;
    return mc_rp_chip_member(pl, color, i); /* CHIP: the i-th on its chip */
}

/* rank r's peer (its rank in comm ci as the template recorded it) in r's
 * own communicator of that family; MC_ERR_ARG if it falls outside */
int mc_rp_peer(const mc_rp_trace_t *t, const mc_rp_plan_t *pl, int ci,
               int r, int peer, int *out)
{
    if (pl->N == pl->P) {
        *out = peer;
        return MC_OK;
    }
    int tr = mc_rp_template(pl, r), f = pl->fam_of[ci], p = pl->P;
    int off = t->comms[ci].members[peer] - tr, q = r + off;
    if (off > p / 2 || off < -(p / 2)) /* a periodic halo's wrap */
        q = ((r + (off > 0 ? off - p : off + p)) % pl->N + pl->N) % pl->N;
    if (q < 0 || q >= pl->N)
        return mc_error(MC_ERR_ARG, "--ranks %d: rank %d's peer at offset "
                        "%+d is outside the world", pl->N, r, off);
    if (f < 0) {
        *out = q;
        return MC_OK;
    }
    int c1, k1, c2, k2;
    mc_rp_split_of(t, pl, f, r, &c1, &k1);
    mc_rp_split_of(t, pl, f, q, &c2, &k2);
    if (pl->fam[f].rule == MC_RP_CHIP)
        k2 = mc_rp_chip_below(pl, c1, q); /* r's chip's ranks below q */
    else if (c1 != c2)
        return mc_error(MC_ERR_ARG, "--ranks %d: rank %d's peer %d (offset "
                        "%+d) is not in its communicator of '%s'", pl->N, r,
                        q, off, t->comms[ci].name);
    *out = k2;
    return MC_OK;
}
