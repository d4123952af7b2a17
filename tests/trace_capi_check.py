#!/usr/bin/env python3
"""MC_TRACE for C API programs under `manycoll run` (src/api/trace.c,
src/trace): records tests/test_trace_capi.c at 3 ranks and checks the
archive call by call, then replays it (also writing the simulated spans
as OTF2, --trace NAME.otf2, src/trace/spans.c) and a recording of
examples/every_collective.c, the latter also above its recorded size.

    trace_capi_check.py MANYCOLL TEST_TRACE_CAPI EVERY_COLLECTIVE TMPDIR

otf2-print must read the archive without a word on stderr (as for the
drop-in's, tests/mpi/check_trace.py, whose parsers this uses). Exit 0 if
everything matches.
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mpi"))
from check_trace import calls, otf2_print, parse_comms, parse_events  # noqa

P = 3
NONE = "NONE"


def end(oper, comm, root, sent, recvd, **attr):
    return dict(Operation=oper, Communicator=comm, Root=root, Sent=sent,
                Received=recvd, attr=attr)


def a(count, dt, op="", inpl=0, vcounts=None):
    d = dict(count=count, datatype=dt, op=op, in_place=inpl, path="manycoll")
    if vcounts is not None:
        d["vcounts"] = vcounts
    return d


def expected(r):
    """rank r's calls: (region, comm kind, the end's fields or None)"""
    W = "world"
    half = [2, 1] if r else [0]
    hr = half.index(r)
    vc = ",".join(str(q + 1) for q in range(P))
    sends = [r + q + 1 for q in range(P)]
    recvs = [q + r + 1 for q in range(P)]
    return [
        ("mc_barrier", end("BARRIER", W, NONE, 0, 0, **a(0, "u8"))),
        ("mc_allreduce", end("ALLREDUCE", W, NONE, 40, 40,
                             **a(5, "f64", "sum"))),
        ("mc_bcast", end("BCAST", W, str(P - 1), 28 if r == P - 1 else 0,
                         0 if r == P - 1 else 28, **a(7, "i32"))),
        ("mc_allreduce", end("ALLREDUCE", W, NONE, 24, 24,
                             **a(3, "i64", "max", 1))),
        ("mc_gatherv", end("GATHERV", W, "1", r + 1, 6 if r == 1 else 0,
                           **a(r + 1, "u8", vcounts=vc if r == 1 else None))),
        ("mc_alltoallv", end("ALLTOALLV", W, NONE, 4 * sum(sends),
                             4 * sum(recvs),
                             **a(sum(sends), "f32",
                                 vcounts=",".join(map(str, sends))))),
        ("mc_allreduce", end("ALLREDUCE", W, NONE, 8, 8,
                             **a(2, "i32", "user"))),
        ("mc_reduce", end("REDUCE", ("split", half), "0", 8,
                          8 if hr == 0 else 0, **a(4, "u16", "sum"))),
        ("mc_barrier", end("BARRIER", ("dup", half), NONE, 0, 0,
                           **a(0, "u8"))),
        ("mc_iallreduce", "begin"),
        ("mc_wait", end("ALLREDUCE", W, NONE, 48, 48, **a(6, "f64", "sum"))),
        ("mc_ibcast", "begin"),
        ("mc_test", end("BCAST", W, "0", 8 if r == 0 else 0,
                        0 if r == 0 else 8, **a(2, "f32"))),
        ("mc_allreduce_init", None),
        ("mc_start", "begin"),
        ("mc_wait", end("ALLREDUCE", W, NONE, 4, 4, **a(1, "i32", "sum"))),
        ("mc_start", "begin"),
        ("mc_waitall", end("ALLREDUCE", W, NONE, 4, 4,
                           **a(1, "i32", "sum"))),
        ("mc_reduce_scatter", end("REDUCE_SCATTER", W, NONE, 24,
                                  4 * (r + 1),
                                  **a(r + 1, "i32", "sum", vcounts=vc))),
    ]


def check_call(r, i, want, got, comms, errs):
    region, w = want
    name, evs = got
    where = "rank %d call %d (%s)" % (r, i, region)
    if name != region:
        errs.append("%s: recorded as %s" % (where, name))
        return
    kinds = [e["ev"] for e in evs]
    if w is None:
        if kinds:
            errs.append("%s: events %s, expected none" % (where, kinds))
        return
    if w == "begin":
        if kinds != ["MPI_COLLECTIVE_BEGIN"]:
            errs.append("%s: events %s" % (where, kinds))
        return
    ends = [e for e in evs if e["ev"] == "MPI_COLLECTIVE_END"]
    if len(ends) != 1:
        errs.append("%s: %d collective ends" % (where, len(ends)))
        return
    e = ends[0]
    cname, members = comms.get(e["Communicator"], ("?", None))
    comm = "world" if cname == "MPI_COMM_WORLD" and members == \
        list(range(P)) else (cname, members)
    for k in ("Operation", "Root", "Sent", "Received"):
        got_k = e.get(k)
        if k == "Root" and got_k not in (None, NONE):
            got_k = str(got_k)
        if str(got_k) != str(w[k]):
            errs.append("%s: %s %s, expected %s" % (where, k, got_k, w[k]))
    if comm != w["Communicator"]:
        errs.append("%s: communicator %s, expected %s" %
                    (where, comm, w["Communicator"]))
    if e["attr"] != w["attr"]:
        errs.append("%s: attributes %s, expected %s" %
                    (where, e["attr"], w["attr"]))


def lines(text):
    """--json: one object per line"""
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def run(cmd, env=None, expect=0):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != expect:
        sys.exit("%s: exit %d, expected %d\n%s%s" % (
            " ".join(cmd), p.returncode, expect, p.stdout, p.stderr))
    return p


def record(mc, prog, d):
    os.makedirs(d)
    env = dict(os.environ, MC_TRACE=d)
    run([mc, "run", "-n", str(P), "--timeout", "60", prog], env)
    left = [f for f in os.listdir(d) if f.endswith(".mctrace")]
    if left or not os.path.exists(os.path.join(d, "traces.otf2")):
        sys.exit("%s: no archive, or logs left behind: %s" %
                 (d, sorted(os.listdir(d))))
    return env


def main():
    mc, prog, every, tmp = sys.argv[1:5]
    shutil.rmtree(tmp, ignore_errors=True)
    d = os.path.join(tmp, "capi")
    env = record(mc, prog, d)
    anchor = os.path.join(d, "traces.otf2")
    locs = parse_events(otf2_print([anchor]))
    comms = parse_comms(otf2_print(["-G", anchor]))
    errs = []
    for r in range(P):
        got = calls(locs.get(r, []), r, errs)
        want = expected(r)
        if len(got) != len(want):
            errs.append("rank %d: %d calls recorded, expected %d: %s" %
                        (r, len(got), len(want), [g[0] for g in got]))
        for i, (w, g) in enumerate(zip(want, got)):
            check_call(r, i, w, g, comms, errs)
    # an archive already there: refused before the job starts
    p = run([mc, "run", "-n", str(P), prog], env, expect=2)
    if "holds an archive already" not in p.stderr:
        errs.append("a second recording into %s: %r" % (d, p.stderr))
    p = run([mc, "run", "-n", "1", prog],
            dict(os.environ, MC_TRACE=os.path.join(tmp, "none")), expect=2)
    if "is not a directory" not in p.stderr:
        errs.append("MC_TRACE naming no directory: %r" % p.stderr)
    # replay: every call site, at the recorded size
    rows = lines(run([mc, "replay", anchor, "--platform", "scc48",
                      "--json"]).stdout)
    total = rows[-1]
    if total.get("coll") != "total" or total.get("calls") != 14:
        errs.append("replay: total %s, expected 14 collectives per rank" %
                    total)
    # the replay's simulated spans as OTF2 (--trace NAME.otf2): otf2-print
    # reads them without a word, every Enter has its Leave, and each
    # core's times never go back
    sim = os.path.join(tmp, "sim.otf2")
    run([mc, "replay", anchor, "--platform", "scc48", "--trace", sim])
    spans = parse_events(otf2_print([sim]))
    for core, evs in spans.items():
        depth, t = 0, 0
        for e in evs:
            depth += {"ENTER": 1, "LEAVE": -1}.get(e["ev"], 0)
            if depth < 0 or e["t"] < t:
                errs.append("--trace %s: core %d unbalanced or back in "
                            "time at %s" % (sim, core, e))
                break
            t = e["t"]
        if depth:
            errs.append("--trace %s: core %d ends inside a span" %
                        (sim, core))
    if len(spans) != P:
        errs.append("--trace %s: %d cores with spans, expected %d" %
                    (sim, len(spans), P))
    # each location's definition counts its events
    for m in re.finditer(r"^LOCATION\s+(\d+)\s.*# Events: (\d+)",
                         otf2_print(["-G", sim]), re.M):
        core, n = int(m.group(1)), int(m.group(2))
        if n != len(spans.get(core, [])):
            errs.append("--trace %s: core %d defined with %d events, has "
                        "%d" % (sim, core, n, len(spans.get(core, []))))
    p = run([mc, "replay", anchor, "--platform", "scc48", "--trace", sim],
            expect=1)
    if "is there already" not in p.stderr:
        errs.append("--trace onto an archive: %r" % p.stderr)
    # world-only: above the recorded size too
    e = os.path.join(tmp, "every")
    record(mc, every, e)
    for n in ("3", "48"):
        rows = lines(run([mc, "replay", e, "--platform", "scc48",
                          "--ranks", n, "--json"]).stdout)
        if rows[-1].get("calls", 0) < 9 or rows[-1]["sim_us"] <= 0:
            errs.append("replay of every_collective at %s ranks: %s" %
                        (n, rows[-1]))
    for x in errs:
        print(x)
    print("trace_capi: %s" % ("ok" if not errs else "%d errors" % len(errs)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
