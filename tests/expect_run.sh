#!/bin/sh
# expect_run.sh STATUS PATTERN [COUNT OUT_PATTERN] -- COMMAND...
# Runs COMMAND; passes if it exits with STATUS and its stderr matches the
# grep -E PATTERN (and, given COUNT, exactly COUNT lines of its stdout match
# OUT_PATTERN). Used to check what `manycoll run` reports, and what the
# ranks that outlive a failing one say.
want_status=$1; pattern=$2; count=; out_pattern=
if [ "$3" != "--" ]; then count=$3; out_pattern=$4; shift 2; fi
shift 3
err=$(mktemp); out=$(mktemp)
"$@" >"$out" 2>"$err"
status=$?
cat "$out"
cat "$err" >&2
bad=
if [ "$status" -ne "$want_status" ]; then
    echo "expect_run: exit status $status, expected $want_status" >&2
    bad=1
fi
if ! grep -E -q "$pattern" "$err"; then
    echo "expect_run: stderr does not match /$pattern/" >&2
    bad=1
fi
if [ -n "$count" ]; then
    got=$(grep -E -c "$out_pattern" "$out")
    if [ "$got" -ne "$count" ]; then
        echo "expect_run: $got lines of stdout match /$out_pattern/," \
             "expected $count" >&2
        bad=1
    fi
fi
rm -f "$err" "$out"
[ -n "$bad" ] && exit 1
echo "expect_run: status $status and output as expected"
