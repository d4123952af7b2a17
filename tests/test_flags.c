/*
 * The flag-line map (src/coll/flags.h) and the MPB layout of a team:
 *   - the allocation of the library's users of shared lines: every user
 *     gets the lines it asked for, no two users overlap, own-writer users
 *     sit in the own lines and several-writer users in the multi lines
 *     (where tp.h's mc_tp_flag_writer says "one of several"), and the
 *     totals fit; users that do not fit are refused with a message naming
 *     the user;
 *   - the overlap check itself: a table with two owners on one line, or a
 *     range outside the shared lines, is rejected with a message naming
 *     the owners;
 *   - at every rank count from 1 to 4096, for the line sizes of the
 *     transports (32 on the simulated SCC, 64 on shm) and MPBs of 8 KiB
 *     and 64 KiB, the whole layout fits the flag area the transports
 *     provide (tp.h: mc_tp_nflags), and not one line less;
 *   - the fast paths' MPB slots sit in the MPB's tail, after the general
 *     area, and an MPB reservation that leaves less than a line fails.
 */
#include <stdio.h>
#include <string.h>

#include "coll/fast.h"
#include "coll/flags.h"
#include "coll/team.h"

#include "check.h"

static const mc_tp_ops_t fake_ops = {.name = "fake"};

/* a transport that is only its description (mc_team_layout reads no
 * memory) */
static mc_tp_t fake(int n, size_t line, size_t mpb, int coherent, int nflags)
{
    return (mc_tp_t){.ops = &fake_ops, .rank = n - 1, .size = n,
                     .mpb_size = mpb, .line = line, .nflags = nflags,
                     .cache_coherent = coherent};
}

static void table(void)
{
    mc_flag_range_t r[MC_FL_COUNT];
    int own = 0, multi = 0;
    CHECK(mc_flag_alloc(mc_flag_users, MC_FL_COUNT, MC_TP_OWN_LINES,
                        MC_TP_MULTI_LINES, r) == MC_OK,
          "the library's users: %s", mc_last_error());
    CHECK(mc_flag_ranges_check(r, MC_FL_COUNT, MC_FLAG_SHARED_LINES) ==
              MC_OK,
          "the library's allocation: %s", mc_last_error());
    for (int o = 0; o < MC_FL_COUNT; o++) {
        const mc_flag_user_t *u = &mc_flag_users[o];
        int lo = u->writers == MC_FLAG_MULTI ? MC_TP_OWN_LINES : 0;
        int hi = lo + (u->writers == MC_FLAG_MULTI ? MC_TP_MULTI_LINES
                                                    : MC_TP_OWN_LINES);
        CHECK(r[o].count == u->lines && r[o].first >= lo &&
                  r[o].first + r[o].count <= hi,
              "%s: lines %d-%d, not %d in [%d, %d)", u->owner, r[o].first,
              r[o].first + r[o].count - 1, u->lines, lo, hi);
        *(u->writers == MC_FLAG_MULTI ? &multi : &own) += u->lines;
        /* tp.h names the same writers: 4 ranks, 64-byte lines (8 words) */
        for (int l = r[o].first; l < r[o].first + r[o].count; l++) {
            int w = mc_tp_flag_writer(4, 64, 2, 8 * (1 + 8 + l) + 3);
            CHECK(w == (u->writers == MC_FLAG_MULTI ? -1 : 2),
                  "%s: line %d written by %d says tp.h", u->owner, l, w);
        }
    }
    CHECK(own <= MC_TP_OWN_LINES && multi <= MC_TP_MULTI_LINES,
          "%d own and %d several-writer lines", own, multi);
    const mc_flag_user_t big[] = {{"a.c", 40, MC_FLAG_OWN},
                                  {"b.c", 9, MC_FLAG_OWN}};
    CHECK(mc_flag_alloc(big, 2, 48, 16, r) == MC_ERR_INTERNAL &&
              strstr(mc_last_error(), "b.c"),
          "49 own lines fit in 48: %s", mc_last_error());
    const mc_flag_user_t acks[] = {{"a.c", 3, MC_FLAG_MULTI},
                                   {"b.c", 2, MC_FLAG_OWN},
                                   {"c.c", 2, MC_FLAG_MULTI}};
    CHECK(mc_flag_alloc(acks, 3, 48, 4, r) == MC_ERR_INTERNAL &&
              strstr(mc_last_error(), "c.c"),
          "5 several-writer lines fit in 4: %s", mc_last_error());
    CHECK(mc_flag_alloc(acks, 3, 48, 5, r) == MC_OK && r[0].first == 48 &&
              r[1].first == 0 && r[2].first == 51,
          "packed in order, by kind: %d %d %d", r[0].first, r[1].first,
          r[2].first);
    const mc_flag_user_t none[] = {{"a.c", 0, MC_FLAG_OWN}};
    CHECK(mc_flag_alloc(none, 1, 48, 16, r) == MC_ERR_INTERNAL,
          "a user of no lines is accepted");
    const mc_flag_range_t overlap[] = {
        {"a.c", 0, 5}, {"b.c", 8, 2}, {"c.c", 9, 4}};
    CHECK(mc_flag_ranges_check(overlap, 3, 64) == MC_ERR_INTERNAL,
          "an overlapping reservation is accepted");
    CHECK(strstr(mc_last_error(), "c.c") && strstr(mc_last_error(), "b.c"),
          "the message names both owners: %s", mc_last_error());
    const mc_flag_range_t apart[] = {{"a.c", 0, 5}, {"b.c", 5, 3}};
    CHECK(mc_flag_ranges_check(apart, 2, 64) == MC_OK,
          "adjacent ranges are rejected: %s", mc_last_error());
    const mc_flag_range_t outside[] = {{"a.c", 60, 5}};
    CHECK(mc_flag_ranges_check(outside, 1, 64) == MC_ERR_INTERNAL,
          "a range past the shared lines is accepted");
    const mc_flag_range_t empty[] = {{"a.c", 3, 0}};
    CHECK(mc_flag_ranges_check(empty, 1, 64) == MC_ERR_INTERNAL,
          "an empty range is accepted");
}

