#!/usr/bin/env python3
"""`manycoll replay` checked (tests/replay.cmake).

replay_check.py gen MANYCOLL REPLAY_GEN TMPDIR: the archives
tests/replay_gen.c writes (contract form, Score-P form, a split --ranks
cannot extend), on several platforms, at the recorded size and larger;
--algo, --best and the errors.

replay_check.py cg MANYCOLL ARCHIVE PLATFORM RANKS: the mini-application's
recording (examples/cg.c, build/traces/cg4) replayed at RANKS.

Every replay: nothing from OTF2 on stderr, the rows consistent (a site's
bytes per call within its size class, the subtotals adding up to the
total, the total no more than the run)."""
import json, os, re, shutil, subprocess, sys


def check_rows(rows):
    tot = rows[-1]
    assert tot["coll"] == "total", tot
    for r in rows[:-1]:
        assert r["size_class"] <= r["bytes"] < 2 * r["size_class"], r
        assert r["calls"] >= 1 and r["sim_us"] > 0, r
    assert tot["bytes"] > 0 and tot["calls"] > 0, tot
    # the sites, weighted by the ranks that made them, add up to the total
    n = tot["ranks"]
    assert all(0 < r["ranks"] <= n for r in rows[:-1]), rows
    sim = sum(r["sim_us"] * r["ranks"] for r in rows[:-1]) / n
    assert abs(sim - tot["sim_us"]) <= 1e-3 + 1e-5 * sim, (sim, tot)
    assert tot["sim_us"] <= tot["run_sim_us"] * (1 + 1e-6), tot
    share = tot["sim_us"] / tot["run_sim_us"]
    assert abs(share - tot["comm_share"]) < 2e-3, (share, tot)


def check_text(out):
    """the subtotal rows add up to the total row"""
    sub, total = [0, 0.0], None
    for line in out.splitlines():
        f = line.split()
        if f[:1] == ["subtotal"]:
            sub[0] += int(f[-3])
            sub[1] += float(f[-2])
        elif f[:2] == ["total", "communication"]:
            total = (int(f[-3]), float(f[-2]))
    assert total and total[1] > 0 and total[0] > 0, out
    assert abs(sub[0] - total[0]) <= 8, (sub, total, out)
    assert abs(sub[1] - total[1]) <= 0.05 + 1e-4 * total[1], (sub, total)


def replay(cmd, archive, *args, fail=False):
    p = subprocess.run([cmd, "replay", archive] + list(args), text=True,
                       capture_output=True)
    assert "OTF2" not in p.stderr or fail, p.stderr[:2000]
    if fail:
        assert p.returncode != 0, "expected a failure: %s" % (args,)
        assert len(p.stderr.splitlines()) == 1, p.stderr
        return p.stderr
    assert p.returncode == 0 and not p.stderr, p.stderr
    if "--json" in args:
        rows = [json.loads(l) for l in p.stdout.splitlines()]
        check_rows(rows)
        return rows
    check_text(p.stdout)
    return p.stdout


def key(row):
    return (row.get("comm"), row["coll"], row.get("size_class"))


def sites(rows):
    return {key(r): r for r in rows[:-1]}


def gen(cmd, gen_exe, tmp):
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    arch = {m: os.path.join(tmp, m)
            for m in ("contract", "scorep", "odd", "nodes")}
    for m, d in arch.items():
        subprocess.run([gen_exe, d] + ([] if m == "contract" else [m]),
                       check=True)
    for plat, ranks in (("scc48", 48), ("mesh16x16", 64), ("mesh8x8", 24)):
        for m in ("contract", "scorep"):
            for n in ("6", str(ranks)):
                rows = replay(cmd, arch[m], "--platform", plat, "--ranks", n,
                              "--json")
                assert rows[-1]["ranks"] == int(n)
                colls = sorted({r["coll"] for r in rows[:-1]})
                assert colls == ["allgatherv", "allreduce", "bcast", "p2p"], \
                    colls
                # MPI_Allgatherv on the rows (v-counts 1, 2 float64): one
                # call, its 1.5 us recorded
                agv = [r for r in rows if r["coll"] == "allgatherv"]
                assert len(agv) == 1 and agv[0]["calls"] == 1, agv
                assert agv[0]["measured_us"] == 2.0, agv
                s = sites(rows)
                # the world allreduce: 3 calls of 64 bytes per rank
                ar = s[("world", "allreduce", 64)]
                assert ar["calls"] == 3 and ar["bytes"] == 64, ar
                # MPI_Iallreduce + MPI_Wait: one call of 16 bytes, its
                # recorded time both calls' (1 + 2 us)
                nb = s[("world", "allreduce", 16)]
                assert nb["calls"] == 1 and nb["measured_us"] == 3.0, nb
                # MPI_Sendrecv (512 + 512 bytes) and the Send/Recv pairs
                sr, pair = s[("world", "p2p", 1024)], s[("world", "p2p", 2048)]
                assert sr["measured_us"] == 2.5 and sr["bytes"] == 1024, sr
                assert pair["measured_us"] == 3.0 and pair["calls"] == 1, pair
                assert rows[-1]["unreplayed_us"] == 3.0, rows[-1]
        # Score-P's archive (counts derived from bytes, IdMap) replays as
        # the contract's does
        a = replay(cmd, arch["contract"], "--platform", plat, "--json")
        b = replay(cmd, arch["scorep"], "--platform", plat, "--json")
        # (an allgatherv's bytes per call are the largest block with the
        # contract's counts, the smallest derived from bytes)
        assert [(key(x), x["calls"], x["bytes"]) for x in a[:-1]
                if x["coll"] != "allgatherv"] == \
               [(key(x), x["calls"], x["bytes"]) for x in b[:-1]
                if x["coll"] != "allgatherv"], (a, b)
        assert a[-1]["sim_us"] == b[-1]["sim_us"], (a[-1], b[-1])
    replay(cmd, arch["contract"], "--platform", "scc48")  # the table
    replay(cmd, arch["contract"], "--platform", "scc48", "--ranks", "48")

    # --trace: the simulated operations as a Perfetto trace
    out = os.path.join(tmp, "trace.json")
    p = subprocess.run([cmd, "replay", arch["contract"], "--platform",
                        "scc48", "--trace", out], text=True,
                       capture_output=True)
    assert p.returncode == 0 and "trace events" in p.stderr, p.stderr
    ev = json.load(open(out))["traceEvents"]
    assert len(ev) > 100
    # a track name for each core with spans (the 6 ranks), and no other
    names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M"}
    spans = {e["tid"] for e in ev if e["ph"] == "X"}
    assert set(names) == spans and len(names) == 6, (names, spans)
    assert all(v.startswith("core %d " % k) for k, v in names.items()), names
    algo_best_errors(cmd, arch, tmp)
    shutil.rmtree(tmp)


