#!/bin/sh
# run.sh BUILD RUNS [SECONDS]: `make fuzz`. Runs every libFuzzer target of
# BUILD (configured with -DMC_FUZZ=ON, clang, ASan+UBSan) for RUNS inputs
# (at most SECONDS each), starting from the seed corpus in tests/fuzz/
# corpus/<target>; new inputs the fuzzer finds interesting go to
# BUILD/fuzz-corpus/<target>, never into the source tree. Any crash, hang
# (10 s per input), leak or sanitizer report fails the run, and the input
# is left in BUILD/fuzz-artifacts/.
set -e
build=$1; runs=${2:-10000}; secs=${3:-1200}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build/fuzz-artifacts"
status=0
for t in platform tuning profile args; do
    work="$build/fuzz-corpus/$t"
    mkdir -p "$work"
    log="$build/fuzz-artifacts/$t.log"
    echo "fuzz_$t: $runs inputs (at most $secs s) ..."
    if MC_TUNING=none "$build/tests/fuzz_$t" -runs="$runs" \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$build/fuzz-artifacts/$t-" \
        "$work" "$here/corpus/$t" >"$log" 2>&1; then
        grep -E "^stat::number_of_executed_units|^Done" "$log" | tr '\n' ' '
        echo
    else
        echo "fuzz_$t FAILED: see $log"; tail -30 "$log"; status=1
    fi
done
exit $status
