#!/usr/bin/env python3
"""MPICH's own collective test suite, unmodified, with and without
libmanycoll_mpi.

    bench/mpich_coll_tests.py --mpich-src PATH [--mpis openmpi,mpich]
        [--np 2,3,4] [--nodes 4,6] [--tests REGEX] [--timeout 60]
        [--build DIR] [--lib-dir build/src/mpi] [--wheels DIR] [--md FILE]

PATH is a checkout of the public pmodels/mpich repository; only its
test/mpi tree is read. Nothing of it enters this tree: per MPI the tests
listed in test/mpi/coll/testlist.in are compiled with that MPI's mpicc
into DIR (default /tmp/manycoll-mpich-tests/MPI), with a hand-written
mpitestconf.h in place of the suite's configure (USE_STRICT_MPI: no MPIX
extensions). A test that does not compile under an MPI (an MPI 4 call
under Open MPI 4.1, a removed MPI 1 call) is reported as "not built".

Each entry of the testlist (a test and its arguments, without the
entries that need more memory than this machine has, more than 60 s, GPU
buffers, or MPICH's internal CVARs) runs at every rank count of --np,
three ways, each a fresh mpirun:

* mpi: the MPI library alone;
* mc: with the library preloaded (MC_MPI_VERBOSE=1, to count the calls
  manycoll took);
* nodes: preloaded, with MC_MPI_NODE_SIZE=2, at every rank count of
  --nodes (2 and 3 "nodes": the hierarchical path).

With --wheels DIR (tools/mpi_wheels.sh) the MPIs of the PyPI wheels run
too (Open MPI 5.0, MPICH 5.0, Intel MPI): the tests are built with the
wheel's own mpicc (Intel MPI's runtime has none: MPICH 5.0's, same ABI),
and the library is the variant of its ABI family, built against the
Debian MPI of that family (--mpis names any of openmpi, mpich, openmpi5,
mpich5, impi).

A run passes when mpirun exits 0 and the output says " No Errors" (the
suite's rule). The script prints a markdown table per MPI and a summary;
its exit status is 1 if a test that passes alone fails with the library.
More ranks than CPUs run oversubscribed.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpilib  # noqa: E402
import userview  # noqa: E402

LIBS = {"openmpi": "libmanycoll_mpi_openmpi.so",
        "mpich": "libmanycoll_mpi_mpich.so"}
CONF = """#define HAVE_STDARG_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_UNISTD_H 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define HAVE_LONG_LONG_INT 1
#define HAVE__BOOL 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_LONG_DOUBLE__COMPLEX 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
"""
UTIL = ["util/run_mpitests.c", "util/mtest.c", "util/mtest_common.c",
        "util/mtest_single.c", "util/dtypes.c"]
# testlist attributes that put an entry out of reach here
SKIP_ATTR = re.compile(r"mem=|env=MPIR_CVAR|timeLimit=(?:[6-9]\d|\d{3})")
NOERR = re.compile(r"^\s*No Errors\s*$", re.M)
VERBOSE = re.compile(r"^\s+(\w+)\s+(\d+) manycoll\s+(\d+) MPI", re.M)


def testlist(src, regex):
    """[(name, [args])] of coll/testlist.in, in order, without duplicates
    and without the entries SKIP_ATTR rules out."""
    out, seen = [], set()
    with open(os.path.join(src, "coll", "testlist.in")) as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#") or "@" in line:
                continue
            if SKIP_ATTR.search(line) or not re.search(regex, words[0]):
                continue
            args = [w[4:] for w in words[2:] if w.startswith("arg=")]
            key = (words[0], tuple(args))
            if key not in seen:
                seen.add(key)
                out.append((words[0], args))
    return out


def compile_one(cc, flags, srcs, out, env=None):
    r = subprocess.run([cc] + flags + srcs + ["-o", out, "-lm"],
                       capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})))
    if r.returncode == 0:
        return None
    err = [x for x in r.stderr.splitlines() if "error" in x]
    return (err[0] if err else r.stderr.strip()[-200:]).strip()


def build(src, bdir, entry, names):
    """Compiles the support objects and each test with the MPI's own
    compiler wrapper (a wheel's, or else the Debian one of its family);
    returns {name: None (built) or the first error line}."""
    cc = entry.get("cc") or mpilib.MPIS[entry["family"]]["cc"]
    env = entry.get("env", {})
    inc = os.path.join(bdir, "include")
    os.makedirs(inc, exist_ok=True)
    with open(os.path.join(inc, "mpitestconf.h"), "w") as f:
        f.write(CONF)
    open(os.path.join(inc, "mtest_mpix.h"), "w").close()
    with open(os.path.join(bdir, "dtpoolsconf.h"), "w") as f:
        f.write("#define HAVE_LONG_DOUBLE 1\n#define HAVE_LONG_LONG 1\n")
    flags = ["-O1", "-w", "-DUSE_STRICT_MPI", "-I", inc,
             "-I", os.path.join(src, "include"),
             "-I", os.path.join(src, "dtpools", "include")]
    dtp = sorted(os.path.join("dtpools", "src", x) for x in
                 os.listdir(os.path.join(src, "dtpools", "src"))
                 if x.endswith(".c"))
    objs = {}
    for s in UTIL + dtp:
        o = os.path.join(bdir, os.path.basename(s)[:-2] + ".o")
        err = compile_one(cc, flags + ["-c"], [os.path.join(src, s)], o,
                          env)
        if err:
            mpilib.die(f"{s} does not compile with {cc}: {err}")
        objs[s] = o
    support = [o for s, o in objs.items() if s != "util/run_mpitests.c"]
    res = {}
    for n in sorted(set(names)):
        c = os.path.join(src, "coll", n + ".c")
        with open(c, errors="replace") as f:
            has_main = re.search(r"^int\s+main\s*\(", f.read(), re.M)
        main = [] if has_main else [objs["util/run_mpitests.c"]]
        res[n] = compile_one(cc, flags, [c] + main + support,
                             os.path.join(bdir, n), env)
    return res


def launcher(entry, exe, args, np, env):
    """The command line of one run, and the environment it needs."""
    cmd = [entry["run"]]
    if entry["family"] == "openmpi":
        cmd += ["--oversubscribe"] + (
            ["--allow-run-as-root"] if os.geteuid() == 0 else [])
        for k in env:
            cmd += ["-x", k]
    return cmd + ["-n", str(np), exe] + args, dict(entry.get("env", {}),
                                                   **env)


def run_one(entry, exe, args, np, env, timeout):
    """(passed, calls manycoll took, calls it left to MPI, a short reason)"""
    cmd, env = launcher(entry, exe, args, np, env)
    st, out, err = mpilib.run(cmd, timeout=timeout, capture_stderr=True,
                              env=env)
    text = out + err
    mc = sum(int(m.group(2)) for m in VERBOSE.finditer(text))
    other = sum(int(m.group(3)) for m in VERBOSE.finditer(text))
    if st is None:
        return False, mc, other, f"timed out after {timeout} s"
    ok = st == 0 and NOERR.search(text) is not None
    why = "" if ok else f"status {st}: " + " | ".join(
        x.strip() for x in text.splitlines()
        if x.strip() and not VERBOSE.match(x)
        and not x.startswith("manycoll_mpi: rank"))[:160]
    return ok, mc, other, why


def campaign(a, entry, src):
    fam = entry["family"]
    bdir = os.path.join(a.build, entry.get("build_as", entry["name"]))
    entries = testlist(src, a.tests)
    mpilib.log(f"{entry['label']}: building "
               f"{len(set(n for n, _ in entries))} tests in {bdir}")
    built = build(src, bdir, entry, [n for n, _ in entries])
    lib = os.path.abspath(os.path.join(a.lib_dir, LIBS[fam]))
    if not os.path.exists(lib):
        mpilib.die(f"{lib} not found (build it, or give --lib-dir)")
    modes = [("mpi", n, {}) for n in sorted(set(a.np + a.nodes))]
    modes += [("mc", n, {"LD_PRELOAD": lib, "MC_MPI_VERBOSE": "1"})
              for n in a.np]
    modes += [("nodes", n, {"LD_PRELOAD": lib, "MC_MPI_VERBOSE": "1",
                            "MC_MPI_NODE_SIZE": "2"}) for n in a.nodes]
    rows, fails = [], []
    for name, args in entries:
        label = " ".join([name] + args)
        if built[name]:
            rows.append((label, None, built[name]))
            continue
        cells = {}
        for mode, np, env in modes:
            r = run_one(entry, os.path.join(bdir, name), args, np, env,
                        a.timeout)
            cells[(mode, np)] = r
            if not r[0]:
                mpilib.log(f"  {label} {mode} -n {np}: FAIL {r[3]}")
        for mode, np, _ in modes:
            base = cells[("mpi", np)][0]
            if mode != "mpi" and base and not cells[(mode, np)][0]:
                fails.append(f"{label} {mode} -n {np}: "
                             f"{cells[(mode, np)][3]}")
        rows.append((label, cells, None))
    return modes, rows, fails


def table(label, modes, rows):
    head = [f"{m} {n}" for m, n, _ in modes]
    lines = [f"### {label}", "",
             "| test | " + " | ".join(head) + " | calls manycoll / MPI |",
             "|---" * (len(head) + 2) + "|"]
    tot = {h: [0, 0] for h in head}
    mc = other = 0
    for label, cells, err in rows:
        if cells is None:
            lines.append(f"| {label} | not built: `{err[:70]}` |"
                         + " |" * len(head))
            continue
        out = []
        for (m, n, _), h in zip(modes, head):
            ok = cells[(m, n)][0]
            tot[h][0] += ok
            tot[h][1] += 1
            out.append("pass" if ok else "**FAIL**")
        c_mc = sum(cells[(m, n)][1] for m, n, _ in modes if m == "mc")
        c_ot = sum(cells[(m, n)][2] for m, n, _ in modes if m == "mc")
        mc, other = mc + c_mc, other + c_ot
        lines.append(f"| {label} | " + " | ".join(out)
                     + f" | {c_mc} / {c_ot} |")
    lines.append("| passed | " + " | ".join(
        f"{p}/{t}" for p, t in tot.values()) + f" | {mc} / {other} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpich-src", required=True,
                    help="a checkout of pmodels/mpich (test/mpi is read)")
    ap.add_argument("--mpis", default="openmpi,mpich")
    ap.add_argument("--np", default="2,3,4")
    ap.add_argument("--nodes", default="4,6",
                    help="rank counts run as 2-rank 'nodes'")
    ap.add_argument("--tests", default=".", help="regex on test names")
    mpilib.suite_args(ap, "/tmp/manycoll-mpich-tests", 60)
    ap.add_argument("--wheels", help="also the wheel MPIs under this "
                    "directory (tools/mpi_wheels.sh)")
    a = ap.parse_args()
    a.np = [int(x) for x in a.np.split(",") if x]
    a.nodes = [int(x) for x in a.nodes.split(",") if x]
    src = os.path.join(os.path.abspath(a.mpich_src), "test", "mpi")
    if not os.path.exists(os.path.join(src, "coll", "testlist.in")):
        mpilib.die(f"--mpich-src: no test/mpi/coll/testlist.in under "
                   f"{a.mpich_src}")
    known = {m: dict(mpilib.MPIS[m], family=m) for m in
             mpilib.ensure_mpis(["openmpi", "mpich"], install=False)}
    known.update(userview.wheel_mpis(a.wheels))
    md, bad = [], []
    for mpi in a.mpis.split(","):
        entry = known.get(mpi)
        if not entry or entry["family"] not in known:
            mpilib.die(f"--mpis: '{mpi}' is not here (known: "
                       f"{', '.join(known)}; wheels need --wheels DIR)")
        entry["label"] = userview.version(entry)
        entry["name"] = mpi
        modes, rows, fails = campaign(a, entry, src)
        md.append(table(entry["label"], modes, rows))
        print(md[-1], flush=True)
        bad += [f"{entry['label']}: {f}" for f in fails]
    mpilib.suite_end(md, bad, a.md)

if __name__ == "__main__":
    main()
