/*
 * Internals of the collective test cases shared by check.c (inputs, the
 * scalar reference, buffers) and check_verify.c (verification).
 */
#ifndef MC_CHECK_IMPL_H
#define MC_CHECK_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"

#define GUARD 64          /* bytes after each buffer ... */
#define GUARD_BYTE 0xA5   /* ... holding this */
#define POISON_BYTE 0x5A  /* outputs, and inputs not significant */

/* one element of any datatype */
typedef union chk_num {
    uint64_t u;
    int64_t i;
    double f;
} chk_num_t;

int chk_is_float(mc_dtype_t dt);
chk_num_t chk_load(mc_dtype_t dt, const void *p, size_t idx);
/* integers are stored by truncating the two's complement bits */
void chk_store(mc_dtype_t dt, void *p, size_t idx, chk_num_t v);
/* the input element `idx` of contributor `who` */
chk_num_t chk_gen(const mc_case_t *k, uint64_t who, size_t idx);
/* element idx of the reduction of all `size` contributions */
chk_num_t chk_reduced(const mc_case_t *k, int size, size_t idx);
/* contributor ids of alltoall blocks and of the scatter root's input */
uint64_t chk_a2a_who(int src, int dst, int size);
uint64_t chk_scatter_who(int root);
/* Element i of the send buffer as mc_case_fill leaves it: 1 and its
 * value, or 0 where the buffer holds poison (not significant here). */
int chk_send_elem(const mc_case_t *k, int rank, int size, size_t i,
                  chk_num_t *v);

#endif
