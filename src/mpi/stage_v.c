/*
 * The blocks of MPI_Allgatherv, MPI_Alltoallv, MPI_Gatherv and
 * MPI_Scatterv as manycoll takes them: bytes. A side of such a call is n
 * blocks, block i being cnt[i] elements of dt at buf + dsp[i] * extent.
 * MPI requires only the type signatures of matching blocks to agree, so
 * one rank may use MPI_INT where another uses a vector with gaps: every
 * rank hands manycoll cnt[i] * size bytes per block, the same numbers on
 * every rank, laid out in one of two ways chosen by this rank alone:
 *
 *   contiguous dt (size == extent == true extent, predefined types among
 *   them): the user's buffer itself, from the lowest displacement used
 *   (MPI allows negative ones), bd[i] = (dsp[i] - lowest) * size;
 *
 *   anything else: the blocks back to back in scratch, bd[i] the running
 *   sum of bc[], each block packed (PMPI_Pack) before the call where it
 *   is an input and unpacked (PMPI_Unpack) after it where it is an output.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "mpi/mcmpi.h"

size_t *mcm_varrays(mcm_comm_t *s)
{
    if (!s->v)
        s->v = malloc(4 * (size_t)s->topo->size * sizeof *s->v);
    return s->v;
}

/* the user's buffer, from the lowest displacement of a non-empty block */
static void in_place(mcm_vbuf_t *v, MPI_Aint at, size_t size)
{
    long long lo = 0;
    int any = 0;
    for (int i = 0; i < v->n; i++)
        if (v->cnt[i] && (!any || v->dsp[i] < lo)) {
            lo = v->dsp[i];
            any = 1;
        }
    for (int i = 0; i < v->n; i++)
        v->bd[i] = v->cnt[i] ? (size_t)(v->dsp[i] - lo) * size : 0;
    /* integer arithmetic: MPI_BOTTOM with absolute displacements is NULL */
    v->p = (char *)((uintptr_t)v->user + (uintptr_t)at +
                    (uintptr_t)(lo * (long long)size));
}

static char *block_at(const mcm_vbuf_t *v, int i)
{
    return (char *)((uintptr_t)v->user +
                    (uintptr_t)((MPI_Aint)v->dsp[i] * v->extent));
}

static int pack(mcm_comm_t *s, const mcm_vbuf_t *v, int i)
{
    int pos = 0;
    if (!v->cnt[i])
        return MPI_SUCCESS;
    int rc = PMPI_Pack(block_at(v, i), v->cnt[i], v->dt, v->p + v->bd[i],
                       (int)v->bc[i], &pos, s->comm);
    if (rc == MPI_SUCCESS && (size_t)pos != v->bc[i])
        rc = MPI_ERR_INTERN; /* packed form is not the plain bytes */
    return rc;
}

int mcm_vstage(mcm_comm_t *s, mcm_vbuf_t *v, void *buf, const int *cnt,
               const int *dsp, MPI_Datatype dt, int input, int slot,
               size_t *arrays)
{
    int n = s->topo->size;
    long long size = mcm_type_size(dt);
    *v = (mcm_vbuf_t){.user = buf, .cnt = cnt, .dsp = dsp, .dt = dt,
                      .n = n, .bc = arrays, .bd = arrays + n};
    if (size < 0)
        return MPI_ERR_TYPE;
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        v->bc[i] = (size_t)cnt[i] * (size_t)size;
        v->bd[i] = total;
        total += v->bc[i];
        if (v->bc[i] > INT_MAX)
            return MPI_ERR_COUNT; /* MPI_Pack takes an int size */
    }
    MPI_Aint at = mcm_contiguous_at(dt, 2, size), lb;
    if (at >= 0) {
        in_place(v, at, (size_t)size);
        return MPI_SUCCESS;
    }
    if (PMPI_Type_get_extent(dt, &lb, &v->extent) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if (!(v->p = mcm_scratch(s, total ? total : 1, slot)))
        return MPI_ERR_NO_MEM;
    /* a request's (slot < 0): its own datatype, as in mcm_stage; freed
     * with v->p by mcm_nb_drop */
    if (slot < 0 && PMPI_Type_dup(dt, &v->dt) != MPI_SUCCESS) {
        free(v->p);
        v->p = NULL;
        return MPI_ERR_TYPE;
    }
    v->packed = 1;
    return mcm_vpack(s, v, input);
}

int mcm_vpack(mcm_comm_t *s, const mcm_vbuf_t *v, int input)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < v->n && rc == MPI_SUCCESS && v->packed; i++)
        if (input == MCM_V_ALL || input == i)
            rc = pack(s, v, i);
    return rc;
}

int mcm_vunstage(mcm_comm_t *s, const mcm_vbuf_t *v)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < v->n && rc == MPI_SUCCESS && v->packed; i++) {
        int pos = 0;
        if (v->cnt[i])
            rc = PMPI_Unpack(v->p + v->bd[i], (int)v->bc[i], &pos,
                             block_at(v, i), v->cnt[i], v->dt, s->comm);
    }
    return rc;
}