/* every flag index the layout hands out, for team t */
static void indices_fit(const mc_team_t *t, int nflags, const char *what)
{
    int per = t->fl.per, n = t->size, top = 0;
    CHECK(2 * n <= t->fl.alg0, "%s: two-sided words reach the banks", what);
    CHECK(mc_flag_from(t, 1, n - 1) + per <= t->fl.shared0,
          "%s: the banks reach the shared lines", what);
    for (int o = 0; o < MC_FL_COUNT; o++) {
        int first = mc_flag_line(t, (mc_flag_owner_t)o, 0);
        int last = mc_flag_line(t, (mc_flag_owner_t)o,
                                mc_flag_users[o].lines - 1) + per;
        top = last > top ? last : top;
        CHECK(first >= t->fl.shared0, "%s: %s below the shared lines", what,
              mc_flag_users[o].owner);
        for (int q = 0; q < o; q++) {
            int f2 = mc_flag_line(t, (mc_flag_owner_t)q, 0);
            int l2 = f2 + mc_flag_users[q].lines * per;
            CHECK(last <= f2 || l2 <= first, "%s: %s and %s share words",
                  what, mc_flag_users[o].owner, mc_flag_users[q].owner);
        }
    }
    CHECK(top <= nflags, "%s: shared lines end at word %d of %d", what, top,
          nflags);
}

static void every_rank_count(void)
{
    static const size_t lines[] = {32, 64};
    static const size_t mpbs[] = {8192, 65536};
    for (int n = 1; n <= 4096; n++)
        for (size_t l = 0; l < 2; l++)
            for (size_t m = 0; m < 2; m++) {
                char what[64];
                snprintf(what, sizeof what, "%d ranks, %zu-byte lines, "
                         "%zu-byte MPB", n, lines[l], mpbs[m]);
                int nflags = mc_tp_nflags(n, lines[l]);
                mc_tp_t tp = fake(n, lines[l], mpbs[m], (int)m, nflags);
                mc_team_t t;
                if (mc_team_layout(&t, &tp) != MC_OK) {
                    CHECK(0, "%s: %s", what, mc_last_error());
                    continue;
                }
                indices_fit(&t, nflags, what);
                CHECK(t.p2p.chunk <= t.mpb.avail && t.p2p.chunk > 0,
                      "%s: two-sided chunk %zu of %zu", what, t.p2p.chunk,
                      t.mpb.avail);
                mc_tp_t small = fake(n, lines[l], mpbs[m], (int)m,
                                     nflags - (int)(lines[l] / 8));
                CHECK(mc_team_layout(&t, &small) == MC_ERR_INTERNAL,
                      "%s: fits a flag area one line short", what);
            }
}

static void mpb(void)
{
    mc_tp_t tp = fake(4, 64, 65536, 1, mc_tp_nflags(4, 64));
    mc_team_t t;
    CHECK(mc_team_layout(&t, &tp) == MC_OK, "coherent team: %s",
          mc_last_error());
    CHECK(t.fast.slot == MC_FAST_MAX_SLOT && t.fast.off == t.mpb.avail &&
              t.fast.off + MC_FAST_SLOTS * t.fast.slot == 65536,
          "fast slots %zu at %zu, general area %zu", t.fast.slot, t.fast.off,
          t.mpb.avail);
    size_t off;
    CHECK(mc_team_mpb_tail(&t, t.mpb.avail - 32, "test", &off) ==
              MC_ERR_INTERNAL,
          "a tail leaving less than a line is granted");
    CHECK(mc_team_mpb_tail(&t, 4096, "test", &off) == MC_OK &&
              off + 4096 == t.fast.off && t.mpb.avail == off,
          "a tail of 4 KiB: at %zu, general area %zu", off, t.mpb.avail);
    mc_tp_t mesh = fake(4, 32, 8192, 0, mc_tp_nflags(4, 32));
    CHECK(mc_team_layout(&t, &mesh) == MC_OK && t.fast.slot == 0 &&
              t.mpb.avail == 8192,
          "without coherence the fast paths take no MPB");
}

int main(void)
{
    table();
    every_rank_count();
    mpb();
    return check_done("test_flags", "the allocated flag map passes its "
                      "checks and fits at 1-4096 ranks; overlaps are rejected");
}
