#!/usr/bin/env python3
"""make chaos: fault injection at random points of every collective, split
and create, at several sizes and rank counts.

    chaos.py [--build DIR] [--faults N] [--seed S] [--jobs J]

Each run starts `manycoll run -n N chaos_rank BYTES CALLS` with one victim
rank that, at a random call and a random delay into it (or while the world
is being created), is killed (SIGKILL), stopped (SIGSTOP, past
MC_TIMEOUT), exits at once (_exit(3): no atexit handler), or exits
cleanly between calls (exit(3) without mc_finalize). Checked, per run:

  - in time: every other rank either finished every call, or failed with
    MC_ERR_PEER_DEAD within 1 s of the fault (kill, exits), or with
    MC_ERR_TIMEOUT / MC_ERR_PEER_DEAD within MC_TIMEOUT + 1 s (stop; and
    a fault before the victim joined, which only the timeout can find);
  - no wrong result: every call that returned MC_OK was checked;
  - no hang: the run ends within MC_TIMEOUT + 15 s;
  - nothing left in /dev/shm under the job's name;
  - `manycoll run` names the victim, with its status (kill, exits).

Prints one line per failed check and the counts; exits 1 if any check
failed. A stopped victim is killed by this driver once the others have
reported, so a run does not wait for the launcher's grace period.
"""
import argparse
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NCOLLS = 10  # chaos_rank's cycle: 9 collectives and a split
PEER_DEAD, TIMEOUT = -4, -3
FAULT_RE = re.compile(r"^chaos fault (\S+) rank (\d+) pid (\d+) t (\d+)")
RANK_RE = re.compile(r"^chaos rank (\d+) status (-?\d+) t (\d+) calls (\d+) "
                     r"wrong (\d+) msg (.*)$")


def options():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--faults", type=int, default=500)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if a.seed is None:
        a.seed = random.randrange(1 << 30)
    return a


def draw(rng):
    """one run's configuration"""
    n = rng.choice([2, 3, 4, 5, 8])
    nbytes = rng.choice([8, 1024, 65536, 1 << 20])
    fault = rng.choices(["kill", "stop", "_exit", "exit"],
                        weights=[50, 12, 19, 19])[0]
    where = rng.choices(["coll", "split", "create"], weights=[70, 15, 15])[0]
    calls = 2 * NCOLLS
    if where == "create":
        call, delay = -1, rng.randrange(0, 4000)
    else:
        call = rng.randrange(calls)
        if where == "split":
            call = call - call % NCOLLS + NCOLLS - 1
        delay = rng.randrange(0, 3000 if nbytes >= 65536 else 300)
    if fault == "exit" and where == "create":
        fault = "_exit"  # a clean exit between calls needs a call
    victim = rng.randrange(n)
    timeout = 2 if fault == "stop" or where == "create" else 10
    return dict(n=n, bytes=nbytes, fault=fault, where=where, call=call,
                delay=delay, victim=victim, calls=calls, timeout=timeout)


def run_one(a, cfg):
    """runs it; returns (problems, summary)"""
    mc = os.path.join(a.build, "manycoll")
    prog = os.path.join(a.build, "tests", "chaos_rank")
    env = dict(os.environ, MC_TUNING="none", MC_TIMEOUT=str(cfg["timeout"]),
               CHAOS_VICTIM=str(cfg["victim"]), CHAOS_FAULT=cfg["fault"],
               CHAOS_CALL=str(cfg["call"]),
               CHAOS_DELAY_US=str(cfg["delay"]))
    cmd = [mc, "run", "-n", str(cfg["n"]), "--timeout", "120", prog,
           str(cfg["bytes"]), str(cfg["calls"])]
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    prefix = f"manycoll-{os.geteuid()}-j{p.pid}-"
    lines, errs = [], []
    t_err = threading.Thread(target=lambda: errs.extend(p.stderr))
    t_err.start()
    limit = time.monotonic() + cfg["timeout"] + 15
    victim_pid, killed_stopped, hung = None, False, False
    ranks = {}
    for line in p.stdout:
        lines.append(line)
        m = FAULT_RE.match(line)
        if m:
            victim_pid = int(m.group(3))
        m = RANK_RE.match(line)
        if m:
            ranks[int(m.group(1))] = m
        others = [r for r in ranks if r != cfg["victim"]]
        if (cfg["fault"] == "stop" and victim_pid and not killed_stopped and
                len(others) == cfg["n"] - 1):
            os.kill(victim_pid, signal.SIGKILL)
            killed_stopped = True
        if time.monotonic() > limit:
            hung = True
            break
    try:
        rc = p.wait(timeout=max(1, limit - time.monotonic()))
    except subprocess.TimeoutExpired:
        hung = True
        if victim_pid:
            os.kill(victim_pid, signal.SIGKILL)
        p.kill()
        rc = p.wait()
    t_err.join()
    return check(cfg, lines, "".join(errs), rc, hung, prefix)


