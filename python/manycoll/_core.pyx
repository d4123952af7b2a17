# cython: language_level=3, embedsignature=True, boundscheck=False
# cython: wraparound=False, cdivision=True
"""manycoll._core: the binding of libmanycoll (manycoll.h).

Collectives take objects with the buffer protocol (numpy arrays, bytearray,
memoryview) or DLPack, C-contiguous; the datatype comes from the buffer's
format. The hot path of a call is: two PyObject_GetBuffer, a format-string
lookup, the C call with the GIL released, two PyBuffer_Release.
"""
from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release,
                             PyObject_CheckBuffer,
                             PyBUF_FORMAT, PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE)
from cpython.bytes cimport PyBytes_AsString
from cpython.pycapsule cimport PyCapsule_New
from cpython.ref cimport PyObject, Py_XINCREF, Py_XDECREF
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from manycoll._mc cimport *

import builtins


# ---- exceptions --------------------------------------------------------

class Error(Exception):
    """Base of manycoll's exceptions; the message is the library's."""


class PeerDeadError(Error):
    """A peer process exited or crashed during a collective (detected
    within a second). The communicator is broken afterwards."""


class TimeoutError(Error, builtins.TimeoutError):
    """A wait lasted longer than MC_TIMEOUT (seconds, default 60)."""


class ArgumentError(Error, ValueError):
    """A bad argument; the message names it."""


class UnsupportedError(Error, TypeError):
    """Valid, but not supported: an op on a datatype it does not apply to,
    or a datatype this libmanycoll does not have yet."""


cdef object _raise(int rc):
    msg = mc_last_error().decode("utf-8", "replace")
    if rc == MC_ERR_ARG:
        raise ArgumentError(msg)
    if rc == MC_ERR_PEER_DEAD:
        raise PeerDeadError(msg)
    if rc == MC_ERR_TIMEOUT:
        raise TimeoutError(msg)
    if rc == MC_ERR_NOMEM:
        raise MemoryError(msg)
    if rc == MC_ERR_UNSUPPORTED:
        raise UnsupportedError(msg)
    if rc == MC_ERR_SYS:
        raise OSError(msg)
    raise Error("%s: %s" % (mc_strerror(rc).decode(), msg))


# ---- datatypes ---------------------------------------------------------

# numpy dtype name -> (buffer kind, item size, libmanycoll datatype or None
# while the library lacks it). Kinds: i signed, u unsigned, f float,
# c complex, b bfloat16 (no buffer format: found by dtype name).
# A datatype the library gains is one line here.
DTYPES = {
    "int8": ("i", 1, MC_INT8),
    "int16": ("i", 2, MC_INT16),
    "int32": ("i", 4, MC_INT32),
    "int64": ("i", 8, MC_INT64),
    "uint8": ("u", 1, MC_UINT8),
    "uint16": ("u", 2, MC_UINT16),
    "uint32": ("u", 4, MC_UINT32),
    "uint64": ("u", 8, MC_UINT64),
    "float16": ("f", 2, MC_FLOAT16),
    "bfloat16": ("b", 2, None),
    "float32": ("f", 4, MC_FLOAT32),
    "float64": ("f", 8, MC_FLOAT64),
    "complex64": ("c", 8, MC_COMPLEX64),
    "complex128": ("c", 16, MC_COMPLEX128),
}

# the same as a C table: [kind][log2(item size)], -1 = not supported
cdef int _dt_table[5][5]
cdef object _dt_names = [[None] * 5 for _ in range(5)]
cdef object _np_names = {}  # libmanycoll datatype -> numpy dtype name
_KINDS = "iufcb"


cdef int _size_index(Py_ssize_t size) noexcept:
    if size == 1: return 0
    if size == 2: return 1
    if size == 4: return 2
    if size == 8: return 3
    if size == 16: return 4
    return -1


def _build_dtype_table():
    memset(_dt_table, 0xff, sizeof(_dt_table))
    for name, (kind, size, code) in DTYPES.items():
        k = _KINDS.index(kind)
        s = _size_index(size)
        _dt_names[k][s] = name
        if code is not None:
            _dt_table[k][s] = code
            _np_names[code] = name


_build_dtype_table()


_IN_PLACE = ("none", "send", "root-send", "root-recv")


def coll_table():
    """The collectives as the library describes them (mc_coll_info): a
    list of dicts, in the library's order."""
    out = []
    cdef const mc_coll_info_t *i
    for k in range(MC_COLL_COUNT):
        i = mc_coll_info(k)
        out.append({"name": i.name.decode(), "var": i.var.decode(),
                    "mpi": i.mpi.decode(),
                    "rooted": bool(i.props & MC_COLL_ROOTED),
                    "reduces": bool(i.props & MC_COLL_REDUCES),
                    "blocks": bool(i.props & MC_COLL_BLOCKS),
                    "vector": bool(i.props & MC_COLL_VECTOR),
                    "in_place": _IN_PLACE[i.in_place],
                    "forms": [f for f, b in (
                        ("blocking", MC_COLL_BLOCKING),
                        ("nonblocking", MC_COLL_NONBLOCKING),
                        ("persistent", MC_COLL_PERSISTENT)) if i.forms & b]})
    return out


