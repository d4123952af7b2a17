#!/usr/bin/env python3
"""Checks the OTF2 archive MC_MPI_TRACE wrote for tests/mpi/test_mpi_trace.c.

    check_trace.py DIR P

Reads DIR/traces.otf2 with otf2-print (an error or any warning there fails
the check: ids must be dense and defined in order), then, per rank, checks
every recorded call against the sequence test_mpi_trace.c makes: the
region, the collective's operation, communicator members, root, bytes and
manycoll::* attributes; the point-to-point events; and that every send
pairs with a receive (sender, receiver, tag, length). Exit 0 if all match.
"""
import re
import subprocess
import sys

MANY = 6000  # test_mpi_trace.c's loop, at 2 ranks
EV = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s*(.*)$")
ATTR = re.compile(r'\("manycoll::(\w+)" <\d+>; \w+; (?:"([^"]*)" <\d+>|(\d+))\)')
FIELD = re.compile(r'(Operation|Communicator|Root|Sent|Received|Receiver|'
                   r'Sender|Tag|Length|Request|Region): '
                   r'(?:"([^"]*)" <(\d+)>|(\w+))')


def otf2_print(args):
    p = subprocess.run(["otf2-print"] + args, capture_output=True, text=True)
    bad = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode != 0 or bad:
        sys.exit("otf2-print %s failed:\n%s" % (" ".join(args), p.stderr))
    return p.stdout


def parse_events(text):
    """per location: a list of events, each a dict"""
    locs = {}
    last = None
    for line in text.splitlines():
        if line.lstrip().startswith("ADDITIONAL ATTRIBUTES:") and last:
            for name, s, n in ATTR.findall(line):
                last["attr"][name] = s if n == "" else int(n)
            continue
        m = EV.match(line)
        if not m or m.group(1) in ("Event", "==="):
            continue
        e = {"ev": m.group(1), "t": int(m.group(3)), "attr": {}}
        for k, s, ref, w in FIELD.findall(m.group(4)):
            e[k] = int(ref) if ref else (s if s else w)
            if k == "Region":
                e[k] = s
        locs.setdefault(int(m.group(2)), []).append(e)
        last = e
    return locs


def parse_comms(text):
    groups, comms = {}, {}
    for line in text.splitlines():
        m = re.match(r"GROUP\s+(\d+)\s+Name: .*Type: COMM_GROUP.*Members?: (.*)",
                     line)
        if m:
            groups[int(m.group(1))] = [int(x) for x in
                                       re.findall(r"(\d+) \(", m.group(2))]
        m = re.match(r'COMM\s+(\d+)\s+Name: "([^"]*)" <\d+>, Group: '
                     r'"[^"]*" <(\d+)>', line)
        if m:
            comms[int(m.group(1))] = (m.group(2), int(m.group(3)))
    return {c: (name, groups.get(g)) for c, (name, g) in comms.items()}


def calls(events, rank, errs):
    """Enter/Leave pairs -> [(region, [inner events])]; checks time order"""
    out, cur, t = [], None, 0
    for e in events:
        if e["t"] < t:
            errs.append("rank %d: time goes back at %s" % (rank, e["ev"]))
        t = e["t"]
        if e["ev"] == "ENTER":
            if cur:
                errs.append("rank %d: %s inside %s" % (rank, e["Region"],
                                                        cur[0]))
            cur = (e["Region"], [])
        elif e["ev"] == "LEAVE":
            if not cur or cur[0] != e["Region"]:
                errs.append("rank %d: LEAVE %s unmatched" % (rank,
                                                              e["Region"]))
            else:
                out.append(cur)
            cur = None
        elif cur:
            cur[1].append(e)
        else:
            errs.append("rank %d: %s outside a call" % (rank, e["ev"]))
    return out


def coll_end(oper, comm, root, sent, recvd, **attr):
    return dict(ev="MPI_COLLECTIVE_END", Operation=oper, Communicator=comm,
                Root=root, Sent=sent, Received=recvd, attr=attr)


