/*
 * Schedules for a W x H 2D mesh with XY (dimension-ordered) routing, after
 * the NoCMsg collectives of Yagna, Patil and Mueller. Pure functions of
 * (W, H, x, y) and a root: no state, no allocation, no I/O. Ranks are
 * row-major, rank = y W + x; x grows to the East, y to the South.
 *
 * A message from (x0,y0) to (x1,y1) first runs along row y0 to column x1,
 * then along column x1: with wormhole routing it holds every link of that
 * path while it passes, and a second message that needs one of the links
 * waits. The schedules below never put two messages of one round on the
 * same directed link; mc_mesh_conflicts() walks the routes and proves it
 * (tests/test_mesh.c), and counts what contention-oblivious schedules
 * (pairwise exchange, binomial trees, recursive doubling) suffer.
 */
#ifndef MC_SCHED_MESH_H
#define MC_SCHED_MESH_H

static inline int mc_mesh_rank(int W, int x, int y) { return y * W + x; }

/* ---- routes ---- */

/* Directed links: link id = (y W + x) * 4 + dir, leaving router (x, y). */
enum { MC_MESH_EAST = 0, MC_MESH_WEST, MC_MESH_SOUTH, MC_MESH_NORTH };
#define MC_MESH_NLINKS(W, H) ((W) * (H) * 4)

/* Writes the links of the XY route from (sx,sy) to (dx,dy) to links[]
 * (at most cap) and returns its number of hops. */
int mc_mesh_route(int W, int sx, int sy, int dx, int dy, int *links, int cap);

/* Link conflicts of one round of n messages src[i] -> dst[i] (ranks; a
 * message to itself uses no link): the sum over directed links of (uses -
 * 1) where a link is used more than once, i.e. how many messages of the
 * round queue behind another one somewhere. `use` is scratch of
 * MC_MESH_NLINKS(W, H) ints, zero on entry and on return. */
int mc_mesh_conflicts(int W, int H, int n, const int *src, const int *dst,
                      int *use);

/* ---- NoCMsg alltoall: straight, then diagonal rounds ----
 *
 * Every ordered pair of cores exchanges once. A pair at offset (a, b)
 * meets in a round of its kind:
 *
 *   DR1  (a, 0)  along X              LR   (-a, +b) and (+a, -b)
 *   DR2  (0, b)  along Y              RR   (+a, +b) and (-a, -b)
 *
 * and in a round every active core exchanges with two partners, "first"
 * and "second" (Algorithm 1's two UDN-xchg calls):
 *
 *   DR1 (x+a, y), (x-a, y)    LR (x-a, y+b), (x+a, y-b)
 *   DR2 (x, y+b), (x, y-b)    RR (x+a, y+b), (x-a, y-b)
 *
 * so the first partner of a core has it as its second partner. For
 * distance a along X, the active cores of a round are one class x = i
 * (mod a): active cores of a row are a apart, so each row link carries
 * the message of exactly one of them in each direction. Distance 2 on a
 * row of 6, two rounds (the paper's "every even core, then every odd"):
 *
 *     x:   0   1   2   3   4   5
 *   i=0    A ----> A ----> A          A = active, --> one message East,
 *          A <---- A <---- A          <-- one West: no link twice
 *   i=1        A ----> A ----> A
 *              A <---- A <---- A
 *
 * Diagonal rounds take a class (i, j) of x mod a and y mod b: the X legs
 * of a row are disjoint as above, and the Y legs land in columns a apart
 * from the active ones, b apart along each column, one direction per
 * column. Rounds in order: DR1 a = 1..W-1, DR2 b = 1..H-1, LR b = 1..H-1
 * (outer), a = 1..W-1 (inner), RR the same; classes i (outer), j.
 *
 * Modes:
 *   MC_A2A_COMPACT  a class only if some core of it has a partner:
 *                   i < min(a, W-a), j < min(b, H-b). 7x7: 312 rounds.
 *   MC_A2A_MODH     every class i < a, j < b, as a literal reading of
 *                   "modulo arithmetic" counts them (the rounds without a
 *                   pair are empty): W(W-1)/2 + H(H-1)/2 + 2 [W(W-1)/2]
 *                   [H(H-1)/2]; 2x2..7x7: 4, 24, 84, 220, 480, 924.
 *   MC_A2A_LITERAL  Algorithm 1 as printed: one round per distance, every
 *                   core active (not contention-free for a or b >= 2):
 *                   (W-1) + (H-1) + 2 (W-1)(H-1) rounds. 7x7: 84.
 */
enum { MC_A2A_DR1 = 0, MC_A2A_DR2, MC_A2A_LR, MC_A2A_RR };
enum { MC_A2A_COMPACT = 0, MC_A2A_MODH = 1, MC_A2A_LITERAL = 2 };

