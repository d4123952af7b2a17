#!/bin/sh
# trace_run.sh DIR CHECK -- COMMAND...
# Runs COMMAND (an MPI launch under the drop-in) with MC_MPI_TRACE=DIR,
# after removing DIR; then CHECK (a command line, DIR appended to it
# where it says {}), unless CHECK is "-" (then otf2-print must read the
# archive and its definitions without a word on stderr): fails if either
# fails. Used by tests/mpi_trace.cmake.
dir=$1; check=$2
shift 3
rm -rf "$dir"
MC_MPI_TRACE=$dir "$@" || { echo "trace_run: the program failed" >&2; exit 1; }
[ -f "$dir/traces.otf2" ] || { echo "trace_run: no $dir/traces.otf2" >&2; exit 1; }
if [ "$check" = "-" ]; then
    for a in "" -G; do
        err=$(otf2-print $a "$dir/traces.otf2" 2>&1 >/dev/null) &&
            [ -z "$err" ] || { echo "trace_run: otf2-print $a: $err" >&2; exit 1; }
    done
    exit 0
fi
exec sh -c "$(echo "$check" | sed "s|{}|$dir|g")"
