/*
 * Lifecycle of a shared-memory segment: create or attach, join as a rank,
 * leave. The layout is described at the top of shm.c, names in
 * shm_name.c, liveness in shm_live.c.
 *
 * The creator reserves the whole segment at once (posix_fallocate), so a
 * full /dev/shm (or a machine out of memory) is an error naming the size
 * needed, at creation, rather than a SIGBUS in the middle of a collective
 * when a page is first touched. If it cannot, it shrinks the segment to
 * one page that says so (SHM_FAILED), so the ranks attaching to it fail
 * with the same message instead of waiting.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "tp/hwtopo.h"
#include "tp/shm_impl.h"
#include "util/config.h"

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static shm_tp_t *open_list;
static int atexit_done;

static void sleep_ms(int ms)
{
    struct timespec ts = {0, (long)ms * 1000000L};
    nanosleep(&ts, NULL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- sizes, in size_t with overflow checks ---- */

typedef struct layout {
    size_t mpb, nflags, flags_bytes, stride, hdr, total;
} layout_t;

static int add_ok(size_t a, size_t b, size_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

static int round_ok(size_t v, size_t a, size_t *out)
{
    return add_ok(v, a - 1, out) && (*out = *out / a * a, 1);
}

static int compute_layout(int size, size_t mpb, layout_t *l)
{
    size_t per_rank, flags;
    l->mpb = mpb / LINE * LINE + (mpb % LINE ? LINE : 0);
    /* size <= SHM_MAX_RANKS keeps mc_tp_nflags in an int */
    l->nflags = (size_t)mc_tp_nflags(size, LINE);
    int ok = !__builtin_mul_overflow(l->nflags, (size_t)8, &flags) &&
             round_ok(flags, LINE, &l->flags_bytes) &&
             add_ok(l->flags_bytes, l->mpb, &per_rank) &&
             round_ok(per_rank, PAGE, &l->stride) &&
             !__builtin_mul_overflow((size_t)size, sizeof(shm_rankinfo_t),
                                     &l->hdr) &&
             add_ok(l->hdr, sizeof(shm_header_t), &l->hdr) &&
             round_ok(l->hdr, PAGE, &l->hdr) &&
             !__builtin_mul_overflow((size_t)size, l->stride, &l->total) &&
             add_ok(l->total, l->hdr, &l->total) &&
             l->total <= (size_t)INT64_MAX;
    return ok ? MC_OK
              : mc_error(MC_ERR_ARG, "a segment for %d ranks with %zu-byte "
                         "MPBs would not fit in memory", size, mpb);
}

/* ---- creating and attaching ---- */

/* what the launcher says runs on this machine, or -1 */
static long long launcher_local_size(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_SIZE",
                                       "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        long long n;
        const char *v = getenv(vars[i]);
        if (v && mc_parse_int(v, 1, 1 << 20, &n) == 0)
            return n;
    }
    return -1;
}

/* The processes sharing the machine's CPUs with a team of `size`: its own
 * ranks, or more when the team is part of a larger job here (a node
 * communicator of MPI's "nodes", a split): MC_LOCAL_RANKS, automatic the
 * launcher's count or the parent team's. A 2-rank node communicator of a
 * 4-rank job on 2 CPUs that spun took 96 us per hierarchical barrier,
 * 3.6 yielding at once (docs/mpi.md). */
static int local_procs(int size, int parent, int *out)
{
    long long n;
    MC_CHECK(mc_env_int("MC_LOCAL_RANKS", &n));
    if (n < 0)
        n = launcher_local_size();
    if (n < parent)
        n = parent;
    *out = n > size ? (int)n : size;
    return MC_OK;
}

/* whether `procs` processes outnumber the CPUs (MC_CPUS, automatic: the
 * machine's, not this process's affinity mask: under a launcher that
 * binds each rank to one CPU the mask says 1, yet the ranks do not share
 * it), so the same on every rank of a team */
static int oversubscribed(int procs, int *out)
{
    long long cpus;
    MC_CHECK(mc_env_int("MC_CPUS", &cpus));
    if (cpus < 0)
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
    *out = procs > (cpus < 1 ? 1 : cpus);
    return MC_OK;
}

