/*
 * Lifecycle of a shared-memory segment: create or attach, join as a rank,
 * leave, clean up. The layout and the liveness protocol are described at
 * the top of shm.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tp/hwtopo.h"
#include "tp/shm_impl.h"
#include "util/config.h"

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static shm_tp_t *open_list;
static int atexit_done;

static size_t round_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

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

static int valid_job(const char *job)
{
    size_t n = strlen(job);
    if (n == 0 || n >= MC_SHM_JOB_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = job[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
              ch == '-'))
            return 0;
    }
    return 1;
}

int mc_shm_segment_name(const char *job, char *buf, size_t len)
{
    int n = snprintf(buf, len, "/manycoll-%u-%s", (unsigned)geteuid(), job);
    return (n < 0 || (size_t)n >= len) ? MC_ERR_ARG : MC_OK;
}

static long default_spin(int size)
{
    long spin = mc_env_ll("MC_SPIN");
    if (spin >= 0)
        return spin;
    /* the machine's CPUs, not this process's affinity mask: under a
     * launcher that binds each rank to one CPU the mask says 1, yet the
     * ranks do not share it */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 1)
        ncpu = 1;
    /* oversubscribed: a spinning waiter steals the CPU from the rank it
     * waits for, so give it up almost at once */
    return size > ncpu ? 50 : 4000;
}

/* ---- creating and attaching ---- */

static int create_segment(shm_tp_t *s, int fd, int size)
{
    long long mpb = mc_env_ll("MC_MPB_SIZE");
    if (mpb < 256 || mpb > (1LL << 30))
        return mc_error(MC_ERR_ARG,
                        "MC_MPB_SIZE=%s: must be between 256 and 1G bytes",
                        mc_env("MC_MPB_SIZE"));
    size_t mpb_size = round_up((size_t)mpb, LINE);
    size_t nflags = (size_t)mc_tp_nflags(size, LINE);
    size_t flags_bytes = round_up(nflags * 8, LINE);
    size_t stride = round_up(flags_bytes + mpb_size, PAGE);
    size_t hdr = round_up(sizeof(shm_header_t) +
                              (size_t)size * sizeof(shm_rankinfo_t),
                          PAGE);
    size_t total = hdr + (size_t)size * stride;
    if (ftruncate(fd, (off_t)total) != 0)
        return mc_error(MC_ERR_SYS, "ftruncate(%s, %zu): %s", s->name, total,
                        strerror(errno));
    void *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return mc_error(MC_ERR_SYS, "mmap(%s): %s", s->name, strerror(errno));
    s->map = m;
    s->map_len = total;
    shm_header_t *h = m;
    h->version = SHM_VERSION;
    h->size = (uint32_t)size;
    h->mpb_size = mpb_size;
    h->nflags = nflags;
    h->stride = stride;
    h->regions_off = hdr;
    h->total = total;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    for (int r = 0; r < size; r++)
        pthread_mutex_init(&h->info[r].alive, &a);
    pthread_mutexattr_destroy(&a);
    /* release: the header above is complete before anyone sees the magic */
    atomic_store_explicit(&h->magic, SHM_MAGIC, memory_order_release);
    return MC_OK;
}

