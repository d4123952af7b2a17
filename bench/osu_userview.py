#!/usr/bin/env python3
"""The OSU Micro-Benchmarks' collectives, unmodified, with and without
libmanycoll_mpi.

    bench/osu_userview.py --osu-src PATH [--mpis openmpi,mpich]
        [--ranks 2,4] [--reps 3] [--max 65536] [--build DIR]
        [--lib-dir build/src/mpi] [--wheels DIR] [--osu-args "ARGS"]

PATH is a copy of the OSU Micro-Benchmarks source (7.x; the directory
that holds c/util and c/mpi/collective). Nothing of it enters this tree:
per MPI the blocking collective benchmarks are compiled with that MPI's
mpicc into DIR (default /tmp/manycoll-osu/MPI). Then, per MPI and rank
count:

* correctness: every benchmark runs once with the library preloaded and
  OSU's validation on (-c: each result buffer is checked); a "Fail" or a
  failed run stops the script;
* speed: every benchmark runs without and with the library, alternating,
  REPS times each (a fresh mpirun each, OSU's own timing: average latency
  over its iterations, 8 bytes to --max); the table gives the median of
  each side and without/with (> 1: the library is faster).

--osu-args adds arguments to every benchmark but the barrier, e.g.
"-T mpi_int": OSU 7.4 reduces MPI_CHAR by default, and its own
validation of that fails under Open MPI 4.1.4 with or without the
library (osu_reduce -c, 16 bytes), which stops this script.

More ranks than CPUs run oversubscribed (Open MPI --oversubscribe).
With --wheels DIR (tools/mpi_wheels.sh) --mpis may also name openmpi5,
mpich5 and impi: the benchmarks are built with the wheel's own mpicc
(Intel MPI's runtime has none: MPICH 5.0's), and the library is the
variant of the MPI's ABI family.
"""
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpilib  # noqa: E402
import userview  # noqa: E402

BENCHES = ["barrier", "bcast", "reduce", "allreduce", "allgather",
           "alltoall", "reduce_scatter", "gather", "scatter"]
LIBS = {"openmpi": "libmanycoll_mpi_openmpi.so",
        "mpich": "libmanycoll_mpi_mpich.so"}
UTIL = ["osu_util.c", "osu_util_mpi.c", "osu_util_graph.c",
        "osu_util_papi.c"]
SHOW = (8, 1024, 65536)  # sizes in the table


def build(src, out, name, entry):
    """{benchmark: executable}, compiled once per MPI with its own mpicc
    (a wheel's) or the Debian one of its family"""
    d = os.path.join(out, entry.get("build_as", name))
    os.makedirs(d, exist_ok=True)
    c = os.path.join(src, "c")
    util = [os.path.join(c, "util", u) for u in UTIL]
    cc = entry.get("cc") or mpilib.MPIS[entry["family"]]["cc"]
    exes = {}
    for b in BENCHES:
        exe = os.path.join(d, "osu_" + b)
        if not os.path.exists(exe):
            cmd = ([cc, "-O2", "-w", "-DFIELD_WIDTH=18",
                    "-DFLOAT_PRECISION=2", "-I", os.path.join(c, "util")]
                   + util + [os.path.join(c, "mpi", "collective",
                                          f"osu_{b}.c"), "-o", exe, "-lm"])
            r = subprocess.run(cmd, capture_output=True, text=True,
                               env=dict(os.environ, **entry.get("env", {})))
            if r.returncode != 0:
                mpilib.die(f"osu_{b} does not build with {cmd[0]}:\n"
                           + r.stderr[-1500:])
        exes[b] = exe
    return exes


def osu(entry, exe, n, mx, lib, extra, env=None, timeout=600):
    env = dict(env or {})
    if lib:
        env["LD_PRELOAD"] = lib
    argv = [exe] + ([] if exe.endswith("barrier") else ["-m", f"8:{mx}"])
    cmd = [entry["run"]]
    if entry["family"] == "openmpi":
        if os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
        if n > os.cpu_count():
            cmd.append("--oversubscribe")
        for k in env:
            cmd += ["-x", k]
    else:
        for k, v in env.items():
            cmd += ["-genv", k, v]
    cmd += ["-n", str(n)] + argv + extra
    st, out, err = mpilib.run(cmd, timeout=timeout, capture_stderr=True,
                              env=dict(entry.get("env", {}), **env))
    if st != 0:
        mpilib.die(f"{' '.join(cmd)}: exit {st}\n{(out + err)[-3000:]}")
    return out, err


