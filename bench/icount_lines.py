"""Instructions and cache lines touched per small call, under valgrind
(bench/icount_check.py; the program is bench/icount_calls.c).

Two ranks of icount_calls join one shared-memory communicator, each on a
CPU of its own: the measured rank under `valgrind --tool=lackey
--trace-mem=yes` (every instruction and data access), its partner
natively (MC_SPIN so high that it never yields the CPU). The program
calls a mark function before each measured call and after the last one,
so the trace splits into calls. For each call:

- instructions: those executed outside the program's own code (the
  library and what it calls), as callgrind counts them (callgrind's
  total over the same window is the same plus the program's loop; its
  *inclusive* count of mc_allreduce, which bench/icount reports, misses
  the tail calls that LTO makes: about 40 of 515 at 8 bytes);
- lines: the distinct 64-byte lines those instructions read or write;
- shared: among them, those of the shared segment (/dev/shm/manycoll-*).

A call that entered wait_slow (src/tp/shm.c, the polling loop: the
partner was late) is left out; each figure is the median over the calls
that did not wait, the same on every run.
"""
import bisect
import os
import re
import statistics
import subprocess
import sys
import tempfile
import uuid

LINE = 64
PARTNER_SPIN = 1 << 30
MAPS = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) (\S+) \S+ \S+\s*(.*)$")


def log(msg):
    print(f"icount-check: {msg}", file=sys.stderr, flush=True)


MPIRUN = {"openmpi": ["mpirun.openmpi", "--allow-run-as-root"],
          "mpich": ["mpirun.mpich"]}


def run_pair_mpi(mpi, prog, lib, rank, colls, calls, nbytes, tool, maps):
    """run_pair through MPI: one mpirun of two ranks of the MPI build of
    icount_calls with libmanycoll_mpi (lib) preloaded, rank `rank` under
    `tool`, each pinned to a CPU of its own (taskset)"""
    args = ["job", "0", "2", str(calls), ",".join(colls), str(nbytes)]
    cpus = sorted(os.sched_getaffinity(0))
    env = {"LD_PRELOAD": lib, "MC_TIMEOUT": "600"}
    blocks = []
    for r in (0, 1):
        e = dict(env, MC_SPIN=str(PARTNER_SPIN)) if r != rank else env
        cpu = ["taskset", "-c", str(cpus[r % len(cpus)])]
        cmd = cpu + (tool if r == rank else []) + [prog] + args + \
            ([maps] if r == rank else [])
        if mpi == "openmpi":
            xs = [x for k, v in e.items() for x in ("-x", f"{k}={v}")]
        else:
            xs = [x for k, v in e.items() for x in ("-env", k, v)]
        blocks += (([":"] if blocks else []) + ["-n", "1"] + xs + cmd)
    full = MPIRUN[mpi] + blocks
    r = subprocess.run(full, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                       text=True, timeout=900)
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-4000:])
        raise SystemExit(f"icount-check: {' '.join(full)} failed "
                         f"(status {r.returncode})")
    return r.stderr


