#!/usr/bin/env python3
"""bench/icount_check.py: the guard of the small fast paths (issue 44).

    bench/icount_check.py [--build DIR] [--baseline FILE] [--rewrite]
                          [--colls barrier,allreduce,bcast,reduce]
                          [--ranks 0,1] [--calls 200] [--bytes 8]
                          [--functions COLL] [--json] [--mpi openmpi|mpich]

Measures, per call at 2 ranks (rank 0 is the root), for each collective:
the instructions the library executes, the distinct 64-byte lines it
reads or writes, and among them the lines of the shared segment
(bench/icount_lines.py: valgrind's lackey over marked calls of
bench/icount_calls.c, calls that waited for the partner left out; the
same figures on every run). Then compares them with the committed
baseline (bench/icount_baseline.json) of the same build configuration
(compiler, its version, build type, LTO): a call regressed when it runs
more than 3% more instructions, or touches a line more, or a shared line
more. Prints a row per call and exits 1 if one regressed.

--mpi MPI runs the same calls through MPI_* on MPI_COMM_WORLD
(bench/icount_calls_mpi_MPI, under mpirun, libmanycoll_mpi_MPI.so
preloaded): the drop-in's whole path, compared with a baseline entry of
its own (`make icount-check ICOUNT_ARGS="--mpi openmpi"`).

--rewrite records the figures as the baseline of this configuration
(with the commit and the date; the others are kept). A configuration
without a baseline, or a machine without valgrind, is skipped (exit 77:
ctest's SKIP). --functions COLL prints where the instructions of one
call go, per function, and nothing else.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import icount_lines  # noqa: E402

INSTR_TOL = 0.03  # relative
LINES_TOL = 0     # lines more than the baseline that still pass
# through MPI the private lines move by 1 or 2 from run to run (the MPI
# library's heap and its start-up), the shared ones and the instructions
# do not
LINES_TOL_MPI = 2
SKIP = 77


def options():
    ap = argparse.ArgumentParser(prog="bench/icount_check.py",
                                 description=__doc__.split("\n\n")[1])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--baseline",
                    default=os.path.join(HERE, "icount_baseline.json"))
    ap.add_argument("--rewrite", action="store_true")
    ap.add_argument("--colls", default="barrier,allreduce,bcast,reduce")
    ap.add_argument("--ranks", default="0,1")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--bytes", type=int, default=8)
    ap.add_argument("--functions", default=None, metavar="COLL")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--mpi", choices=sorted(icount_lines.MPIRUN),
                    help="the same calls through MPI_* with "
                         "libmanycoll_mpi_MPI.so preloaded (its own "
                         "baseline entry)")
    a = ap.parse_args()
    a.colls = [c for c in a.colls.split(",") if c]
    a.ranks = [int(r) for r in a.ranks.split(",")]
    return a


def cache(build):
    vals = {}
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            m = re.match(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", line.rstrip("\n"))
            if m:
                vals[m.group(1)] = m.group(2)
    return vals


def config(build):
    """the build configuration the figures depend on, as one string"""
    c = cache(build)
    cc = c.get("CMAKE_C_COMPILER", "cc")
    ver = subprocess.run([cc, "--version"], capture_output=True,
                         text=True).stdout.splitlines()[:1]
    lto = c.get("MC_LTO", "ON") == "ON" and c.get("MC_SANITIZE") != "ON"
    return (f"{ver[0] if ver else cc}; {c.get('CMAKE_BUILD_TYPE', '')}; "
            f"LTO {'on' if lto else 'off'}; sanitizers "
            f"{'on' if c.get('MC_SANITIZE') == 'ON' else 'off'}")


def commit():
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
    rev = git("rev-parse", "--short", "HEAD")
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return rev + ("+changes" if dirty else "")


def compare(base, now, lines_tol=LINES_TOL):
    """[(call, verdict, why)] and whether one regressed"""
    rows, bad = [], False
    for call, v in now.items():
        b = base.get(call)
        if b is None:
            rows.append((call, "new", "not in the baseline"))
            continue
        why = []
        if v["instr"] > b["instr"] * (1 + INSTR_TOL):
            why.append(f"instructions +{v['instr'] - b['instr']} "
                       f"(+{100 * (v['instr'] / b['instr'] - 1):.1f}%)")
        for k, name, tol in (("lines", "lines", lines_tol),
                             ("shared", "shared lines", LINES_TOL)):
            if v[k] > b[k] + tol:
                why.append(f"{name} +{v[k] - b[k]}")
        better = v["instr"] < b["instr"] * (1 - INSTR_TOL) or \
            v["lines"] < b["lines"] or v["shared"] < b["shared"]
        bad = bad or bool(why)
        rows.append((call, "REGRESSED" if why else
                     "better" if better else "ok", ", ".join(why)))
    return rows, bad


def table(base, now, rows):
    print(f"{'call':<14} {'instr':>11} {'lines':>9} {'shared':>8}  verdict")
    for call, verdict, why in rows:
        v, b = now[call], base.get(call)

        def cell(k):
            return f"{v[k]}" if b is None else f"{b[k]}>{v[k]}" \
                if b[k] != v[k] else f"{v[k]}"
        print(f"{call:<14} {cell('instr'):>11} {cell('lines'):>9} "
              f"{cell('shared'):>8}  {verdict}{': ' + why if why else ''}")


def load(path):
    if not os.path.exists(path):
        return {"configs": {}}
    with open(path) as f:
        return json.load(f)


def rewrite(a, data, cfg, now):
    cmd = "bench/icount_check.py --rewrite" + \
        (f" --build {os.path.relpath(a.build, ROOT)}"
         if os.path.abspath(a.build) != os.path.join(ROOT, "build") else "")
    data.setdefault("configs", {})[cfg] = {
        "commit": commit(),
        "date": datetime.datetime.now(datetime.timezone.utc)
        .strftime("%Y-%m-%d %H:%M UTC"),
        "command": cmd, "calls": a.calls, "bytes": a.bytes,
        "results": {c: {k: v[k] for k in ("instr", "lines", "shared")}
                    for c, v in now.items()}}
    with open(a.baseline, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"icount-check: wrote the baseline of '{cfg}' to {a.baseline}")


def main():
    a = options()
    if not shutil.which("valgrind"):
        print("icount-check: SKIP: no valgrind (apt-get install valgrind)")
        return SKIP
    prog = os.path.join(a.build, "bench", "icount_calls")
    lib = os.path.realpath(os.path.join(a.build, "libmanycoll.so"))
    if a.mpi:
        prog += "_mpi_" + a.mpi
        lib = os.path.realpath(os.path.join(
            a.build, "src", "mpi", f"libmanycoll_mpi_{a.mpi}.so"))
        if not shutil.which(icount_lines.MPIRUN[a.mpi][0]):
            print(f"icount-check: SKIP: no {icount_lines.MPIRUN[a.mpi][0]}")
            return SKIP
    if not os.path.exists(prog):
        sys.exit(f"icount-check: no {prog} (cmake --build {a.build} "
                 f"--target {os.path.basename(prog)})")
    if a.functions:
        fn = icount_lines.per_function(prog, lib, a.ranks[0], a.functions,
                                       a.calls, a.bytes)
        for name, n in sorted(fn.items(), key=lambda x: -x[1]):
            print(f"{n:6d}  {name}")
        print(f"{sum(fn.values()):6d}  total ({a.functions}, rank "
              f"{a.ranks[0]}, {a.bytes} B)")
        return 0
    cfg = config(a.build) + (f"; through MPI ({a.mpi})" if a.mpi else "")
    data = load(a.baseline)
    now = icount_lines.measure(prog, lib, a.ranks, a.colls, a.calls, a.bytes,
                               a.mpi)
    if a.json:
        print(json.dumps(now, indent=1, sort_keys=True))
    if a.rewrite:
        rewrite(a, data, cfg, now)
        return 0
    entry = data["configs"].get(cfg)
    if entry is None:
        table({}, now, [(c, "", "") for c in now])
        print(f"icount-check: SKIP: no baseline for '{cfg}' in "
              f"{a.baseline} (record one with --rewrite)")
        return SKIP
    rows, bad = compare(entry["results"], now,
                        LINES_TOL_MPI if a.mpi else LINES_TOL)
    print(f"# per call at 2 ranks ({a.bytes} B; rank 0 is the root): "
          f"baseline {entry['commit']} ({entry['date']}) > now")
    table(entry["results"], now, rows)
    return verdict(cfg, bad, LINES_TOL_MPI if a.mpi else LINES_TOL)


def verdict(cfg, bad, lines_tol):
    """the last line, and the exit status: 1 if a call regressed"""
    word = "REGRESSED" if bad else "ok"
    print(f"icount-check: {word} (limits: instructions +{INSTR_TOL:.0%}, "
          f"lines +{lines_tol}, shared lines +{LINES_TOL}; config '{cfg}')")
    return int(bad)


if __name__ == "__main__":
    sys.exit(main())
