#!/usr/bin/env python3
"""A typo in a platform file must not change what is simulated with exit 0
(issue 43): every key is checked against the schema of
src/plat/platform_keys.c once "extends" is merged.

- every platform of platforms/ loads strictly;
- an unknown key fails (exit 2), naming the file, the section path and the
  nearest known key, without pointing at `sim --help`;
- reserved keys ("source") pass;
- --lenient ignores unknown keys with one warning line naming them (sim,
  model);
- a switch that is not true or false ("mpb": 1) fails;
- a missing "extends" target names the key, its value and where it was
  looked for; a misspelt or missing "topology" is named.

    plat_keys.py MANYCOLL
"""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MC = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(*args):
    p = subprocess.run([MC, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120,
                       env=dict(os.environ, MC_TUNING="none"))
    return p.returncode, p.stdout, p.stderr


def sim(path, *extra):
    return run("sim", "--platform", path, "--coll", "bcast", "--sizes", "8",
               "--ranks", "2", *extra)


def shipped(name):
    with open(os.path.join(ROOT, "platforms", name + ".json")) as f:
        return json.load(f)


def write(tmp, name, d):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(d, f)
    return path


def fails(what, path, *needles):
    """exit 2, one line naming the file and every needle, no --help"""
    rc, out, err = sim(path)
    check(rc == 2, f"{what}: exit {rc}, not 2: {err!r}")
    check(os.path.basename(path) in err, f"{what}: names the file: {err!r}")
    for n in needles:
        check(n in err, f"{what}: says {n!r}: {err!r}")
    check("--help" not in err, f"{what}: no pointer to --help: {err!r}")
    check(out == "", f"{what}: nothing on stdout")


def passes(what, rc_out_err):
    rc, _, err = rc_out_err
    check(rc == 0, f"{what}: exit {rc}, not 0: {err!r}")
    return err


def cases(tmp):
    for path in sorted(glob.glob(os.path.join(ROOT, "platforms", "*.json"))):
        name = os.path.basename(path)[:-5]
        err = passes(f"platforms/{name}.json loads strictly",
                     run("model", "--platform", name, "--table2", "--json"))
        check("warning" not in err, f"{name}: no warning: {err!r}")
    scc = shipped("scc48")

    d = copy.deepcopy(scc)
    d["topology"]["cores_per_tiles"] = d["topology"].pop("cores_per_tile")
    tiles = write(tmp, "tiles", d)
    fails("cores_per_tiles", tiles, "topology.cores_per_tiles: unknown key",
          'did you mean "cores_per_tile"?', "docs/platforms.md")
    d = copy.deepcopy(scc)
    d["contention"]["mbp"] = d["contention"].pop("mpb")
    mbp = write(tmp, "mbp", d)
    fails("mbp", mbp, "contention.mbp: unknown key", 'did you mean "mpb"?')
    d = copy.deepcopy(scc)
    d["contention"]["mpb"] = 1
    fails("mpb: 1", write(tmp, "mpb1", d),
          '"contention.mpb" must be true or false')
    fails("an unknown top-level key",
          write(tmp, "colour", dict(scc, colour="blue")),
          ": colour: unknown key")
    ring = shipped("xeonphi60")
    ring["topology"]["cores_per_tile"] = 1
    fails("a mesh key in a ring", write(tmp, "ring", ring),
          "topology.cores_per_tile: unknown key")
    vscc = shipped("vscc240")
    vscc["chips"][0]["cout"] = vscc["chips"][0].pop("count")
    fails("a key of a chip entry", write(tmp, "cout", vscc),
          "chips[0].cout: unknown key", 'did you mean "count"?')

    # reserved keys: documentation, accepted and not read
    passes("source (reserved)", sim(write(tmp, "source", dict(
        scc, source="a paper"))))
    multi = shipped("vscc240")
    multi["interconnect"]["source"] = "a paper"
    passes("interconnect.source (reserved)",
           sim(write(tmp, "msource", multi)))

    # --lenient: today's behaviour, with one warning line naming the keys
    err = passes("sim --lenient", sim(tiles, "--lenient"))
    warn = [x for x in err.splitlines() if "warning" in x]
    check(len(warn) == 1 and "topology.cores_per_tiles" in warn[0] and
          "tiles.json" in warn[0], f"sim --lenient: one warning line "
          f"naming the key: {warn!r}")
    err = passes("model --lenient", run("model", "--platform", mbp,
                                        "--table2", "--lenient"))
    check("contention.mbp" in err, f"model --lenient warns: {err!r}")

    # extends: a key from the file extended is named in that file; a
    # missing target names the key, its value and where it looked
    fails("a key from the file extended", write(tmp, "child", {
        "extends": tiles, "name": "child"}), "tiles.json (extended by ",
          "child.json): topology.cores_per_tiles: unknown key")
    fails("a missing extends", write(tmp, "orphan", {
        "extends": "no-such-platform", "name": "orphan"}),
          '"extends": "no-such-platform"', "looked in")

    # topology misspelt, missing, or of an unknown kind
    d = copy.deepcopy(scc)
    d["topolgy"] = d.pop("topology")
    fails("topology misspelt", write(tmp, "topolgy", d),
          "topolgy: unknown key", 'did you mean "topology"?')
    d = copy.deepcopy(scc)
    del d["topology"]
    fails("topology missing", write(tmp, "notopo", d),
          '"topology" is missing')
    d = copy.deepcopy(scc)
    d["topology"]["kind"] = "mseh"
    fails("topology.kind unknown", write(tmp, "mseh", d),
          '"topology.kind": "mseh" is not known')


def main():
    with tempfile.TemporaryDirectory(prefix="mc-plat-keys-") as tmp:
        cases(tmp)
    for f in failures:
        print("FAIL:", f)
    print(f"plat_keys: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
