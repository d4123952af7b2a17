#!/usr/bin/env python3
"""replay_check.py MANYCOLL REPLAY_GEN TMPDIR: `manycoll replay` of the
archives tests/replay_gen.c writes (contract form, Score-P form, a split
--ranks cannot extend), on several platforms, at the recorded size and
larger; --algo, --best and the errors (tests/replay.cmake)."""
import json, os, shutil, subprocess, sys

cmd, gen, tmp = sys.argv[1:4]
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
arch = {m: os.path.join(tmp, m) for m in ("contract", "scorep", "odd")}
for m, d in arch.items():
    subprocess.run([gen, d] + ([] if m == "contract" else [m]), check=True)


def replay(archive, *args, fail=False):
    p = subprocess.run([cmd, "replay", archive] + list(args), text=True,
                       capture_output=True)
    if fail:
        assert p.returncode != 0, "expected a failure: %s" % (args,)
        return p.stderr
    assert p.returncode == 0, p.stderr
    if "--json" in args:
        return [json.loads(l) for l in p.stdout.splitlines()]
    return p.stdout


def key(row):
    return (row.get("comm"), row["coll"], row.get("size_class"))


for plat, ranks in (("scc48", 48), ("mesh16x16", 64), ("mesh8x8", 24)):
    for m in ("contract", "scorep"):
        for n in ("6", str(ranks)):
            rows = replay(arch[m], "--platform", plat, "--ranks", n, "--json")
            assert rows[-1]["coll"] == "total" and rows[-1]["ranks"] == int(n)
            colls = sorted({r["coll"] for r in rows[:-1]})
            assert colls == ["allreduce", "bcast", "p2p"], colls
            assert all(r["sim_us"] > 0 and r["calls"] >= 1 for r in rows)
            # the world allreduce: 3 calls of 64 bytes per rank
            ar = [r for r in rows if r["coll"] == "allreduce" and
                  r["comm"] == "world"]
            assert ar and ar[0]["calls"] == 3 and ar[0]["bytes"] == 64, ar
            assert rows[-1]["unreplayed_us"] == 3.0, rows[-1]
    # Score-P's archive (counts derived from bytes, IdMap) replays as the
    # contract's does
    a = replay(arch["contract"], "--platform", plat, "--json")
    b = replay(arch["scorep"], "--platform", plat, "--json")
    assert [(key(x), x["calls"], x.get("bytes")) for x in a] == \
           [(key(x), x["calls"], x.get("bytes")) for x in b], (a, b)

# forcing bcast's algorithm changes the bcast row; the calls before it
# (the world allreduce) are untouched
base = {key(r): r for r in replay(arch["contract"], "--platform", "scc48",
                                  "--json")}
forced = {key(r): r for r in replay(arch["contract"], "--platform", "scc48",
                                    "--algo", "bcast=binomial", "--json")}
bk = ("world", "bcast", 1024)
assert forced[bk]["algo"] == "binomial" and base[bk]["algo"] != "binomial"
assert abs(forced[bk]["sim_us"] - base[bk]["sim_us"]) > 1e-3
ak = ("world", "allreduce", 64)
assert forced[ak]["sim_us"] == base[ak]["sim_us"], (forced[ak], base[ak])

# --best names an algorithm per collective site, never slower than what
# the selection ran
for r in replay(arch["contract"], "--platform", "scc48", "--best",
                "--json")[:-1]:
    if r["coll"] != "p2p":
        assert r.get("best") and r["best_us"] <= r["sim_us"] + 1e-6, r

# the errors name what is wrong
e = replay(arch["odd"], "--platform", "scc48", "--ranks", "12", fail=True)
assert "communicator 1 ('split'" in e and "no rule" in e, e
replay(arch["odd"], "--platform", "scc48")  # fine at the recorded size
e = replay(os.path.join(tmp, "none"), "--platform", "scc48", fail=True)
assert "does not exist" in e, e
bad = os.path.join(tmp, "bad.otf2")
open(bad, "w").write("not an archive\n")
e = replay(bad, "--platform", "scc48", fail=True)
assert "not" in e and "OTF2" in e, e
e = replay(arch["contract"], "--platform", "scc48", "--algo", "bcast=nope",
           fail=True)
assert "nope" in e, e
shutil.rmtree(tmp)
print("replay_check: ok")
