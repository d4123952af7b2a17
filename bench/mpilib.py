"""Shared by bench/compare and bench/icount: the two Debian MPIs, building
manycoll and bench/mpi_compare once per MPI, and starting jobs with mpirun.

Progress goes to stderr; results are returned to the caller.
"""
import argparse
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ["openmpi-bin", "libopenmpi-dev", "mpich", "libmpich-dev"]
MPIS = {
    "openmpi": {"label": "Open MPI", "cc": "mpicc.openmpi",
                "run": "mpirun.openmpi"},
    "mpich": {"label": "MPICH", "cc": "mpicc.mpich", "run": "mpirun.mpich"},
}
CFLAGS = ["-std=c11", "-O2", "-g", "-Wall", "-Wextra", "-Werror", "-Wshadow",
          "-Wstrict-prototypes", "-D_GNU_SOURCE"]
SOURCES = ["bench/mpi_compare.c", "bench/mpi_cases.c"]

_t0 = time.monotonic()


def log(msg):
    """One progress line on stderr, with the time since the start."""
    print(f"[{time.monotonic() - _t0:6.1f}s] {msg}", file=sys.stderr,
          flush=True)


def die(msg, code=1):
    print(f"{os.path.basename(sys.argv[0])}: {msg}", file=sys.stderr)
    sys.exit(code)


def have(mpi):
    m = MPIS[mpi]
    return bool(shutil.which(m["cc"]) and shutil.which(m["run"]))


def ensure_mpis(wanted, install=True):
    """Installs the Debian MPI packages if one of `wanted` is missing.
    Returns the MPIs that are usable afterwards."""
    missing = [m for m in wanted if not have(m)]
    if missing and install:
        log(f"missing {', '.join(missing)}: apt-get install "
            f"{' '.join(PACKAGES)}")
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for cmd in (sudo + ["apt-get", "update", "-qq"],
                    sudo + ["apt-get", "install", "-y", "-qq",
                            "--no-install-recommends"] + PACKAGES):
            r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL)
            if r.returncode != 0:
                log(f"'{' '.join(cmd)}' failed (status {r.returncode})")
                break
    usable = [m for m in wanted if have(m)]
    for m in wanted:
        if m not in usable:
            log(f"{MPIS[m]['label']} is not usable: {MPIS[m]['cc']} or "
                f"{MPIS[m]['run']} not found")
    return usable


def build_manycoll(build, src=ROOT):
    """Configures `build` from the manycoll tree `src` like `make build`
    and builds the shared library (all mpi_compare needs); a no-op when
    nothing changed."""
    log(f"building libmanycoll.so of {src} in {build}")
    jobs = str(os.cpu_count() or 2)
    for cmd in (["cmake", "-S", src, "-B", build,
                 "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
                ["cmake", "--build", build, "--target", "manycoll", "-j",
                 jobs]):
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL)
        if r.returncode != 0:
            die(f"building manycoll failed: {shlex.join(cmd)}")
    return os.path.join(build, "libmanycoll.so")


def build_compare(build, mpi, src=ROOT):
    """bench/mpi_compare (always this tree's) compiled with this MPI's
    mpicc against manycoll.h of `src`, linked to build/libmanycoll.so;
    returns the program's path."""
    out = os.path.join(build, "bench", f"mpi_compare.{mpi}")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = ([MPIS[mpi]["cc"]] + CFLAGS + ["-I", os.path.join(src, "include")]
           + [os.path.join(ROOT, s) for s in SOURCES]
           + ["-L", build, "-lmanycoll", f"-Wl,-rpath,{build}", "-o", out])
    log(f"building {out}")
    r = subprocess.run(cmd)
    if r.returncode != 0:
        die(f"building mpi_compare for {MPIS[mpi]['label']} failed:\n  "
            + shlex.join(cmd))
    return out


