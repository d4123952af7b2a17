#!/usr/bin/env python3
"""bench/device_check.sh: one command that measures a machine for the
selection rules and the drop-in, and writes one markdown and one JSON
report (docs/benchmarks.md, "Device check").

    bench/device_check.sh [--out DIR] [--build DIR] [--quick]
                          [--ranks LIST] [--mpis openmpi,mpich] [--budget S]

Steps, in this order (a calibration wants a quiet machine, so it goes
first):
  1. the machine: CPU model, CPUs, NUMA (hwloc's lstopo-no-graphics, else
     /sys), the MPIs' versions, manycoll's commit;
  2. `manycoll calibrate` (a profile of this machine's line costs);
  3. `manycoll bench` at every rank count (default 4, 8, 16) on every
     collective at 8 B, 64 KiB and 1 MiB: the algorithm the library
     selects (MC_TUNING=none: the built-in rules) first, interleaved call
     by call with the collective's other algorithms (at most 8 in all);
  4. the drop-in against each Debian MPI that .ci/run installs (Open MPI,
     MPICH): bench/mpi_compare with libmanycoll_mpi preloaded, PMPI_X (the
     MPI alone) against MPI_X (through the library), interleaved in the
     same processes; ratio = paired median of PMPI time / library time;
  5. at the largest rank count run (16 on a 16-core machine): the
     simulator on a platform made from the calibrated profile, and the
     cache-coherence models' optimum (`manycoll model optimize`), beside
     what was measured.
Rank counts above the CPUs available are skipped with a line saying so.
Every step's failure is written in both reports and makes the exit status
1; an MPI that is not installed is reported as such and is not a failure.

--quick: 2 ranks, 8 B and 1 KiB, a few iterations, `calibrate --quick`:
the whole path in well under a minute (`make test` runs it:
tests/bench.cmake, tests/device_check_verify.py).
"""
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpilib  # noqa: E402
from mpilib import log  # noqa: E402
from device_check_report import markdown, size_label  # noqa: E402,F401
import device_check_machine  # noqa: E402
from device_check_options import options  # noqa: E402

FORMAT = "manycoll-device-check/1"
COLLS = ["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
         "reduce_scatter_block", "gather", "scatter", "scan", "exscan"]