/* what a transport of `size` ranks would be, for reports (no segment) */
int mc_shm_describe(int size, mc_tp_t *out)
{
    long long mpb;
    MC_CHECK(mc_env_int("MC_MPB_SIZE", &mpb));
    *out = (mc_tp_t){.ops = &mc_shm_ops, .rank = 0, .size = size,
                     .line = LINE, .nflags = mc_tp_nflags(size, LINE),
                     .cache_coherent = 1, .plain_local = 1,
                     .single_copy = size > 1 && mc_shm_direct_possible()};
    int procs;
    MC_CHECK(local_procs(size, 0, &procs));
    MC_CHECK(oversubscribed(procs, &out->oversubscribed));
    out->mpb_size = (size_t)mpb / LINE * LINE + ((size_t)mpb % LINE ? LINE : 0);
    return MC_OK;
}

static long long mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    long long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

/* reserves the segment's memory: MC_OK, or an error naming what is
 * missing (the caller has set *err to the errno) */
static int reserve(shm_tp_t *s, int fd, int size, size_t total, int *err)
{
    char need[160];
    snprintf(need, sizeof need, "%zu bytes (%.1f MiB) for %d ranks with "
             "MC_MPB_SIZE=%s", total, (double)total / (1 << 20), size,
             mc_env("MC_MPB_SIZE"));
    *err = 0;
    if (*s->name) {
        struct statvfs v;
        if (statvfs("/dev/shm", &v) == 0 &&
            (double)v.f_bavail * (double)v.f_frsize < (double)total) {
            *err = ENOSPC;
            return mc_error(MC_ERR_SYS, "job '%s': /dev/shm has %.1f MiB "
                            "free, the job's segment needs %s: enlarge "
                            "/dev/shm (docker run --shm-size) or lower "
                            "MC_MPB_SIZE", s->job,
                            (double)v.f_bavail * v.f_frsize / (1 << 20),
                            need);
        }
    } else {
        long long avail = mem_available();
        if (avail >= 0 && (double)avail < (double)total) {
            *err = ENOMEM;
            return mc_error(MC_ERR_SYS, "job '%s': the machine has %.1f MiB "
                            "of memory available, the job's shared memory "
                            "needs %s", s->job, (double)avail / (1 << 20),
                            need);
        }
    }
    int rc = posix_fallocate(fd, 0, (off_t)total);
    if (rc == 0)
        return MC_OK;
    *err = rc;
    return mc_error(MC_ERR_SYS, "job '%s': cannot reserve the shared memory "
                    "(%s%s): %s; it needs %s", s->job,
                    *s->name ? "/dev/shm" : "memory",
                    *s->name ? s->name : "", strerror(rc), need);
}

/* tells the ranks attaching that creation failed (a one-page segment) */
static void mark_failed(int fd, int err)
{
    if (ftruncate(fd, PAGE) != 0)
        return;
    shm_header_t *h = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
                           fd, 0);
    if (h == MAP_FAILED)
        return;
    h->failed_errno = err;
    atomic_store_explicit(&h->magic, SHM_FAILED, memory_order_release);
    munmap(h, PAGE);
}

