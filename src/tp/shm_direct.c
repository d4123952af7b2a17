/*
 * Single copy on the shm transport: a rank reads a peer's buffer straight
 * from the peer's address space with Linux cross-memory attach
 * (process_vm_readv), one copy instead of two through the MPB (what Open
 * MPI's vader BTL calls CMA), or writes into a buffer the peer published
 * for it (process_vm_writev: gather's senders, in parallel, into the
 * root's receive buffer). The kernel checks both alike.
 *
 * Whether it works is decided once per communicator, the same on every
 * rank: when joining, every rank publishes the address of a word of known
 * value; once all have joined, rank r reads rank (r+1) mod P's word and
 * says in its rank info whether that worked; then every rank waits for all
 * answers and single_copy = 1 only if all said yes. The kernel allows the
 * read between processes of one user unless a security module forbids it
 * (Yama ptrace_scope >= 2, a seccomp filter without the call, a process
 * that is not dumpable). Under Yama's scope 1 (only descendants) a rank of
 * a communicator of two or more ranks, with single copy on, declares its
 * parent process (the launcher: `manycoll run`, or an MPI library's
 * per-node daemon) and that parent's descendants, i.e. its fellow ranks,
 * its allowed readers (PR_SET_PTRACER); never any process (as MPI
 * libraries do with PR_SET_PTRACER_ANY), never for one rank, and it takes
 * the declaration back when its last such communicator is freed.
 * MC_SINGLE_COPY=0 turns single copy off.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "tp/shm_impl.h"
#include "util/config.h"

static const uint64_t probe_word = 0x79706f632d656c67ULL; /* "gle-copy" */

static int yama_scope(void)
{
    FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
    int v = 0;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = 0;
        fclose(f);
    }
    return v;
}

int mc_shm_direct_possible(void)
{
    long long on = 1;
    return mc_env_int("MC_SINGLE_COPY", &on) == MC_OK && on != 0 &&
           yama_scope() < 2;
}

/* communicators of this process that declared a ptracer */
static pthread_mutex_t ptracer_lock = PTHREAD_MUTEX_INITIALIZER;
static int ptracer_users;

void mc_shm_direct_prepare(shm_tp_t *s)
{
    shm_rankinfo_t *me = &s->hdr->info[s->base.rank];
    me->probe_addr = (uint64_t)(uintptr_t)&probe_word;
    pid_t parent = getppid();
    /* an orphan's parent is init, whose descendants are everyone */
    if (!s->single_copy_env || s->base.size < 2 || parent <= 1 ||
        yama_scope() != 1)
        return;
    pthread_mutex_lock(&ptracer_lock);
    if (ptracer_users++ == 0)
        prctl(PR_SET_PTRACER, (unsigned long)parent, 0, 0, 0);
    pthread_mutex_unlock(&ptracer_lock);
    s->ptracer = 1;
}

void mc_shm_direct_leave(shm_tp_t *s)
{
    if (!s->ptracer)
        return;
    s->ptracer = 0;
    pthread_mutex_lock(&ptracer_lock);
    if (--ptracer_users == 0)
        prctl(PR_SET_PTRACER, 0UL, 0, 0, 0);
    pthread_mutex_unlock(&ptracer_lock);
}

/* n bytes between my buffer mine and address addr of process pid: read
 * (process_vm_readv) or written (process_vm_writev); 0 or an errno */
static int move_peer(int pid, void *mine, uintptr_t addr, size_t n,
                     int write)
{
    struct iovec local = {mine, n}, remote = {(void *)addr, n};
    while (local.iov_len) {
        ssize_t got = write ? process_vm_writev(pid, &local, 1, &remote, 1, 0)
                            : process_vm_readv(pid, &local, 1, &remote, 1, 0);
        if (got <= 0)
            return got == 0 ? EFAULT : errno;
        local.iov_base = (char *)local.iov_base + got;
        local.iov_len -= (size_t)got;
        remote.iov_base = (char *)remote.iov_base + got;
        remote.iov_len -= (size_t)got;
    }
    return 0;
}

static int read_peer(int pid, void *dst, uintptr_t addr, size_t n)
{
    return move_peer(pid, dst, addr, n, 0);
}

static int probe_one(shm_tp_t *s)
{
    if (!s->single_copy_env)
        return -1;
    int size = s->base.size, peer = (s->base.rank + 1) % size;
    shm_rankinfo_t *p = &s->hdr->info[peer];
    uint64_t got = 0;
    if (read_peer(p->pid, &got, (uintptr_t)p->probe_addr, sizeof got) != 0)
        return -1;
    return got == probe_word ? 1 : -1;
}

int mc_shm_direct_probe(shm_tp_t *s, double timeout)
{
    shm_header_t *h = s->hdr;
    int size = s->base.size;
    atomic_store_explicit(&h->info[s->base.rank].single_copy, probe_one(s),
                          memory_order_release);
    int all = 1;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int r = 0; r < size; r++) {
        int v;
        while ((v = atomic_load_explicit(&h->info[r].single_copy,
                                         memory_order_acquire)) == 0) {
            MC_CHECK(mc_shm_check_peers(s));
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((double)(t.tv_sec - t0.tv_sec) > timeout)
                return mc_error(MC_ERR_TIMEOUT,
                                "job '%s': rank %d did not finish joining",
                                s->job, r);
            mc_shm_progress();
            sched_yield();
        }
        all &= v == 1;
    }
    s->base.single_copy = size > 1 && all;
    return MC_OK;
}

/* the error of a failed move of n bytes from or to rank peer */
static int move_failed(shm_tp_t *s, int err, int peer, size_t n, int write)
{
    MC_CHECK(mc_shm_check_peers(s)); /* names a dead peer */
    if (err == ESRCH && !atomic_exchange(&s->hdr->info[peer].dead, 1))
        mc_shm_note_dead(s->hdr->info[peer].pid, "dead");
    return mc_error(err == ESRCH ? MC_ERR_PEER_DEAD : MC_ERR_SYS,
                    "rank %d of job '%s': %s %zu bytes %s rank %d "
                    "(pid %d) failed: %s",
                    s->base.rank, s->job, write ? "writing" : "reading", n,
                    write ? "to" : "of", peer, s->hdr->info[peer].pid,
                    strerror(err));
}

int mc_shm_get_direct(mc_tp_t *t, void *dst, int src, uintptr_t addr,
                      size_t n)
{
    shm_tp_t *s = (shm_tp_t *)t;
    int err = read_peer(s->hdr->info[src].pid, dst, addr, n);
    return err == 0 ? MC_OK : move_failed(s, err, src, n, 0);
}

int mc_shm_put_direct(mc_tp_t *t, int dst, uintptr_t addr, const void *src,
                      size_t n)
{
    shm_tp_t *s = (shm_tp_t *)t;
    int err = move_peer(s->hdr->info[dst].pid, (void *)src, addr, n, 1);
    return err == 0 ? MC_OK : move_failed(s, err, dst, n, 1);
}
