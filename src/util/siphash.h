/*
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed hash whose outputs
 * cannot be predicted without the key, even by someone who has seen other
 * outputs. manycoll derives the names of split communicators' segments
 * from a secret of the job with it (src/tp/shm_name.c).
 */
#ifndef MC_SIPHASH_H
#define MC_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

uint64_t mc_siphash(const unsigned char key[16], const void *msg, size_t n);

#endif