def parse(out):
    """{bytes: average latency in us} (a barrier: {0: ...}); and the
    validation column where there is one"""
    res, valid = {}, []
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 1 and re.fullmatch(r"[0-9.]+", f[0]):
            if len(f) == 1 or not re.fullmatch(r"[0-9.]+", f[1]):
                res[0] = float(f[0])  # barrier: latency only
            else:
                res[int(f[0])] = float(f[1])
            valid += f[2:3]
    return res, valid


def main():
    ap = mpilib.outside_parser(__doc__, "osu-src", "/tmp/manycoll-osu")
    ap.add_argument("--mpis", default="openmpi,mpich")
    ap.add_argument("--ranks", default="2,4")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--max", type=int, default=65536)
    ap.add_argument("--lib-dir", default=os.path.join(mpilib.ROOT, "build",
                                                      "src", "mpi"))
    ap.add_argument("--wheels", help="the wheel MPIs under this directory "
                    "(tools/mpi_wheels.sh)")
    ap.add_argument("--osu-args", default="",
                    help="more arguments for every benchmark but the "
                         "barrier (e.g. \"-T mpi_int\")")
    a = ap.parse_args()
    more = a.osu_args.split()
    if not os.path.exists(os.path.join(a.osu_src, "c", "util",
                                       "osu_util.c")):
        mpilib.die(f"--osu-src: no c/util/osu_util.c under {a.osu_src}")
    print("| MPI | ranks | benchmark | bytes | without, us | with, us | "
          "without/with |\n|---|---|---|---|---|---|---|", flush=True)
    known = {m: dict(mpilib.MPIS[m], family=m) for m in
             mpilib.ensure_mpis(["openmpi", "mpich"], install=False)}
    known.update(userview.wheel_mpis(a.wheels))
    for mpi in a.mpis.split(","):
        entry = known.get(mpi)
        if not entry:
            mpilib.die(f"--mpis: '{mpi}' is not here (known: "
                       f"{', '.join(known)}; wheels need --wheels DIR)")
        lib = os.path.abspath(os.path.join(a.lib_dir,
                                           LIBS[entry["family"]]))
        if not os.path.exists(lib):
            mpilib.die(f"{lib} not built (make)")
        exes = build(a.osu_src, a.build, mpi, entry)
        label = userview.version(entry)
        for n in map(int, a.ranks.split(",")):
            for b, exe in exes.items():
                if b == "barrier":
                    continue  # nothing to validate
                out, err = osu(entry, exe, n, a.max, lib, ["-c"] + more,
                               {"MC_MPI_VERBOSE": "1"})
                res, valid = parse(out)
                if not res or any(v != "Pass" for v in valid):
                    mpilib.die(f"{label}, {n} ranks, osu_{b} -c through "
                               f"the library:\n{out}")
                if not re.search(r"^\s+\w+\s+[1-9]\d* manycoll", err, re.M):
                    mpilib.log(f"{label} {n} ranks osu_{b}: manycoll took "
                               "no call")
            mpilib.log(f"{label}, {n} ranks: OSU -c through the library: "
                       "every size of every benchmark passed")
            for b, exe in exes.items():
                runs = {False: [], True: []}
                for _ in range(a.reps):
                    for with_lib in (False, True):
                        o, _ = osu(entry, exe, n, a.max,
                                   lib if with_lib else None,
                                   [] if b == "barrier" else more)
                        runs[with_lib].append(parse(o)[0])
                for size in sorted(runs[False][0]):
                    if size and size not in SHOW:
                        continue
                    wo = statistics.median(r[size] for r in runs[False])
                    wi = statistics.median(r[size] for r in runs[True])
                    print(f"| {label} | {n} | {b} | {size or '-'} | "
                          f"{wo:.2f} | {wi:.2f} | "
                          f"{wo / wi if wi else float('nan'):.2f} |",
                          flush=True)


if __name__ == "__main__":
    main()
