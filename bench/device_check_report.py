"""The report of bench/device_check.py as markdown: the machine, each
step's table and the failures, from the JSON record the check writes
(FORMAT in device_check.py). Kept apart so that a report can be redrawn
from a saved JSON: python3 bench/device_check_report.py RECORD.json"""
import json
import sys

def size_label(b):
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return f"{b >> 20} MiB"
    if b >= 1024 and b % 1024 == 0:
        return f"{b >> 10} KiB"
    return f"{b} B"


def us(x):
    if x is None:
        return "-"
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def markdown(r):
    m, v = r["machine"], r["versions"]
    o = [f"# Device check ({r['created']}, {v.get('describe', '?')})", "",
         f"`{r['command']}`" + (" (quick: tiny sizes and iteration "
                                "counts; not a measurement)"
                                if r["quick"] else ""), ""]
    o += ["## Machine", "",
          f"- CPU: {m['cpu_model']}; {m['cpus_available']} CPUs available "
          f"({m['cpus_online']} online), {m['physical_cores']} physical "
          f"cores, {m['sockets']} socket(s), {m['numa_nodes']} NUMA "
          f"node(s); load {m['loadavg']}; Linux {m['kernel']}",
          f"- manycoll: {v.get('manycoll')}, commit {v.get('commit')} "
          f"({v.get('describe')})",
          f"- Open MPI: {v.get('openmpi')}; MPICH: {v.get('mpich')}; "
          f"gcc: {v.get('gcc')}",
          f"- topology ({m['topology_source']}):", "", "```",
          m["topology"], "```", ""]
    o += ["## Steps", "", "| step | status | seconds | note |",
          "|---|---|---|---|"]
    for s in r["steps"]:
        o.append(f"| {s['step']} | {s['status']} | {s['seconds']} | "
                 f"{s.get('note', '')} |")
    for s in r["skipped_ranks"]:
        o.append("")
        o.append(f"- {s['why']}")
    o.append("")
    o += ["## manycoll bench", "",
          "p50 in µs (a call's time is its slowest rank's). `selected`: "
          "what the built-in rules run (MC_TUNING=none), interleaved call "
          "by call with the collective's other algorithms; `best/sel` < 1: "
          "another algorithm was faster here (a rule to look at).", "",
          "| ranks | coll | size | selected | p50 | best | p50 | best/sel "
          "| algos |", "|---|---|---|---|---|---|---|---|---|"]
    for s in r["bench_summary"]:
        o.append(f"| {s['ranks']} | {s['coll']} | "
                 f"{size_label(s['bytes'])} | {s['selected']} | "
                 f"{us(s['selected_p50_us'])} | {s['best']} | "
                 f"{us(s['best_p50_us'])} | {s['best_over_selected']} | "
                 f"{s['algos']} |")
    if not r["bench_summary"]:
        o.append("| - | no measurement | | | | | | | |")
    o += ["", "## Drop-in against the MPIs", "",
          "bench/mpi_compare with libmanycoll_mpi preloaded: PMPI_X (the "
          "MPI alone) against MPI_X (through the library), interleaved in "
          "the same processes. ratio = median of PMPI time / library time "
          "per iteration (> 1: the library is faster).", ""]
    for mpi, e in r["mpi"].items():
        ver = e.get("version")
        o.append(f"### {e['label']}: {e.get('status')}"
                 + (f" ({ver})" if ver and ver != "not installed" else ""))
        o.append("")
        if e.get("status") in ("not installed", "not asked (--mpis)"):
            o += [f"{e['label']} {e['status']}: skipped.", ""]
            continue
        o += ["| ranks | coll | size | PMPI p50 | lib p50 | ratio |",
              "|---|---|---|---|---|---|"]
        for run in e["runs"]:
            for x in run["rows"]:
                o.append(f"| {run['ranks']} | {x['coll']} | "
                         f"{size_label(x['bytes'])} | "
                         f"{us(x['pmpi_p50_us'])} | {us(x['lib_p50_us'])} "
                         f"| {x['ratio_paired']:.2f} |")
            if run.get("error"):
                o.append(f"| {run['ranks']} | failed: {run['error']} "
                         "| | | | |")
        o.append("")
    o += ["## Calibration and prediction", ""]
    c = r["calibration"]
    if c:
        o += [f"`{c['command']}`: R_L {us(c['R_L_ns'])} ns, R_R "
              f"{us(c['R_R_ns'])} ns, R_I {us(c['R_I_ns'])} ns, contention "
              f"slope (E-E) {us(c['contention_c_ns'])} ns; "
              f"{len(c['skipped'])} measurement(s) skipped.", ""]
    else:
        o += ["No profile: calibrate failed.", ""]
    p = r["prediction"]
    if p:
        o += [f"At {p['ranks']} ranks. The simulator on `{p['platform']}` "
              f"(contention: {p['contention']}), running the algorithm "
              "the library selected on shared memory (`sim ran` says what "
              "it ran instead when that one falls back there), beside the "
              "measured p50:", "",
              "| coll | size | algorithm | sim ran | sim µs | measured µs "
              "| sim/measured |", "|---|---|---|---|---|---|---|"]
        for x in p["sim"]:
            o.append(f"| {x['coll']} | {size_label(x['bytes'])} | "
                     f"{x['algo']} | {x['sim_ran']} | {us(x['sim_us'])} | "
                     f"{us(x['measured_us'])} | {x['sim_over_measured']} |")
        o += ["", "The cache-coherence models' optimum (`manycoll model "
              "optimize` on the profile) beside the same parameters "
              "measured, and the selected algorithm, 8 B:", "",
              "| model | algorithm | model min µs | model max µs | measured "
              "µs | selected | its µs | note |",
              "|---|---|---|---|---|---|---|---|"]
        for x in p["model"]:
            o.append(f"| {x['model']} | {x['algo']} | "
                     f"{us(x['model_min_us'])} | {us(x['model_max_us'])} | "
                     f"{us(x['measured_us'])} | {x['selected']} | "
                     f"{us(x['selected_us'])} | {x['note'] or ''} |")
        o.append("")
    else:
        o += ["No prediction (see Failures).", ""]
    o += ["## Failures", ""]
    o += [f"- {x}" for x in r["failures"]] or ["none"]
    o += ["", f"Exit status: {r['exit_status']}", ""]
    return "\n".join(o)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        sys.stdout.write(markdown(json.load(f)))
