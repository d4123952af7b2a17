#!/bin/sh
# expect_run.sh STATUS PATTERN -- COMMAND...
# Runs COMMAND; passes if it exits with STATUS and its stderr matches the
# grep -E PATTERN. Used to check what `manycoll run` reports.
want_status=$1; pattern=$2; shift 3
err=$(mktemp)
"$@" 2>"$err"
status=$?
cat "$err" >&2
if [ "$status" -ne "$want_status" ]; then
    echo "expect_run: exit status $status, expected $want_status" >&2
    rm -f "$err"; exit 1
fi
if ! grep -E -q "$pattern" "$err"; then
    echo "expect_run: stderr does not match /$pattern/" >&2
    rm -f "$err"; exit 1
fi
rm -f "$err"
echo "expect_run: status $status and stderr as expected"