def algo_best_errors(cmd, arch, tmp):
    # forcing bcast's algorithm changes the bcast row; the calls before it
    # (the world allreduce) are untouched
    base = sites(replay(cmd, arch["contract"], "--platform", "scc48",
                        "--json"))
    forced = sites(replay(cmd, arch["contract"], "--platform", "scc48",
                          "--algo", "bcast=binomial", "--json"))
    bk = ("world", "bcast", 1024)
    assert forced[bk]["algo"] == "binomial" and base[bk]["algo"] != "binomial"
    assert abs(forced[bk]["sim_us"] - base[bk]["sim_us"]) > 1e-3
    ak = ("world", "allreduce", 64)
    assert forced[ak]["sim_us"] == base[ak]["sim_us"], (forced[ak], base[ak])

    # --best names an algorithm per collective site, never slower than
    # what the selection ran
    for r in replay(cmd, arch["contract"], "--platform", "scc48", "--best",
                    "--json")[:-1]:
        if r["coll"] != "p2p":
            assert r.get("best") and r["best_us"] <= r["sim_us"] + 1e-6, r

    # the errors name what is wrong, in one line
    e = replay(cmd, arch["odd"], "--platform", "scc48", "--ranks", "12",
               fail=True)
    assert "communicator 1 ('split'" in e and "no rule" in e, e
    replay(cmd, arch["odd"], "--platform", "scc48")  # fine when recorded
    # rows named as node splits extend (one rank per row on a chip of
    # one core), but neighbours that send and receive then wait for each
    # other: said as the weak scaling's, not left as the simulator's
    e = replay(cmd, arch["nodes"], "--platform", "scc48", "--ranks", "48",
               fail=True)
    assert "deadlocked above the 6 recorded ranks" in e and \
        "--ranks 48" in e and "simulated deadlock" in e, e
    replay(cmd, arch["nodes"], "--platform", "scc48")  # fine when recorded
    e = replay(cmd, os.path.join(tmp, "none"), "--platform", "scc48",
               fail=True)
    assert "does not exist" in e, e
    bad = os.path.join(tmp, "bad.otf2")
    open(bad, "w").write("not an archive\n")
    e = replay(cmd, bad, "--platform", "scc48", fail=True)
    assert "not" in e and "OTF2" in e and bad in e, e
    e = replay(cmd, arch["contract"], "--platform", "scc48", "--algo",
               "bcast=nope", fail=True)
    assert "nope" in e, e


def cg(cmd, archive, plat, ranks):
    """the CG mini-application: a broadcast of its parameters, allreduces
    (dot products), a halo (p2p) and a final gather, on every rank"""
    rows = replay(cmd, archive, "--platform", plat, "--ranks", ranks,
                  "--json")
    tot = rows[-1]
    assert tot["ranks"] == int(ranks) and tot["recorded_ranks"] == 4, tot
    colls = sorted({r["coll"] for r in rows[:-1]})
    assert colls == ["allreduce", "bcast", "gather", "p2p"], colls
    ar = [r for r in rows if r["coll"] == "allreduce"]
    assert sum(r["calls"] for r in ar) > 10, ar
    # the simulator's events, the host's work: per rank the same at every
    # size (7,900 at 4 ranks, 9,900 at 48, 10,100 at 1,024: each rank
    # replays its template's 357 calls); more per rank would make the
    # large replays' host time grow faster than the ranks (docs/replay.md)
    per_rank = tot["events"] / tot["ranks"]
    assert 2000 <= per_rank <= 30000, tot
    print("%s: %d ranks on %s: %.1f us simulated, %.0f%% communicating, "
          "%.2f s, %d events (%.0f per rank)"
          % (archive, tot["ranks"], plat, tot["run_sim_us"],
             100 * tot["comm_share"], tot["wall_s"], tot["events"],
             per_rank))


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(*sys.argv[2:5])
    else:
        cg(*sys.argv[2:6])
    print("replay_check: ok")
