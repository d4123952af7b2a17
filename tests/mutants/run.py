#!/usr/bin/env python3
"""make mutants: put deliberate bugs back, one at a time, and check that the
tests catch each of them.

    tests/mutants/run.py [--only NAME[,NAME...]] [--full] [--keep] [--list]

Each tests/mutants/*.mutant file is one bug: the file it lives in, the
tests of `make test` that must catch it, and an anchored search/replace
(the anchor must occur exactly once; if the file has moved or changed, the
anchor is looked for in every source file, and used where it occurs
exactly once). The tree (tracked and untracked files, not ignored ones) is
copied to a scratch directory under /tmp and built there; the real tree is
never touched. The scratch build first runs every mutant's tests without
any mutant (all must pass), then, for each mutant: apply, build, run its
tests one at a time in the order listed (cheapest first) until one fails,
undo.

A mutant is
  killed          its tests fail
  SURVIVED        its tests pass: a test is missing; add it
  COULD NOT APPLY its anchor is not in the tree (stale: update the mutant)
  DID NOT BUILD   the mutated tree does not compile (fix the mutant)
The exit status is 0 only if every mutant was killed.

--full runs every test of the normal build for each mutant instead of its
own (slow); --keep leaves the scratch directory; --list prints the mutants.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TEST_TIMEOUT = 600  # seconds per test (a hang is a failure, not a wait)
SOURCES = ("src", "tools", "include", "tests")


class Mutant:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)[:-len(".mutant")]
        self.what, self.file, self.tests = [], None, []
        find, replace, block = [], [], None
        with open(path) as f:
            for line in f.read().splitlines():
                if line == "--- find":
                    block = find
                elif line == "--- replace":
                    block = replace
                elif block is not None:
                    block.append(line)
                elif line.startswith("#"):
                    self.what.append(line[1:].strip())
                elif line.startswith("file:"):
                    self.file = line[5:].strip()
                elif line.startswith("tests:"):
                    self.tests = line[6:].split()
                elif line.strip():
                    raise SystemExit(f"{path}: cannot parse '{line}'")
        self.what = " ".join(self.what)
        self.find = "\n".join(find) + "\n"
        self.replace = "\n".join(replace) + "\n"
        if not (self.file and self.tests and find and replace):
            raise SystemExit(f"{path}: needs '# what', 'file:', 'tests:', "
                             f"'--- find' and '--- replace'")


def sh(cmd, cwd, log, timeout=None):
    """runs cmd, appending its output to log; returns the exit status"""
    with open(log, "a") as f:
        f.write(f"\n$ {' '.join(cmd)}\n")
        f.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=f,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            f.write(f"\n(timed out after {timeout} s)\n")
            return 124


def copy_tree(dst):
    """the tree as git sees it, without ignored files (builds)"""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard",
                          "-z"], cwd=ROOT, capture_output=True,
                         check=True).stdout.decode()
    for rel in filter(None, out.split("\0")):
        src = os.path.join(ROOT, rel)
        if not os.path.isfile(src):
            continue  # deleted but not yet committed
        os.makedirs(os.path.join(dst, os.path.dirname(rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel))


def locate(tree, m):
    """(path relative to tree, note) where the anchor occurs exactly once,
    or (None, reason)"""
    def count(rel):
        try:
            with open(os.path.join(tree, rel)) as f:
                return f.read().count(m.find)
        except (OSError, UnicodeDecodeError):
            return 0
    n = count(m.file)
    if n == 1:
        return m.file, ""
    if n > 1:
        return None, f"the anchor occurs {n} times in {m.file}"
    hits = []
    for top in SOURCES:
        for p in glob.glob(os.path.join(tree, top, "**", "*.[ch]"),
                           recursive=True):
            rel = os.path.relpath(p, tree)
            hits += [rel] * count(rel)
    if len(hits) == 1:
        return hits[0], f" (found in {hits[0]}, not {m.file})"
    if not hits:
        return None, f"the anchor is not in {m.file} nor anywhere in src/"
    return None, f"the anchor is not in {m.file} and occurs {len(hits)} " \
                 f"times elsewhere ({', '.join(sorted(set(hits)))})"


def build(bdir, log):
    return sh(["cmake", "--build", bdir, "-j", str(os.cpu_count() or 2)],
              bdir, log)


def ctest(bdir, tests, log, stop=True):
    """the tests named (all if None); stops at the first failure if stop"""
    cmd = ["ctest", "--no-tests=error", "--timeout", str(TEST_TIMEOUT),
           "--output-on-failure"]
    if tests:
        cmd += ["-R", "^(" + "|".join(re.escape(t) for t in tests) + ")$"]
    cmd += ["--stop-on-failure"] if stop else ["-j", "2"]
    return sh(cmd, bdir, log)


def listed(bdir, tests):
    """the tests of the list that the build does not have"""
    out = subprocess.run(["ctest", "-N"], cwd=bdir, capture_output=True,
                         text=True).stdout
    have = set(re.findall(r"Test +#\d+: (\S+)", out))
    return [t for t in tests if t not in have]


def main():
    args = sys.argv[1:]
    mutants = [Mutant(p) for p in sorted(glob.glob(os.path.join(HERE,
                                                                "*.mutant")))]
    if "--only" in args:
        only = args[args.index("--only") + 1].split(",")
        mutants = [m for m in mutants if m.name in only]
    if "--list" in args:
        for m in mutants:
            print(f"{m.name:32s} {m.file}: {m.what}\n{'':32s} tests: "
                  f"{' '.join(m.tests)}")
        return 0
    full = "--full" in args
    t0 = time.time()
    scratch = tempfile.mkdtemp(prefix="mc-mutants-")
    tree, bdir = os.path.join(scratch, "tree"), os.path.join(scratch, "build")
    log = os.path.join(scratch, "log.txt")
    print(f"mutants: {len(mutants)}; scratch copy and build in {scratch} "
          f"(log: {log})", flush=True)
    try:
        copy_tree(tree)
        if sh(["cmake", "-S", tree, "-B", bdir,
               "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DMC_LTO=OFF"],
              scratch, log) or build(bdir, log):
            print("mutants: the unmutated tree does not build; see the log")
            return 2
        every = sorted({t for m in mutants for t in m.tests})
        missing = listed(bdir, every)
        if missing:
            print(f"mutants: no such tests in `make test`: "
                  f"{', '.join(missing)}")
            return 2
        print(f"mutants: baseline: {len(every)} tests without any mutant "
              f"...", flush=True)
        if ctest(bdir, None if full else every, log, stop=False):
            print("mutants: the unmutated tree fails its tests; see the log")
            return 2
        results = []
        for m in mutants:
            results.append(run_one(m, tree, bdir, log, full))
        return report(results, time.time() - t0)
    finally:
        if "--keep" not in args:
            shutil.rmtree(scratch, ignore_errors=True)


def run_one(m, tree, bdir, log, full):
    t0 = time.time()
    rel, note = locate(tree, m)
    if rel is None:
        status = "COULD NOT APPLY"
    else:
        path = os.path.join(tree, rel)
        with open(path) as f:
            orig = f.read()
        with open(path, "w") as f:
            f.write(orig.replace(m.find, m.replace, 1))
        with open(log, "a") as f:
            f.write(f"\n==== mutant {m.name}: {rel}\n")
        try:
            if build(bdir, log):
                status, note = "DID NOT BUILD", note + " (see the log)"
            else:
                status = "SURVIVED"
                for test in [None] if full else m.tests:
                    if ctest(bdir, None if full else [test], log):
                        status = "killed"
                        note += f" (by {test or 'the full run'})"
                        break
        finally:
            with open(path, "w") as f:
                f.write(orig)
    dt = time.time() - t0
    print(f"  {status:15s} {m.name:32s} {dt:6.0f} s  {m.what}{note}",
          flush=True)
    return status


def report(results, dt):
    killed = results.count("killed")
    print(f"mutants: {killed} of {len(results)} killed"
          + "".join(f", {results.count(s)} {s.lower()}"
                    for s in ("SURVIVED", "COULD NOT APPLY", "DID NOT BUILD")
                    if s in results)
          + f"; {dt / 60:.1f} min")
    return 0 if killed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
