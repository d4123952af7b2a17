"""Bad input raises a clear exception naming the argument; one process
(manycoll.init() outside `manycoll run` is a world of one rank)."""
import numpy as np
import pytest

import manycoll


def test_world_of_one(world):
    assert (world.rank, world.size) == (0, 1)
    assert manycoll.init() is world
    x = np.arange(4.0)
    np.testing.assert_array_equal(world.allreduce(x), x)


def test_not_a_buffer(world):
    with pytest.raises(TypeError, match="argument 'sendbuf'.*buffer"):
        world.allreduce([1.0, 2.0])


def test_not_contiguous(world):
    x = np.arange(10.0)[::2]
    with pytest.raises(ValueError, match="argument 'sendbuf'.*contiguous"):
        world.allreduce(x)


def test_read_only_output(world):
    y = np.zeros(3)
    y.flags.writeable = False
    with pytest.raises(ValueError, match="argument 'recvbuf'.*writable"):
        world.allreduce(np.ones(3), y)
    with pytest.raises(ValueError, match="argument 'buf'"):
        world.bcast(y)


def test_mismatched_buffers(world):
    with pytest.raises(manycoll.ArgumentError, match="different dtypes"):
        world.allreduce(np.ones(3), np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="recvbuf has 16 bytes, sendbuf 24"):
        world.allreduce(np.ones(3), np.zeros(2))
    with pytest.raises(ValueError, match="in_place=True takes no recvbuf"):
        world.allreduce(np.ones(3), np.zeros(3), in_place=True)


@pytest.mark.parametrize("dt", ["float16", "complex64", "complex128"])
def test_wider_types(world, dt):
    x = np.arange(3).astype(dt) + 1
    assert np.array_equal(world.allreduce(x), x * world.size)
    with pytest.raises(ValueError, match="not defined on datatype"):
        world.allreduce(np.ones(3, dt), op=manycoll.BAND)
    assert issubclass(manycoll.UnsupportedError, TypeError)


def test_bfloat16(world):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    with pytest.raises(TypeError, match="bfloat16 is not supported by the "
                       "Python binding"):
        world.allreduce(np.ones(3, ml_dtypes.bfloat16))


@pytest.mark.parametrize("dt", [bool, ">i4", np.longdouble])
def test_not_a_datatype(world, dt):
    with pytest.raises(TypeError, match="argument 'sendbuf'"):
        world.allreduce(np.ones(3, dt))


def test_library_message(world):
    with pytest.raises(ValueError, match="mc_bcast: argument 'root' is 3"):
        world.bcast(np.ones(2), root=3)
    with pytest.raises(ValueError, match="not defined on datatype"):
        world.allreduce(np.ones(2), op=manycoll.BAND)


def test_ops(world):
    with pytest.raises(TypeError, match="manycoll.Op"):
        world.allreduce(np.ones(2), op=np.add)
    with pytest.raises(TypeError, match="manycoll.SUM"):
        world.allreduce(np.ones(2), op=0)
    assert repr(manycoll.SUM) == "manycoll.SUM"


def test_scatter_needs_recvbuf_off_root(world):
    with pytest.raises(ValueError, match="'sendbuf' is needed on the root"):
        world.scatter(None, np.zeros(2))


class DLPackOnly:
    """An object with DLPack and no buffer protocol (as torch tensors)"""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_dlpack(world):
    x = np.arange(5.0)
    y = np.zeros(5)
    world.allreduce(DLPackOnly(x), DLPackOnly(y))
    np.testing.assert_array_equal(y, x)


def test_other_buffers(world):
    b = bytearray(b"\x01\x02\x03")
    out = bytearray(3)
    world.allreduce(b, out)
    assert out == b
    assert world.bcast(memoryview(out)) is not None


def test_freed(world):
    c = manycoll.Comm.create_shm(manycoll.job_name(), 0, 1)
    c.free()
    with pytest.raises(ValueError, match="freed"):
        c.barrier()
    with manycoll.Comm.create_shm(manycoll.job_name(), 0, 1) as d:
        d.barrier()
    assert "freed" in repr(d)


def test_set_algo(world):
    c = manycoll.Comm.create_shm(manycoll.job_name(), 0, 1)
    c.set_algo("allreduce", "ring")
    with pytest.raises(ValueError, match="valid"):
        c.set_algo("allreduce", "no-such-algorithm")
    c.set_algo("allreduce", None)
    c.free()


def test_exception_classes():
    assert issubclass(manycoll.TimeoutError, TimeoutError)
    assert issubclass(manycoll.ArgumentError, ValueError)
    for e in (manycoll.PeerDeadError, manycoll.TimeoutError,
              manycoll.ArgumentError, manycoll.UnsupportedError):
        assert issubclass(e, manycoll.Error)
