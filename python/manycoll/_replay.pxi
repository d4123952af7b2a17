# manycoll replay as data (included by _core.pyx): one C call
# (src/replay/data.h) that replays an OTF2 archive on a simulated chip and
# fills the rows `manycoll replay --json` prints. The GIL is released
# while it runs.

cdef extern from "replay/data.h" nogil:
    ctypedef struct mc_rp_spec_t:
        const char *archive
        const char *platform
        const char *map
        int ranks
        double compute_scale
        const char *const *algos
        int nalgos
        int best
    ctypedef struct mc_rp_row_t:
        int kind
        char comm[96]
        char coll[32]
        char algo[160]
        unsigned long long size_class, bytes, calls
        double sim_us, measured_us
        char best[160]
        double best_us, gain
        int ranks
        double run_sim_us, comm_share, unreplayed_us, wall_s
        int recorded_ranks, derived
        unsigned long long events
        char platform[64]
        char archive[1024]
    int MC_RP_ROW_SITE, MC_RP_ROW_SUBTOTAL, MC_RP_ROW_TOTAL
    int mc_rp_data(const mc_rp_spec_t *s, mc_rp_row_t **rows, int *nrows)


cdef dict _rp_row(const mc_rp_row_t *w):
    if w.kind == MC_RP_ROW_TOTAL:
        return {"coll": "total", "calls": w.calls, "bytes": w.bytes,
                "sim_us": _fix(w.sim_us, 4),
                "measured_us": _fix(w.measured_us, 4),
                "run_sim_us": _fix(w.run_sim_us, 4),
                "comm_share": _fix(w.comm_share, 4),
                "unreplayed_us": _fix(w.unreplayed_us, 4),
                "ranks": w.ranks, "recorded_ranks": w.recorded_ranks,
                "platform": _s(w.platform), "wall_s": _fix(w.wall_s, 3),
                "events": w.events}
    d = {"comm": _s(w.comm), "coll": _s(w.coll),
         "size_class": w.size_class, "bytes": w.bytes, "calls": w.calls,
         "ranks": w.ranks, "algo": _s(w.algo), "sim_us": _fix(w.sim_us, 4),
         "measured_us": _fix(w.measured_us, 4)}
    if w.best[0]:
        d.update(best=_s(w.best), best_us=_fix(w.best_us, 4),
                 gain=_fix(w.gain, 4))
    return d


def replay_data(archive, platform, map=None, ranks=0, compute_scale=1.0,
                algos=(), best=False):
    """The replay's rows as `manycoll replay --json` gives them (sites,
    then the total); raises the library's error. manycoll.replay is the
    documented front."""
    ba, bp, bm = _b(archive), _b(platform), _b(map)
    balgos = [_b(a) for a in algos]
    cdef mc_rp_spec_t s
    memset(&s, 0, sizeof(s))
    cdef int n = len(balgos), nrows = 0, i, rc
    cdef const char **av = <const char **>malloc((n + 1) * sizeof(char *))
    cdef mc_rp_row_t *rows = NULL
    if av == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            av[i] = <const char *>balgos[i]
        s.archive = ba
        s.platform = bp
        s.map = NULL if bm is None else <const char *>bm
        s.ranks = ranks
        s.compute_scale = compute_scale
        s.algos = av
        s.nalgos = n
        s.best = 1 if best else 0
        with nogil:
            rc = mc_rp_data(&s, &rows, &nrows)
        if rc:
            _raise(rc)
        return [_rp_row(&rows[i]) for i in range(nrows)
                if rows[i].kind != MC_RP_ROW_SUBTOTAL]
    finally:
        free(av)
        free(rows)