static int create_segment(shm_tp_t *s, int fd, int size, size_t mpb)
{
    layout_t l = {0};
    int err;
    MC_CHECK(compute_layout(size, mpb, &l));
    int rc = reserve(s, fd, size, l.total, &err);
    if (rc != MC_OK) {
        mark_failed(fd, err);
        return rc;
    }
    void *m = mmap(NULL, l.total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return mc_error(MC_ERR_SYS, "mmap(%s, %zu bytes): %s", s->job,
                        l.total, strerror(errno));
    s->map = m;
    s->map_len = l.total;
    shm_header_t *h = m;
    h->version = SHM_VERSION;
    h->size = (uint32_t)size;
    h->mpb_size = l.mpb;
    h->nflags = l.nflags;
    h->stride = l.stride;
    h->regions_off = l.hdr;
    h->total = l.total;
    if (getrandom(h->secret, SHM_SECRET, 0) != SHM_SECRET)
        return mc_error(MC_ERR_SYS, "job '%s': getrandom: %s", s->job,
                        strerror(errno));
    /* release: the header above is complete before anyone sees the magic */
    atomic_store_explicit(&h->magic, SHM_MAGIC, memory_order_release);
    return MC_OK;
}

/* waits a millisecond for something of the job that has not come yet:
 * an error if the deadline passed or a rank we need is gone */
static int wait_tick(shm_tp_t *s, double t0, const char *what)
{
    if (s->parent && s->members)
        MC_CHECK(mc_shm_check_ranks(s->parent, s->members, s->base.size));
    if (now_s() - t0 > s->timeout)
        return mc_error(MC_ERR_TIMEOUT, "job '%s': %s after %g s", s->job,
                        what, s->timeout);
    mc_shm_progress();
    sleep_ms(1);
    return MC_OK;
}

static int attach_segment(shm_tp_t *s, int fd, int size)
{
    struct stat st;
    double t0 = now_s();
    for (;;) {
        if (fstat(fd, &st) != 0)
            return mc_error(MC_ERR_SYS, "fstat(%s): %s", s->job,
                            strerror(errno));
        if (st.st_uid != geteuid() || (st.st_mode & 077))
            return mc_error(MC_ERR_ARG,
                            "job '%s': segment %s belongs to uid %u with mode "
                            "%o; refusing to attach",
                            s->job, s->name, (unsigned)st.st_uid,
                            (unsigned)(st.st_mode & 0777));
        if (st.st_size > 0)
            break;
        MC_CHECK(wait_tick(s, t0, "the segment stays empty"));
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
                   MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return mc_error(MC_ERR_SYS, "mmap(%s): %s", s->job, strerror(errno));
    s->map = m;
    s->map_len = (size_t)st.st_size;
    shm_header_t *h = m;
    uint64_t magic;
    /* acquire: pairs with the creator's release of the magic */
    while ((magic = atomic_load_explicit(&h->magic, memory_order_acquire)) !=
           SHM_MAGIC) {
        if (magic == SHM_FAILED)
            return mc_error(MC_ERR_SYS, "job '%s': the rank that created "
                            "the shared memory could not reserve it in %s "
                            "(%s): see its message", s->job,
                            *s->name ? "/dev/shm" : "memory",
                            strerror(h->failed_errno));
        MC_CHECK(wait_tick(s, t0, "the segment was never initialised"));
    }
    if (h->version != SHM_VERSION || h->total != s->map_len)
        return mc_error(MC_ERR_ARG, "job '%s': segment %s has another format",
                        s->job, s->name);
    if ((int)h->size != size)
        return mc_error(MC_ERR_ARG,
                        "mc_comm_create_shm: argument 'size' is %d but job "
                        "'%s' was created with size %u",
                        size, s->job, h->size);
    return MC_OK;
}

static int take_lock(shm_tp_t *s, int rank)
{
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET,
                       .l_start = rank, .l_len = 1};
    if (fcntl(s->fd, F_OFD_SETLK, &fl) != 0)
        return mc_error(MC_ERR_SYS, "job '%s': cannot take the liveness "
                        "lock of rank %d: %s", s->job, rank, strerror(errno));
    s->holding_lock = 1;
    return MC_OK;
}

/* Takes this rank's slot, then waits until every rank has arrived. */
static int join(shm_tp_t *s, int rank, int size)
{
    shm_header_t *h = s->hdr;
    shm_rankinfo_t *me = &h->info[rank];
    int expect = ST_FREE;
    if (!atomic_compare_exchange_strong(&me->state, &expect, ST_JOINING))
        return mc_error(MC_ERR_ARG,
                        "mc_comm_create_shm: rank %d of job '%s' has already "
                        "joined",
                        rank, s->job);
    MC_CHECK(take_lock(s, rank));
    me->pid = (int)getpid();
    mc_shm_direct_prepare(s);
    /* release: pid and the lock are in place before others see JOINED */
    atomic_store_explicit(&me->state, ST_JOINED, memory_order_release);
    if (atomic_fetch_add(&h->attached, 1) + 1 == size && *s->name)
        shm_unlink(s->name); /* everyone is in: nothing can leak from now */
    double t0 = now_s(), next = 0;
    while (atomic_load_explicit(&h->attached, memory_order_acquire) < size) {
        if (now_s() >= next) {
            MC_CHECK(mc_shm_check_peers(s));
            next = now_s() + 0.01;
        }
        if (now_s() - t0 > s->timeout)
            return mc_error(MC_ERR_TIMEOUT,
                            "job '%s': only %d of %d ranks arrived in %g s",
                            s->job, atomic_load(&h->attached), size,
                            s->timeout);
        mc_shm_progress();
        sleep_ms(1);
    }
    return mc_shm_direct_probe(s, s->timeout);
}

static void release(shm_tp_t *s)
{
    if (!s->holding_lock)
        return;
    shm_rankinfo_t *me = &s->hdr->info[s->base.rank];
    atomic_store_explicit(&me->left_calls,
                          s->base.calls ? *s->base.calls : 0,
                          memory_order_relaxed);
    /* release: the call count and the normal exit are visible before the
     * lock goes, so a peer that finds it unlocked does not report a
     * death */
    atomic_store_explicit(&me->state, ST_FINALIZED, memory_order_release);
    struct flock fl = {.l_type = F_UNLCK, .l_whence = SEEK_SET,
                       .l_start = s->base.rank, .l_len = 1};
    fcntl(s->fd, F_OFD_SETLK, &fl);
    s->holding_lock = 0;
    mc_shm_direct_leave(s);
}

static int open_named(shm_tp_t *s, int size, size_t mpb)
{
    int fd = shm_open(s->name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd >= 0) {
        s->fd = fd;
        return create_segment(s, fd, size, mpb);
    }
    if (errno != EEXIST)
        return mc_error(MC_ERR_SYS, "shm_open(%s): %s", s->name,
                        strerror(errno));
    fd = shm_open(s->name, O_RDWR, 0);
    if (fd < 0 && errno == ENOENT)
        return mc_error(MC_ERR_SYS,
                        "job '%s': segment %s vanished: did this job "
                        "already start, or did its creator fail?",
                        s->job, s->name);
    if (fd < 0)
        return mc_error(MC_ERR_SYS,
                        "job '%s': segment %s exists but cannot be opened "
                        "(%s): it belongs to another user or another job",
                        s->job, s->name, strerror(errno));
    s->fd = fd;
    return attach_segment(s, fd, size);
}

/* The inherited descriptor of `manycoll run` (shared by every rank's
 * process): each rank reopens it, for an open file of its own to hold its
 * lock on. Rank 0 creates the segment in it, the others attach. */
static int open_inherited(shm_tp_t *s, int inherited, int rank, int size,
                          size_t mpb)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", inherited);
    s->fd = open(path, O_RDWR | O_CLOEXEC);
    if (s->fd < 0)
        return mc_error(MC_ERR_ARG, "job '%s': MC_JOB_FD=%d is not the job's "
                        "shared memory (%s)", s->job, inherited,
                        strerror(errno));
    close(inherited); /* the program's own children need not have it */
    return rank == 0 ? create_segment(s, s->fd, size, mpb)
                     : attach_segment(s, s->fd, size);
}