def run_pair(prog, rank, colls, calls, nbytes, tool, maps=None):
    """Runs rank `rank` of icount_calls under the valgrind command `tool`
    (a list) and the other rank natively; returns the valgrind rank's
    stderr. The partner is killed if the measured rank fails."""
    job = "icount" + uuid.uuid4().hex[:12]
    args = [job, "", "2", str(calls), ",".join(colls), str(nbytes)]
    env = dict(os.environ, MC_TIMEOUT="600")
    penv = dict(env, MC_SPIN=str(PARTNER_SPIN))
    pargs = list(args)
    pargs[1] = str(1 - rank)
    # each rank on a CPU of its own, where there are two: the scheduler
    # otherwise puts both on one now and then, and every other call waits
    cpus = sorted(os.sched_getaffinity(0))
    pin = (lambda c: (lambda: os.sched_setaffinity(0, {c})))
    two = len(cpus) >= 2
    partner = subprocess.Popen([prog] + pargs, env=penv,
                               preexec_fn=pin(cpus[1]) if two else None)
    margs = list(args)
    margs[1] = str(rank)
    if maps:
        margs.append(maps)
    r = None
    try:
        r = subprocess.run(tool + [prog] + margs, env=env,
                           stderr=subprocess.PIPE, text=True, timeout=600,
                           preexec_fn=pin(cpus[0]) if two else None)
    finally:
        try:
            partner.wait(timeout=60 if r and r.returncode == 0 else 1)
        except subprocess.TimeoutExpired:
            partner.kill()
            partner.wait()
    if r.returncode != 0 or partner.returncode != 0:
        sys.stderr.write(r.stderr[-4000:])
        raise SystemExit(f"icount-check: run of rank {rank} failed "
                         f"(status {r.returncode}, partner "
                         f"{partner.returncode}): {' '.join(tool)} {prog}")
    return r.stderr