def export_rev(rev, build):
    """The tree of commit `rev` (git archive) in build/bench/rev-SHA/src;
    returns (src, its build directory, label)."""
    r = subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify",
                        f"{rev}^{{commit}}"], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"--rev: '{rev}' is not a commit of {ROOT}")
    sha = r.stdout.strip()[:12]
    top = os.path.join(build, "bench", f"rev-{sha}")
    src = os.path.join(top, "src")
    if not os.path.isdir(src):
        log(f"exporting {rev} ({sha}) to {src}")
        os.makedirs(src)
        git = subprocess.Popen(["git", "-C", ROOT, "archive", sha],
                               stdout=subprocess.PIPE)
        tar = subprocess.run(["tar", "-x", "-C", src], stdin=git.stdout)
        if git.wait() != 0 or tar.returncode != 0:
            shutil.rmtree(top, ignore_errors=True)
            die(f"cannot export {rev} with git archive")
    return src, os.path.join(top, "build"), f"{rev} ({sha})"


def prepare(a, mpis):
    """Installs missing MPIs, builds manycoll (this tree, or --rev) and
    mpi_compare per MPI. Returns ({mpi: program}, manycoll label)."""
    for m in mpis:
        if m not in MPIS:
            die(f"--mpis: unknown MPI '{m}' (openmpi, mpich)")
    mpis = ensure_mpis(mpis, install=not a.no_install)
    if not mpis:
        die("no MPI to compare with (apt-get install " + " ".join(PACKAGES)
            + ")")
    src, build, label = ROOT, a.build, None
    if getattr(a, "rev", None):
        src, build, label = export_rev(a.rev, a.build)
    if label is None:
        label = subprocess.run(["git", "-C", ROOT, "describe", "--always",
                                "--dirty"], capture_output=True,
                               text=True).stdout.strip() + " (working tree)"
    if not a.no_build:
        build_manycoll(build, src)
    progs = {}
    for m in mpis:
        p = os.path.join(build, "bench", f"mpi_compare.{m}")
        progs[m] = p if a.no_build and os.path.exists(p) else \
            build_compare(build, m, src)
    return progs, label


def mpirun_env():
    env = dict(os.environ)
    if os.geteuid() == 0:  # Open MPI refuses root without both of these
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    return env


def mpirun(mpi, contexts, oversubscribe=False, yield_when_idle=False):
    """The mpirun command for app contexts [(nranks, argv), ...]."""
    cmd = [MPIS[mpi]["run"]]
    if mpi == "openmpi":
        if os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
        if oversubscribe:
            cmd.append("--oversubscribe")
        if yield_when_idle:
            cmd += ["--mca", "mpi_yield_when_idle", "1"]
    for i, (n, argv) in enumerate(contexts):
        cmd += ([":"] if i else []) + ["-n", str(n)] + list(argv)
    return cmd


