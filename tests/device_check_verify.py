#!/usr/bin/env python3
"""device_check_verify.py SCRIPT BUILD OUT [ARGS...]: runs
bench/device_check.sh --quick --build BUILD --out OUT ARGS and checks
that it exits 0 and that both reports have every section and key, with
rows in every table: a collective missing from the bench, an installed
MPI without rows, no calibration or no prediction fails the test. An MPI
that is not installed must be reported as "not installed". Never looks
at timings."""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "bench"))
import mpilib  # noqa: E402

COLLS = ["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
         "reduce_scatter_block", "gather", "scatter", "scan", "exscan"]
MPI_COLLS = ["barrier", "bcast", "reduce", "allreduce", "allgather",
             "alltoall", "reduce_scatter_block"]
SECTIONS = ["# Device check", "## Machine", "## Steps", "## manycoll bench",
            "## Drop-in against the MPIs", "## Calibration and prediction",
            "## Failures"]
errors = []


def need(cond, what):
    if not cond:
        errors.append(what)
    return cond


def main():
    script, build, out = sys.argv[1:4]
    shutil.rmtree(out, ignore_errors=True)
    cmd = [script, "--quick", "--build", build, "--out", out] + sys.argv[4:]
    print("+", " ".join(cmd), flush=True)
    st = subprocess.run(cmd).returncode
    need(st == 0, f"exit status {st}, not 0")
    jp, mp = (os.path.join(out, f"device_check.{x}") for x in ("json", "md"))
    if not need(os.path.exists(jp) and os.path.exists(mp),
                f"{jp} or {mp} missing"):
        return report(out)
    with open(jp) as f:
        r = json.load(f)
    with open(mp) as f:
        md = f.read()
    need(r.get("format") == "manycoll-device-check/1", "format")
    need(r.get("quick") is True, "quick is not true")
    m = r.get("machine", {})
    for k in ("cpu_model", "cpus_available", "physical_cores", "numa_nodes",
              "topology", "topology_source", "loadavg"):
        need(m.get(k) not in (None, ""), f"machine.{k} missing")
    v = r.get("versions", {})
    for k in ("manycoll", "commit", "openmpi", "mpich", "gcc"):
        need(v.get(k) not in (None, "", "?"), f"versions.{k} missing")
    steps = {s["step"]: s for s in r.get("steps", [])}
    for s in ("machine", "calibrate", "bench", "mpi", "predict"):
        need(steps.get(s, {}).get("status") == "ok", f"step {s} not ok")
    need(r.get("failures") == [], f"failures: {r.get('failures')}")
    need(r.get("exit_status") == 0, "exit_status is not 0")
    for n in r.get("ranks", []):
        for c in COLLS:
            need(any(x["ranks"] == n and x["coll"] == c
                     and x["selected_p50_us"] is not None
                     for x in r.get("bench_summary", [])),
                 f"bench: no row of {c} at {n} ranks")
    need(r.get("ranks"), "no rank count was run")
    for s in r.get("skipped_ranks", []):
        need(f"{s['ranks']} ranks skipped" in md,
             f"markdown lacks the line for {s['ranks']} skipped ranks")
    for mpi in ("openmpi", "mpich"):
        e = r.get("mpi", {}).get(mpi, {})
        if not mpilib.have(mpi):
            need(e.get("status") == "not installed",
                 f"{mpi} is not installed here but reported "
                 f"'{e.get('status')}'")
            need(f"{e.get('label')} not installed" in md,
                 f"markdown does not say {mpi} is not installed")
            continue
        need(e.get("status") == "ok", f"{mpi}: status {e.get('status')}")
        runs = {x["ranks"]: x for x in e.get("runs", [])}
        for n in r.get("ranks", []):
            rows = runs.get(n, {}).get("rows", [])
            got = {x["coll"] for x in rows}
            need(set(MPI_COLLS) <= got,
                 f"{mpi} at {n} ranks: no rows of "
                 f"{sorted(set(MPI_COLLS) - got)}")
            need(all(x["verified"] and x["ratio_paired"] > 0 for x in rows),
                 f"{mpi} at {n} ranks: a row not verified or without ratio")
    c = r.get("calibration") or {}
    for k in ("R_L_ns", "R_R_ns", "R_I_ns", "profile"):
        need(c.get(k) is not None, f"calibration.{k} missing")
    p = r.get("prediction") or {}
    sims = {x["coll"] for x in p.get("sim", [])}
    need(set(COLLS) <= sims, f"prediction: no simulation of "
         f"{sorted(set(COLLS) - sims)}")
    need(all(x["sim_us"] > 0 and x["measured_us"] > 0
             for x in p.get("sim", [])), "prediction: a zero time")
    need(len(p.get("model", [])) == 3, "prediction: not 3 model rows")
    for s in SECTIONS:
        need(s in md, f"markdown lacks '{s}'")
    need("| 2 | allreduce |" in md, "markdown: no allreduce row at 2 ranks")
    return report(out)


def report(out):
    if errors:
        print(f"device_check_verify: {len(errors)} problem(s) (reports in "
              f"{out}):")
        for e in errors:
            print("  " + e)
        return 1
    print("device_check_verify: reports complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