MPI_COLLS = "all"  # mpi_compare's seven
MAX_ALGOS = 8      # manycoll bench's limit on --algo
# algorithms for other machines than shared memory: simulated mesh chips
# (mesh-*) and node hierarchies (hier); left out of the bench's interleave
FOREIGN = ("mesh", "hier")
class Check:
    """The reports' contents, filled step by step."""

    def __init__(self, a):
        self.a = a
        self.mc = os.path.join(a.build, "manycoll")
        self.env = dict(os.environ, MC_TUNING="none")
        self.t0 = time.monotonic()
        self.over = 0  # runs not started in this step: budget spent
        self.r = {"format": FORMAT,
                  "created": datetime.datetime.now(datetime.timezone.utc)
                  .strftime("%Y-%m-%d %H:%M:%S UTC"),
                  "command": shlex.join(["bench/device_check.sh"]
                                        + sys.argv[1:]),
                  "quick": a.quick, "steps": [], "skipped_ranks": [],
                  "failures": [], "bench": [], "bench_summary": [],
                  "mpi": {}, "calibration": None, "prediction": None}

    # -- bookkeeping --
    def fail(self, step, msg):
        log(f"FAILED: {step}: {msg}")
        self.r["failures"].append(f"{step}: {msg}")

    def step(self, name, fn):
        t0 = time.monotonic()
        nfail = len(self.r["failures"])
        log(f"== {name}")
        self.over = 0
        try:
            note = fn()
        except Exception as e:  # a bug or a surprise: report, go on
            self.fail(name, f"{type(e).__name__}: {e}")
            note = None
        if self.over:
            self.fail(name, f"the time budget of {self.a.cfg['budget']:.0f}"
                      f" s was spent: {self.over} run(s) not made")
        bad = len(self.r["failures"]) - nfail
        st = {"step": name, "seconds": round(time.monotonic() - t0, 1),
              "status": "failed" if bad else "ok", "failures": bad}
        if note:
            st["note"] = note
        self.r["steps"].append(st)

    def spent(self):
        """True (and counted) when the time budget is spent: the caller
        does not start its run"""
        if time.monotonic() - self.t0 > self.a.cfg["budget"]:
            self.over += 1
            return True
        return False

    def run(self, cmd, timeout, env=None):
        """(status or None on timeout, stdout, stderr)"""
        log(shlex.join(cmd))
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=timeout, env=env or self.env)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            def s(x):
                return x.decode(errors="replace") if isinstance(x, bytes) \
                    else (x or "")
            return None, s(e.stdout), s(e.stderr)

    @staticmethod
    def why(status, err, timeout):
        if status is None:
            return f"timed out after {timeout} s"
        tail = " | ".join(err.strip().splitlines()[-3:])
        return f"exit status {status}" + (f": {tail}" if tail else "")

    # -- 1. the machine --
    def machine(self):
        m = device_check_machine.describe(self.run)
        self.r["machine"] = m
        v = {}
        st, out, err = self.run([self.mc, "--version"], 30)
        if st != 0:
            self.fail("machine", f"{self.mc} --version: "
                      + self.why(st, err, 30))
        v["manycoll"] = out.splitlines()[0] if out else "?"
        git = ["git", "-C", mpilib.ROOT]
        v["commit"] = subprocess.run(git + ["rev-parse", "HEAD"],
                                     capture_output=True,
                                     text=True).stdout.strip() or "?"
        v["describe"] = subprocess.run(git + ["describe", "--always",
                                              "--dirty"],
                                       capture_output=True,
                                       text=True).stdout.strip() or "?"
        for k, x in mpilib.versions().items():
            v[k] = re.sub(r"\s+", " ", x)
        for mpi in ("openmpi", "mpich"):
            if not mpilib.have(mpi):
                v[mpi] = "not installed"
        self.r["versions"] = v
        return None

    def plan_ranks(self):
        cpus = self.r["machine"]["cpus_available"]
        run = []
        for n in self.a.cfg["ranks"]:
            if n > cpus:
                line = (f"{n} ranks skipped: more than the {cpus} CPUs "
                        "available here")
                log(line)
                self.r["skipped_ranks"].append({"ranks": n, "why": line})
            else:
                run.append(n)
        self.ranks = run
        self.r["ranks"] = run
        if not run:
            self.fail("ranks", "no rank count fits this machine's "
                      f"{cpus} CPUs")

    # -- 2. calibrate --
    def calibrate(self):
        os.makedirs(self.a.out, exist_ok=True)
        prof = os.path.join(self.a.out, "profile.json")
        t = self.a.cfg["calibrate_timeout"]
        cmd = [self.mc, "calibrate", "-o", prof] + self.a.cfg["calibrate"]
        st, out, err = self.run(cmd, t)
        if st != 0 or not os.path.exists(prof):
            self.fail("calibrate", self.why(st, err, t))
            return None
        with open(prof) as f:
            p = json.load(f)
        c = p.get("clustered", {})
        slope = None
        for x in p.get("contention", []):
            if x.get("states") == "E-E" and x.get("c") is not None:
                slope = x["c"]
        self.profile = prof
        self.r["calibration"] = {
            "command": shlex.join(cmd), "profile": prof,
            "R_L_ns": c.get("R_L"), "R_R_ns": c.get("R_R"),
            "R_I_ns": c.get("R_I"), "contention_c_ns": slope,
            "lines_in_flight": device_check_machine.lines_in_flight(p),
            "cores": p.get("cores"),
            "skipped": [f"{s.get('measurement')}: {s.get('reason')}"
                        for s in p.get("skipped", [])]}
        return None

    # -- 3. manycoll bench --
    def algos(self):
        """{coll: [algorithm names]} from `manycoll info --json`"""
        st, out, err = self.run([self.mc, "info", "--json"], 30)
        if st != 0:
            self.fail("bench", "manycoll info --json: "
                      + self.why(st, err, 30))
            return {}
        al = {}
        for line in out.splitlines():
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if "algo" in d and "coll" in d:
                al.setdefault(d["coll"], []).append(d["algo"])
        return al

    def selected(self, n):
        """{(coll, bytes): algorithm spec} the built-in rules choose at n
        ranks here (`manycoll info --tuning`)"""
        cmd = [self.mc, "info", "--tuning", "-n", str(n), "--json"]
        st, out, err = self.run(cmd, 30)
        if st != 0:
            self.fail("bench", f"{shlex.join(cmd)}: "
                      + self.why(st, err, 30))
            return {}
        sel = {}
        for line in out.splitlines():
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if "coll" in d and "algo" in d:
                sel[(d["coll"], d["bytes"])] = d["algo"]
        return sel

    def bench(self):
        al = self.algos()
        self.sel_spec = {}
        notes = []
        for n in self.ranks:
            sel = self.selected(n)
            for coll in COLLS:
                sizes = [0] if coll == "barrier" else self.a.cfg["sizes"]
                for b in sizes:
                    self.bench_case(n, coll, b, sel, al, notes)
        return "; ".join(sorted(set(notes))) or None

    def bench_case(self, n, coll, b, sel, al, notes):
        if self.spent():
            return
        spec = sel.get((coll, b))
        if spec is None:  # a size the rules listing does not show
            keys = sorted(x for (c, x) in sel if c == coll and x <= b)
            spec = sel.get((coll, keys[-1])) if keys else None
        names = al.get(coll, [])
        first = [spec] if spec else []
        base = spec.split(":")[0] if spec else None
        others = [x for x in names if x != base
                  and not x.startswith(FOREIGN)]
        room = MAX_ALGOS - len(first)
        if len(others) > room:
            notes.append(f"{coll}: left out of the interleave (at most "
                         f"{MAX_ALGOS} algorithms): "
                         + ", ".join(others[room:]))
        algos = first + others[:room]
        iters = self.a.cfg["iters"].get(b, min(self.a.cfg["iters"]
                                               .values()))
        t = self.a.cfg["bench_timeout"]
        cmd = [self.mc, "bench", "-n", str(n), "--coll", coll, "--sizes",
               str(b), "--iters", str(iters), "--warmup",
               str(iters // 10 + 1), "--json"]
        rows, err_all = self.bench_run(cmd, algos, t)
        if rows is None and len(algos) > 1 and spec:
            # one algorithm broke the run: the failure is reported, and
            # the selected one is still measured alone
            self.fail("bench", f"{n} ranks, {coll} {size_label(b)}, "
                      f"{len(algos)} algorithms interleaved: {err_all}")
            rows, err1 = self.bench_run(cmd, [spec], t)
            if rows is None:
                self.fail("bench", f"{n} ranks, {coll} {size_label(b)}, "
                          f"{spec} alone: {err1}")
                return
        elif rows is None:
            self.fail("bench", f"{n} ranks, {coll} {size_label(b)}: "
                      f"{err_all}")
            return
        for i, r in enumerate(rows):
            r["selected"] = bool(spec) and i == 0
            self.r["bench"].append(r)
        s = rows[0] if spec else None
        best = min(rows, key=lambda r: r["p50_us"])
        self.sel_spec[(n, coll, b)] = (spec, s)
        self.r["bench_summary"].append({
            "ranks": n, "coll": coll, "bytes": b,
            "selected": s["algo"] if s else None,
            "selected_p50_us": s["p50_us"] if s else None,
            "best": best["algo"], "best_p50_us": best["p50_us"],
            "best_over_selected": round(best["p50_us"] / s["p50_us"], 3)
            if s and s["p50_us"] > 0 else None,
            "algos": len(rows)})

    def bench_run(self, cmd, algos, t):
        full = list(cmd)
        for x in algos:
            full += ["--algo", x]
        st, out, err = self.run(full, t)
        rows = []
        for line in out.splitlines():
            if line.startswith("{"):
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass
        if st != 0 or not rows:
            return None, self.why(st, err, t) + ("" if rows else
                                                 " (no rows)")
        return rows, None

    # -- 4. the drop-in against each MPI --
    def mpi(self):
        notes = []
        for mpi in ("openmpi", "mpich"):
            label = mpilib.MPIS[mpi]["label"]
            e = {"label": label, "version": self.r["versions"].get(mpi),
                 "runs": []}
            self.r["mpi"][mpi] = e
            if mpi not in self.a.mpis:
                e["status"] = "not asked (--mpis)"
                continue
            if not mpilib.have(mpi):
                e["status"] = "not installed"
                line = (f"{label} not installed ({mpilib.MPIS[mpi]['cc']} "
                        f"or {mpilib.MPIS[mpi]['run']} not found): skipped")
                log(line)
                notes.append(line)
                continue
            lib = os.path.join(self.a.build, "src", "mpi",
                               f"libmanycoll_mpi_{mpi}.so")
            if not os.path.exists(lib):
                e["status"] = "failed"
                self.fail(f"mpi {mpi}", f"{lib} is missing (the build "
                          f"makes it when {mpilib.MPIS[mpi]['cc']} exists)")
                continue
            if self.spent():
                e["status"] = "not run: time budget spent"
                continue
            prog = self.build_compare(mpi, e)
            if not prog:
                continue
            e["status"] = "ok"
            for n in self.ranks:
                self.mpi_run(mpi, e, prog, lib, n)
            if not any(r["rows"] for r in e["runs"]):
                e["status"] = "failed"
        return "; ".join(notes) or None

    def build_compare(self, mpi, e):
        """bench/mpi_compare for this MPI (as bench/compare builds it)"""
        out = os.path.join(self.a.build, "bench", f"mpi_compare.{mpi}")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        cmd = ([mpilib.MPIS[mpi]["cc"]] + mpilib.CFLAGS
               + ["-I", os.path.join(mpilib.ROOT, "include")]
               + [os.path.join(mpilib.ROOT, s) for s in mpilib.SOURCES]
               + ["-L", self.a.build, "-lmanycoll",
                  f"-Wl,-rpath,{self.a.build}", "-o", out])
        st, _, err = self.run(cmd, 120)
        if st != 0:
            e["status"] = "failed"
            self.fail(f"mpi {mpi}", "building mpi_compare: "
                      + self.why(st, err, 120))
            return None
        return out

    def mpi_run(self, mpi, e, prog, lib, n):
        if self.spent():
            e["runs"].append({"ranks": n, "rows": [],
                              "error": "not run: time budget spent"})
            return
        cfg = self.a.cfg
        sizes = ",".join(str(b) for b in cfg["sizes"])
        argv = ["env", f"LD_PRELOAD={lib}", "MC_TUNING=none", prog,
                "--json", "--quiet", "--sides", "pmpi,lib", "--colls",
                MPI_COLLS, "--sizes", sizes, "--iters",
                str(cfg["mpi_iters"]), "--max-seconds",
                str(cfg["mpi_case_seconds"])]
        cmd = mpilib.mpirun(mpi, [(n, argv)], oversubscribe=True)
        t = cfg["mpi_timeout"]
        log(shlex.join(cmd))
        st, out, err = mpilib.run(cmd, timeout=t, capture_stderr=True)
        rows = []
        for line in out.splitlines():
            if line.startswith("{"):
                try:
                    d = json.loads(line)
                except ValueError:
                    continue
                rows.append({"coll": d["coll"], "bytes": d["bytes"],
                             "pmpi_p50_us": d["mpi_p50_us"],
                             "lib_p50_us": d["mc_p50_us"],
                             "ratio_paired": d["ratio_paired"],
                             "iters": d["iters"],
                             "verified": d.get("verified", False)})
        run = {"ranks": n, "command": shlex.join(cmd), "rows": rows}
        e["runs"].append(run)
        if st != 0 or not rows:
            run["error"] = self.why(st, err, t) + ("" if rows else
                                                   " (no rows)")
            self.fail(f"mpi {mpi}", f"{n} ranks: {run['error']}")

    # -- 5. the simulator's and the models' prediction --
    def predict(self):
        if not getattr(self, "profile", None):
            self.fail("predict", "no calibrated profile (calibrate failed)")
            return None
        if not self.ranks:
            self.fail("predict", "no rank count was run")
            return None
        n = max(self.ranks)
        cal = self.r["calibration"]
        slope = cal["contention_c_ns"]
        plat = {
            "name": f"device-check-{n}",
            "description": f"this machine as a cache-coherent chip of {n} "
                           "cores: line costs R_L, R_R, R_I and the "
                           "contention slope of the calibrated profile",
            "source": f"bench/device_check.sh, from {self.profile}",
            "topology": {"kind": "ring", "stops": n, "cores_per_stop": 1},
            "line_bytes": 64, "mpb_bytes": 65536,
            "outstanding": cal["lines_in_flight"],
            "flags": "line", "costs_us": {"o_reduce_elem": 0.001},
            # a profile without a fitted slope (too few cores to fit it)
            # names no contention fit: the simulator then has none
            "coherence": {"profile": self.profile,
                          "contention": "E-E" if slope is not None
                          else "none"},
            "contention": {"mpb": slope is not None, "link": False,
                           "mc": False}}
        pf = os.path.join(self.a.out, f"platform-{n}.json")
        with open(pf, "w") as f:
            json.dump(plat, f, indent=1)
        pred = {"ranks": n, "platform": pf,
                "contention": "E-E slope %.1f ns" % slope if slope
                is not None else "none (the profile has no fitted slope)",
                "sim": [], "model": []}
        self.r["prediction"] = pred
        for coll in COLLS:
            sizes = [0] if coll == "barrier" else self.a.cfg["sizes"]
            for b in sizes:
                if self.spent():
                    continue
                spec, s = self.sel_spec.get((n, coll, b), (None, None))
                if not s:
                    self.fail("predict", f"{coll} {size_label(b)}: no "
                              "measurement of the selected algorithm")
                    continue
                self.sim_case(pred, pf, n, coll, b, spec, s)
        for mcoll, coll, algo in (("barrier", "barrier", "dissemination-m"),
                                  ("bcast-small", "bcast", "cc-tree"),
                                  ("reduce-small", "reduce", "cc-tree")):
            self.model_case(pred, n, mcoll, coll, algo, slope)
        return None

    def sim_case(self, pred, pf, n, coll, b, spec, s):
        cmd = [self.mc, "sim", "--platform", pf, "--coll", coll, "--ranks",
               str(n), "--sizes", str(b), "--algo", spec, "--json"]
        st, out, err = self.run(cmd, 60)
        rows = [json.loads(x) for x in out.splitlines()
                if x.startswith("{")]
        if st != 0 or not rows:
            self.fail("predict", f"sim {coll} {size_label(b)} {spec}: "
                      + self.why(st, err, 60))
            return
        r = rows[0]
        pred["sim"].append({
            "coll": coll, "bytes": b, "algo": spec, "sim_ran": r.get("ran"),
            "sim_why": r.get("why"), "sim_us": r["lat_us"],
            "measured_us": s["p50_us"], "measured_algo": s["algo"],
            "sim_over_measured": round(r["lat_us"] / s["p50_us"], 3)
            if s["p50_us"] > 0 else None})

    def model_case(self, pred, n, mcoll, coll, algo, slope):
        if self.spent():
            return
        cmd = [self.mc, "model", "optimize", "--profile", self.profile,
               "--coll", mcoll, "--ranks", str(n), "--json"]
        note = None
        st, out, err = self.run(cmd, 60)
        if st != 0 and "no contention fit" in err:
            cmd += ["--c", "0"]
            note = "the profile has no contention fit here: --c 0"
            st, out, err = self.run(cmd, 60)
        rows = [json.loads(x) for x in out.splitlines()
                if x.startswith("{")]
        if st != 0 or not rows:
            self.fail("predict", f"model optimize {mcoll}: "
                      + self.why(st, err, 60))
            return
        m = rows[0]
        if mcoll == "barrier":
            spec = f"{algo}:m={m['m']}"
        else:
            spec = algo + ":" + ",".join(f"k{i + 1}={k}"
                                         for i, k in enumerate(m["k"]))
        b = 0 if coll == "barrier" else 8
        sel, s = self.sel_spec.get((n, coll, b), (None, None))
        algos = [spec] + ([sel] if sel and sel != spec else [])
        it = self.a.cfg["iters"].get(8, 20)
        bcmd = [self.mc, "bench", "-n", str(n), "--coll", coll, "--sizes",
                str(b), "--iters", str(it), "--warmup", str(it // 10 + 1),
                "--json"]
        rows, why = self.bench_run(bcmd, algos, self.a.cfg["bench_timeout"])
        if rows is None:
            self.fail("predict", f"bench of the model's {spec}: {why}")
            return
        pred["model"].append({
            "model": mcoll, "algo": spec, "bytes": b,
            "model_min_us": m["min_ns"] / 1000,
            "model_max_us": m["max_ns"] / 1000,
            "measured_us": rows[0]["p50_us"],
            "selected": rows[1]["algo"] if len(rows) > 1 else None,
            "selected_us": rows[1]["p50_us"] if len(rows) > 1 else None,
            "note": note})

    # -- the reports --
    def write(self):
        os.makedirs(self.a.out, exist_ok=True)
        self.r["exit_status"] = 1 if self.r["failures"] else 0
        jp = os.path.join(self.a.out, "device_check.json")
        with open(jp, "w") as f:
            json.dump(self.r, f, indent=1)
            f.write("\n")
        mp = os.path.join(self.a.out, "device_check.md")
        with open(mp, "w") as f:
            f.write(markdown(self.r))
        log(f"wrote {mp} and {jp}")


def main():
    a = options()
    ck = Check(a)
    if not os.access(ck.mc, os.X_OK):
        mpilib.die(f"{ck.mc} not found: build first (cmake --build "
                   f"{a.build}) or give --build DIR")
    os.makedirs(a.out, exist_ok=True)
    t0 = time.monotonic()
    ck.step("machine", ck.machine)
    ck.plan_ranks()
    ck.step("calibrate", ck.calibrate)
    ck.step("bench", ck.bench)
    ck.step("mpi", ck.mpi)
    ck.step("predict", ck.predict)
    ck.r["seconds"] = round(time.monotonic() - t0, 1)
    ck.write()
    if ck.r["failures"]:
        log(f"{len(ck.r['failures'])} failure(s), see the reports")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