cdef int _kind_of(char c) noexcept:
    if c in b"bhilq": return 0
    if c in b"BHILQ": return 1
    if c in b"efd": return 2
    return -1


cdef int _dtype_of(Py_buffer *v, str arg) except -1:
    """libmanycoll datatype of a buffer's format, or an exception."""
    cdef const char *f = v.format
    cdef int k, s
    if f == NULL:
        f = b"B"
    if f[0] == b'@' or f[0] == b'=' or f[0] == b'<':
        f += 1
    if f[0] == b'Z' and f[1] != 0 and f[2] == 0 and _kind_of(f[1]) == 2:
        k = 3
    elif f[0] != 0 and f[1] == 0:
        k = _kind_of(f[0])
    else:
        k = -1
    s = _size_index(v.itemsize)
    if k >= 0 and s >= 0:
        if _dt_table[k][s] >= 0:
            return _dt_table[k][s]
        if _dt_names[k][s] is not None:
            raise UnsupportedError(
                "argument '%s': dtype %s is not supported by this "
                "libmanycoll yet (supported: %s)" %
                (arg, _dt_names[k][s], ", ".join(sorted(_np_names.values(),
                                                        key=_dtype_order))))
    raise UnsupportedError("argument '%s': buffer format '%s' (item size "
                           "%d) is not a datatype manycoll knows" %
                           (arg, v.format.decode() if v.format else "B",
                            v.itemsize))


def _dtype_order(name):
    return list(DTYPES).index(name)


# ---- buffers -----------------------------------------------------------

cdef object _np = None


cdef object _numpy():
    global _np
    if _np is None:
        import numpy
        _np = numpy
    return _np


cdef int _acquire(object obj, Py_buffer *v, bint writable, str arg) except -1:
    """Fills v with obj's memory (C-contiguous; writable if asked)."""
    cdef int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS
    if writable:
        flags |= PyBUF_WRITABLE
    try:
        PyObject_GetBuffer(obj, v, flags)
        return 0
    except (BufferError, ValueError, TypeError) as e:
        why = e
    # not a plain buffer: a dtype without a buffer format, or DLPack
    dt = getattr(obj, "dtype", None)
    name = getattr(dt, "name", None)
    if name in DTYPES and DTYPES[name][0] == "b":
        raise UnsupportedError("argument '%s': dtype %s is not supported by "
                               "the Python binding yet (the C library has "
                               "MC_BFLOAT16)" % (arg, name))
    if not PyObject_CheckBuffer(obj) and hasattr(obj, "__dlpack__"):
        PyObject_GetBuffer(_numpy().from_dlpack(obj), v, flags)
        return 0
    if isinstance(why, TypeError):
        raise TypeError("argument '%s': expected an object with the buffer "
                        "protocol or DLPack (a numpy array), got %s" %
                        (arg, type(obj).__name__)) from None
    raise ArgumentError("argument '%s': %s (manycoll needs %sC-contiguous "
                        "memory)" % (arg, why, "writable " if writable
                                     else "")) from None


cdef inline void _release(Py_buffer *v) noexcept:
    if v.obj is not None:
        PyBuffer_Release(v)


cdef object _like(object x, shape=None):
    """A new array of x's dtype (shape: x's unless given)."""
    np = _numpy()
    a = np.asarray(x)
    return np.empty(a.shape if shape is None else shape, dtype=a.dtype)


cdef int _same(Py_buffer *a, int da, Py_buffer *b, int db, str what) except -1:
    if da != db:
        raise ArgumentError("%s: sendbuf and recvbuf have different dtypes "
                            "(%s, %s)" % (what, _np_names[da], _np_names[db]))
    return 0


