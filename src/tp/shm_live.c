/*
 * Liveness on the shm transport: telling a dead or departed peer from a
 * slow one.
 *
 * Each member holds a lock on byte <rank> of the segment's file, taken
 * through its own open file description (fcntl F_OFD_SETLK): such a lock
 * belongs to the process's open file, not to a thread, and the kernel
 * drops it when the process ends, however it ends. A waiter that has
 * waited a while asks (F_OFD_GETLK) whether its peers' locks are still
 * held: a member whose lock is gone without having left is dead. So a
 * communicator may be created by one thread and used by another, and the
 * creating thread may exit.
 *
 * A member that leaves (mc_comm_free, mc_finalize, or exit through the
 * atexit handler) first records how many collective calls it started,
 * then marks itself finalized, then unlocks: a peer still waiting in a
 * later call learns at once that the call cannot complete. A member whose
 * call fails records the call and the message, and its peers' waits in
 * that call or later ones fail with them instead of timing out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tp/shm_impl.h"
#include "util/config.h"

int mc_shm_lock_held(shm_tp_t *s, int r)
{
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET,
                       .l_start = r, .l_len = 1};
    if (fcntl(s->fd, F_OFD_GETLK, &fl) != 0)
        return 1; /* cannot tell: not a death */
    return fl.l_type != F_UNLCK;
}

void mc_shm_note_dead(int pid, const char *what)
{
    long long fd;
    if (!*mc_env("MC_NOTE_FD") || mc_env_int("MC_NOTE_FD", &fd) != MC_OK)
        return;
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%s %d\n", what, pid);
    /* one short write is atomic on a pipe; a full pipe drops the note */
    if (write((int)fd, buf, (size_t)n) < 0)
        return;
}

static uint64_t my_calls(const shm_tp_t *s)
{
    return s->base.calls ? *s->base.calls : 0;
}

/* dead or departed: an error naming r, else MC_OK */
static int check_gone(shm_tp_t *s, int r, int strict)
{
    shm_rankinfo_t *in = &s->hdr->info[r];
    int dead = atomic_load_explicit(&in->dead, memory_order_acquire);
    int st = atomic_load_explicit(&in->state, memory_order_acquire);
    /* acquire: a JOINED state was stored (release) after the lock was
     * taken, so an unheld lock now means the holder dropped it: by
     * leaving (then state is FINALIZED by now, stored before the unlock)
     * or by dying */
    if (!dead && st == ST_JOINED && !mc_shm_lock_held(s, r) &&
        atomic_load_explicit(&in->state, memory_order_acquire) ==
            ST_JOINED) {
        if (!atomic_exchange(&in->dead, 1))
            mc_shm_note_dead(in->pid, "dead");
        dead = 1;
    }
    if (dead)
        return mc_error(MC_ERR_PEER_DEAD, "peer rank %d (pid %d) of job "
                        "'%s' died", r, in->pid, s->job);
    if (st != ST_FINALIZED)
        return MC_OK;
    uint64_t left = atomic_load_explicit(&in->left_calls,
                                         memory_order_relaxed);
    if (strict || left < my_calls(s)) {
        mc_shm_note_dead(in->pid, "left");
        return mc_error(MC_ERR_PEER_DEAD,
                        "peer rank %d (pid %d) of job '%s' left (exit, "
                        "mc_comm_free or mc_finalize) after %llu collective "
                        "calls, so call %llu of rank %d cannot complete",
                        r, in->pid, s->job, (unsigned long long)left,
                        (unsigned long long)my_calls(s), s->base.rank);
    }
    return MC_OK;
}

static int check_failed(shm_tp_t *s, int r)
{
    shm_rankinfo_t *in = &s->hdr->info[r];
    /* acquire: pairs with mc_shm_fail's release; the message is complete */
    uint64_t f = atomic_load_explicit(&in->failed_call,
                                      memory_order_acquire);
    if (!f || f > my_calls(s))
        return MC_OK;
    return mc_error(in->failed_status, "rank %d of job '%s' failed in call "
                    "%llu: %s", r, s->job, (unsigned long long)f,
                    in->failed_msg);
}

static int check_list(shm_tp_t *s, const int *ranks, int n, int strict)
{
    for (int i = 0; i < n; i++) {
        int r = ranks ? ranks[i] : i;
        if (r != s->base.rank)
            MC_CHECK(check_gone(s, r, strict));
    }
    /* failures second: a peer that failed because a third one died
     * should not hide the death */
    for (int i = 0; i < n; i++) {
        int r = ranks ? ranks[i] : i;
        if (r != s->base.rank)
            MC_CHECK(check_failed(s, r));
    }
    return MC_OK;
}

int mc_shm_check_ranks(shm_tp_t *s, const int *ranks, int n)
{
    MC_CHECK(check_list(s, ranks, n, 0));
    /* joining a split: the members that have not joined yet must stay in
     * the parent meanwhile. One that has joined is watched here, in s: it
     * may finish the split and leave the parent (mc_finalize) while I
     * still wait for a slower member, and that is no error */
    for (int i = 0; s->parent && s->members && i < s->base.size; i++) {
        int st = atomic_load_explicit(&s->hdr->info[i].state,
                                      memory_order_acquire);
        if (st < ST_JOINED && s->members[i] != s->parent->base.rank)
            MC_CHECK(check_gone(s->parent, s->members[i], 1));
    }
    for (int i = 0; s->parent && s->members && i < s->base.size; i++)
        if (s->members[i] != s->parent->base.rank)
            MC_CHECK(check_failed(s->parent, s->members[i]));
    return MC_OK;
}

int mc_shm_check_peers(shm_tp_t *s)
{
    return mc_shm_check_ranks(s, NULL, s->base.size);
}

void mc_shm_fail(mc_tp_t *t, uint64_t call, int status, const char *msg)
{
    shm_tp_t *s = (shm_tp_t *)t;
    shm_rankinfo_t *me = &s->hdr->info[t->rank];
    if (atomic_load_explicit(&me->failed_call, memory_order_relaxed))
        return;
    me->failed_status = status;
    snprintf(me->failed_msg, sizeof me->failed_msg, "%s", msg);
    /* release: status and message are complete before the call number */
    atomic_store_explicit(&me->failed_call, call, memory_order_release);
}
