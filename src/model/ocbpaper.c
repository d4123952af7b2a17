/*
 * Table 2 of the OC-Bcast paper (Petrovic et al., section 5; ocbmodel.h):
 * the paper's peak throughputs next to formulas (15), (16) and our models,
 * row by row. `manycoll model --table2` prints it (docs/papers/ocbcast.md).
 */
#include "model/ocbmodel.h"
#include "util/error.h"

static const struct {
    const char *name;
    int k;    /* 0: scatter-allgather */
    int overlap; /* scatter-allgather, overlapped ring (model only) */
    double paper;
} table2[MC_OCB_T2_ROWS] = {{"ocbcast:k=2", 2, 0, 35.22},
                            {"ocbcast:k=7", 7, 0, 34.30},
                            {"ocbcast:k=47", 47, 0, 35.88},
                            {"scatter-allgather", 0, 0, 13.38},
                            {"scatter-allgather:overlap=1", 0, 1, 13.38}};

/* row i's model throughput in `mode`: OC-Bcast's peak, or the step by
 * step scatter-allgather on a message of msg bytes */
static int t2_model(const mc_platform_t *p, int ranks, int i,
                    mc_ocb_mode_t mode, size_t msg, double *out)
{
    int k = table2[i].k;
    mc_ocb_cfg_t c = {.alg = k ? MC_OCB_OCBCAST : MC_OCB_SAG, .mode = mode,
                      .ranks = ranks, .k = k, .sag_overlap = table2[i].overlap};
    if (k)
        return mc_ocb_ocbcast_peak(p, &c, out, NULL);
    mc_ocb_result_t r;
    MC_CHECK(mc_ocb_bcast(p, &c, msg, &r));
    *out = r.bw_MBps;
    return MC_OK;
}

/* row i of the table, for chunks of M lines */
static int t2_row(const mc_platform_t *p, int ranks, long M, int i,
                  mc_ocb_t2row_t *r)
{
    size_t msg = (size_t)ranks * (size_t)M * (size_t)p->line;
    int k = table2[i].k;
    r->name = table2[i].name;
    r->paper = table2[i].paper;
    r->overlap = table2[i].overlap;
    r->lines = k ? mc_ocb_f15_lines(p) : mc_ocb_f16_lines(p);
    r->exact = k ? mc_ocb_f15(p, M) : mc_ocb_f16(p, ranks, M);
    MC_CHECK(t2_model(p, ranks, i, MC_OCB_PAPER, msg, &r->model_d1));
    MC_CHECK(t2_model(p, ranks, i, MC_OCB_LAYOUT, msg, &r->model_layout));
    r->ours = k || table2[i].overlap ? r->model_d1 : r->exact;
    return MC_OK;
}

int mc_ocb_table2(const mc_platform_t *p, int ranks,
                  mc_ocb_t2row_t rows[MC_OCB_T2_ROWS], long *M)
{
    mc_ocb_cfg_t c = {.ranks = ranks};
    MC_CHECK(mc_ocb_resolve(p, &c));
    if (ranks < 2)
        return mc_error(MC_ERR_ARG, "Table 2 needs 2 ranks or more");
    *M = (long)(c.chunk / (size_t)p->line);
    for (int i = 0; i < MC_OCB_T2_ROWS; i++)
        MC_CHECK(t2_row(p, ranks, *M, i, &rows[i]));
    return MC_OK;
}
