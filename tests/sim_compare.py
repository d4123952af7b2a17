#!/usr/bin/env python3
"""`manycoll sim` with several --algo: one table with a column group per
algorithm (lat_us, MB/s, and the ratio to the first's lat_us), the same
numbers as --json, which has one object per (algo, size); a fallback is
named under the table; --trace with several --algo is refused; --plot
writes a PNG where matplotlib is importable.

    sim_compare.py MANYCOLL"""
import json
import os
import subprocess
import sys
import tempfile

MC = sys.argv[1]
BASE = ["sim", "--platform", "scc48", "--ranks", "5", "--sizes", "64,1K"]
failures = []


def run(*args):
    return subprocess.run([MC, *BASE, *args], capture_output=True, text=True,
                          env=dict(os.environ, MC_TUNING="none"))


def check(cond, what):
    if not cond:
        failures.append(what)


def main():
    algos = ["binomial", "scatter-allgather"]
    args = ["--coll", "bcast", "--algo", algos[0], "--algo", algos[1]]
    p = run(*args)
    check(p.returncode == 0, f"two --algo: exit {p.returncode}: {p.stderr}")
    lines = [ln for ln in p.stdout.splitlines() if not ln.startswith("#")]
    check(len(lines) == 4, f"two --algo: 2 header lines and 2 rows, not "
          f"{p.stdout!r}")
    names = lines[0].split() if lines else []
    check(names == algos, f"two --algo: a column per algorithm: {names}")
    table = {}
    for ln in lines[2:]:
        c = ln.split()
        check(len(c) == 6, f"two --algo: bytes, 2x (lat_us, MB/s), ratio: "
              f"{ln!r}")
        if len(c) == 6:
            table[int(c[0])] = (float(c[1]), float(c[3]), float(c[5]))
    p = run(*args, "--json")
    check(p.returncode == 0, f"two --algo --json: exit {p.returncode}")
    rows = [json.loads(ln) for ln in p.stdout.splitlines()]
    got = sorted((r["algo"].split(":")[0], r["bytes"]) for r in rows)
    want = sorted((a, b) for a in algos for b in (64, 1024))
    check(got == want, f"--json: one object per (algo, size): {got}")
    for r in rows:
        b, a = r["bytes"], algos.index(r["algo"].split(":")[0])
        if b in table:
            check(abs(table[b][a] - r["lat_us"]) < 1e-3,
                  f"{r['algo']} {b}: table {table[b][a]}, json "
                  f"{r['lat_us']}")
    for b, (l0, l1, ratio) in table.items():
        check(abs(ratio - l1 / l0) < 1e-3, f"{b}: ratio {ratio}, not "
              f"{l1 / l0:.3f}")
    # a fallback: direct alltoall runs pairwise in the simulator
    p = run("--coll", "alltoall", "--algo", "pairwise", "--algo", "direct")
    check(p.returncode == 0 and
          "# direct: pairwise ran instead at 64, 1024 bytes" in p.stdout,
          f"a fallback is named under the table: {p.stdout!r}")
    p = run(*args, "--trace", os.devnull)
    check(p.returncode == 2 and "give one --algo" in p.stderr,
          f"--trace with two --algo: refused ({p.returncode}, {p.stderr!r})")
    # one --algo: the table of one algorithm, as before
    p = run("--coll", "bcast", "--algo", "binomial")
    check(p.returncode == 0 and "algorithm" in p.stdout.splitlines()[1],
          f"one --algo: the usual table: {p.stdout!r}")
    try:
        import matplotlib  # noqa: F401
        has_mpl = True
    except ImportError:
        has_mpl = False
    with tempfile.TemporaryDirectory() as d:
        png = os.path.join(d, "a.png")
        p = run(*args, "--plot", png)
        if has_mpl:
            check(p.returncode == 0, f"--plot: exit {p.returncode}: "
                  f"{p.stderr}")
            with open(png, "rb") as f:
                check(f.read(8) == b"\x89PNG\r\n\x1a\n", "--plot: a PNG")
        else:
            check(p.returncode == 1 and "needs matplotlib" in p.stderr,
                  f"--plot without matplotlib: says so: {p.stderr!r}")
    for f in failures:
        print("FAIL:", f)
    print(f"sim_compare: {len(failures)} failures "
          f"({'with' if has_mpl else 'without'} matplotlib)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
