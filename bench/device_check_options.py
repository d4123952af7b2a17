"""The options of bench/device_check.py and the two sets of sizes, rank
counts and time limits they choose between (the full check for a machine
of many cores, --quick for a test here)."""
import argparse
import os
import time

import mpilib

FULL = {"ranks": [4, 8, 16], "sizes": [8, 65536, 1 << 20],
        "iters": {8: 500, 65536: 200, 1 << 20: 30},
        "mpi_iters": 2000, "mpi_case_seconds": 0.5, "calibrate": [],
        "bench_timeout": 120, "mpi_timeout": 150, "calibrate_timeout": 150,
        "budget": 450}
QUICK = {"ranks": [2], "sizes": [8, 1024],
         "iters": {8: 20, 1024: 20},
         "mpi_iters": 20, "mpi_case_seconds": 0.2, "calibrate": ["--quick"],
         "bench_timeout": 60, "mpi_timeout": 60, "calibrate_timeout": 60,
         "budget": 90}


def options():
    ap = argparse.ArgumentParser(
        prog="bench/device_check.sh",
        description="manycoll bench, the drop-in against each MPI, "
                    "calibrate and the simulator's prediction on this "
                    "machine; one markdown and one JSON report")
    ap.add_argument("--out", default=None,
                    help="directory of the reports (default "
                         "BUILD/device-check-DATE)")
    ap.add_argument("--build", default=os.path.join(mpilib.ROOT, "build"),
                    help="the build directory (default build/)")
    ap.add_argument("--quick", action="store_true",
                    help="2 ranks, tiny sizes and iteration counts")
    ap.add_argument("--ranks", default=None,
                    help="rank counts, e.g. 4,8,16 (default 4,8,16; "
                         "--quick: 2)")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds after which no further run starts "
                         "(default 450; --quick: 90); the runs left out "
                         "are a failure")
    ap.add_argument("--mpis", default="openmpi,mpich",
                    help="MPIs for the drop-in (default openmpi,mpich; "
                         "'' for none)")
    a = ap.parse_args()
    a.cfg = dict(QUICK if a.quick else FULL)
    if a.ranks:
        try:
            a.cfg["ranks"] = sorted({int(x) for x in a.ranks.split(",")})
        except ValueError:
            ap.error(f"--ranks: '{a.ranks}' is not a list of integers")
        if min(a.cfg["ranks"]) < 1:
            ap.error("--ranks: rank counts are at least 1")
    if a.budget is not None:
        a.cfg["budget"] = a.budget
    a.mpis = [m for m in a.mpis.split(",") if m]
    for m in a.mpis:
        if m not in mpilib.MPIS:
            ap.error(f"--mpis: unknown MPI '{m}' (openmpi, mpich)")
    a.build = os.path.abspath(a.build)
    if a.out is None:
        a.out = os.path.join(a.build, "device-check-" +
                             time.strftime("%Y%m%d-%H%M%S"))
    a.out = os.path.abspath(a.out)
    return a
