#!/usr/bin/env python3
"""expect_output.py --rows N PATTERN -- COMMAND...

Runs COMMAND; passes only if it exits with status 0, prints exactly N data
rows on stdout (lines that start with '{' or a digit: JSON objects or table
rows) and its stdout matches the Python regular expression PATTERN
(re.search; '.' does not cross lines). CTest's PASS_REGULAR_EXPRESSION
alone ignores the exit status and accepts output that stops short.
"""
import re
import subprocess
import sys


def main():
    args = sys.argv[1:]
    if len(args) < 5 or args[0] != "--rows" or args[3] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    rows, pattern, cmd = int(args[1]), args[2], args[4:]
    p = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    bad = []
    if p.returncode != 0:
        bad.append(f"exit status {p.returncode}, expected 0")
    got = sum(1 for line in p.stdout.splitlines()
              if line[:1] == "{" or line[:1].isdigit())
    if got != rows:
        bad.append(f"{got} data rows on stdout, expected {rows}")
    if not re.search(pattern, p.stdout):
        bad.append(f"stdout does not match /{pattern}/")
    for b in bad:
        print(f"expect_output: {b}", file=sys.stderr)
    if not bad:
        print(f"expect_output: status 0, {rows} rows, output as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