static int attach_segment(shm_tp_t *s, int fd, int size)
{
    struct stat st;
    double t0 = now_s();
    for (;;) {
        if (fstat(fd, &st) != 0)
            return mc_error(MC_ERR_SYS, "fstat(%s): %s", s->name,
                            strerror(errno));
        if (st.st_uid != geteuid() || (st.st_mode & 077))
            return mc_error(MC_ERR_ARG,
                            "job '%s': segment %s belongs to uid %u with mode "
                            "%o; refusing to attach",
                            s->job, s->name, (unsigned)st.st_uid,
                            (unsigned)(st.st_mode & 0777));
        if (st.st_size > 0)
            break;
        if (now_s() - t0 > s->timeout)
            return mc_error(MC_ERR_TIMEOUT, "job '%s': segment %s stays empty",
                            s->job, s->name);
        sleep_ms(1);
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
                   MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return mc_error(MC_ERR_SYS, "mmap(%s): %s", s->name, strerror(errno));
    s->map = m;
    s->map_len = (size_t)st.st_size;
    shm_header_t *h = m;
    /* acquire: pairs with the creator's release of the magic */
    while (atomic_load_explicit(&h->magic, memory_order_acquire) !=
           SHM_MAGIC) {
        if (now_s() - t0 > s->timeout)
            return mc_error(MC_ERR_TIMEOUT,
                            "job '%s': segment %s was never initialised",
                            s->job, s->name);
        sleep_ms(1);
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
    if (pthread_mutex_lock(&me->alive) != 0)
        return mc_error(MC_ERR_SYS, "job '%s': cannot take liveness lock",
                        s->job);
    s->holding_lock = 1;
    me->pid = (int)getpid();
    mc_shm_direct_prepare(s);
    /* release: pid and the lock are in place before others see JOINED */
    atomic_store_explicit(&me->state, ST_JOINED, memory_order_release);
    if (atomic_fetch_add(&h->attached, 1) + 1 == size)
        shm_unlink(s->name); /* everyone is in: nothing can leak from now */
    double t0 = now_s();
    while (atomic_load_explicit(&h->attached, memory_order_acquire) < size) {
        MC_CHECK(mc_shm_check_peers(s));
        if (now_s() - t0 > s->timeout)
            return mc_error(MC_ERR_TIMEOUT,
                            "job '%s': only %d of %d ranks arrived in %.0f s",
                            s->job, atomic_load(&h->attached), size,
                            s->timeout);
        sleep_ms(1);
    }
    return mc_shm_direct_probe(s, s->timeout);
}

static void release(shm_tp_t *s)
{
    if (s->holding_lock) {
        shm_rankinfo_t *me = &s->hdr->info[s->base.rank];
        /* release: mark the normal exit before dropping the lock, so a
         * peer's try-lock that succeeds does not report a death */
        atomic_store_explicit(&me->state, ST_FINALIZED, memory_order_release);
        pthread_mutex_unlock(&me->alive);
        s->holding_lock = 0;
    }
}

static int open_or_create(shm_tp_t *s, int size)
{
    int fd = shm_open(s->name, O_RDWR | O_CREAT | O_EXCL, 0600);
    int rc;
    if (fd >= 0) {
        rc = create_segment(s, fd, size);
    } else if (errno == EEXIST) {
        fd = shm_open(s->name, O_RDWR, 0);
        if (fd < 0)
            return mc_error(MC_ERR_SYS,
                            "job '%s': segment %s vanished (%s): did this "
                            "job already start?",
                            s->job, s->name, strerror(errno));
        rc = attach_segment(s, fd, size);
    } else {
        return mc_error(MC_ERR_SYS, "shm_open(%s): %s", s->name,
                        strerror(errno));
    }
    close(fd);
    return rc;
}

static int open_job(const char *job, int rank, int size, mc_tp_t **out)
{
    if (!valid_job(job))
        return mc_error(MC_ERR_ARG,
                        "argument 'job' (\"%.40s\") must be 1-%d characters "
                        "of [A-Za-z0-9._-]",
                        job, MC_SHM_JOB_MAX - 1);
    shm_tp_t *s = calloc(1, sizeof *s);
    if (!s)
        return mc_error(MC_ERR_NOMEM, "out of memory opening job '%s'", job);
    snprintf(s->job, sizeof s->job, "%s", job);
    mc_shm_segment_name(job, s->name, sizeof s->name);
    s->timeout = mc_env_double("MC_TIMEOUT");
    s->spin = default_spin(size);
    s->base.ops = &mc_shm_ops;
    s->base.rank = rank;
    s->base.size = size;
    int rc = open_or_create(s, size);
    if (rc == MC_OK) {
        s->hdr = (shm_header_t *)s->map;
        s->regions = s->map + s->hdr->regions_off;
        s->stride = s->hdr->stride;
        s->flags_bytes = round_up(s->hdr->nflags * 8, LINE);
        s->base.mpb_size = s->hdr->mpb_size;
        s->base.line = LINE;
        s->base.nflags = (int)s->hdr->nflags;
        s->base.cache_coherent = 1;
        rc = join(s, rank, size);
    }
    if (rc != MC_OK) {
        shm_unlink(s->name); /* a failed job must not leave its segment */
        if (s->map) {
            release(s);
            munmap(s->map, s->map_len);
        }
        free(s);
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

int mc_shm_open(const char *job, int rank, int size, mc_tp_t **out)
{
    MC_CHECK(open_job(job, rank, size, out));
    int rc = mc_hwtopo_world(*out); /* MC_BIND: where the ranks are */
    if (rc != MC_OK)
        mc_shm_destroy(*out);
    return rc;
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
    int len = snprintf(job, sizeof job, "%s.%llx", s->job,
                       (unsigned long long)id);
    if (len >= MC_SHM_JOB_MAX)
        return mc_error(MC_ERR_ARG,
                        "mc_comm_split: communicators nested too deeply "
                        "(job name '%s' too long)",
                        s->job);
    MC_CHECK(open_job(job, myrank, n, out));
    int rc = mc_hwtopo_sub(*out, t, members);
    if (rc != MC_OK)
        mc_shm_destroy(*out);
    return rc;
}

void mc_shm_cleanup_job(const char *job)
{
    char name[MC_SHM_JOB_MAX + 48];
    if (mc_shm_segment_name(job, name, sizeof name) != MC_OK)
        return;
    shm_unlink(name);
    /* communicators split from the job: <name>.<id>... */
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    size_t plen = strlen(name + 1);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, name + 1, plen) == 0 &&
            e->d_name[plen] == '.') {
            char full[512];
            snprintf(full, sizeof full, "/%s", e->d_name);
            shm_unlink(full);
        }
    }
    closedir(d);
}
