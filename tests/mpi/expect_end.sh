#!/bin/sh
# expect_end.sh SECONDS PATTERN -- COMMAND...
# Passes if COMMAND ends by itself within SECONDS with a non-zero status
# and its output matches the grep -E PATTERN: a job with a dead rank must
# end, not hang.
limit=$1; pattern=$2; shift 3
out=$(mktemp)
timeout -k 5 "$limit" "$@" >"$out" 2>&1
status=$?
cat "$out"
if [ "$status" -eq 124 ] || [ "$status" -eq 137 -a "$(grep -c . "$out")" -eq 0 ]; then
    echo "expect_end: still running after $limit s" >&2; rm -f "$out"; exit 1
fi
if [ "$status" -eq 0 ]; then
    echo "expect_end: exited with status 0, expected a failure" >&2
    rm -f "$out"; exit 1
fi
if ! grep -E -q "$pattern" "$out"; then
    echo "expect_end: output does not match /$pattern/" >&2
    rm -f "$out"; exit 1
fi
rm -f "$out"
echo "expect_end: ended with status $status, as expected"
