# manycoll.Comm: a communicator and its collectives (included by _core.pyx).
#
# Every collective takes its buffers whole: count is the number of elements
# (per rank where MPI says so) and is read from the buffers, the datatype
# from their format. recvbuf=None allocates a numpy array (slower: the
# allocation costs more than a small collective). in_place=True is MPI's
# MPI_IN_PLACE: the buffer passed as sendbuf holds the input and receives
# the result. Every rank must call with matching sizes, dtype, op and root.

cdef class Comm:
    """A manycoll communicator: get one from manycoll.init() (under
    `manycoll run`), Comm.from_mpi(mpi4py_comm), or Comm.create_shm()."""
    cdef mc_comm_t *c
    cdef readonly int rank
    cdef readonly int size
    cdef public object _keep  # what this communicator needs alive

    def __cinit__(self):
        self.c = NULL

    def __dealloc__(self):
        if self.c != NULL:
            mc_comm_free(self.c)
            self.c = NULL

    @staticmethod
    cdef Comm _wrap(mc_comm_t *c):
        cdef Comm o = Comm.__new__(Comm)
        o.c = c
        o.rank = mc_comm_rank(c)
        o.size = mc_comm_size(c)
        return o

    @staticmethod
    def create_shm(str job, int rank, int size):
        """The communicator of `size` processes on this machine that call
        this with the same job name (make one with manycoll.job_name() on
        one rank and share it), each with its own rank. Blocks until all
        have attached."""
        cdef mc_comm_t *c
        cdef bytes j = job.encode()
        cdef const char *jp = j
        with nogil:
            rc = mc_comm_create_shm(jp, rank, size, &c)
        if rc:
            _raise(rc)
        return Comm._wrap(c)

    @staticmethod
    def from_mpi(comm, *, node_local=False):
        """The manycoll communicator of an mpi4py communicator's ranks
        (collective over comm; see manycoll._mpi.from_mpi)."""
        from manycoll._mpi import from_mpi
        return from_mpi(comm, node_local)

    cdef inline mc_comm_t *_c(self) except NULL:
        if self.c == NULL:
            raise ArgumentError("this communicator has been freed")
        return self.c

    def _handle(self):
        """PyCapsule "manycoll.mc_comm_t" of the C communicator, for C
        code in another extension (with manycoll._core._mc_api); valid
        while this object lives."""
        return PyCapsule_New(self._c(), b"manycoll.mc_comm_t", NULL)

    def free(self):
        """Frees the communicator (also done when it is garbage)."""
        if self.c != NULL:
            mc_comm_free(self.c)
            self.c = NULL

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()

    def __repr__(self):
        if self.c == NULL:
            return "<manycoll.Comm freed>"
        return "<manycoll.Comm rank %d of %d>" % (self.rank, self.size)

    def split(self, int color, int key=0):
        """Ranks with the same color form a new communicator ordered by
        (key, rank); color=None gives None. Collective."""
        cdef mc_comm_t *out = NULL
        cdef mc_comm_t *c = self._c()
        with nogil:
            rc = mc_comm_split(c, color, key, &out)
        if rc:
            _raise(rc)
        return None if out == NULL else Comm._wrap(out)

    def set_algo(self, str coll, spec):
        """Forces algorithm `spec` ("name[:k=v,...]", see
        manycoll.algorithms(coll)) for collective `coll` on this
        communicator; spec=None returns to automatic selection."""
        cdef bytes cb = coll.encode()
        cdef bytes sb
        if spec is None:
            rc = mc_comm_set_algo(self._c(), cb, NULL)
        else:
            sb = spec.encode()
            rc = mc_comm_set_algo(self._c(), cb, sb)
        if rc:
            _raise(rc)

    def barrier(self):
        """Returns when every rank has entered the barrier."""
        cdef mc_comm_t *c = self._c()
        with nogil:
            rc = mc_barrier(c)
        if rc:
            _raise(rc)

    def bcast(self, buf, int root=0):
        """Copies root's buf into every rank's buf; returns buf."""
        cdef mc_comm_t *c = self._c()
        cdef Py_buffer b
        cdef int rc
        _acquire(buf, &b, True, "buf")
        try:
            dt = _dtype_of(&b, "buf")
            with nogil:
                rc = mc_bcast(c, b.buf, b.len // b.itemsize, dt, root)
        finally:
            PyBuffer_Release(&b)
        if rc:
            _raise(rc)
        return buf

    def allreduce(self, sendbuf, recvbuf=None, op=SUM, *, bint in_place=False):
        """recvbuf = op over all ranks of sendbuf, elementwise; returns
        recvbuf (in_place: the result replaces sendbuf, returned)."""
        cdef mc_comm_t *c = self._c()
        cdef Py_buffer s, r
        cdef int rc, o = _op_code(op)
        if in_place:
            if recvbuf is not None:
                raise ArgumentError("allreduce: in_place=True takes no recvbuf")
            _acquire(sendbuf, &s, True, "sendbuf")
            try:
                dt = _dtype_of(&s, "sendbuf")
                _begin_op(op)
                with nogil:
                    rc = mc_allreduce(c, MC_IN_PLACE, s.buf,
                                      s.len // s.itemsize, dt, o)
            finally:
                PyBuffer_Release(&s)
            _end_op(op)
            if rc:
                _raise(rc)
            return sendbuf
        if recvbuf is None:
            recvbuf = _like(sendbuf)
        _acquire(sendbuf, &s, False, "sendbuf")
        try:
            _acquire(recvbuf, &r, True, "recvbuf")
            try:
                dt = _dtype_of(&s, "sendbuf")
                _same(&s, dt, &r, _dtype_of(&r, "recvbuf"), "allreduce")
                if r.len != s.len:
                    raise ArgumentError("allreduce: recvbuf has %d bytes, "
                                        "sendbuf %d" % (r.len, s.len))
                _begin_op(op)
                with nogil:
                    rc = mc_allreduce(c, s.buf, r.buf, s.len // s.itemsize,
                                      dt, o)
            finally:
                PyBuffer_Release(&r)
        finally:
            PyBuffer_Release(&s)
        _end_op(op)
        if rc:
            _raise(rc)
        return recvbuf

    def reduce(self, sendbuf, recvbuf=None, op=SUM, int root=0, *,
               bint in_place=False):
        """On root, recvbuf = op over all ranks of sendbuf; returns recvbuf
        on root (in_place: sendbuf, which receives the result), None
        elsewhere."""
        cdef mc_comm_t *c = self._c()
        cdef Py_buffer s, r
        cdef int rc, o = _op_code(op)
        cdef bint at_root = self.rank == root
        cdef bint ip = in_place and at_root
        if ip and recvbuf is not None:
            raise ArgumentError("reduce: in_place=True takes no recvbuf")
        if at_root and not ip and recvbuf is None:
            recvbuf = _like(sendbuf)
        _acquire(sendbuf, &s, ip, "sendbuf")
        r.buf = NULL
        try:
            dt = _dtype_of(&s, "sendbuf")
            if at_root and not ip:
                _acquire(recvbuf, &r, True, "recvbuf")
                try:
                    _same(&s, dt, &r, _dtype_of(&r, "recvbuf"), "reduce")
                    if r.len != s.len:
                        raise ArgumentError("reduce: recvbuf has %d bytes, "
                                            "sendbuf %d" % (r.len, s.len))
                except BaseException:
                    PyBuffer_Release(&r)
                    raise
            _begin_op(op)
            with nogil:
                rc = mc_reduce(c, MC_IN_PLACE if ip else s.buf,
                               s.buf if ip else r.buf, s.len // s.itemsize,
                               dt, o, root)
            if r.buf != NULL:
                PyBuffer_Release(&r)
        finally:
            PyBuffer_Release(&s)
        _end_op(op)
        if rc:
            _raise(rc)
        if not at_root:
            return None
        return sendbuf if ip else recvbuf

    def allgather(self, sendbuf, recvbuf=None, *, bint in_place=False):
        """recvbuf (size times sendbuf's elements) = every rank's sendbuf
        in rank order; returns recvbuf. in_place: sendbuf is the whole
        result, this rank's block already in place."""
        cdef mc_comm_t *c = self._c()
        cdef Py_buffer s, r
        cdef int rc
        if in_place:
            if recvbuf is not None:
                raise ArgumentError("allgather: in_place=True takes no "
                                    "recvbuf")
            _acquire(sendbuf, &r, True, "sendbuf")
            try:
                dt = _dtype_of(&r, "sendbuf")
                n = _per_rank(&r, self.size, "sendbuf", "allgather")
                with nogil:
                    rc = mc_allgather(c, MC_IN_PLACE, r.buf, n, dt)
            finally:
                PyBuffer_Release(&r)
            if rc:
                _raise(rc)
            return sendbuf
        if recvbuf is None:
            recvbuf = _like(sendbuf, (self.size,) + _numpy().shape(sendbuf))
        _acquire(sendbuf, &s, False, "sendbuf")
        try:
            _acquire(recvbuf, &r, True, "recvbuf")
            try:
                dt = _dtype_of(&s, "sendbuf")
                _same(&s, dt, &r, _dtype_of(&r, "recvbuf"), "allgather")
                if r.len != s.len * self.size:
                    raise ArgumentError("allgather: recvbuf has %d bytes, "
                                        "not %d ranks x %d" %
                                        (r.len, self.size, s.len))
                with nogil:
                    rc = mc_allgather(c, s.buf, r.buf, s.len // s.itemsize,
                                      dt)
            finally:
                PyBuffer_Release(&r)
        finally:
            PyBuffer_Release(&s)
        if rc:
            _raise(rc)
        return recvbuf

    def alltoall(self, sendbuf, recvbuf=None, *, bint in_place=False):
        """Block j of sendbuf (size equal blocks) goes to rank j, arriving
        as block i (this rank) of its recvbuf; returns recvbuf (in_place:
        sendbuf)."""
        cdef mc_comm_t *c = self._c()
        cdef Py_buffer s, r
        cdef int rc
        if in_place:
            if recvbuf is not None:
                raise ArgumentError("alltoall: in_place=True takes no "
                                    "recvbuf")
            _acquire(sendbuf, &r, True, "sendbuf")
            try:
                dt = _dtype_of(&r, "sendbuf")
                n = _per_rank(&r, self.size, "sendbuf", "alltoall")
                with nogil:
                    rc = mc_alltoall(c, MC_IN_PLACE, r.buf, n, dt)
            finally:
                PyBuffer_Release(&r)
            if rc:
                _raise(rc)
            return sendbuf
        if recvbuf is None:
            recvbuf = _like(sendbuf)
        _acquire(sendbuf, &s, False, "sendbuf")
        try:
            _acquire(recvbuf, &r, True, "recvbuf")
            try:
                dt = _dtype_of(&s, "sendbuf")
                _same(&s, dt, &r, _dtype_of(&r, "recvbuf"), "alltoall")
                n = _per_rank(&s, self.size, "sendbuf", "alltoall")
                if r.len != s.len:
                    raise ArgumentError("alltoall: recvbuf has %d bytes, "
                                        "sendbuf %d" % (r.len, s.len))
                with nogil:
                    rc = mc_alltoall(c, s.buf, r.buf, n, dt)
            finally:
                PyBuffer_Release(&r)
        finally:
            PyBuffer_Release(&s)
        if rc:
            _raise(rc)
        return recvbuf

    def reduce_scatter_block(self, sendbuf, recvbuf=None, op=SUM, *,
                             bint in_place=False):
        """sendbuf holds size equal blocks; rank i receives op over all
        ranks of block i in recvbuf; returns recvbuf. in_place: the result
        replaces the first block of sendbuf, which is returned."""
        cdef mc_comm_t *c = self._c()
        cdef Py_buffer s, r
        cdef int rc, o = _op_code(op)
        if in_place:
            if recvbuf is not None:
                raise ArgumentError("reduce_scatter_block: in_place=True "
                                    "takes no recvbuf")
            _acquire(sendbuf, &r, True, "sendbuf")
            try:
                dt = _dtype_of(&r, "sendbuf")
                n = _per_rank(&r, self.size, "sendbuf",
                              "reduce_scatter_block")
                _begin_op(op)
                with nogil:
                    rc = mc_reduce_scatter_block(c, MC_IN_PLACE, r.buf, n,
                                                 dt, o)
            finally:
                PyBuffer_Release(&r)
            _end_op(op)
            if rc:
                _raise(rc)
            return sendbuf
        if recvbuf is None:
            recvbuf = _like(sendbuf, _block_shape(sendbuf, self.size))
        _acquire(sendbuf, &s, False, "sendbuf")
        try:
            _acquire(recvbuf, &r, True, "recvbuf")
            try:
                dt = _dtype_of(&s, "sendbuf")
                _same(&s, dt, &r, _dtype_of(&r, "recvbuf"),
                      "reduce_scatter_block")
                n = _per_rank(&s, self.size, "sendbuf",
                              "reduce_scatter_block")
                if r.len * self.size != s.len:
                    raise ArgumentError("reduce_scatter_block: recvbuf has "
                                        "%d bytes, not sendbuf's %d / %d "
                                        "ranks" % (r.len, s.len, self.size))
                _begin_op(op)
                with nogil:
                    rc = mc_reduce_scatter_block(c, s.buf, r.buf, n, dt, o)
            finally:
                PyBuffer_Release(&r)
        finally:
            PyBuffer_Release(&s)
        _end_op(op)
        if rc:
            _raise(rc)
        return recvbuf

    def gather(self, sendbuf, recvbuf=None, int root=0, *,
               bint in_place=False):
        """Root's recvbuf (size times sendbuf's elements) = every rank's
        sendbuf in rank order; returns it on root, None elsewhere.
        in_place (root): sendbuf is the whole result, root's block in
        place."""
        cdef mc_comm_t *c = self._c()
        cdef Py_buffer s, r
        cdef int rc
        cdef size_t n
        cdef bint at_root = self.rank == root
        if not at_root:
            _acquire(sendbuf, &s, False, "sendbuf")
            try:
                dt = _dtype_of(&s, "sendbuf")
                with nogil:
                    rc = mc_gather(c, s.buf, NULL, s.len // s.itemsize, dt,
                                   root)
            finally:
                PyBuffer_Release(&s)
            if rc:
                _raise(rc)
            return None
        if in_place:
            if recvbuf is not None:
                raise ArgumentError("gather: in_place=True takes no recvbuf")
            _acquire(sendbuf, &r, True, "sendbuf")
            try:
                dt = _dtype_of(&r, "sendbuf")
                n = _per_rank(&r, self.size, "sendbuf", "gather")
                with nogil:
                    rc = mc_gather(c, MC_IN_PLACE, r.buf, n, dt, root)
            finally:
                PyBuffer_Release(&r)
            if rc:
                _raise(rc)
            return sendbuf
        if recvbuf is None:
            recvbuf = _like(sendbuf, (self.size,) + _numpy().shape(sendbuf))
        _acquire(sendbuf, &s, False, "sendbuf")
        try:
            _acquire(recvbuf, &r, True, "recvbuf")
            try:
                dt = _dtype_of(&s, "sendbuf")
                _same(&s, dt, &r, _dtype_of(&r, "recvbuf"), "gather")
                if r.len != s.len * self.size:
                    raise ArgumentError("gather: recvbuf has %d bytes, not "
                                        "%d ranks x %d" %
                                        (r.len, self.size, s.len))
                with nogil:
                    rc = mc_gather(c, s.buf, r.buf, s.len // s.itemsize, dt,
                                   root)
            finally:
                PyBuffer_Release(&r)
        finally:
            PyBuffer_Release(&s)
        if rc:
            _raise(rc)
        return recvbuf

    def scatter(self, sendbuf=None, recvbuf=None, int root=0, *,
                bint in_place=False):
        """Block i of root's sendbuf (size equal blocks) goes to rank i's
        recvbuf; returns recvbuf. Ranks other than root pass recvbuf (it
        tells the size) and no sendbuf. in_place (root): root's block stays
        in sendbuf, which is returned."""
        cdef mc_comm_t *c = self._c()
        cdef Py_buffer s, r
        cdef int rc
        cdef size_t n
        if self.rank != root:
            if recvbuf is None:
                raise ArgumentError("scatter: argument 'recvbuf' is needed "
                                    "on ranks other than the root")
            _acquire(recvbuf, &r, True, "recvbuf")
            try:
                dt = _dtype_of(&r, "recvbuf")
                with nogil:
                    rc = mc_scatter(c, NULL, r.buf, r.len // r.itemsize, dt,
                                    root)
            finally:
                PyBuffer_Release(&r)
            if rc:
                _raise(rc)
            return recvbuf
        if sendbuf is None:
            raise ArgumentError("scatter: argument 'sendbuf' is needed on "
                                "the root")
        if in_place:
            if recvbuf is not None:
                raise ArgumentError("scatter: in_place=True takes no recvbuf")
            _acquire(sendbuf, &s, False, "sendbuf")
            try:
                dt = _dtype_of(&s, "sendbuf")
                n = _per_rank(&s, self.size, "sendbuf", "scatter")
                with nogil:
                    rc = mc_scatter(c, s.buf, MC_IN_PLACE, n, dt, root)
            finally:
                PyBuffer_Release(&s)
            if rc:
                _raise(rc)
            return sendbuf
        if recvbuf is None:
            recvbuf = _like(sendbuf, _block_shape(sendbuf, self.size))
        _acquire(sendbuf, &s, False, "sendbuf")
        try:
            _acquire(recvbuf, &r, True, "recvbuf")
            try:
                dt = _dtype_of(&s, "sendbuf")
                _same(&s, dt, &r, _dtype_of(&r, "recvbuf"), "scatter")
                n = _per_rank(&s, self.size, "sendbuf", "scatter")
                if r.len * self.size != s.len:
                    raise ArgumentError("scatter: recvbuf has %d bytes, not "
                                        "sendbuf's %d / %d ranks" %
                                        (r.len, s.len, self.size))
                with nogil:
                    rc = mc_scatter(c, s.buf, r.buf, n, dt, root)
            finally:
                PyBuffer_Release(&r)
        finally:
            PyBuffer_Release(&s)
        if rc:
            _raise(rc)
        return recvbuf


cdef tuple _block_shape(x, int size):
    """shape of one rank's block of x: x.shape[1:] if x is (size, ...)"""
    shape = _numpy().shape(x)
    if len(shape) >= 1 and shape[0] == size:
        return tuple(shape[1:])
    n = _numpy().size(x)
    return (n // size,)


cdef Comm _world = None


def init():
    """The communicator of the job that `manycoll run` started (a world of
    one rank when the process was started otherwise). The same object on
    every call until it is freed."""
    global _world
    cdef mc_comm_t *w
    if _world is not None and _world.c != NULL:
        return _world
    with nogil:
        rc = mc_init(&w)
    if rc:
        _raise(rc)
    _world = Comm._wrap(w)
    return _world


def job_name():
    """A fresh, unpredictable job name for Comm.create_shm."""
    cdef char buf[64]
    rc = mc_job_name(buf, sizeof(buf))
    if rc:
        _raise(rc)
    return buf.decode()
