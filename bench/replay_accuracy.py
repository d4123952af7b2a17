#!/usr/bin/env python3
"""replay_accuracy.py [--build BUILD] [--out DIR] [--runs 5] [--profile P]:
how close `manycoll replay` comes to a recorded run on the machine it ran
on (docs/replay.md, "Accuracy").

1. `manycoll calibrate -o DIR/profile.json` (about a minute), unless
   --profile gives one; DIR/platform-2.json: this machine as a cache-
   coherent ring of 2 cores with the profile's line costs, and as many
   lines in flight as R_R over the E-E multi-line cost per line, as
   bench/device_check.py makes its platform (no contention slope on 2
   CPUs).
2. RUNS recordings of examples/cg.c at 2 ranks under Open MPI through the
   drop-in (MC_MPI_TRACE, as tests/mpi_trace.cmake runs it): DIR/cgK.
3. Each replayed on DIR/platform-2.json at its 2 ranks (--json).
4. Per collective kind and in all: the recorded time and the predicted
   one, per rank, their mean over the runs and their spread (min-max),
   as a markdown table on stdout.
"""
import argparse, json, os, shutil, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("--build", default="build")
ap.add_argument("--out", default="/tmp/replay-accuracy")
ap.add_argument("--runs", type=int, default=5)
ap.add_argument("--profile")
a = ap.parse_args()
mc = os.path.join(a.build, "manycoll")
os.makedirs(a.out, exist_ok=True)
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", MC_TUNING="none",
           OMPI_MCA_mpi_yield_when_idle="1")

prof = a.profile or os.path.join(a.out, "profile.json")
if not a.profile:
    subprocess.run([mc, "calibrate", "-o", prof], check=True, env=env)
# the raw samples left out: on a loaded machine calibrate keeps samples
# over 1 s, which the profile reader refuses (values in [0, 1e9] ns)


def strip(o):
    if isinstance(o, dict):
        o.pop("samples", None)
        for v in o.values():
            strip(v)
    elif isinstance(o, list):
        for v in o:
            strip(v)


with open(prof) as f:
    pj = json.load(f)
strip(pj)
prof = os.path.join(a.out, "profile-nosamples.json")
with open(prof, "w") as f:
    json.dump(pj, f, indent=1)
# lines a core keeps in flight, as bench/device_check.py takes them
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_check_machine import lines_in_flight  # noqa: E402
outstanding = lines_in_flight(pj)
plat = os.path.join(a.out, "platform-2.json")
with open(plat, "w") as f:
    json.dump({
        "name": "this-machine-2",
        "description": "this machine as a cache-coherent chip of 2 cores: "
                       "the calibrated profile's line costs R_L, R_R, R_I",
        "source": "bench/replay_accuracy.py, from " + os.path.abspath(prof),
        "topology": {"kind": "ring", "stops": 2, "cores_per_stop": 1},
        "line_bytes": 64, "mpb_bytes": 65536, "outstanding": outstanding,
        "flags": "line", "costs_us": {"o_reduce_elem": 0.001},
        "coherence": {"profile": os.path.abspath(prof),
                      "contention": "none"},
        "contention": {"mpb": False, "link": False, "mc": False}},
        f, indent=1)

lib = os.path.join(a.build, "src/mpi/libmanycoll_mpi_openmpi.so")
cg = os.path.join(a.build, "tests/example_cg_openmpi")
kinds, totals = {}, []
load0 = os.getloadavg()
for k in range(1, a.runs + 1):
    d = os.path.join(a.out, "cg%d" % k)
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run(["mpirun.openmpi", "--oversubscribe", "-n", "2", "-x",
                    "MC_MPI_TRACE=" + d, "-x", "LD_PRELOAD=" + lib, cg],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    p = subprocess.run([mc, "replay", d, "--platform", plat, "--json"],
                       check=True, env=env, capture_output=True, text=True)
    rows = [json.loads(x) for x in p.stdout.splitlines()]
    n = rows[-1]["ranks"]
    per = {}
    for r in rows[:-1]:
        w = r["ranks"] / n
        s, m = per.get(r["coll"], (0.0, 0.0))
        per[r["coll"]] = (s + w * r["sim_us"], m + w * r["measured_us"])
    for c, v in per.items():
        kinds.setdefault(c, []).append(v)
    totals.append((rows[-1]["sim_us"], rows[-1]["measured_us"],
                   rows[-1]["run_sim_us"]))
    time.sleep(1)


def cell(xs):
    return "%.1f (%.1f-%.1f)" % (sum(xs) / len(xs), min(xs), max(xs))


print("| kind | recorded us per rank | predicted us per rank | recorded / predicted |")
print("|---|---|---|---|")
for c in sorted(kinds):
    v = kinds[c]
    rec, sim = [x[1] for x in v], [x[0] for x in v]
    print("| %s | %s | %s | %.3g |" % (c, cell(rec), cell(sim),
                                      sum(rec) / sum(sim) if sum(sim) else 0))
rec, sim = [t[1] for t in totals], [t[0] for t in totals]
print("| all communication | %s | %s | %.3g |" % (cell(rec), cell(sim),
                                                sum(rec) / sum(sim)))
print("\n%d runs; mean (min-max) over them; simulated run %s us; load "
      "average %.1f before, %.1f after (%d CPUs); profile R_L %.1f, R_R "
      "%.1f, R_I %.1f ns; %d lines in flight" % (
          len(totals), cell([t[2] for t in totals]), load0[0],
          os.getloadavg()[0], os.cpu_count(), pj["clustered"]["R_L"],
          pj["clustered"]["R_R"], pj["clustered"]["R_I"], outstanding))