def check(cfg, lines, err, rc, hung, prefix):
    problems = []
    fault_t, ranks = None, {}
    for line in lines:
        m = FAULT_RE.match(line)
        if m:
            fault_t = int(m.group(4)) / 1e9
        m = RANK_RE.match(line)
        if m:
            ranks[int(m.group(1))] = (int(m.group(2)), int(m.group(3)) / 1e9,
                                      int(m.group(5)), m.group(6))
        if "wrong result" in line:
            problems.append("wrong result: " + line.strip())
    if hung:
        problems.append("hang: the run did not end in time")
    left = [n for n in os.listdir("/dev/shm") if n.startswith(prefix)]
    if left:
        problems.append(f"left in /dev/shm: {left}")
        for n in left:
            try:
                os.unlink(os.path.join("/dev/shm", n))
            except OSError:
                pass
    if fault_t is None:
        # the victim finished before its timer: no fault; all must be fine
        if rc != 0 and not problems:
            problems.append(f"no fault, yet status {rc}: {err.strip()}")
        return problems, "no fault"
    stop = cfg["fault"] == "stop"
    late_ok = cfg["timeout"] + 1.0
    for r in range(cfg["n"]):
        if r == cfg["victim"]:
            continue
        if r not in ranks:
            problems.append(f"rank {r} never reported (killed?)")
            continue
        status, t, wrong, msg = ranks[r]
        if status == 0:
            continue  # it had finished everything it needed the victim for
        dt = t - fault_t
        early = cfg["where"] == "create" or stop
        ok_status = status in ((PEER_DEAD, TIMEOUT) if early else
                               (PEER_DEAD,))
        bound = late_ok if (stop or (cfg["where"] == "create" and
                                     status == TIMEOUT)) else 1.0
        if not ok_status or dt > bound:
            problems.append(f"rank {r}: status {status} {dt:.3f} s after "
                            f"the fault (bound {bound} s): {msg}")
    if not stop and not hung:
        want = {"kill": rf"rank {cfg['victim']} \(pid \d+\) killed by "
                        r"signal 9",
                "_exit": rf"rank {cfg['victim']} \(pid \d+\) exited with "
                         r"status 3",
                "exit": rf"rank {cfg['victim']} \(pid \d+\) exited with "
                        r"status 3"}[cfg["fault"]]
        code = 137 if cfg["fault"] == "kill" else 3
        if not re.search(want, err) or rc != code:
            problems.append(f"manycoll run named the wrong rank or status "
                            f"({rc}, expected {code}): "
                            f"{err.strip().splitlines()[-1:]}")
    return problems, "fault"


def main():
    a = options()
    rng = random.Random(a.seed)
    counts = {"runs": 0, "faults": 0, "no fault": 0, "hangs": 0,
              "wrong": 0, "leftovers": 0, "misnamed": 0, "late or wrong "
              "error": 0}
    by_kind = {}
    t0 = time.monotonic()
    print(f"chaos: seed {a.seed}, {a.faults} faults", flush=True)
    while counts["faults"] < a.faults:
        cfg = draw(rng)
        problems, kind = run_one(a, cfg)
        counts["runs"] += 1
        counts["faults" if kind == "fault" else "no fault"] += 1
        key = f"{cfg['fault']}/{cfg['where']}"
        by_kind[key] = by_kind.get(key, 0) + (kind == "fault")
        for p in problems:
            k = ("hangs" if p.startswith("hang") else
                 "wrong" if p.startswith("wrong") else
                 "leftovers" if p.startswith("left") else
                 "misnamed" if p.startswith("manycoll run") else
                 "late or wrong error")
            counts[k] += 1
            print(f"FAIL {cfg}: {p}", flush=True)
        if not a.quiet and counts["runs"] % 50 == 0:
            print(f"chaos: {counts['faults']} faults so far "
                  f"({time.monotonic() - t0:.0f} s)", flush=True)
    print("chaos: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print("chaos: faults by kind/where: " +
          ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())))
    print(f"chaos: {time.monotonic() - t0:.0f} s")
    bad = sum(counts[k] for k in ("hangs", "wrong", "leftovers", "misnamed",
                                  "late or wrong error"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
