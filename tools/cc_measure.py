#!/usr/bin/env python3
"""Model-tuned collectives against the reference ones at 2 ranks, and the
min-max models against the measurements (docs/papers/cachecoh.md,
"The model-tuned algorithms on this machine").

    python3 tools/cc_measure.py build/manycoll [--rounds 7] [--pause S]
                                [--raw FILE]
    python3 tools/cc_measure.py --summary FILE...  (tables from raw files)

Each round:
  1. `manycoll calibrate --quick --reps 300`: this round's R_L, R_R, R_I and
     multi-line fit (the VM moves between host placements whose R_R differs
     up to 20x; a round is classed by its R_R, and again after the round:
     a round whose placement changed is left out);
  2. the models of Table 4.1 at 2 ranks on that profile
     (`manycoll model predict ... --c 0`: T_C(1) = R_L + R_R needs no slope);
  3. `manycoll bench -n 2 --json` with the algorithms of a group interleaved
     call by call (every iteration runs each once).
Rounds are --pause seconds apart, to sample the placements over time.
A round during which another task was runnable (sampled from
/proc/loadavg before each group) is kept in the raw file but left out.
Reported: per placement class, the median over rounds of each p50 (the
slowest rank's median call), and of the model's best and worst case, with
the relative error of the best case, (model - measured) / measured.
"""
import json
import statistics
import subprocess
import sys
import time

GROUPS = [  # (collective, sizes, iterations, algorithms: ours first)
    ("barrier", "0", 20000, ["dissemination-m", "dissemination"]),
    ("bcast", "8,56", 20000, ["cc-tree", "binomial", "ocbcast"]),
    ("reduce", "8,56", 20000, ["cc-tree", "binomial"]),
    ("bcast", "4K,32K,256K,1M", 400,
     ["cc-flat", "cc-pipeline", "ocbcast", "binomial", "scatter-allgather"]),
]
LINE = 64


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), out.stderr))
    return out.stdout


def predict(mc, prof, coll, extra):
    out = run([mc, "model", "predict", "--profile", prof, "--coll", coll,
               "--ranks", "2", "--c", "0", "--json"] + extra)
    j = json.loads(out.strip().splitlines()[-1])
    return j["min_ns"] / 1000, j["max_ns"] / 1000


