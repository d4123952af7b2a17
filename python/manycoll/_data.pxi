# The simulator, the models and the registry as data (included by
# _core.pyx): C calls (tools/data.h) that fill structs from a struct of
# options; the records have the keys and values of the command's --json
# (numbers rounded as it prints them). The GIL is released while the
# simulator or a model runs, so threads may simulate at once.

cdef str _s(const char *c):
    return c.decode("utf-8", "replace")


def _fix(double x, int digits):
    """x as the command prints it with %.<digits>f and JSON reads it"""
    return float("%.*f" % (digits, x))


cdef bytes _b(x):
    return None if x is None else str(x).encode()


def parse_size(s):
    """a message size in bytes: an int, or a string such as "3K", "1M" """
    if not isinstance(s, str):
        return int(s)
    cdef long long v = mc_data_size(s.strip().encode())
    if v < 0:
        raise ArgumentError("sizes: cannot parse '%s'" % s)
    return v


cdef dict _sim_row(const mc_sim_row_t *w):
    d = {"platform": _s(w.platform), "coll": _s(w.coll),
         "algo": _s(w.algo), "ranks": w.ranks, "root": w.root,
         "bytes": w.bytes, "lat_us": _fix(w.lat_us, 4),
         "bw_MBps": _fix(w.bw_MBps, 4),
         "done_min_us": _fix(w.done_min_us, 4),
         "done_max_us": _fix(w.done_max_us, 4),
         "done_stdev_us": _fix(w.done_stdev_us, 4), "events": w.events,
         "events_per_s": int("%.0f" % w.events_per_s), "ops": w.ops,
         "lines": w.lines, "wall_s": _fix(w.wall_s, 3),
         "contention": _s(w.contention), "jitter": w.jitter,
         "check": bool(w.check), "iters": w.iters, "warmup": w.warmup,
         "rank0_avg_us": _fix(w.rank0_avg_us, 4),
         "iter_mean_us": _fix(w.iter_mean_us, 4),
         "iter_var_us2": _fix(w.iter_var_us2, 6), "ran": _s(w.ran),
         "why": _s(w.why), "link_waits": w.link_waits,
         "link_wait_us": _fix(w.link_wait_us, 4),
         "flag_link_waits": w.flag_link_waits,
         "flag_link_wait_us": _fix(w.flag_link_wait_us, 4),
         "port_wait_us": _fix(w.port_wait_us, 4),
         "start_events": w.start_events,
         "start_wall_s": _fix(w.start_wall_s, 6)}
    if w.chips > 1:
        d["host_wait_us"] = _fix(w.host_wait_us, 4)
    if w.grid[0]:
        d["grid"] = _s(w.grid)
    return d


def sim_data(platform, coll, algo=None, sizes=(), ranks=0, root=0,
             contention=None, jitter=None, iters=1, dtype=None, op=None,
             check=False):
    """Simulates `coll` on `platform` once per size (bytes); returns
    (rows, status, message, bad_args): the rows done, and on a failure
    the library's status and message; bad_args when the options are
    wrong (nothing ran). manycoll.sim.run is the documented front."""
    bp, bc, ba = _b(platform), _b(coll), _b(algo)
    bd, bo, bn = _b(dtype), _b(op), _b(contention)
    cdef mc_sim_spec_t s
    memset(&s, 0, sizeof(s))
    cdef int n = len(sizes), nrows = -1, i, rc
    cdef size_t *sz = <size_t *>malloc((n if n else 1) * sizeof(size_t))
    cdef mc_sim_row_t *rows = <mc_sim_row_t *>malloc(
        (n if n else 1) * sizeof(mc_sim_row_t))
    if sz == NULL or rows == NULL:
        free(sz)
        free(rows)
        raise MemoryError()
    try:
        for i in range(n):
            sz[i] = sizes[i]
        s.platform = bp
        s.coll = bc
        s.algo = NULL if ba is None else <const char *>ba
        s.dtype = NULL if bd is None else <const char *>bd
        s.op = NULL if bo is None else <const char *>bo
        s.contention = NULL if bn is None else <const char *>bn
        s.sizes = sz
        s.nsizes = n
        s.ranks = ranks
        s.root = root
        s.iters = iters
        s.check = 1 if check else 0
        s.jitter = -1 if jitter is None else jitter
        with nogil:
            rc = mc_sim_data(&s, rows, &nrows)
        out = [_sim_row(&rows[i]) for i in range(max(nrows, 0))]
        msg = _s(mc_last_error()) if rc else ""
        return out, rc, msg, nrows < 0
    finally:
        free(sz)
        free(rows)


cdef const char *_c(bytes b):
    return NULL if b is None else <const char *>b


cdef dict _ocb_row(const mc_ocb_row_t *w):
    d = {"platform": _s(w.platform), "coll": "bcast", "algo": _s(w.algo),
         "ranks": w.ranks, "root": w.root, "bytes": w.bytes,
         "lat_us": _fix(w.lat_us, 4), "bw_MBps": _fix(w.bw_MBps, 4),
         "done_min_us": _fix(w.done_min_us, 4),
         "done_max_us": _fix(w.done_max_us, 4),
         "done_stdev_us": _fix(w.done_stdev_us, 4), "events": 0,
         "events_per_s": 0, "source": "model", "mode": _s(w.mode)}
    if w.peak_MBps > 0:
        d["peak_MBps"] = _fix(w.peak_MBps, 4)
    return d