class Layout:
    """where things lie in the measured process: the program's own code
    (not counted), the shared segments, wait_slow, the marks"""

    def __init__(self, maps_path, prog, lib):
        self.prog_code, self.shared, self.lib_base = [], [], None
        with open(maps_path) as f:
            head = [next(f).split() for _ in range(2)]
            self.mark_call = int(head[0][1], 16)
            self.mark_end = int(head[1][1], 16)
            for line in f:
                m = MAPS.match(line.rstrip("\n"))
                if not m:
                    continue
                lo, hi = int(m.group(1), 16), int(m.group(2), 16)
                path, perms = m.group(5), m.group(3)
                if os.path.realpath(path.split(" (deleted)")[0]) == \
                        os.path.realpath(prog) and "x" in perms:
                    self.prog_code.append((lo, hi))
                if path.startswith("/dev/shm/manycoll-"):
                    self.shared.append((lo, hi))
                if os.path.realpath(path) == os.path.realpath(lib) and \
                        int(m.group(4), 16) == 0 and self.lib_base is None:
                    self.lib_base = lo
        if self.lib_base is None or not self.shared:
            raise SystemExit(f"icount-check: {maps_path} has no "
                             f"{lib} or no shared segment")
        self.wait = self.symbol(lib, "wait_slow")
        self.starts = sorted(s for s, _ in self.shared)

    def symbol(self, lib, name):
        out = subprocess.run(["nm", "-S", "--defined-only", lib],
                             capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 4 and p[3] == name:
                lo = self.lib_base + int(p[0], 16)
                return (lo, lo + int(p[1], 16))
        raise SystemExit(f"icount-check: no symbol {name} in {lib}")

    def in_prog(self, a):
        return any(lo <= a < hi for lo, hi in self.prog_code)

    def is_shared(self, line):
        a = line * LINE
        i = bisect.bisect_right(self.starts, a) - 1
        return i >= 0 and a < self.shared[i][1]


def split_calls(trace, lay):
    """[[(instructions, lines, shared lines, waited) per call] per
    collective] from a lackey trace (an iterable of lines)"""
    colls, calls, cur = [], [], None
    own = False  # the current instruction is the program's own
    wlo, whi = lay.wait
    for line in trace:
        c = line[:2]
        if c == "I ":
            a = int(line[3:line.index(",")], 16)
            if a == lay.mark_call or a == lay.mark_end:
                if cur is not None:
                    calls.append(cur)
                cur = [0, set(), False] if a == lay.mark_call else None
                if a == lay.mark_end:
                    colls.append(calls)
                    calls = []
                own = True
                continue
            if cur is None:
                continue
            own = lay.in_prog(a)
            if not own:
                cur[0] += 1
                cur[2] = cur[2] or wlo <= a < whi
        elif cur is not None and not own and c in (" L", " S", " M"):
            comma = line.index(",")
            a, n = int(line[3:comma], 16), int(line[comma + 1:])
            cur[1].update(range(a // LINE, (a + n - 1) // LINE + 1))
    return [[(i, len(ls), sum(map(lay.is_shared, ls)), w)
             for i, ls, w in cs] for cs in colls]


def measure_rank(prog, lib, rank, colls, calls, nbytes, tmp, mpi=None):
    """{coll: {"instr", "lines", "shared", "calls"}}: medians over the
    calls that did not wait ("calls": how many); through MPI `mpi`
    (run_pair_mpi) if given"""
    maps = os.path.join(tmp, f"maps.r{rank}")
    trace = os.path.join(tmp, f"lackey.r{rank}")
    tool = ["valgrind", "--tool=lackey", "--trace-mem=yes",
            f"--log-file={trace}"]
    if mpi:
        run_pair_mpi(mpi, prog, lib, rank, colls, calls, nbytes, tool, maps)
    else:
        run_pair(prog, rank, colls, calls, nbytes, tool, maps)
    lay = Layout(maps, prog, lib)
    with open(trace) as f:
        per = split_calls(f, lay)
    if len(per) != len(colls):
        raise SystemExit(f"icount-check: {len(per)} marked windows in "
                         f"{trace}, not {len(colls)}")
    out = {}
    for coll, cs in zip(colls, per):
        quiet = [c for c in cs if not c[3]]
        if len(quiet) < len(cs) // 4 or not quiet:
            raise SystemExit(f"icount-check: {coll} rank {rank}: "
                             f"{len(cs) - len(quiet)} of {len(cs)} calls "
                             "waited for the partner (a busy machine?)")
        med = [round(statistics.median(c[k] for c in quiet))
               for k in range(3)]
        out[coll] = {"instr": med[0], "lines": med[1], "shared": med[2],
                     "calls": len(quiet)}
    return out


def measure(prog, lib, ranks, colls, calls, nbytes, mpi=None):
    """{"COLL rR": {"instr", "lines", "shared", "calls"}}"""
    res = {}
    with tempfile.TemporaryDirectory(prefix="icount-check-") as tmp:
        for rank in ranks:
            got = measure_rank(prog, lib, rank, colls, calls, nbytes, tmp,
                               mpi)
            for coll in colls:
                res[f"{coll} r{rank}"] = got[coll]
    return res




def symbols(lib, base):
    """[(start, end, name)] of the library's functions, sorted"""
    out = subprocess.run(["nm", "-S", "--defined-only", lib],
                         capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2].lower() == "t":
            lo = base + int(p[0], 16)
            syms.append((lo, lo + int(p[1], 16), p[3]))
    return sorted(syms)


def per_function(prog, lib, rank, coll, calls, nbytes):
    """{function: instructions} of one call of coll that did not wait
    (the one in the middle), functions outside the library as 'other'"""
    with tempfile.TemporaryDirectory(prefix="icount-fn-") as tmp:
        maps, trace = os.path.join(tmp, "maps"), os.path.join(tmp, "lk")
        tool = ["valgrind", "--tool=lackey", "--trace-mem=yes",
                f"--log-file={trace}"]
        run_pair(prog, rank, [coll], calls, nbytes, tool, maps)
        lay = Layout(maps, prog, lib)
        with open(trace) as f:
            cs = split_calls(f, lay)[0]
        quiet = [k for k, c in enumerate(cs) if not c[3]]
        pick = quiet[len(quiet) // 2]
        syms = symbols(lib, lay.lib_base)
        starts = [s[0] for s in syms]
        count, k = {}, -1
        with open(trace) as f:
            for line in f:
                if not line.startswith("I "):
                    continue
                a = int(line[3:line.index(",")], 16)
                if a == lay.mark_call or a == lay.mark_end:
                    k += 1
                    continue
                if k != pick or lay.in_prog(a):
                    continue
                i = bisect.bisect_right(starts, a) - 1
                name = syms[i][2] if i >= 0 and a < syms[i][1] else "other"
                count[name] = count.get(name, 0) + 1
        return count