static int open_any(shm_tp_t *s, int inherited, int rank, int size)
{
    long long mpb, spin, sc;
    MC_CHECK(mc_env_num("MC_TIMEOUT", &s->timeout));
    MC_CHECK(mc_env_int("MC_SPIN", &spin));
    MC_CHECK(mc_env_int("MC_MPB_SIZE", &mpb));
    MC_CHECK(mc_env_int("MC_SINGLE_COPY", &sc));
    s->single_copy_env = (int)sc;
    /* automatic: oversubscribed, a spinning waiter steals the CPU from
     * the rank it waits for: yield at once (a poll with its pause costs
     * about 20 ns here; 50 of them before the first yield took OSU's
     * 8-byte bcast at 4 ranks on 2 CPUs from 0.6 to 1.5 us, docs/mpi.md);
     * the selection also knows (select.c) */
    MC_CHECK(local_procs(size, s->parent ? s->parent->procs : 0,
                         &s->procs));
    MC_CHECK(oversubscribed(s->procs, &s->base.oversubscribed));
    s->spin = spin >= 0 ? (long)spin : s->base.oversubscribed ? 0 : 4000;
    if (inherited >= 0)
        return open_inherited(s, inherited, rank, size, (size_t)mpb);
    if (size == 1) {
        s->fd = memfd_create("manycoll", MFD_CLOEXEC);
        if (s->fd < 0)
            return mc_error(MC_ERR_SYS, "memfd_create: %s", strerror(errno));
        return create_segment(s, s->fd, size, (size_t)mpb);
    }
    MC_CHECK(mc_shm_segment_name(s->job, s->name, sizeof s->name));
    return open_named(s, size, (size_t)mpb);
}

static void discard(shm_tp_t *s)
{
    if (*s->name)
        shm_unlink(s->name); /* a failed job must not leave its segment */
    if (s->map) {
        release(s);
        munmap(s->map, s->map_len);
    }
    if (s->fd >= 0)
        close(s->fd);
    free(s);
}

/* Opens `job` as rank of size: over an inherited descriptor (>= 0) or by
 * name; while joining a split, parent and members (parent ranks) name the
 * ranks whose death or departure ends the wait. */
