/*
 * The MPB bytes of a domain, stored block-major: block k (bytes
 * k*B .. k*B+B-1 of an MPB, B = MC_SIM_MPB_BLOCK) of every rank side by
 * side, so that what all ranks touch at the same offsets shares pages:
 *
 *             rank 0      rank 1      rank 2   ...  rank n-1
 *   block 0   [0, B)      [0, B)      [0, B)        [0, B)     <- n*B bytes
 *   block 1   [B, 2B)     [B, 2B)     [B, 2B)       [B, 2B)
 *   ...
 *
 * A million cores that each receive 8 bytes at the start of their MPB
 * touch n*B bytes (256 MiB) rather than a page each (4 GiB, with a page
 * fault and a cleared page per core). A range of one MPB is copied block
 * by block; an operation between two MPB ranges, or a reduction, goes
 * through the domain's two scratch buffers (the engine runs one core at a
 * time, and no copy yields). Where a rank's MPB sits in host memory is
 * invisible to the simulation: costs and coherence states are keyed by
 * (rank, offset).
 */
#include <string.h>

#include "sim/engine_impl.h"

/* where byte `off` of the MPB of `rank` is stored */
static unsigned char *at(const mc_sim_domain_t *d, int rank, size_t off)
{
    size_t blk = off / MC_SIM_MPB_BLOCK;
    return d->mpb + (blk * (size_t)d->n + (size_t)rank) * MC_SIM_MPB_BLOCK +
           off % MC_SIM_MPB_BLOCK;
}

/* bytes from off to the end of its block, at most n */
static size_t piece(size_t off, size_t n)
{
    size_t left = MC_SIM_MPB_BLOCK - off % MC_SIM_MPB_BLOCK;
    return left < n ? left : n;
}

void mc_sim_mpb_read(const mc_sim_domain_t *d, int rank, size_t off,
                     void *dst, size_t n)
{
    unsigned char *p = dst;
    for (size_t k; n; off += k, p += k, n -= k) {
        k = piece(off, n);
        memmove(p, at(d, rank, off), k);
    }
}

void mc_sim_mpb_write(mc_sim_domain_t *d, int rank, size_t off,
                      const void *src, size_t n)
{
    const unsigned char *p = src;
    for (size_t k; n; off += k, p += k, n -= k) {
        k = piece(off, n);
        memmove(at(d, rank, off), p, k);
    }
}

void mc_sim_mpb_move(mc_sim_domain_t *d, int dst, size_t dst_off, int src,
                     size_t src_off, size_t n)
{
    mc_sim_mpb_read(d, src, src_off, d->mpb_scratch, n);
    mc_sim_mpb_write(d, dst, dst_off, d->mpb_scratch, n);
}

unsigned char *mc_sim_mpb_scratch(mc_sim_domain_t *d, int which)
{
    return d->mpb_scratch + (which ? d->mpb_bytes : 0);
}
