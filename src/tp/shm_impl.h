/* Private to the shm transport: segment layout and the transport state. */
#ifndef MC_SHM_IMPL_H
#define MC_SHM_IMPL_H

#include <pthread.h>
#include <stdatomic.h>

#include "ops/ops.h"
#include "tp/shm.h"
#include "util/error.h"

#define SHM_MAGIC 0x6c6c6f63796e616dULL  /* "manycoll" */
#define SHM_FAILED 0x6c6961662d636d6dULL /* the creator could not size it */
#define SHM_VERSION 3
#define PAGE 4096
#define LINE 64
#define SHM_MAX_RANKS (1 << 20)
#define SHM_SECRET 16

enum { ST_FREE = 0, ST_JOINING, ST_JOINED, ST_FINALIZED };

typedef struct shm_rankinfo {
    _Atomic int state;
    _Atomic int dead;
    int pid;
    uint64_t probe_addr; /* a word of known value, for the single-copy probe */
    _Atomic int single_copy; /* 0 not probed yet, 1 it can read its peer's
                                memory, -1 it cannot */
    _Atomic uint64_t left_calls; /* collective calls started before leaving
                                    (valid once state is FINALIZED) */
    _Atomic uint64_t failed_call; /* 0, or the call that failed on it */
    int failed_status;
    char failed_msg[180];  /* written before failed_call (release) */
} __attribute__((aligned(128))) shm_rankinfo_t;

typedef struct shm_header {
    _Atomic uint64_t magic; /* written last by the creator (release) */
    uint32_t version;
    uint32_t size;
    uint64_t mpb_size;
    uint64_t nflags;
    uint64_t stride;        /* bytes per rank region */
    uint64_t regions_off;   /* offset of rank 0's region */
    uint64_t total;
    int failed_errno;       /* with magic == SHM_FAILED */
    _Atomic int attached;
    /* random bytes of the creator: only the job's ranks can read them (the
     * segment is 0600 or unnamed), and the names of communicators split
     * from this one derive from them, so nobody else can predict them */
    unsigned char secret[SHM_SECRET];
    shm_rankinfo_t info[];
} shm_header_t;

typedef struct shm_tp {
    mc_tp_t base;
    char job[MC_SHM_JOB_MAX];  /* as named in messages */
    char root[MC_SHM_JOB_MAX]; /* the world's job: prefix of split names */
    char name[MC_SHM_JOB_MAX + 48]; /* "" for an unnamed segment */
    int fd;                    /* holds this rank's liveness lock */
    unsigned char *map;
    size_t map_len;
    shm_header_t *hdr;
    unsigned char *regions;
    size_t stride;
    size_t flags_bytes;
    long spin;
    int procs;       /* processes sharing the CPUs (local_procs) */
    unsigned idle_n; /* progress rounds without progress (shm_idle) */
    double timeout;
    int single_copy_env;       /* MC_SINGLE_COPY */
    int holding_lock;
    int ptracer;               /* this transport declared a ptracer */
    /* while joining a split: the parent and the members' parent ranks,
     * whose deaths end the wait */
    struct shm_tp *parent;
    const int *members;
    struct shm_tp *next_open; /* list of this process's open segments */
} shm_tp_t;

extern const mc_tp_ops_t mc_shm_ops;

/* another library's progress while waiting (mc_set_progress), in shm.c */
extern _Atomic(mc_progress_fn) mc_shm_progress_fn;
extern void *mc_shm_progress_arg;
static inline void mc_shm_progress(void)
{
    /* acquire: pairs with the release in mc_shm_set_progress, so the
     * argument stored before the function is seen with it */
    mc_progress_fn fn =
        atomic_load_explicit(&mc_shm_progress_fn, memory_order_acquire);
    if (fn)
        fn(mc_shm_progress_arg);
}

/* names (shm_name.c) */
int mc_shm_valid_job(const char *job);
int mc_shm_sub_job(const shm_tp_t *parent, uint64_t id, char *job,
                   size_t len);

/* MC_OK if every peer is alive, has not left before my current call and
 * has not failed in it; else an error naming the peer */
int mc_shm_check_peers(shm_tp_t *s);
/* the same for ranks[0..n) of s (all but me if ranks is NULL) */
int mc_shm_check_ranks(shm_tp_t *s, const int *ranks, int n);
/* MC_OK if the liveness lock of rank r is held (by it) */
int mc_shm_lock_held(shm_tp_t *s, int r);
int mc_shm_sub(mc_tp_t *t, const int *members, int n, int myrank,
               uint64_t id, mc_tp_t **out);
void mc_shm_destroy(mc_tp_t *t);
void mc_shm_fail(mc_tp_t *t, uint64_t call, int status, const char *msg);
/* tells `manycoll run` (MC_NOTE_FD) that a peer's process died */
void mc_shm_note_dead(int pid, const char *what);
/* single copy (shm_direct.c): before joining, after all have joined,
 * when leaving, and the transport op */
void mc_shm_direct_prepare(shm_tp_t *s);
/* 1 unless MC_SINGLE_COPY=0 or the kernel's policy forbids it (a guess:
 * only the probe of a real job decides) */
int mc_shm_direct_possible(void);
int mc_shm_direct_probe(shm_tp_t *s, double timeout);
void mc_shm_direct_leave(shm_tp_t *s);
int mc_shm_get_direct(mc_tp_t *t, void *dst, int src, uintptr_t addr,
                      size_t n);
int mc_shm_put_direct(mc_tp_t *t, int dst, uintptr_t addr, const void *src,
                      size_t n);

#endif