static int shm_open_job(const char *job, const char *root, int inherited,
                        int rank, int size, shm_tp_t *parent,
                        const int *members, mc_tp_t **out)
{
    if (!mc_shm_valid_job(job))
        return mc_error(MC_ERR_ARG,
                        "argument 'job' (\"%.40s\") must be 1-%d characters "
                        "of [A-Za-z0-9._-]",
                        job, MC_SHM_JOB_MAX - 1);
    if (size > SHM_MAX_RANKS)
        return mc_error(MC_ERR_ARG, "argument 'size' is %d, at most %d "
                        "ranks are supported", size, SHM_MAX_RANKS);
    shm_tp_t *s = calloc(1, sizeof *s);
    if (!s)
        return mc_error(MC_ERR_NOMEM, "out of memory opening job '%s'", job);
    snprintf(s->job, sizeof s->job, "%s", job);
    snprintf(s->root, sizeof s->root, "%s", root);
    s->fd = -1;
    s->parent = parent;
    s->members = members;
    s->base.ops = &mc_shm_ops;
    s->base.rank = rank;
    s->base.size = size;
    int rc = open_any(s, inherited, rank, size);
    if (rc == MC_OK) {
        s->hdr = (shm_header_t *)s->map;
        s->regions = s->map + s->hdr->regions_off;
        s->stride = s->hdr->stride;
        s->flags_bytes = (size_t)s->hdr->nflags * 8;
        s->flags_bytes = (s->flags_bytes + LINE - 1) / LINE * LINE;
        s->base.mpb_size = s->hdr->mpb_size;
        s->base.line = LINE;
        s->base.nflags = (int)s->hdr->nflags;
        s->base.cache_coherent = 1;
        s->base.plain_local = 1;
        rc = join(s, rank, size);
    }
    s->parent = NULL;
    s->members = NULL;
    if (rc != MC_OK) {
        discard(s);
        return rc;
    }
    pthread_mutex_lock(&open_lock);
    s->next_open = open_list;
    open_list = s;
    if (!atexit_done) {
        atexit(mc_shm_leave_all);
        atexit_done = 1;
    }
    pthread_mutex_unlock(&open_lock);
    *out = &s->base;
    return MC_OK;
}

/* a new world also learns where its ranks are (MC_BIND; tp/hwtopo.h) */
static int with_places(int rc, mc_tp_t **out)
{
    if (rc == MC_OK && (rc = mc_hwtopo_world(*out)) != MC_OK)
        (*out)->ops->destroy(*out);
    return rc;
}

int mc_shm_open(const char *job, int rank, int size, mc_tp_t **out)
{
    return with_places(shm_open_job(job, job, -1, rank, size, NULL, NULL,
                                    out), out);
}

int mc_shm_open_fd(const char *job, int fd, int rank, int size,
                   mc_tp_t **out)
{
    return with_places(shm_open_job(job, job, fd, rank, size, NULL, NULL,
                                    out), out);
}

int mc_shm_job_fd(void)
{
    int fd = memfd_create("manycoll-job", 0);
    if (fd < 0)
        return mc_error(MC_ERR_SYS, "memfd_create: %s", strerror(errno));
    if (fchmod(fd, 0600) != 0) {
        close(fd);
        return mc_error(MC_ERR_SYS, "fchmod(memfd): %s", strerror(errno));
    }
    return fd;
}

void mc_shm_destroy(mc_tp_t *t)
{
    shm_tp_t *s = (shm_tp_t *)t;
    mc_hwtopo_free(t);
    pthread_mutex_lock(&open_lock);
    for (shm_tp_t **p = &open_list; *p; p = &(*p)->next_open)
        if (*p == s) {
            *p = s->next_open;
            break;
        }
    pthread_mutex_unlock(&open_lock);
    release(s);
    munmap(s->map, s->map_len);
    close(s->fd);
    free(s);
}

void mc_shm_leave_all(void)
{
    pthread_mutex_lock(&open_lock);
    for (shm_tp_t *s = open_list; s; s = s->next_open)
        release(s);
    pthread_mutex_unlock(&open_lock);
}

int mc_shm_sub(mc_tp_t *t, const int *members, int n, int myrank,
               uint64_t id, mc_tp_t **out)
{
    shm_tp_t *s = (shm_tp_t *)t;
    char job[MC_SHM_JOB_MAX + 32];
    MC_CHECK(mc_shm_sub_job(s, id, job, sizeof job));
    int rc = shm_open_job(job, s->root, -1, myrank, n, s, members, out);
    if (rc == MC_OK && (rc = mc_hwtopo_sub(*out, t, members)) != MC_OK)
        (*out)->ops->destroy(*out);
    return rc;
}