typedef struct mc_a2a_round {
    int kind; /* MC_A2A_DR1 .. MC_A2A_RR */
    int a, b; /* hops along X and along Y (0 for the other one in DR1/DR2) */
    int i, j; /* active class x = i (mod a), y = j (mod b); -1: everyone */
} mc_a2a_round_t;

typedef struct mc_a2a_iter {
    int W, H, mode;
    int started;
    mc_a2a_round_t r;
} mc_a2a_iter_t;

/* for (mc_a2a_begin(&it, W, H, mode); mc_a2a_next(&it);) use it.r */
void mc_a2a_begin(mc_a2a_iter_t *it, int W, int H, int mode);
int mc_a2a_next(mc_a2a_iter_t *it);
/* rounds of a W x H grid in a mode */
long mc_a2a_nrounds(int W, int H, int mode);
/* The partners of (x, y) in round r: out[0] first, out[1] second (ranks,
 * -1 where the partner is off the grid or (x, y) is not active). Returns
 * how many are >= 0. */
int mc_a2a_partners(int W, int H, const mc_a2a_round_t *r, int x, int y,
                    int out[2]);

/* ---- trees ----
 *
 * Column-first tree rooted at (rx, ry): the root's column hangs off the
 * root along Y, every other core off its row's core in the root's column
 * along X. Every edge is one link, so no two messages of a phase (all
 * children to parents, or all parents to children) share a link. The
 * broadcast tree of NoCMsg (Fig. 4) and, rooted at the centre, its
 * barrier tree. 5x5 from the centre (2,2):
 *
 *     o <-- o <-- o --> o --> o       root R: 4 children
 *                 ^                   its column: 3 children (E, W, on)
 *     o <-- o <-- o --> o --> o       others: 1 (on along the row)
 *                 ^                   height = eccentricity of the root
 *     o <-- o <-- R --> o --> o
 *                 v
 *     o <-- o <-- o --> o --> o
 *                 v
 *     o <-- o <-- o --> o --> o
 *
 * Balanced tree (MC_MTREE_BALANCED): the same distances to the root, but
 * a core off both axes takes its parent along X when x + y is even and
 * along Y when odd, so the four quadrants fill from both axes and no
 * interior core relays to more than 3 others ("modified 3-ary", Fig. 3).
 */
enum { MC_MTREE_COLFIRST = 0, MC_MTREE_BALANCED = 1 };
#define MC_MESH_MAX_CHILDREN 4

typedef struct mc_mesh_node {
    int parent;    /* rank; -1 at the root */
    int nchildren; /* <= 4 */
    int child[MC_MESH_MAX_CHILDREN]; /* ranks: E, W, S, N neighbours */
    int depth;     /* hops to the root */
} mc_mesh_node_t;

void mc_mesh_tree(int W, int H, int style, int rx, int ry, int x, int y,
                  mc_mesh_node_t *out);
/* The root NoCMsg puts its barrier tree at: the centre. */
static inline int mc_mesh_centre(int n) { return (n - 1) / 2; }
/* Height of a tree rooted at (rx, ry): its farthest core. */
int mc_mesh_tree_height(int W, int H, int rx, int ry);

/* ---- two-step reduction (NoCMsg Fig. 5) ----
 *
 * Step 1: every column reduces onto the root's row (the root's column
 * onto the root); step 2: the root's row reduces onto the root. Messages
 * go straight along a column or the row, and each step runs one round
 * per distance, the farthest first, the two sides of a receiver in the
 * same round (they arrive on opposite links). 4x4, root 5 = (1,1):
 *
 *      0   1   2   3        round 0: 13 -> 5, 12 -> 4, 14 -> 6, 15 -> 7
 *      4  [5]  6   7        round 1: 1, 9 -> 5; 0, 8 -> 4; 2, 10 -> 6;
 *      8   9  10  11                 3, 11 -> 7
 *     12  13  14  15        round 2: 7 -> 5
 *                           round 3: 4, 6 -> 5
 *
 * Children of 5: 1, 9, 13 (its column), 4, 6, 7 (its row); of 4: 0, 8,
 * 12. Rounds = max column distance + max row distance.
 */
int mc_mesh_reduce_parent(int W, int H, int rx, int ry, int x, int y);
int mc_mesh_reduce_nrounds(int W, int H, int rx, int ry);
/* the round in which (x, y) sends to its parent; -1 at the root */
int mc_mesh_reduce_round(int W, int H, int rx, int ry, int x, int y);
/* the children (x, y) receives from in round `round`: out[0] the one at
 * the lower coordinate, out[1] the higher (-1 if none); returns how many */
int mc_mesh_reduce_from(int W, int H, int rx, int ry, int x, int y,
                        int round, int out[2]);
/* The core (x, y) waits for before it sends (its round comes after that
 * core's): the next core away from its receiver, on the same line and
 * side (-1 if none). With every core sending when this one has passed
 * it, the rounds of one line follow each other on its links. */
int mc_mesh_reduce_after(int W, int H, int rx, int ry, int x, int y);

#endif
