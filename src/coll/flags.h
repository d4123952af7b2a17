/*
 * The flag area of every rank, and who owns which part of it. The
 * transports give each rank mc_tp_nflags(n, line) words for a team of n
 * ranks (tp/tp.h), in lines of `per` = line / 8 words:
 *
 *   words  [0, 2n)        two-sided layer (coll/p2p.c): "sent" from rank
 *                         i at word i, "ready" from rank i at n + i;
 *                         rounded up to whole lines
 *   lines  bank 0 [n]     line w is written by rank w only (rule 4 of
 *          bank 1 [n]     tp/tp.h): two channels per writer, for any
 *                         algorithm (mc_flag_from)
 *          shared:
 *            own [48]     lines the area's rank alone writes
 *            multi [16]   lines whose words have several writers, one
 *                         per word (tp.h: MC_TP_OWN_LINES,
 *                         MC_TP_MULTI_LINES)
 *
 * The shared lines are not placed by hand: each user is a row of
 * mc_flag_users (flags.c: the file, how many lines, which writers), and
 * mc_flag_alloc packs the rows in order into the part of the shared
 * lines their writers may use. A user reaches its lines only through
 * mc_flag_line, so no two users can meet; every team checks that the
 * allocation fits (mc_flags_init) and that the whole layout fits the
 * flag area its transport provides; tests/test_flags.c checks the
 * allocation at every team size, and that tp.h's writers agree with it.
 */
#ifndef MC_COLL_FLAGS_H
#define MC_COLL_FLAGS_H

#include "coll/team.h"

/* Lines after the two per-writer banks; tp/tp.h provides as many. */
#define MC_FLAG_SHARED_LINES (MC_TP_OWN_LINES + MC_TP_MULTI_LINES)

/* who writes a user's lines */
enum {
    MC_FLAG_OWN = 0,  /* the rank whose area it is, alone */
    MC_FLAG_MULTI = 1 /* several ranks, one per word */
};

/* a user of shared lines: a row of mc_flag_users */
typedef struct mc_flag_user {
    const char *owner; /* the file that reads and writes them */
    int lines;
    int writers;       /* MC_FLAG_* */
} mc_flag_user_t;

extern const mc_flag_user_t mc_flag_users[MC_FL_COUNT];

/* where a user's lines are: shared lines [first, first + count) */
typedef struct mc_flag_range {
    const char *owner;
    int first;
    int count;
} mc_flag_range_t;

/* Places n users, in order, each right after the previous one of its
 * kind: MC_FLAG_OWN users in shared lines [0, own), MC_FLAG_MULTI users
 * in [own, own + multi). MC_OK with out[i] the range of users[i], or
 * MC_ERR_INTERNAL with a message naming the user that does not fit. */
int mc_flag_alloc(const mc_flag_user_t *users, int n, int own, int multi,
                  mc_flag_range_t *out);

/* MC_OK, or MC_ERR_INTERNAL with a message naming the owners, if two of
 * the n ranges overlap, or one is empty or outside [0, lines). */
int mc_flag_ranges_check(const mc_flag_range_t *r, int n, int lines);

/* Flag words the layout needs for a team of n ranks, `per` words a line
 * (each rank's area). */
int mc_flag_words(int n, int per);

/* Sets the part fl of a new team (mc_team_init; flags_state.h, written by
 * flags.c alone) and checks the layout against its transport's flag
 * area. Nothing to allocate: `what` (MC_TEAM_*) is for symmetry. */
int mc_flags_init(mc_team_t *t, int what);
void mc_flags_fini(mc_team_t *t);

/* Index of the flag line that rank `writer` (and only it) writes, in bank
 * 0 or 1, in every rank's area. */
static inline int mc_flag_from(const mc_team_t *t, int bank, int writer)
{
    MC_ASSERT((bank == 0 || bank == 1) && writer >= 0 && writer < t->size,
              "bank %d of writer %d in a team of %d", bank, writer, t->size);
    return t->fl.alg0 + (bank * t->size + writer) * t->fl.per;
}

/* Index of line i of the shared range of `owner`. */
static inline int mc_flag_line(const mc_team_t *t, mc_flag_owner_t owner,
                               int i)
{
    MC_ASSERT(i >= 0 && i < mc_flag_users[owner].lines,
              "line %d of the %d of %s", i, mc_flag_users[owner].lines,
              mc_flag_users[owner].owner);
    return t->fl.first[owner] + i * t->fl.per;
}

#endif
