"""Comm.from_mpi with mpi4py under Open MPI and MPICH. mpi4py is built for
each MPI by `make python-deps` (into $MC_MPI4PY_DIR/mpi4py-<mpi>); without
it the test is skipped, or fails when MC_REQUIRE_MPI4PY=1 (CI)."""
import os
import shutil
import sys

import pytest

from conftest import HERE, run

MPIEXEC = {"openmpi": "mpiexec.openmpi", "mpich": "mpiexec.mpich"}


def mpi4py_path(mpi):
    base = os.environ.get("MC_MPI4PY_DIR", "")
    path = os.path.join(base, "mpi4py-" + mpi)
    if base and os.path.isdir(os.path.join(path, "mpi4py")) \
            and shutil.which(MPIEXEC[mpi]):
        return path
    why = "no mpi4py built for %s in %s (make python-deps)" % (mpi, path)
    if os.environ.get("MC_REQUIRE_MPI4PY") == "1":
        pytest.fail(why)
    pytest.skip(why)


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
@pytest.mark.parametrize("n", [1, 3])
def test_from_mpi(mpi, n):
    path = mpi4py_path(mpi)
    pp = os.pathsep.join([path, os.environ.get("PYTHONPATH", "")])
    rc, out = run([MPIEXEC[mpi], "-n", str(n), sys.executable,
                   os.path.join(HERE, "mpi_worker.py")], timeout=120,
                  PYTHONPATH=pp, OMPI_ALLOW_RUN_AS_ROOT=1,
                  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1,
                  OMPI_MCA_rmaps_base_oversubscribe=1)
    assert rc == 0, out
    assert out.count(": ok") == n, out


def test_launcher(tmp_path):
    """python -m manycoll run -n 2 script.py runs the script with this
    Python"""
    script = tmp_path / "hello.py"
    script.write_text("import sys, manycoll\n"
                      "c = manycoll.init()\n"
                      "# one write: with PYTHONUNBUFFERED print() writes\n"
                      "# each piece apart and the ranks' pieces interleave\n"
                      "sys.stdout.write(f'rank {c.rank} of {c.size} '\n"
                      "                 f'{sys.executable}\\n')\n")
    rc, out = run([sys.executable, "-m", "manycoll", "run", "-n", "2",
                   str(script)])
    assert rc == 0, out
    assert "rank 0 of 2 " + sys.executable in out, out
    assert "rank 1 of 2 " + sys.executable in out, out