def expected(r, P, half_id):
    """the calls rank r makes in test_mpi_trace.c, in order"""
    hp = (P - r % 2 + 1) // 2
    hr = r // 2
    top = P - 1
    root1 = 1 % P
    hpath = "manycoll" if hp > 1 else "mpi"
    B = {"ev": "MPI_COLLECTIVE_BEGIN"}
    seq = [
        ("MPI_Allreduce", [B, coll_end("ALLREDUCE", "W", "NONE", 32, 32,
                                       count=4, datatype="f64", op="sum",
                                       in_place=0, path="manycoll")]),
    ] + [
        ("MPI_Allreduce", [B, coll_end("ALLREDUCE", "W", "NONE", 32, 32,
                                       count=4, datatype="f64", op="max",
                                       in_place=0, path="manycoll")]),
    ] * 2 + [
        ("MPI_Bcast", [B, coll_end("BCAST", "W", top, 12 if r == top else 0,
                                   0 if r == top else 12, count=3,
                                   datatype="i32", op="", in_place=0,
                                   path="manycoll")]),
        ("MPI_Allgatherv", [B, coll_end(
            "ALLGATHERV", "H", "NONE", 4 * (hr + 1), 4 * hp * (hp + 1) // 2,
            count=hr + 1, datatype="i32", op="",
            vcounts=",".join(str(i + 1) for i in range(hp)), in_place=0,
            path=hpath)]),
        # a derived type freed before the next one is made: each call
        # says its own type and bytes
        ("MPI_Bcast", [B, coll_end("BCAST", "H", 0, 24 if hr == 0 else 0,
                                   0 if hr == 0 else 24, count=3,
                                   datatype="bytes:8", op="", in_place=0,
                                   path=hpath)]),
        ("MPI_Bcast", [B, coll_end("BCAST", "H", 0, 12 if hr == 0 else 0,
                                   0 if hr == 0 else 12, count=1,
                                   datatype="bytes:12", op="", in_place=0,
                                   path=hpath)]),
        ("MPI_Gather", [B, coll_end("GATHER", "W", 0, 4,
                                    4 * P if r == 0 else 0, count=1,
                                    datatype="i32", op="", in_place=0,
                                    path="manycoll")]),
        ("MPI_Reduce", [B, coll_end("REDUCE", "W", root1, 16,
                                    16 if r == root1 else 0, count=2,
                                    datatype="i64", op="max",
                                    in_place=int(r == root1),
                                    path="manycoll")]),
        ("MPI_Iallreduce", [B]),
        ("MPI_Wait", [coll_end("ALLREDUCE", "W", "NONE", 4, 4, count=1,
                               datatype="f32", op="max", in_place=0,
                               path="manycoll")]),
    ]
    left, right = (r + P - 1) % P, (r + 1) % P
    seq += [
        ("MPI_Irecv", [dict(ev="MPI_IRECV_REQUEST")]),
        ("MPI_Irecv", [dict(ev="MPI_IRECV_REQUEST")]),
        ("MPI_Isend", [dict(ev="MPI_ISEND", Receiver=right, Tag="1",
                            Length="16", Communicator="W")]),
        ("MPI_Isend", [dict(ev="MPI_ISEND", Receiver=left, Tag="2",
                            Length="8", Communicator="W")]),
        ("MPI_Waitall", [dict(ev="MPI_IRECV", Sender=left, Tag="1",
                              Length="16"),
                         dict(ev="MPI_IRECV", Sender=right, Tag="2",
                              Length="8"),
                         dict(ev="MPI_ISEND_COMPLETE"),
                         dict(ev="MPI_ISEND_COMPLETE")]),
    ]
    if r == 0:
        seq.append(("MPI_Send", [dict(ev="MPI_SEND", Receiver=1, Tag="7",
                                      Length="20", Communicator="W")]))
    if r == 1:
        seq.append(("MPI_Recv", [dict(ev="MPI_RECV", Sender=0, Tag="7",
                                      Length="20", Communicator="W")]))
    if P == 2:  # the loop that fills more than the recording's log
        seq += [
            ("MPI_Allreduce", [B, coll_end("ALLREDUCE", "W", "NONE", 8, 8,
                                           count=1, datatype="f64",
                                           op="sum", in_place=0,
                                           path="manycoll")]),
            ("MPI_Sendrecv", [dict(ev="MPI_SEND", Receiver=right, Tag="3",
                                   Length="8", Communicator="W"),
                              dict(ev="MPI_RECV", Sender=left, Tag="3",
                                   Length="8", Communicator="W")]),
        ] * MANY
    return seq


