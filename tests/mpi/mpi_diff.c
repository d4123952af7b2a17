/*
 * mpi_diff: random differential test of collective results, through
 * libmanycoll_mpi and through the MPI alone (issue 44).
 *
 *   mpirun -n P build/tests/test_mpi_diff_openmpi (or _mpich)
 *          [--cases N] [--seed S] [--max-bytes B] [--list K]
 *          [--side both|lib|mpi]
 *
 * Case c (every rank draws the same from the seed and c): a collective
 * (allreduce, reduce, reduce_scatter_block, scan, exscan, bcast, gather,
 * scatter, allgather, alltoall), a communicator (the world, a dup, the
 * world in reversed order, odd and even ranks), one of 21 predefined
 * types (8- to 64-bit integers, C's named ones, float, double, MPI_2INT,
 * MPI_DOUBLE_INT), an op MPI defines on it (MAXLOC and MINLOC on the
 * pairs), a count (0, every chunk boundary 2^k-1..2^k+1 up to 65,537, or
 * any), a root, MPI_IN_PLACE or not. Each side runs it in turn, side
 * "lib" through MPI_X (the program is linked after libmanycoll_mpi),
 * side "mpi" through PMPI_X, and each rank checks its own result
 * against the reference (mpi_diff_ref.c: integers wrap as C's unsigned
 * arithmetic does; floats are small integers, exact in any order). Printed: wrong results per
 * side, and the first K wrong cases of each. Exit status 1 when the
 * library side has a wrong result. --side runs one side only (Debian's
 * MPICH 4.0.2 alone crashes in MPI_Reduce with MPI_IN_PLACE at a root
 * other than 0 above 2 KiB, which the library side avoids).
 *
 * Under the library, a communicator across "nodes" leaves its first
 * MC_MPI_HIER_AFTER - 1 calls to MPI and the pick sends some calls to
 * MPI's own collective: run with MC_MPI_HIER_AFTER=1 MC_MPI_HIER_PICK=hier
 * to put every call the hierarchy can take on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_diff.h"

static const char *const coll_names[NCOLLS] = {
    "allreduce", "reduce",  "reduce_scatter_block", "scan",
    "exscan",    "bcast",   "gather",  "scatter", "allgather", "alltoall"};

static const char *const comm_names[NCOMMS] = {"world", "dup", "reversed",
                                               "oddeven"};

MPI_Comm diff_comms[NCOMMS];
uint64_t diff_seed = 1;
static size_t max_bytes = 1 << 20;
static int sides = 3; /* bit 0: mpi, bit 1: lib */
unsigned char *sbuf, *rbuf, *want, *tmp;

/* a count: 0, around a power of two up to 2^16, or any up to 70,000 */
static int draw_count(uint64_t x)
{
    int k = (int)((x >> 8) % 17), pick = (int)(x % 8);
    if (pick == 0)
        return 0;
    if (pick == 1)
        return (int)((x >> 20) % 70000);
    return (1 << k) + (int)((x >> 16) % 3) - 1;
}

/* the elements a buffer of the case holds at most, per rank's block */
static int blocks(coll_t c, int P)
{
    return c == C_RSB || c == C_GATHER || c == C_SCATTER ||
                   c == C_ALLGATHER || c == C_ALLTOALL
               ? P
               : 1;
}

static void draw_case(int c, int P, dcase_t *d)
{
    uint64_t x = diff_rand(diff_seed * 0x51ed27ull + (uint64_t)c);
    d->coll = (coll_t)(x % NCOLLS);
    d->comm = (int)((x >> 8) % NCOMMS);
    d->ip = (x >> 12) % 3 == 0;
    d->root = (int)((x >> 16) % 64); /* taken modulo the size at the call */
    for (int i = 0;; i++) {
        uint64_t y = diff_rand(x + (uint64_t)i);
        d->type = (int)(y % NTYPES_D);
        d->op = (op_t)((y >> 8) % NOPS);
        kind_t k = diff_types[d->type].kind;
        if (reduces(d->coll) ? diff_op_valid(d->op, k) : k != K_DOUBLE_INT)
            break;
    }
    d->count = draw_count(diff_rand(x ^ 0xc0417ull));
    size_t per = (size_t)diff_types[d->type].size * (size_t)blocks(d->coll, P);
    while (d->count > 0 && (size_t)d->count * per > max_bytes)
        d->count /= 2;
}

static void describe(int c, const dcase_t *d, char *out, size_t len)
{
    snprintf(out, len, "case %d: %s %s%s%s count %d on %s%s%s", c,
             coll_names[d->coll], diff_types[d->type].name,
             reduces(d->coll) ? " " : "",
             reduces(d->coll) ? diff_op_names[d->op] : "", d->count,
             comm_names[d->comm], d->ip ? ", in place" : "",
             d->coll == C_REDUCE || d->coll == C_BCAST ||
                     d->coll == C_GATHER || d->coll == C_SCATTER
                 ? ", rooted"
                 : "");
}

