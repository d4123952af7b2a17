#!/usr/bin/env python3
"""docs/selection.md's rule table against the built-in rules of
src/select/select.c (default_rules[]).

    rules_doc.py RULES_DOC DOC [--update]

RULES_DOC is the program tests/rules_doc.c; DOC is docs/selection.md. The
table lies between the two marker comments below. Two checks, both must
hold (the test select_rules_doc):

  1. the committed table is the one RULES_DOC generates from the rules,
     character for character;
  2. the committed table, read as the page says (top to bottom, the first
     row whose machine and rank limit match and the first of its sizes
     that covers the message wins), gives the algorithm that
     mc_select_builtin gives, over a grid of collectives, kinds of machine
     (coherent, MPB), rank counts and sizes around every limit; and
     every collective has a rule at every point of that grid.

--update (`make docs`) rewrites the table in DOC from the rules: do it
when the rules change on purpose, and say why in the page's prose."""
import difflib
import re
import subprocess
import sys

BEGIN = ("<!-- rules: generated from src/select/select.c by "
         "tests/rules_doc.py (make docs); do not edit by hand -->")
END = "<!-- end of the generated rules -->"


def generated(prog):
    p = subprocess.run([prog], capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(f"FAIL: {prog}: exit status {p.returncode}\n"
                         f"{p.stderr}")
    return p.stdout


def split(doc):
    """(before, table, after) of the page's text"""
    b, e = doc.find(BEGIN), doc.find(END)
    if b < 0 or e < b:
        raise SystemExit(f"FAIL: the page has no table between\n  {BEGIN}\n"
                         f"and\n  {END}")
    b += len(BEGIN) + 1
    return doc[:b], doc[b:e], doc[e:]


UNITS = {"bytes": 1, "KiB": 1024, "MiB": 1048576}


def limit(text):
    """a size cell's part: its largest message in bytes (None: any)"""
    if text in ("any", "larger"):
        return None
    m = re.fullmatch(r"≤ (\d+) (bytes|KiB|MiB)", text)
    if not m:
        raise SystemExit(f"FAIL: unreadable size {text!r} in the table")
    return int(m.group(1)) * UNITS[m.group(2)]


def rows(table):
    """the table's rules, in order: (machine, coll, max_ranks, max_bytes,
    algorithm name)"""
    out = []
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5:
            raise SystemExit(f"FAIL: not a row of five cells: {line!r}")
        machine, coll, ranks, sizes, algos = cells
        nranks = None if ranks == "any" else int(ranks.lstrip("≤ "))
        sizes, algos = sizes.split(" / "), algos.split(" / ")
        if len(sizes) != len(algos):
            raise SystemExit(f"FAIL: {len(sizes)} sizes and {len(algos)} "
                             f"algorithms in {line!r}")
        for s, a in zip(sizes, algos):
            out.append((machine, coll, nranks, limit(s),
                        re.match(r"`([^`]*)`", a).group(1)))
    return out


def read(rules, coll, coherent, ranks, nbytes):
    """what the table says coll runs (first match wins)"""
    kind = "coherent" if coherent else "MPB"
    for machine, c, max_ranks, max_bytes, algo in rules:
        if (c == coll and machine in ("any", kind) and
                (max_ranks is None or ranks <= max_ranks) and
                (max_bytes is None or nbytes <= max_bytes)):
            return algo
    return "-"


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--update"]):
        raise SystemExit(__doc__)
    prog, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        doc = f.read()
    before, table, after = split(doc)
    want = generated(prog)
    if sys.argv[3:] == ["--update"]:
        with open(path, "w") as f:
            f.write(before + want + after)
        print(f"rules_doc: wrote {len(want.splitlines()) - 2} rows to {path}")
        return
    bad = 0
    if table != want:
        bad = 1
        print(f"FAIL: the rule table in {path} is not the one the built-in "
              "rules (src/select/select.c) give:")
        sys.stdout.writelines(difflib.unified_diff(
            table.splitlines(True), want.splitlines(True),
            f"{path} (committed)", "generated from select.c"))
    p = subprocess.run([prog, "--grid"], capture_output=True, text=True,
                       check=True)
    rules, points = rows(table), 0
    for line in p.stdout.splitlines():
        coll, coherent, ranks, nbytes, algo = line.split()
        name = algo.split(":")[0]
        got = read(rules, coll, int(coherent), int(ranks), int(nbytes))
        points += 1
        if name == "-":
            bad += 1
            print(f"FAIL: no built-in rule for {coll} on "
                  f"{'coherent' if int(coherent) else 'MPB'} at {ranks} "
                  f"ranks, {nbytes} bytes (a collective's rules end with "
                  "one for any machine, ranks and size)")
        elif got != name:
            bad += 1
            if bad <= 20:
                print(f"FAIL: {coll} on {'coherent' if int(coherent) else 'MPB'}"
                      f" at {ranks} ranks, {nbytes} bytes: the table says "
                      f"{got}, mc_select_builtin {name}")
    if bad:
        print("rules_doc: if the rules changed on purpose, run `make docs` "
              "and commit docs/selection.md (with the reason in its prose)")
        raise SystemExit(1)
    print(f"rules_doc: {len(rules)} rules as in select.c; {points} points "
          "read from the table as mc_select_builtin decides")


if __name__ == "__main__":
    main()
