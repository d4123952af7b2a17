/*
 * comm_churn: many communicators, many datatypes, the collectives on each,
 * through libmanycoll_mpi (MPI_X) and through the MPI alone (PMPI_X),
 * interleaved in the same processes. Shared between comm_churn.c (the
 * communicators, the timing, the report) and comm_churn_types.c (the
 * datatypes, the buffers, the calls and their checks).
 */
#ifndef COMM_CHURN_H
#define COMM_CHURN_H

#include <stddef.h>

#include <mpi.h>

/* the two sides: "mpi" calls PMPI_X (no library state is ever made),
 * "lib" calls MPI_X (the library's when it is preloaded) */
enum { SIDE_MPI = 0, SIDE_LIB = 1, SIDES };

typedef struct side {
    const char *name;
    /* each with the type of its MPI function */
    __typeof__(&PMPI_Comm_dup) comm_dup;
    __typeof__(&PMPI_Comm_split) comm_split;
    __typeof__(&PMPI_Comm_split_type) comm_split_type;
    __typeof__(&PMPI_Comm_create) comm_create;
    __typeof__(&PMPI_Comm_free) comm_free;
    __typeof__(&PMPI_Type_contiguous) type_contiguous;
    __typeof__(&PMPI_Type_vector) type_vector;
    __typeof__(&PMPI_Type_create_struct) type_create_struct;
    __typeof__(&PMPI_Type_create_resized) type_create_resized;
    __typeof__(&PMPI_Type_commit) type_commit;
    __typeof__(&PMPI_Type_free) type_free;
    __typeof__(&PMPI_Barrier) barrier;
    __typeof__(&PMPI_Bcast) bcast;
    __typeof__(&PMPI_Reduce) reduce;
    __typeof__(&PMPI_Allreduce) allreduce;
    __typeof__(&PMPI_Gather) gather;
    __typeof__(&PMPI_Scatter) scatter;
    __typeof__(&PMPI_Allgather) allgather;
    __typeof__(&PMPI_Alltoall) alltoall;
} side_t;

extern const side_t churn_sides[SIDES];

/* the datatypes, in the report's order */
enum { T_INT, T_DOUBLE, T_CONTIG, T_VECTOR, T_STRUCT, T_RESIZED, NTYPES };

/* a datatype as the checks see it: extent bytes per element, fields
 * (an int or a double at an offset) and gaps between them */
typedef struct ctype {
    const char *name;
    MPI_Datatype dt;       /* made by the side (or predefined) */
    int extent, nf;
    int off[2], dbl[2];    /* fields: offset, 1 if a double */
    int reduces;           /* MPI_SUM is defined on it */
} ctype_t;

extern const char *const churn_type_names[NTYPES];

/* makes (and commits) the derived types with side f's functions; 0 or an
 * MPI error code */
int churn_types_make(const side_t *f, ctype_t t[NTYPES]);
void churn_types_free(const side_t *f, ctype_t t[NTYPES]);

/* buffers big enough for every call up to max_count elements of every
 * type at P ranks; 0 or -1 */
int churn_buffers(size_t max_count, int P);
void churn_buffers_free(void);

/* One round of the collectives (bcast, reduce, allreduce, gather,
 * scatter, allgather, alltoall, barrier) of count elements of type t on
 * comm with side f's functions, each result checked; adds the time in the
 * calls (seconds) to *t_calls. 0, or 1 with msg set. */
int churn_round(const side_t *f, const ctype_t *t, int count, MPI_Comm comm,
                double *t_calls, char *msg, size_t len);

double churn_now(void);

#endif
