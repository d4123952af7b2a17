/* Shared by test_mpi.c (types, ops, main) and test_mpi_cases.c. */
#ifndef TEST_MPI_H
#define TEST_MPI_H

#include <stddef.h>
#include <stdio.h>

#include <mpi.h>

extern int rank, failures, cases, quick, small;
/* --expect off: the library is loaded but turned off (its MPI_X are the
 * MPI's own, wrong where the MPI is) */
extern int lib_off;

#define FAIL(...)                                                            \
    do {                                                                     \
        if (failures++ < 20) {                                               \
            fprintf(stderr, "FAIL rank %d: ", rank);                         \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, "\n");                                           \
        }                                                                    \
    } while (0)

enum { K_SINT, K_UINT, K_FLOAT, K_BOOL, K_BYTE, K_CHAR, K_PAIR, K_CPLX };
typedef struct tinfo {
    MPI_Datatype dt;
    const char *name;
    int size, kind;
} tinfo_t;
extern tinfo_t types[32];
extern int ntypes;

typedef struct opinfo {
    MPI_Op op;
    const char *name;
} opinfo_t;
extern opinfo_t ops[16];
extern int nops;
extern MPI_Op op_affine, op_isum;

void init_types(void);
void init_ops(void);
void fill(const tinfo_t *t, void *buf, size_t n, int r, int seed);
int valid(const tinfo_t *t, int oi);

/* test_mpi_cases.c: every case on one communicator */
void reductions(MPI_Comm c, size_t count, int all_ops);
void user_ops(MPI_Comm c, size_t count);
/* 8- and 16-bit integer sums and products that wrap, against C */
void narrow_overflow(MPI_Comm c);
void movement(MPI_Comm c, size_t count, int all_roots);
void derived(MPI_Comm c);
/* test_mpi_v.c: the v-variants, n units per block and more */
void vcases(MPI_Comm c, int n, int all_roots);
/* test_mpi_nb.c: non-blocking and persistent calls */
void nbcases(MPI_Comm c);
/* test_mpi_scan.c: scan and exscan */
void scans(MPI_Comm c);

#endif
