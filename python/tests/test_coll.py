"""Every collective and datatype against numpy, 1-5 ranks (coll_worker.py
does the checking on every rank)."""
import pytest

from conftest import mc_run


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_every_collective(n):
    rc, out = mc_run(n, "coll_worker.py")
    assert rc == 0, out
    assert out.count(": 0 failures") == n, out


def test_peer_killed():
    """A rank that dies makes its peers' calls raise PeerDeadError within
    a couple of seconds, not hang until the timeout."""
    rc, out = mc_run(3, "fail_worker.py", "kill", timeout=60)
    assert "rank 0: PeerDeadError after" in out, out
    assert "rank 2: PeerDeadError after" in out, out
    for line in out.splitlines():
        if "PeerDeadError after" in line:
            assert float(line.split()[-1]) < 5.0, line
    assert rc == 137, out  # manycoll run reports the killed rank


def test_timeout():
    """A peer that never comes: TimeoutError after MC_TIMEOUT."""
    rc, out = mc_run(2, "fail_worker.py", "late", timeout=60, MC_TIMEOUT=1)
    assert "rank 0: TimeoutError after" in out, out
    assert rc == 0, out


def test_python_op_error():
    """An exception in a Python op reaches the caller on the ranks where
    the op ran (at least one); the communicator stays usable."""
    rc, out = mc_run(2, "fail_worker.py", "op", timeout=60)
    assert out.count("ZeroDivisionError raised") >= 1, out
    assert rc == 0, out
