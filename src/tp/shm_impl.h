/* Private to the shm transport: segment layout and the transport state. */
#ifndef MC_SHM_IMPL_H
#define MC_SHM_IMPL_H

#include <pthread.h>
#include <stdatomic.h>

#include "ops/ops.h"
#include "tp/shm.h"
#include "util/error.h"

#define SHM_MAGIC 0x6c6c6f63796e616dULL /* "manycoll" */
#define SHM_VERSION 2
#define PAGE 4096
#define LINE 64

enum { ST_FREE = 0, ST_JOINING, ST_JOINED, ST_FINALIZED };

typedef struct shm_rankinfo {
    pthread_mutex_t alive; /* held by the rank while it is a member */
    _Atomic int state;
    _Atomic int dead;
    int pid;
    uint64_t probe_addr; /* a word of known value, for the single-copy probe */
    _Atomic int single_copy; /* 0 not probed yet, 1 it can read its peer's
                                memory, -1 it cannot */
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
    _Atomic int attached;
    shm_rankinfo_t info[];
} shm_header_t;

typedef struct shm_tp {
    mc_tp_t base;
    char job[MC_SHM_JOB_MAX];
    char name[MC_SHM_JOB_MAX + 48];
    unsigned char *map;
    size_t map_len;
    shm_header_t *hdr;
    unsigned char *regions;
    size_t stride;
    size_t flags_bytes;
    long spin;
    double timeout;
    int holding_lock;
    struct shm_tp *next_open; /* list of this process's open segments */
} shm_tp_t;

extern const mc_tp_ops_t mc_shm_ops;

int mc_shm_check_peers(shm_tp_t *s);
int mc_shm_sub(mc_tp_t *t, const int *members, int n, int myrank,
               uint64_t id, mc_tp_t **out);
void mc_shm_destroy(mc_tp_t *t);
/* single copy (shm_direct.c): before joining, after all have joined, and
 * the transport op */
void mc_shm_direct_prepare(shm_tp_t *s);
/* 1 unless MC_SINGLE_COPY=0 or the kernel's policy forbids it (a guess:
 * only the probe of a real job decides) */
int mc_shm_direct_possible(void);
int mc_shm_direct_probe(shm_tp_t *s, double timeout);
int mc_shm_get_direct(mc_tp_t *t, void *dst, int src, uintptr_t addr,
                      size_t n);

#endif
