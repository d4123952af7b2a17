#!/usr/bin/env python3
"""The Intel MPI Benchmarks, unmodified, with and without libmanycoll_mpi.

    bench/imb_userview.py --imb-src PATH [--mpis openmpi,mpich]
        [--ranks 2,8] [--reps 3] [--build DIR] [--lib-dir build/src/mpi]

PATH is a checkout of the public intel/mpi-benchmarks repository. For each
MPI, IMB-MPI1 is built from it with that MPI's mpicc into DIR (default
/tmp/manycoll-imb/MPI; nothing of it enters this tree), twice: as
released, and with -DCHECK (IMB then verifies every received buffer and
reports "defects"). Then, per MPI and rank count:

* correctness: the CHECK binary runs every collective benchmark below with
  the library preloaded; any defect or failure stops the script;
* speed: the released binary runs the same benchmarks without and with
  the library, alternating, REPS times each (each run a fresh mpirun,
  IMB's own timing: t_avg over its repetitions); the table gives the
  median t_avg of each side and without/with (> 1: the library is
  faster). MC_MPI_VERBOSE=1 on one run shows which calls went where.

More ranks than CPUs run oversubscribed (Open MPI --oversubscribe).
"""
import os
import re
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpilib  # noqa: E402

COLLS = ["Barrier", "Bcast", "Reduce", "Allreduce", "Allgather", "Alltoall",
         "Reduce_scatter_block", "Gather", "Scatter"]
LIBS = {"openmpi": "libmanycoll_mpi_openmpi.so",
        "mpich": "libmanycoll_mpi_mpich.so"}


def build_imb(src, out, mpi, check):
    d = os.path.join(out, mpi + ("-check" if check else ""))
    exe = os.path.join(d, "src_c", "IMB-MPI1")
    if os.path.exists(exe):
        return exe
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src, d, ignore=shutil.ignore_patterns(".git"))
    cc = mpilib.MPIS[mpi]["cc"]
    flags = ["CFLAGS=-O2" + (" -DCHECK" if check else "")]
    subprocess.run(["make", "-j2", "CC=" + cc, "TARGET=MPI1"] + flags,
                   cwd=os.path.join(d, "src_c"), check=True,
                   stdout=subprocess.DEVNULL)
    return exe


def imb(mpi, exe, n, lib, extra_env=None, timeout=900):
    env = dict(extra_env or {})
    argv = [exe, "-npmin", str(n), "-msglog", "3:16", "-iter", "1000",
            "-time", "2", "-mem", "1"] + COLLS
    if lib:
        env["LD_PRELOAD"] = lib
    cmd = mpilib.mpirun(mpi, [(n, argv)], oversubscribe=n > os.cpu_count())
    if mpi == "openmpi":
        for k in env:
            cmd[1:1] = ["-x", k]
    else:
        for k, v in env.items():
            cmd[1:1] = ["-genv", k, v]
    st, out, err = mpilib.run(cmd, timeout=timeout, capture_stderr=True,
                              env=env)
    if st != 0:
        sys.exit(f"{' '.join(cmd)}: exit {st}\n{err[-3000:]}")
    return out, err


def rows(out):
    """(benchmark, fields) per result line of IMB's output"""
    bench = None
    for line in out.splitlines():
        m = re.match(r"# Benchmarking (\S+)", line)
        if m:
            bench = m.group(1)
            continue
        f = line.split()
        if bench and len(f) >= 4 and all(
                re.fullmatch(r"[0-9.]+(e[-+]?\d+)?", x) for x in f):
            yield bench, f


def parse(out):
    """{(benchmark, bytes): t_avg us} (a barrier has no bytes: 0)"""
    return {(b, 0 if b == "Barrier" else int(f[0])):
            float(f[3] if b == "Barrier" else f[4]) for b, f in rows(out)}


def defects(out):
    """result lines of a -DCHECK run whose last column (defects) is not 0
    (a barrier has none)"""
    return [f"{b}: {' '.join(f)}" for b, f in rows(out)
            if b != "Barrier" and float(f[-1]) != 0]


def main():
    ap = mpilib.outside_parser(__doc__, "imb-src", "/tmp/manycoll-imb")
    ap.add_argument("--mpis", default="openmpi,mpich")
    ap.add_argument("--ranks", default="2,8")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--lib-dir", default="build/src/mpi")
    a = ap.parse_args()
    for mpi in a.mpis.split(","):
        lib = os.path.abspath(os.path.join(a.lib_dir, LIBS[mpi]))
        if not os.path.exists(lib):
            sys.exit(f"{lib} not built (make)")
        exe = build_imb(a.imb_src, a.build, mpi, False)
        chk = build_imb(a.imb_src, a.build, mpi, True)
        for n in map(int, a.ranks.split(",")):
            out, err = imb(mpi, chk, n, lib, {"MC_MPI_VERBOSE": "1"})
            bad = defects(out)
            if bad:
                sys.exit(f"{mpi} {n} ranks, CHECK build: " + "\n".join(bad))
            went = sorted(set(re.findall(r"^\s+(\w+)\s+\d+ manycoll", err,
                                         re.M)))
            print(f"{mpi}, {n} ranks: IMB -DCHECK through the library: no "
                  f"defects in {len(parse(out))} cases; manycoll ran "
                  f"{', '.join(went)}", flush=True)
            runs = {False: [], True: []}
            for _ in range(a.reps):
                for with_lib in (False, True):
                    o, _ = imb(mpi, exe, n, lib if with_lib else None)
                    runs[with_lib].append(parse(o))
            print(f"| MPI | ranks | benchmark | bytes | without, us | "
                  f"with, us | without/with |\n|---|---|---|---|---|---|---|")
            for key in sorted(runs[False][0]):
                if key[1] not in (0, 8, 1024, 65536) or \
                        (key[0] == "Barrier" and key[1]):
                    continue
                wo = statistics.median(r[key] for r in runs[False])
                wi = statistics.median(r[key] for r in runs[True]
                                       if key in r)
                print(f"| {mpilib.MPIS[mpi]['label']} | {n} | {key[0]} | "
                      f"{key[1]} | {wo:.2f} | {wi:.2f} | "
                      f"{wo / wi if wi else float('nan'):.2f} |",
                      flush=True)


if __name__ == "__main__":
    main()
