#!/usr/bin/env python3
"""Expected output of the built-in selection: what `manycoll info --tuning
-n N` says runs on shm, for every collective and size, at rank counts on
either side of every rank limit of the rules (tests/data/select_golden.json),
without a tuning file. A change of the default rules changes this table on
purpose; anything else that changes it is a bug.

    select_golden.py MANYCOLL [--update]

--update (`make golden`) rewrites the golden file: do it when the rules
change on purpose, and say so in the commit (and in docs/selection.md)."""
import json
import os
import subprocess
import sys

RANKS = [1, 2, 3, 16, 17, 64]
# oversubscribed (MC_CPUS=1): the rules for more ranks than CPUs, at rank
# counts on either side of their limit; the others run with MC_CPUS large,
# so that the table does not depend on the CPUs of the machine
OVER = [2, 16, 17]
GOLDEN = os.path.join(os.path.dirname(__file__), "data",
                      "select_golden.json")


# what says how many processes share the CPUs with a communicator's ranks
LOCAL_VARS = ["MC_LOCAL_RANKS", "OMPI_COMM_WORLD_LOCAL_SIZE",
              "MPI_LOCALNRANKS"]


def table(mc, n, cpus, extra=None):
    env = dict(os.environ, MC_TUNING="none", MC_CPUS=str(cpus))
    for v in list(env):
        if v.startswith("MC_ALGO_") or v in LOCAL_VARS:
            del env[v]
    env.update(extra or {})
    p = subprocess.run([mc, "info", "--tuning", "-n", str(n), "--json"],
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: manycoll info --tuning -n {n}: exit status "
                         f"{p.returncode}\n{p.stderr}")
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    got = [f"{r['coll']} {r['bytes']}: {r['algo']}" for r in rows
           if "coll" in r]
    if not got:
        raise SystemExit(f"FAIL: manycoll info --tuning -n {n} lists no "
                         f"selection")
    return got


def local_ranks(mc, got):
    """2 ranks on 2 CPUs that share them with 2 more processes of the job
    (a node communicator of MPI's "nodes", a split) are oversubscribed,
    whoever says so; alone they are not. The number of failures."""
    bad = 0
    for var in LOCAL_VARS:
        for n, want in (("4", got["2 on 1 CPU"]), ("2", got["2"])):
            if table(mc, 2, 2, {var: n}) != want:
                print(f"WRONG: 2 ranks on 2 CPUs with {var}={n} do not take "
                      f"the rules of {'more' if n == '4' else 'no more'} "
                      f"ranks than CPUs")
                bad += 1
    return bad


def main():
    mc = sys.argv[1]
    got = {str(n): table(mc, n, 1 << 20) for n in RANKS}
    got.update({f"{n} on 1 CPU": table(mc, n, 1) for n in OVER})
    if got["2"] == got["2 on 1 CPU"]:
        raise SystemExit("FAIL: the rules for 2 ranks do not depend on "
                         "oversubscription; local_ranks() tests nothing")
    wrong = local_ranks(mc, got)
    if "--update" in sys.argv:
        with open(GOLDEN, "w") as f:
            json.dump(got, f, indent=1)
            f.write("\n")
        print(f"wrote {GOLDEN}")
        return 0
    with open(GOLDEN) as f:
        want = json.load(f)
    bad = 0
    for n in got:
        if got[n] != want.get(n):
            old, new = set(want.get(n, [])), set(got[n])
            print(f"CHANGED at {n} ranks:\n  now:    "
                  f"{sorted(new - old)}\n  golden: {sorted(old - new)}")
            bad += 1
    if bad:
        print("select_golden: if the rules changed on purpose, run `make "
              "golden` and commit tests/data/select_golden.json")
    print(f"select_golden: {len(got)} rank counts, {len(got) - bad} as "
          f"golden; {wrong} wrong with other processes on the CPUs")
    return 1 if bad or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
