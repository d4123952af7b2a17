#!/usr/bin/env python3
"""Runs tests/test_trace_spans.c and reads its OTF2 archive back with
otf2-print (no word on stderr allowed): each core's Enter/Leave sequence
must be the one its header draws, with C written from B's end.

    trace_spans_check.py TEST_TRACE_SPANS TMPDIR
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mpi"))
from check_trace import otf2_print, parse_events  # noqa

WANT = {
    0: [("ENTER", "A", 0), ("ENTER", "B", 2), ("LEAVE", "B", 5),
        ("ENTER", "C", 5), ("LEAVE", "C", 8), ("ENTER", "D", 8),
        ("LEAVE", "D", 8), ("LEAVE", "A", 10), ("ENTER", "E", 12),
        ("LEAVE", "E", 20)],
    2: [("ENTER", "F", 1), ("LEAVE", "F", 3)],
}


def main():
    prog, tmp = sys.argv[1:3]
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    path = os.path.join(tmp, "spans.otf2")
    p = subprocess.run([prog, path], capture_output=True, text=True)
    if p.returncode != 0 or p.stdout.strip() != "clipped 1":
        sys.exit("test_trace_spans: exit %d, %r %r" %
                 (p.returncode, p.stdout, p.stderr))
    got = {c: [(e["ev"], e["Region"], e["t"]) for e in evs]
           for c, evs in parse_events(otf2_print([path])).items()}
    if got != WANT:
        sys.exit("spans as written: %s\nexpected: %s" % (got, WANT))
    print("trace_spans: ok")


if __name__ == "__main__":
    main()
