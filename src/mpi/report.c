/*
 * What the user sees: errors through the communicator's error handler,
 * with a message naming the rank and the cause, and the MC_MPI_VERBOSE
 * report of where each communicator's collectives went and, of those
 * manycoll took, which algorithm ran at which sizes and why.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mpi/mcmpi.h"


int mcm_errcode = MPI_ERR_OTHER; /* ours once MPI_Init has run */

static void comm_name(const mcm_comm_t *s, char *buf, size_t len)
{
    char name[MPI_MAX_OBJECT_NAME] = "";
    int n = 0;
    PMPI_Comm_get_name(s->comm, name, &n);
    snprintf(buf, len, "%s", n > 0 ? name : "a communicator");
}

int mcm_fail(mcm_comm_t *s, const char *fn, int rc, const char *detail)
{
    char msg[MPI_MAX_ERROR_STRING], name[MPI_MAX_OBJECT_NAME + 16];
    comm_name(s, name, sizeof name);
    snprintf(msg, sizeof msg, "manycoll: rank %d of %s (%d ranks): %s: %s: %s",
             s->topo->rank, name, s->topo->size, fn, mc_strerror(rc),
             detail && *detail ? detail : mc_last_error());
    if (mcm_errcode != MPI_ERR_OTHER)
        PMPI_Add_error_string(mcm_errcode, msg);
    /* a fatal handler may print only the error class: say it here too */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    PMPI_Comm_get_errhandler(s->comm, &eh);
    int setup = !strcmp(fn, "communicator setup");
    if (eh == MPI_ERRORS_ARE_FATAL || mcm_cfg.verbose || setup)
        fprintf(stderr, "%s%s\n", msg,
                setup ? " (its collectives go to MPI)" : "");
    if (eh != MPI_ERRHANDLER_NULL)
        PMPI_Errhandler_free(&eh);
    PMPI_Comm_call_errhandler(s->comm, mcm_errcode);
    return mcm_errcode;
}

static const char *path_name(const mcm_comm_t *s)
{
    switch (s->path) {
    case MCM_FLAT: return "manycoll";
    case MCM_HIER: return "hierarchical: manycoll in nodes, MPI between";
    default: return "MPI";
    }
}

/* what manycoll runs for coll on s (in each node, hierarchically), rule
 * by rule: " ran: A to N B; B" and, for a rule whose algorithm cannot
 * serve here, why its fallback runs; a line of its own, after the
 * collective's */
static int ran(const mcm_comm_t *s, int coll, char *line, int n, int len)
{
    const char *name = mc_coll_info((mc_coll_t)coll)->name;
    size_t b = 0, upto = 0;
    n += snprintf(line + n, (size_t)(len - n), "\n    ran%s:",
                  s->path == MCM_HIER ? " in each node" : "");
    for (int i = 0; i < 8 && n < len; i++, b = upto + 1) {
        char algo[160], why[400];
        if (mc_comm_get_algo(s->node, name, b, MC_SUM, algo, sizeof algo,
                             why, sizeof why, &upto) != MC_OK)
            break;
        n += snprintf(line + n, (size_t)(len - n), "%s %s", i ? ";" : "",
                      algo);
        const char *fb = strstr(why, "fallback of ");
        if (fb && n < len) /* not the rule's origin: it says itself */
            n += snprintf(line + n, (size_t)(len - n), " (%s)", fb);
        if (upto == SIZE_MAX || n >= len)
            break;
        n += snprintf(line + n, (size_t)(len - n), " to %zu B", upto);
    }
    return n;
}

/* the lines of collective c's forms, at line + n; the new length */
static int report_forms(const mcm_comm_t *s, int c, char *line, int n,
                        size_t len)
{
    for (int f = 0; f < MCM_FORMS && n < (int)len; f++) {
        const mcm_stat_t *x = &s->stat[c][f];
        long mc = x->n[MCM_FLAT] + x->n[MCM_HIER], pmpi = x->n[MCM_PMPI];
        char form[64];
        if (!mc && !pmpi)
            continue;
        n += snprintf(line + n, len - (size_t)n,
                      "\n  %-25s %8ld manycoll %8ld MPI%s%s",
                      mcm_form_name(c, f, form, sizeof form), mc, pmpi,
                      pmpi && x->why ? "  (last: " : "",
                      pmpi && x->why ? x->why : "");
        if (pmpi && x->why && n < (int)len)
            n += snprintf(line + n, len - (size_t)n, ")");
    }
    return n;
}

void mcm_report(const mcm_comm_t *s)
{
    const mcm_topo_t *t = s->topo;
    /* rank 0 speaks for the communicator (every rank is rank 0 of
     * MPI_COMM_SELF: those only at level 2) */
    if (!t || ((t->rank != 0 || t->size < 2) && mcm_cfg.verbose < 2))
        return;
    long any = 0;
    for (int c = 0; c < MC_COLL_COUNT; c++)
        for (int f = 0; f < MCM_FORMS; f++)
            for (int p = 0; p < 3; p++)
                any += s->stat[c][f].n[p];
    if (!any)
        return;
    char name[MPI_MAX_OBJECT_NAME + 16], line[8192]; /* 48 lines */
    comm_name(s, name, sizeof name);
    int n = snprintf(line, sizeof line, "manycoll_mpi: rank %d: %s, %d "
                     "ranks", t->rank, name, t->size);
    if (t->nnodes > 1)
        n += snprintf(line + n, sizeof line - (size_t)n, ", %d nodes%s",
                      t->nnodes, t->uniform ? "" : " (uneven)");
    n += snprintf(line + n, sizeof line - (size_t)n, ": %s%s%s",
                  path_name(s), s->path == MCM_PMPI && t->why ? " - " : "",
                  s->path == MCM_PMPI && t->why ? t->why : "");
    /* a line per collective and form: "allreduce", "iallreduce",
     * "allreduce_init" (bench/mpich_coll_tests.py sums the lines), then
     * what manycoll ran for the collective */
    for (int c = 0; c < MC_COLL_COUNT && n < (int)sizeof line; c++) {
        n = report_forms(s, c, line, n, sizeof line);
        if (s->stat[c][MCM_BLOCKING].n[MCM_PMPI] ||
            s->stat[c][MCM_BLOCKING].n[MCM_HIER])
            n = mcm_pick_report(s, c, line, n, sizeof line);
        long mc = 0;
        for (int f = 0; f < MCM_FORMS; f++)
            mc += s->stat[c][f].n[MCM_FLAT] + s->stat[c][f].n[MCM_HIER];
        if (mc && s->node && n < (int)sizeof line)
            n = ran(s, c, line, n, (int)sizeof line);
    }
    fprintf(stderr, "%s\n", line);
}