def run(cmd, timeout=None, capture_stderr=False, watch=None, env=None):
    """Runs cmd in its own process group; stderr passes through (progress)
    unless captured. Returns (status or None if timed out, stdout, stderr).
    On timeout the whole group (mpirun and its ranks) is terminated. With
    watch=[], appends the other processes that used the CPUs meanwhile."""
    full = mpirun_env()
    full.update(env or {})
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE if capture_stderr else None,
                         env=full, text=True, start_new_session=True)
    w = Watch(p.pid)
    w.start()
    try:
        out, err = p.communicate(timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        status, out, err = None, "", ""
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                out, err = p.communicate(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                pass
    w.stop.set()
    w.join()
    if watch is not None:
        watch.extend(w.busy)
    return status, out or "", err or ""


def machine():
    """A short description of this machine (lscpu) and its current load."""
    info = {}
    try:
        txt = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in txt.splitlines():
            k, _, v = line.partition(":")
            if k.strip() in ("Model name", "CPU(s)", "Thread(s) per core",
                             "L2 cache", "L3 cache", "Hypervisor vendor"):
                info[k.strip()] = v.strip()
    except OSError:
        pass
    with open("/proc/loadavg") as f:
        info["loadavg"] = " ".join(f.read().split()[:3])
    info["nproc"] = os.cpu_count()
    return info


def _ticks():
    """{pid: (name, parent pid, user+system clock ticks)}"""
    t = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                parts = f.read().rsplit(")", 1)
            name = parts[0].split("(", 1)[1]
            fields = parts[1].split()
            t[int(pid)] = (name, int(fields[1]),
                           int(fields[11]) + int(fields[12]))
        except (OSError, IndexError, ValueError):
            pass
    return t


def _ours(b, pid, root):
    """1 if pid is this process, or root or a descendant of it, in b"""
    seen = 0
    while pid > 1 and seen < 64:
        if pid == root or pid == os.getpid():
            return 1
        pid = b[pid][1] if pid in b else 0
        seen += 1
    return 0


def _foreign(a, b, seconds, root=None, floor=0.2):
    """Processes other than this one (and root and its descendants) whose
    CPU use between samples a and b exceeds floor (fraction of one CPU)."""
    hz = os.sysconf("SC_CLK_TCK")
    busy = []
    for pid, (name, _, t) in b.items():
        if pid in a and not _ours(b, pid, root):
            cpu = (t - a[pid][2]) / hz / seconds
            if cpu > floor:
                busy.append(f"{name}[{pid}] {cpu:.0%}")
    return busy


def busy_cpus():
    """Processes other than ours using CPU right now (a 0.5 s sample)."""
    a = _ticks()
    time.sleep(0.5)
    return _foreign(a, _ticks(), 0.5)


class Watch(threading.Thread):
    """Samples every second which other processes (not root or its
    descendants) use the CPUs while a job runs; .busy lists them afterwards
    as (name[pid], seconds seen busy)."""

    def __init__(self, root):
        super().__init__(daemon=True)
        self.root, self.seen, self.stop = root, {}, threading.Event()

    def run(self):
        a = _ticks()
        while not self.stop.wait(1.0):
            b = _ticks()
            for x in _foreign(a, b, 1.0, self.root):
                name = x.rsplit(" ", 1)[0]
                self.seen[name] = self.seen.get(name, 0) + 1
            a = b

    @property
    def busy(self):
        return sorted(self.seen.items())


def wait_quiet(limit):
    """Waits up to `limit` seconds until no other process is using the
    CPUs; returns the busy ones still seen (empty when quiet)."""
    t0 = time.monotonic()
    busy = busy_cpus()
    if busy:
        log("waiting for the CPUs to be quiet: " + ", ".join(busy))
    while busy and time.monotonic() - t0 < limit:
        time.sleep(2)
        busy = busy_cpus()
    return busy


def versions():
    """Versions of the compilers and MPIs, for the record."""
    v = {}
    for name, cmd in (("gcc", ["gcc", "--version"]),
                      ("openmpi", ["mpirun.openmpi", "--version"]),
                      ("mpich", ["mpichversion"]),
                      ("valgrind", ["valgrind", "--version"])):
        try:
            out = subprocess.run(cmd, capture_output=True, text=True).stdout
            v[name] = out.splitlines()[0].strip() if out else "?"
        except OSError:
            v[name] = "not installed"
    return v


def suite_args(ap, build, timeout):
    """The options of the peer-suite scripts (hlrs_tests.py,
    mpich_coll_tests.py): where the builds go, the library, a time limit
    per run and a markdown copy of the tables."""
    ap.add_argument("--timeout", type=int, default=timeout)
    ap.add_argument("--build", default=build)
    ap.add_argument("--lib-dir", default=os.path.join(ROOT, "build", "src",
                                                      "mpi"))
    ap.add_argument("--md", help="also write the tables to this file")


def suite_end(md, bad, md_path, head=""):
    """Prints the verdict of a peer suite (head, then each test that passes
    alone and fails with the library), writes the tables and it to
    md_path if given, and exits: 1 if any such test."""
    summary = (head + "passes alone, fails with the library: "
               + (str(len(bad)) if bad else "none") + "\n"
               + "".join(f"- {b}\n" for b in bad))
    print(summary)
    if md_path:
        with open(md_path, "w") as f:
            f.write("\n".join(md) + "\n" + summary)
    sys.exit(1 if bad else 0)


def outside_parser(doc, src, build):
    """The parser of a script that builds a checkout of another project
    outside this tree: the checkout (--SRC, required) and where it is
    built (--build)."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument(f"--{src}", required=True)
    ap.add_argument("--build", default=build)
    return ap
