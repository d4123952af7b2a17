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
 *          shared [64]    fixed ranges, each reserved by one owner in the
 *                         table mc_flag_ranges (flags.c)
 *
 * A range of the shared lines is used only through its entry in the
 * table (mc_flag_line), so every use is covered by the checks that no two
 * ranges overlap and that all of them fit (mc_flag_ranges_check, run when
 * a team is created, and tests/test_flags.c). Every team also checks that
 * the whole layout fits the flag area its transport provides.
 */
#ifndef MC_COLL_FLAGS_H
#define MC_COLL_FLAGS_H

#include "coll/team.h"

/* Lines after the two per-writer banks; tp/tp.h provides as many. */
#define MC_FLAG_SHARED_LINES 64

typedef struct mc_flag_range {
    const char *owner; /* the file that reads and writes it */
    int first;         /* first of the shared lines */
    int count;         /* lines */
} mc_flag_range_t;

extern const mc_flag_range_t mc_flag_ranges[MC_FL_COUNT];

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
    return t->fl.alg0 + (bank * t->size + writer) * t->fl.per;
}

/* Index of line i of the shared range of `owner`. */
static inline int mc_flag_line(const mc_team_t *t, mc_flag_owner_t owner,
                               int i)
{
    return t->fl.first[owner] + i * t->fl.per;
}

#endif
