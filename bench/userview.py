"""bench/compare --user-view: the same program with and without
libmanycoll_mpi, per MPI, interleaved in the same processes.

bench/mpi_compare is started with the library preloaded, so its MPI_X
calls go through the library while PMPI_X reaches the MPI alone:
  --sides pmpi,lib   MPI alone against MPI with the library
                     (ratio > 1: the library is faster)
  --sides lib,mc     the library against manycoll called directly
                     (ratio < 1.15 at small sizes is the target)
Shapes: 2 ranks; 8 ranks on the 2 CPUs (oversubscribed); 2x2 and 3x2
"nodes" (MC_MPI_NODE_SIZE=2 with 4 and 6 ranks: the library runs its
hierarchy, MPI its own algorithms, and manycoll called directly is flat
over all ranks -- hierarchy against flat manycoll on one machine).
MPIs: the Debian ones, and with --wheels DIR (tools/mpi_wheels.sh) Open
MPI 5.0, MPICH 5.0 and Intel MPI, which run the binaries built for their
ABI family.
"""
import os
import re
import subprocess

import mpilib
from mpilib import log

SHAPES = [  # label, ranks, node size, oversubscribed, sizes
    ("2 ranks", 2, 0, False, "8,1K,64K,1M"),
    ("8 ranks on 2 CPUs", 8, 0, True, "8,1K"),
    ("2x2 nodes", 4, 2, False, "8,1K,64K,1M"),
    ("3x2 nodes", 6, 2, False, "8,1K,64K"),
]


def wheel_mpis(d):
    """The wheel MPIs under d: {name: entry like mpilib.MPIS}."""
    if not d:
        return {}
    d = os.path.abspath(d)
    out = {}
    o5 = os.path.join(d, "openmpi-5.0")
    if os.path.isdir(o5):
        out["openmpi5"] = {
            "label": "Open MPI 5.0", "family": "openmpi",
            "run": os.path.join(o5, "bin", "mpirun"),
            "cc": os.path.join(o5, "bin", "mpicc"),
            "env": {"OPAL_PREFIX": o5,
                    "LD_LIBRARY_PATH": os.path.join(o5, "lib")}}
    m5 = os.path.join(d, "mpich-5.0")
    if os.path.isdir(m5):
        out["mpich5"] = {
            "label": "MPICH 5.0", "family": "mpich",
            "run": os.path.join(m5, "bin", "mpiexec"),
            "cc": os.path.join(m5, "bin", "mpicc"),
            "env": {"LD_LIBRARY_PATH": os.path.join(m5, "lib") + ":" +
                    os.path.join(m5, "compat")}}
    im = os.path.join(d, "impi")
    if os.path.isdir(im):
        # the runtime has no compiler: programs for it are built by MPICH
        # 5.0's (same ABI; LD_LIBRARY_PATH overrides their RUNPATH)
        out["impi"] = {
            "label": "Intel MPI", "family": "mpich",
            "run": os.path.join(im, "bin", "mpiexec"),
            "env": {"I_MPI_ROOT": im, "I_MPI_FABRICS": "shm",
                    "LD_LIBRARY_PATH": os.path.join(im, "lib") + ":" +
                    os.path.join(im, "compat")}}
    if "mpich5" in out and "impi" in out:
        out["impi"]["cc"] = out["mpich5"]["cc"]
        out["impi"]["build_as"] = "mpich5"
    return out


def version(entry):
    """The MPI's label with the version its launcher reports"""
    r = subprocess.run([entry["run"], "--version"], capture_output=True,
                       text=True, env=dict(os.environ,
                                           **entry.get("env", {})))
    m = re.search(r"(?:Version:?|\((?:Open MPI|OpenRTE)\))\s*(\d+\.\d+(\.\d+)?)",
                  r.stdout + r.stderr)
    label = re.sub(r" \d+(\.\d+)*$", "", entry["label"])
    return f"{label} {m.group(1)}" if m else entry["label"]


def command(mpi, entry, prog, lib, shape, sides, a):
    label, n, k, over, sizes = shape
    env = ["env", f"LD_PRELOAD={lib}", "MC_TUNING=none",
           f"MC_MPI_NODE_SIZE={k}"]
    args = env + [prog, "--json", "--quiet", "--sides", sides,
                  "--colls", a.user_colls, "--sizes", sizes]
    if over:
        args += ["--iters", str(a.oversub_iters), "--max-seconds",
                 str(a.oversub_case_seconds)]
    else:
        args += ["--max-seconds", str(a.user_seconds)]
    fam = entry.get("family", mpi)
    cmd = [entry["run"]]
    if fam == "openmpi":
        if os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
        cmd.append("--oversubscribe")
        if over:
            cmd += ["--mca", "mpi_yield_when_idle", "1"]
    return cmd + ["-n", str(n)] + args


def run_all(a, meta, progs, measure_cmd):
    """Runs every (MPI, shape, sides); returns [(mpi label, shape label,
    sides, rows)]."""
    mpis = {m: dict(mpilib.MPIS[m], family=m) for m in progs}
    mpis.update(wheel_mpis(a.wheels))
    out = []
    for mpi, entry in mpis.items():
        fam = entry["family"]
        if fam not in progs:
            continue
        lib = os.path.join(a.build, "src", "mpi", f"libmanycoll_mpi_{fam}.so")
        if not os.path.exists(lib):
            mpilib.die(f"{lib} is missing: build it (make build)")
        for shape in SHAPES:
            for sides in ("pmpi,lib", "lib,mc"):
                cmd = command(mpi, entry, progs[fam], lib, shape, sides, a)
                name = (f"user-{mpi}-n{shape[1]}-k{shape[2]}-"
                        f"{sides.replace(',', '-')}")
                log(f"{entry['label']}, {shape[0]}, {sides}")
                rows, why = measure_cmd(a, meta, name, cmd,
                                        entry.get("env", {}))
                out.append((entry["label"], shape[0], sides, rows, why))
    return out


def table(results, fmt_us, fmt_size):
    print("\n== the user's view: the same program, MPI alone and with "
          "libmanycoll_mpi (interleaved in one run) ==")
    print("p50 in us; MPI/lib = paired ratio, MPI alone over the library "
          "(> 1: the library is faster); lib/mc = paired ratio, the library "
          "over manycoll called directly (flat over all ranks)")
    byk = {}
    for mpi, shape, sides, rows, why in results:
        for r in rows:
            byk.setdefault((mpi, shape, r["coll"], r["bytes"]), {})[sides] = r
    print(f"{'MPI':<12} {'shape':<18} {'coll':<10} {'bytes':>6} "
          f"{'MPI':>8} {'lib':>8} {'MPI/lib':>7} {'mc':>8} {'lib/mc':>6}")
    for (mpi, shape, coll, b), v in byk.items():
        p, m = v.get("pmpi,lib"), v.get("lib,mc")
        print(f"{mpi:<12} {shape:<18} {coll:<10} {fmt_size(b):>6} "
              f"{fmt_us(p['mpi_p50_us']) if p else '-':>8} "
              f"{fmt_us(p['mc_p50_us']) if p else '-':>8} "
              f"{p['ratio_paired'] if p else 0:>7.2f} "
              f"{fmt_us(m['mc_p50_us']) if m else '-':>8} "
              f"{m['ratio_paired'] if m else 0:>6.2f}")
    for mpi, shape, sides, rows, why in results:
        if why:
            print(f"# {mpi}, {shape}, {sides}: {why}")
