// The nanobind candidate for manycoll's binding, for the per-call overhead
// measurement only (bench/python/overhead.py; docs/benchmarks.md): the
// same allreduce as manycoll._core.Comm.allreduce, in two styles:
//   Comm.allreduce      nb::ndarray<> arguments (nanobind's own buffer and
//                       DLPack import), as a nanobind binding would be
//                       written;
//   Comm.allreduce_raw  nb::handle arguments and PyObject_GetBuffer, the
//                       work the Cython binding does.
// It calls the libmanycoll of manycoll._core through that module's
// "manycoll.api" capsule, on a communicator it created, so all variants
// run the same C code on the same communicator. c_loop() times the C call
// in a C loop: the floor the bindings are compared with.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstring>
#include <stdexcept>
#include <time.h>

#include <manycoll.h>

namespace nb = nanobind;
using namespace nb::literals;

struct mc_py_api {
    int version;
    int (*allreduce)(mc_comm_t *, const void *, void *, size_t, mc_dtype_t,
                     mc_op_t);
    const char *(*last_error)(void);
};

struct NbComm {
    nb::object keep; // the manycoll.Comm
    mc_comm_t *c;
    const mc_py_api *api;
};

static int dtype_of(const nb::dlpack::dtype &d)
{
    using nb::dlpack::dtype_code;
    if (d.code == (uint8_t)dtype_code::Float && d.bits == 64) return MC_FLOAT64;
    if (d.code == (uint8_t)dtype_code::Float && d.bits == 32) return MC_FLOAT32;
    if (d.code == (uint8_t)dtype_code::Int && d.bits == 64) return MC_INT64;
    if (d.code == (uint8_t)dtype_code::Int && d.bits == 32) return MC_INT32;
    throw nb::type_error("dtype not supported by this benchmark binding");
}

static int format_dtype(const char *f)
{
    if (!f) return MC_UINT8;
    if (*f == '@' || *f == '=' || *f == '<') f++;
    if (f[0] && !f[1]) switch (f[0]) {
        case 'd': return MC_FLOAT64;
        case 'f': return MC_FLOAT32;
        case 'l': case 'q': return MC_INT64;
        case 'i': return MC_INT32;
    }
    throw nb::type_error("dtype not supported by this benchmark binding");
}

static void check(const NbComm &s, int rc)
{
    if (rc) throw std::runtime_error(s.api->last_error());
}

using Arr = nb::ndarray<nb::c_contig, nb::device::cpu>;

static nb::object allreduce(NbComm &s, Arr send, Arr recv, nb::handle op,
                            bool in_place)
{
    if (in_place || !recv.is_valid())
        throw nb::value_error("benchmark binding: recvbuf needed");
    int dt = dtype_of(send.dtype());
    if (recv.dtype() != send.dtype() || recv.nbytes() != send.nbytes())
        throw nb::value_error("recvbuf differs from sendbuf");
    int rc;
    {
        nb::gil_scoped_release nogil;
        rc = s.api->allreduce(s.c, send.data(), recv.data(), send.size(),
                              (mc_dtype_t)dt, MC_SUM);
    }
    check(s, rc);
    return nb::none();
}

static nb::object allreduce_raw(NbComm &s, nb::handle send, nb::handle recv,
                                nb::handle op, bool in_place)
{
    Py_buffer sb, rb;
    if (PyObject_GetBuffer(send.ptr(), &sb, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS))
        throw nb::python_error();
    if (PyObject_GetBuffer(recv.ptr(), &rb,
                           PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE)) {
        PyBuffer_Release(&sb);
        throw nb::python_error();
    }
    int rc = 0;
    try {
        int dt = format_dtype(sb.format);
        if (format_dtype(rb.format) != dt || rb.len != sb.len)
            throw nb::value_error("recvbuf differs from sendbuf");
        Py_BEGIN_ALLOW_THREADS
        rc = s.api->allreduce(s.c, sb.buf, rb.buf, (size_t)(sb.len / sb.itemsize),
                              (mc_dtype_t)dt, MC_SUM);
        Py_END_ALLOW_THREADS
    } catch (...) {
        PyBuffer_Release(&rb);
        PyBuffer_Release(&sb);
        throw;
    }
    PyBuffer_Release(&rb);
    PyBuffer_Release(&sb);
    check(s, rc);
    return nb::borrow(recv);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// n calls of an 8-byte (count 1) float64 sum allreduce from C; seconds
static double c_loop(NbComm &s, long n)
{
    double x = 1, y = 0, t0, t1;
    int rc = 0;
    {
        nb::gil_scoped_release nogil;
        t0 = now();
        for (long i = 0; i < n && !rc; i++)
            rc = s.api->allreduce(s.c, &x, &y, 1, MC_FLOAT64, MC_SUM);
        t1 = now();
    }
    check(s, rc);
    return t1 - t0;
}

NB_MODULE(mc_nb, m)
{
    nb::class_<NbComm>(m, "Comm")
        .def("__init__", [](NbComm *self, nb::object comm) {
            nb::object core = nb::module_::import_("manycoll._core");
            nb::capsule api = nb::borrow<nb::capsule>(core.attr("_mc_api"));
            nb::capsule h = nb::borrow<nb::capsule>(comm.attr("_handle")());
            new (self) NbComm{comm, (mc_comm_t *)PyCapsule_GetPointer(
                                        h.ptr(), "manycoll.mc_comm_t"),
                              (const mc_py_api *)PyCapsule_GetPointer(
                                  api.ptr(), "manycoll.api")};
        })
        .def("allreduce", &allreduce, "sendbuf"_a, "recvbuf"_a.none() = nb::none(),
             "op"_a.none() = nb::none(), nb::kw_only(), "in_place"_a = false)
        .def("allreduce_raw", &allreduce_raw, "sendbuf"_a,
             "recvbuf"_a.none() = nb::none(), "op"_a.none() = nb::none(),
             nb::kw_only(), "in_place"_a = false)
        .def("c_loop", &c_loop);
}