def models(mc, prof):
    m = {("barrier", 0): predict(mc, prof, "barrier",
                                 ["--m", "1", "--rounds", "schedule"])}
    for b in (8, 56):
        m[("bcast", b)] = predict(mc, prof, "bcast-small", ["--k", "1"])
        m[("reduce", b)] = predict(mc, prof, "reduce-small", ["--k", "1"])
    for b in (4096, 32768, 262144, 1048576):
        lines = str(b // LINE)
        m[("flat", b)] = predict(mc, prof, "bcast-flat", ["--lines", lines])
        m[("pipe", b)] = predict(mc, prof, "bcast-pipelined",
                                 ["--lines", lines])
    return m


def runnable_others():
    """tasks runnable now besides this script (the 4th field of
    /proc/loadavg counts running tasks, this one included)"""
    with open("/proc/loadavg") as f:
        return int(f.read().split()[3].split("/")[0]) - 1


def one_round(mc, i, raw):
    prof = "/tmp/cc_measure_round%d.json" % i
    busy = runnable_others()
    run([mc, "calibrate", "--quick", "--reps", "300", "-o", prof])
    p = json.load(open(prof))
    rr = p["clustered"]["R_R"]
    after = prof.replace(".json", "_after.json")
    rows = []
    for coll, sizes, iters, algos in GROUPS:
        busy = max(busy, runnable_others())
        cmd = [mc, "bench", "-n", "2", "--coll", coll, "--sizes", sizes,
               "--iters", str(iters), "--json"]
        for a in algos:
            cmd += ["--algo", a]
        for line in run(cmd).splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                r["round"], r["R_R"] = i, rr
                rows.append(r)
    busy = max(busy, runnable_others())
    run([mc, "calibrate", "--quick", "--reps", "300", "-o", after])
    rr_after = json.load(open(after))["clustered"]["R_R"]
    rec = {"round": i, "R_R": rr, "R_R_after": rr_after, "busy": busy, "R_L": p["clustered"]["R_L"],
           "R_I": p["clustered"]["R_I"],
           "models": {"%s:%d" % k: v for k, v in models(mc, prof).items()},
           "bench": rows}
    raw.write(json.dumps(rec) + "\n")
    raw.flush()
    return rec


def model_key(coll, algo, b):
    if coll == "bcast" and algo.startswith("cc-flat"):
        return "flat:%d" % b
    if coll == "bcast" and algo.startswith("cc-pipeline"):
        return "pipe:%d" % b
    if algo.startswith("cc-tree") or algo.startswith("dissemination-m"):
        return "%s:%d" % (coll, b)
    return None


# R_I terms in each best case at 2 ranks (d = 1, k = (1), m = 1): Eq. 4.7
# (d + 1) R_I forwards + R_I backwards; Eq. 4.13 one per level; Eq. 4.10
# and 4.8 one; Eq. 4.11 none. The "warm" reading puts R_R in their place:
# in a loop of calls the flag lines are in the other core's cache, not in
# memory as the report assumes at the start of a collective.
RI_TERMS = {"bcast": 3, "reduce": 1, "flat": 1, "pipe": 1, "barrier": 0}


def warm(rec, mk):
    lo = rec["models"][mk][0]
    return lo - RI_TERMS[mk.split(":")[0]] * (rec["R_I"] - rec["R_R"]) / 1000


def summary(recs, label):
    med = statistics.median
    if not recs:
        return
    print("\n%s: %d rounds, R_R %s ns" % (label, len(recs), ", ".join(
        "%.1f" % r["R_R"] for r in recs)))
    print("\n| collective | bytes | algorithm | p50 us (median) | model "
          "min-max us | best case error | warm best case | error |")
    print("|---|---|---|---|---|---|---|---|")
    keys = []
    for r in recs[0]["bench"]:
        keys.append((r["coll"], r["bytes"], r["algo"]))
    for coll, b, algo in keys:
        p50 = [x["p50_us"] for r in recs for x in r["bench"]
               if (x["coll"], x["bytes"], x["algo"]) == (coll, b, algo)]
        mk = model_key(coll, algo, b)
        cell, err, wcell, werr = "", "", "", ""
        if mk:
            lo = med([r["models"][mk][0] for r in recs])
            hi = med([r["models"][mk][1] for r in recs])
            w = med([warm(r, mk) for r in recs])
            cell = "%.3f-%.3f" % (lo, hi)
            err = "%+.0f %%" % (100 * (lo - med(p50)) / med(p50))
            wcell = "%.3f" % w
            werr = "%+.0f %%" % (100 * (w - med(p50)) / med(p50))
        print("| %s | %d | %s | %.3f | %s | %s | %s | %s |" % (
            coll, b, algo.split(":")[0], med(p50), cell, err, wcell, werr))


def main():
    if sys.argv[1] == "--summary":
        report([json.loads(l) for f in sys.argv[2:] for l in open(f)])
        return
    mc = sys.argv[1]
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) \
        if "--rounds" in sys.argv else 7
    rawname = sys.argv[sys.argv.index("--raw") + 1] \
        if "--raw" in sys.argv else "/tmp/cc_measure.jsonl"
    pause = float(sys.argv[sys.argv.index("--pause") + 1]) \
        if "--pause" in sys.argv else 0
    with open(rawname, "w") as raw:
        recs = []
        for i in range(rounds):
            if i and pause:
                time.sleep(pause)
            recs.append(one_round(mc, i, raw))
            print("round %d: R_R %.1f ns" % (i, recs[-1]["R_R"]),
                  file=sys.stderr)
    report(recs)


PLACEMENTS = [  # R_R ranges of the host placements seen (ns)
    (0, 15, "same physical core (R_R < 15 ns)"),
    (15, 60, "fast placement (15 <= R_R < 60 ns)"),
    (60, 1e9, "slow placement (R_R >= 60 ns)"),
]


def placement(rr):
    return [i for i, (lo, hi, _) in enumerate(PLACEMENTS) if lo <= rr < hi][0]


def report(recs):
    quiet = [r for r in recs if r["busy"] == 0]
    stable = [r for r in quiet if placement(r["R_R"]) ==
              placement(r.get("R_R_after", r["R_R"]))]
    print("%d of %d rounds quiet (no other runnable task when sampled), %d "
          "of them in one placement from start to end" %
          (len(quiet), len(recs), len(stable)))
    for i, (lo, hi, label) in enumerate(PLACEMENTS):
        summary([r for r in stable if placement(r["R_R"]) == i], label)

if __name__ == "__main__":
    main()