static int parse(int argc, char **argv, int *cases, int *list)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--side") && v) {
            sides = !strcmp(v, "mpi") ? 1 : !strcmp(v, "lib") ? 2
                    : !strcmp(v, "both") ? 3 : 0;
            if (!sides) {
                fprintf(stderr, "mpi_diff: --side is both, lib or mpi\n");
                return -1;
            }
            i++;
            continue;
        }
        char *end = NULL;
        long long n = v ? strtoll(v, &end, 0) : -1;
        if (!v || !end || *end || n < 0) {
            fprintf(stderr, "mpi_diff: '%s' needs a number\n", a);
            return -1;
        }
        if (!strcmp(a, "--cases"))
            *cases = (int)n;
        else if (!strcmp(a, "--seed"))
            diff_seed = (uint64_t)n;
        else if (!strcmp(a, "--max-bytes") && n >= 64)
            max_bytes = (size_t)n;
        else if (!strcmp(a, "--list"))
            *list = (int)n;
        else {
            fprintf(stderr, "mpi_diff: unknown option '%s'\n", a);
            return -1;
        }
        i++;
    }
    return 0;
}

static void make_comms(int rank, int P)
{
    diff_comms[0] = MPI_COMM_WORLD;
    MPI_Comm_dup(MPI_COMM_WORLD, &diff_comms[1]);
    MPI_Comm_split(MPI_COMM_WORLD, 0, P - 1 - rank, &diff_comms[2]);
    MPI_Comm_split(MPI_COMM_WORLD, P >= 4 ? rank % 2 : 0, rank, &diff_comms[3]);
    for (int i = 0; i < NCOMMS; i++)
        MPI_Comm_set_errhandler(diff_comms[i], MPI_ERRORS_RETURN);
}

/* rank 0 prints the first `list` wrong cases of a side */
static int report(const char *side, const unsigned char *bad, int cases,
                  int P, int list, int ran)
{
    int n = 0;
    if (!ran) {
        printf("%-4s not run\n", side);
        return 0;
    }
    for (int c = 0; c < cases; c++)
        n += bad[c];
    printf("%-4s %d wrong of %d\n", side, n, cases);
    for (int c = 0, shown = 0; c < cases && shown < list; c++)
        if (bad[c]) {
            dcase_t d;
            char s[200];
            draw_case(c, P, &d);
            describe(c, &d, s, sizeof s);
            printf("       %s\n", s);
            shown++;
        }
    return n;
}

int main(int argc, char **argv)
{
    int cases = 300, list = 10, rank, P;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (parse(argc, argv, &cases, &list))
        MPI_Abort(MPI_COMM_WORLD, 2);
    diff_types_init();
    size_t big = max_bytes + 64;
    sbuf = malloc(big), rbuf = malloc(big), want = malloc(big);
    tmp = malloc(big);
    unsigned char *bad = calloc(2 * (size_t)cases + 1, 1);
    if (!sbuf || !rbuf || !want || !tmp || !bad)
        MPI_Abort(MPI_COMM_WORLD, 3);
    make_comms(rank, P);
    for (int c = 0; c < cases; c++) {
        dcase_t d;
        draw_case(c, P, &d);
        for (int k = 0; k < 2; k++) { /* which side first alternates */
            int lib = (c + k) & 1;
            if (sides >> lib & 1)
                bad[lib * cases + c] = (unsigned char)run_case(c, &d, lib);
        }
    }
    PMPI_Allreduce(MPI_IN_PLACE, bad, 2 * cases, MPI_UNSIGNED_CHAR, MPI_MAX,
                   MPI_COMM_WORLD);
    int wrong_lib = 0;
    if (!rank) {
        char v[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(v, &len);
        v[strcspn(v, ",\n")] = 0;
        for (char *t = v; *t; t++)
            *t = *t == '\t' ? ' ' : *t;
        printf("# mpi_diff: %s, %d ranks, %d cases, seed %llu\n", v, P,
               cases, (unsigned long long)diff_seed);
        wrong_lib = report("lib", bad + cases, cases, P, list, sides & 2);
        report("mpi", bad, cases, P, list, sides & 1);
    }
    PMPI_Bcast(&wrong_lib, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 1; i < NCOMMS; i++)
        MPI_Comm_free(&diff_comms[i]);
    free(sbuf), free(rbuf), free(want), free(tmp), free(bad);
    MPI_Finalize();
    return wrong_lib ? 1 : 0;
}
