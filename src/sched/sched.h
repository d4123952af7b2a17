/*
 * Schedules: pure functions of (rank, size, parameters). No state, no I/O.
 * The algorithms, the analytic models and the tests all use these, so a
 * schedule drawn once is the same everywhere.
 *
 * Ranks here are "virtual" where a root is involved: vrank = (rank - root +
 * size) % size puts the root at 0 (see mc_vrank / mc_unvrank).
 */
#ifndef MC_SCHED_H
#define MC_SCHED_H

#define MC_SCHED_MAX_LEVELS 64

static inline int mc_vrank(int rank, int root, int size)
{
    return (rank - root + size) % size;
}
static inline int mc_unvrank(int vrank, int root, int size)
{
    return (vrank + root) % size;
}

/*
 * Binary recursive ("binomial") tree of RCCE_comm, over vranks [0, n):
 * the holder of a range [lo, hi) (always lo) keeps the first ceil(len/2)
 * vranks and hands [m, hi), m = lo + ceil(len/2), to vrank m; both halves
 * recurse. For n = 7:
 *
 *     level 0:  0 ------------> 4        0 keeps [0,4), 4 gets [4,7)
 *     level 1:  0 ----> 2       4 -> 6   2 gets [2,4), 6 gets [6,7)
 *     level 2:  0 -> 1  2 -> 3  4 -> 5
 *
 * A vrank's children are listed in send order (largest range first); the
 * range a child is responsible for is [child, child_hi).
 */
typedef struct mc_bisect {
    int parent;    /* -1 at the root */
    int hi;        /* this vrank is responsible for [vrank, hi) */
    int nchildren;
    int child[MC_SCHED_MAX_LEVELS];
    int child_hi[MC_SCHED_MAX_LEVELS];
} mc_bisect_t;

void mc_sched_bisect(int vrank, int n, mc_bisect_t *out);

/*
 * k-ary tree of OC-Bcast over vranks: the children of v are v*k+1 ...
 * v*k+k (those < n), its parent (v-1)/k. For n = 12, k = 7:
 *
 *            0
 *   1  2  3  4  5  6  7
 *   8..11 are children of 1 (1*7+1 = 8 ... 11)
 */
int mc_sched_kary_parent(int v, int k);
/* first child and number of children of v */
int mc_sched_kary_children(int v, int n, int k, int *first);

/*
 * Binary notification tree over the k children (positions 0..k-1) of one
 * parent (position -1): the parent notifies positions 0 and 1, position j
 * notifies 2j+2 and 2j+3. Returns the number of positions that `pos`
 * notifies (0-2) and writes them to out[].
 */
int mc_sched_notify_children(int pos, int k, int out[2]);

/*
 * Dissemination with m peers per round (m = 1 is the classic barrier):
 * in round r, rank i signals i + j*(m+1)^r and waits for i - j*(m+1)^r,
 * j = 1..m (mod n), for ceil(log_{m+1} n) rounds; only peers with
 * j*(m+1)^r < n take part.
 */
int mc_sched_dissem_rounds(int n, int m);
/* writes the distances j*(m+1)^r of round r to out[] (m entries at most) */
int mc_sched_dissem_dists(int n, int m, int round, int *out);

/* Ring neighbours. */
static inline int mc_ring_right(int rank, int n) { return (rank + 1) % n; }
static inline int mc_ring_left(int rank, int n) { return (rank + n - 1) % n; }

/*
 * Balanced blocks (Kohler et al.): `total` elements in n blocks whose sizes
 * differ by at most one; block b starts at mc_block_start(b) and has
 * mc_block_len(b) elements.
 */
static inline unsigned long mc_block_start(unsigned long total, int n, int b)
{
    unsigned long q = total / (unsigned long)n, r = total % (unsigned long)n;
    return (unsigned long)b * q + ((unsigned long)b < r ? (unsigned long)b : r);
}
static inline unsigned long mc_block_len(unsigned long total, int n, int b)
{
    return total / (unsigned long)n + ((unsigned long)b < total % (unsigned long)n);
}

/*
 * RCCE_comm's split (the baseline of Kohler et al., Fig. 6a): every block
 * has floor(total/n) elements and the first one also the remainder. 552
 * doubles on 48 ranks:
 *
 *     RCCE_comm   | 35 | 11 | 11 | ... | 11 |    first block 3.2x the others
 *     balanced    | 12 | 12 | .. 12 | 11 | .. | 11 |   24 of 12, 24 of 11
 */
static inline unsigned long mc_block_start_rcce(unsigned long total, int n,
                                                int b)
{
    unsigned long q = total / (unsigned long)n;
    return b == 0 ? 0 : (unsigned long)b * q + total % (unsigned long)n;
}
static inline unsigned long mc_block_len_rcce(unsigned long total, int n,
                                              int b)
{
    return total / (unsigned long)n + (b == 0 ? total % (unsigned long)n : 0);
}
/* either split: balanced if `balance`, else RCCE_comm's */
static inline unsigned long mc_block_start_b(unsigned long total, int n,
                                             int b, int balance)
{
    return balance ? mc_block_start(total, n, b)
                   : mc_block_start_rcce(total, n, b);
}
static inline unsigned long mc_block_len_b(unsigned long total, int n, int b,
                                           int balance)
{
    return balance ? mc_block_len(total, n, b) : mc_block_len_rcce(total, n, b);
}

/*
 * Deadlock-free order for a shift of blocking sends and receives: in step
 * i of a pairwise exchange rank r sends to r+i and receives from r-i (mod
 * n). The map x -> x+i splits the ranks into gcd(n, i) cycles of n/gcd
 * ranks; a rank at an even position of its cycle sends first, at an odd
 * one receives first (an odd cycle has two even neighbours, which just
 * serialises one pair, as in RCCE_comm's ring). Returns the position.
 *
 *     n = 6, i = 2:  cycles 0 -> 2 -> 4 -> 0 and 1 -> 3 -> 5 -> 1
 *                    positions 0:0 2:1 4:2  1:0 3:1 5:2
 */
static inline int mc_sched_shift_pos(int r, int n, int i)
{
    int a = n, b = i % n;
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    int start = r % a, pos = 0; /* a = gcd(n, i) */
    for (int x = start; x != r; x = (x + i) % n)
        pos++;
    return pos;
}

#endif