def ocb_data(platform, coll, algo, sizes=None, ranks=0, root=0,
             layout=False):
    """The OC-Bcast paper's model of a broadcast on `platform` per size;
    returns (rows, status, message, bad_args) as sim_data.
    manycoll.model.predict is the documented front."""
    bp, bc, ba, bs = _b(platform), _b(coll), _b(algo), _b(sizes)
    cdef mc_ocb_spec_t s
    cdef mc_ocb_row_t *rows = NULL
    cdef int nrows = -1, rc, i
    memset(&s, 0, sizeof(s))
    s.platform = _c(bp)
    s.coll = _c(bc)
    s.algo = _c(ba)
    s.sizes = _c(bs)
    s.ranks = ranks
    s.root = root
    s.layout = 1 if layout else 0
    try:
        with nogil:
            rc = mc_ocb_data(&s, &rows, &nrows)
        out = [_ocb_row(&rows[i]) for i in range(max(nrows, 0))]
        return out, rc, _s(mc_last_error()) if rc else "", nrows < 0
    finally:
        free(rows)


cdef dict _cc_row(const mc_cc_row_t *w):
    d = {"coll": _s(w.coll), "ranks": w.ranks}
    if w.kind == MC_CC_MROUNDS:
        d["m"] = w.m
        d["rounds"] = w.rounds
    elif w.kind == MC_CC_LINES:
        t = "%g" % w.lines  # as the command prints it: 128, or 0.5
        d["lines"] = int(t) if t.lstrip("-").isdigit() else float(t)
    elif w.kind == MC_CC_CHILDREN:
        d["children"] = w.children
    else:
        d["d"] = w.d
        d["k"] = [w.k[i] for i in range(w.d)]
    d["min_ns"] = _fix(w.min_ns, 3)
    d["max_ns"] = _fix(w.max_ns, 3)
    if w.ties >= 0:
        d["ties"] = w.ties
    return d


_CC_OPTIONS = ("k", "m", "lines", "state", "contention", "reduce_copy",
               "rounds", "order", "c", "dmax")


def cc_data(profile, coll, ranks, optimize=False, **params):
    """The cache-coherence models on calibration profile `profile`:
    predict (optimize False) or the optimiser, per rank count; params:
    the command's variant options by name (k="4,4,3", state="E", ...).
    Returns (rows, status, message, bad_args) as sim_data."""
    for k in params:
        if k not in _CC_OPTIONS:
            raise ArgumentError("unknown option '--%s'"
                                % k.replace("_", "-"))
    b = {k: _b(v) for k, v in params.items()}
    bp, bc, br = _b(profile), _b(coll), _b(ranks)
    cdef mc_cc_spec_t s
    cdef mc_cc_row_t *rows = NULL
    cdef int nrows = -1, rc, i
    memset(&s, 0, sizeof(s))
    s.profile = _c(bp)
    s.coll = _c(bc)
    s.ranks = _c(br)
    s.optimize = 1 if optimize else 0
    s.k = _c(b.get("k"))
    s.m = _c(b.get("m"))
    s.lines = _c(b.get("lines"))
    s.state = _c(b.get("state"))
    s.contention = _c(b.get("contention"))
    s.reduce_copy = _c(b.get("reduce_copy"))
    s.rounds = _c(b.get("rounds"))
    s.order = _c(b.get("order"))
    s.c = _c(b.get("c"))
    s.dmax = _c(b.get("dmax"))
    try:
        with nogil:
            rc = mc_cc_data(&s, &rows, &nrows)
        out = [_cc_row(&rows[i]) for i in range(max(nrows, 0))]
        return out, rc, _s(mc_last_error()) if rc else "", nrows < 0
    finally:
        free(rows)


def algo_table():
    """The registry's algorithms as the records of `manycoll info --json`
    (coll, algo, desc, commutative_only, single_copy, params, variants,
    fallback, declines)."""
    cdef mc_algo_row_t r
    cdef mc_param_row_t p
    cdef int i = 0, j
    out = []
    while mc_algo_data(i, &r) == MC_OK:
        params = []
        for j in range(r.nparams):
            if mc_algo_param_data(i, j, &p) != MC_OK:
                _raise(MC_ERR_INTERNAL)
            params.append({"name": _s(p.name), "default": p.def_,
                           "min": p.min, "max": p.max, "help": _s(p.help)})
        out.append({
            "coll": _s(r.coll), "algo": _s(r.algo), "desc": _s(r.desc),
            "commutative_only": bool(r.commutative_only),
            "single_copy": bool(r.single_copy), "params": params,
            "variants": [_s(r.variants[j]) for j in range(r.nvariants)],
            "fallback": None if r.fallback == NULL else _s(r.fallback),
            "declines": None if r.declines == NULL else _s(r.declines)})
        i += 1
    return out