cdef size_t _per_rank(Py_buffer *v, int size, str arg, str what) except? 0:
    cdef Py_ssize_t n = v.len // v.itemsize
    if n % size:
        raise ArgumentError("%s: argument '%s' has %d elements, not a "
                            "multiple of the %d ranks" % (what, arg, n, size))
    return <size_t>(n // size)


# ---- ops ---------------------------------------------------------------

cdef class Op:
    """A reduction operation. The built-in ones are manycoll.SUM, PROD,
    MIN, MAX, BAND, BOR, BXOR, LAND, LOR. Op(fn, commutative=False) makes
    one of a Python function: fn(a, b) returns a op b elementwise, a holding
    the lower ranks' contribution (numpy arrays). A Python op runs in the
    interpreter for every block the algorithm combines: slow, for
    prototypes."""
    cdef readonly int code
    cdef readonly object fn
    cdef readonly bint commutative
    cdef readonly str name

    def __init__(self, fn, commutative=False):
        if not callable(fn):
            raise TypeError("Op(fn): fn must be callable")
        self.fn = fn
        self.commutative = bool(commutative)
        self.code = _user_op_code(self.commutative)
        self.name = getattr(fn, "__name__", "user op")

    def __repr__(self):
        if self.fn is None:
            return "manycoll.%s" % self.name
        return "manycoll.Op(%s, commutative=%s)" % (self.name,
                                                    self.commutative)


cdef Op _builtin(int code, str name):
    cdef Op o = Op.__new__(Op)
    o.code = code
    o.fn = None
    o.commutative = True
    o.name = name
    return o


SUM = _builtin(MC_SUM, "SUM")
PROD = _builtin(MC_PROD, "PROD")
MIN = _builtin(MC_MIN, "MIN")
MAX = _builtin(MC_MAX, "MAX")
BAND = _builtin(MC_BAND, "BAND")
BOR = _builtin(MC_BOR, "BOR")
BXOR = _builtin(MC_BXOR, "BXOR")
LAND = _builtin(MC_LAND, "LAND")
LOR = _builtin(MC_LOR, "LOR")

# The library's user op carries no context pointer: one C op per
# commutativity, and the Python function of the call in progress in a
# thread-local (collectives are blocking; the op runs in the caller's
# thread, inside the call).
cdef extern from *:
    """
    static _Thread_local PyObject *mc_py_cur_fn;
    static _Thread_local PyObject *mc_py_cur_exc;
    """
    PyObject *mc_py_cur_fn
    PyObject *mc_py_cur_exc

cdef int _user_ops[2]
_user_ops[0] = _user_ops[1] = -1


cdef int _user_op_code(bint commutative) except -1:
    cdef mc_op_t op
    if _user_ops[commutative] < 0:
        rc = mc_op_create(_trampoline, commutative, &op)
        if rc != MC_OK:
            _raise(rc)
        _user_ops[commutative] = op
    return _user_ops[commutative]


cdef void _trampoline(const void *inp, void *inout, size_t count,
                      mc_dtype_t dt) noexcept nogil:
    global mc_py_cur_exc
    with gil:
        if mc_py_cur_fn == NULL or mc_py_cur_exc != NULL:
            return
        try:
            _call_user_op(<object>mc_py_cur_fn, inp, inout, count, dt)
        except BaseException as e:
            mc_py_cur_exc = <PyObject *>e
            Py_XINCREF(mc_py_cur_exc)


cdef void _call_user_op(object fn, const void *inp, void *inout,
                        size_t count, int dt) except *:
    np = _numpy()
    cdef size_t n = count * mc_dtype_size(dt)
    a = np.frombuffer((<char *>inp)[:n], dtype=_np_names[dt])
    b = np.asarray(<char[:n]>(<char *>inout)).view(_np_names[dt])
    r = fn(a, b)
    if r is not b:
        b[...] = r


cdef inline int _op_code(object op) except -1:
    if type(op) is Op:
        return (<Op>op).code
    if isinstance(op, Op):
        return (<Op>op).code
    if callable(op):
        raise TypeError("op: wrap a Python function as manycoll.Op(fn, "
                        "commutative=...)")
    raise TypeError("op: expected manycoll.SUM, ... or a manycoll.Op, got %r"
                    % (op,))


cdef int _begin_op(object op) except -1:
    if type(op) is Op and (<Op>op).fn is not None:
        global mc_py_cur_fn
        mc_py_cur_fn = <PyObject *>(<Op>op).fn
    return 0


cdef int _end_op(object op) except -1:
    global mc_py_cur_fn, mc_py_cur_exc
    cdef PyObject *e
    if type(op) is Op and (<Op>op).fn is not None:
        mc_py_cur_fn = NULL
        if mc_py_cur_exc != NULL:
            e = mc_py_cur_exc
            mc_py_cur_exc = NULL
            exc = <object>e
            Py_XDECREF(e)
            raise exc
    return 0


include "_comm.pxi"

# the C entry points this module's libmanycoll copy offers other
# extensions (the binding benchmark, bench/python): a table of pointers
cdef extern from *:
    """
    typedef struct mc_py_api {
        int version;
        int (*allreduce)(mc_comm_t *, const void *, void *, size_t,
                         mc_dtype_t, mc_op_t);
        const char *(*last_error)(void);
    } mc_py_api_t;
    static mc_py_api_t mc_py_api = {1, mc_allreduce, mc_last_error};
    """
    ctypedef struct mc_py_api_t:
        pass
    mc_py_api_t mc_py_api

_mc_api = PyCapsule_New(&mc_py_api, b"manycoll.api", NULL)
include "_data.pxi"
include "_replay.pxi"