def same(want, got, comm_ids):
    for k, v in want.items():
        if k == "attr":
            if got["attr"] != v:
                return "attributes %s, want %s" % (got["attr"], v)
            continue
        if k == "Communicator":
            v = comm_ids[v]
        g = got.get(k)
        if str(g) != str(v):
            return "%s %s, want %s" % (k, g, v)
    return None


def check_rank(r, P, cs, comms, errs):
    # the half comm: the one this rank's allgatherv names
    ag = [c for c in cs if c[0] == "MPI_Allgatherv"]
    half = ag[0][1][-1].get("Communicator") if ag and ag[0][1] else None
    members = comms.get(half, (None, None))[1]
    if members != [x for x in range(P) if x % 2 == r % 2]:
        errs.append("rank %d: split comm %s has members %s" % (r, half,
                                                               members))
    ids = {"W": 0, "H": half}
    want = expected(r, P, half)
    if [c[0] for c in cs] != [w[0] for w in want]:
        errs.append("rank %d: calls %s, want %s" % (
            r, [c[0] for c in cs], [w[0] for w in want]))
        return
    for (region, evs), (_, wevs) in zip(cs, want):
        if len(evs) != len(wevs):
            errs.append("rank %d: %s has %d events, want %d" % (
                r, region, len(evs), len(wevs)))
            continue
        for e, w in zip(evs, wevs):
            why = same(w, e, ids)
            if why:
                errs.append("rank %d: %s: %s: %s" % (r, region, e["ev"], why))


def check_pairs(locs, errs):
    sends, recvs = [], []
    for r, evs in locs.items():
        for e in evs:
            if e["ev"] in ("MPI_SEND", "MPI_ISEND"):
                sends.append((str(r), e["Receiver"], e["Tag"], e["Length"]))
            elif e["ev"] in ("MPI_RECV", "MPI_IRECV"):
                recvs.append((e["Sender"], str(r), e["Tag"], e["Length"]))
    if sorted(sends) != sorted(recvs):
        errs.append("sends and receives do not pair up: %s / %s" % (
            sorted(sends), sorted(recvs)))
    return len(sends)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_trace.py DIR P")
    anchor, P = sys.argv[1] + "/traces.otf2", int(sys.argv[2])
    locs = parse_events(otf2_print([anchor]))
    comms = parse_comms(otf2_print(["-G", anchor]))
    errs = []
    if sorted(locs) != list(range(P)):
        errs.append("locations %s, want 0..%d" % (sorted(locs), P - 1))
    if comms.get(0) != ("MPI_COMM_WORLD", list(range(P))):
        errs.append("comm 0 is %s, want MPI_COMM_WORLD of 0..%d" % (
            comms.get(0), P - 1))
    for r in sorted(locs):
        check_rank(r, P, calls(locs[r], r, errs), comms, errs)
    n = check_pairs(locs, errs)
    for e in errs:
        print("check_trace: " + e)
    if errs:
        return 1
    print("check_trace: %d ranks, %d events, %d messages: as called" % (
        P, sum(len(v) for v in locs.values()), n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
