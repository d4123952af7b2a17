#!/bin/sh
# cc_tuning.sh MANYCOLL TEST_TUNING
# A tuning file changes what the library selects, end to end:
#   manycoll tune writes it; MC_TUNING and the default location are read;
#   `manycoll info --tuning` and a real communicator (test_tuning
#   describe under manycoll run) both show the tuned algorithms and why;
#   MC_ALGO_<COLL> and mc_comm_set_algo come first; a file for another
#   transport is ignored; size ranges merge with the built-in rules; a
#   malformed file is a clear error naming the file, not a crash.
mc=$1; tt=$2
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
unset MC_ALGO_BCAST MC_ALGO_REDUCE MC_ALGO_BARRIER
# the built-in rules of a machine with a CPU per rank, whatever this one
# has (more ranks than CPUs take rules of their own: select_golden)
export MC_CPUS=1048576
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { # has FILE PATTERN: grep -E, or fail showing the file
    grep -E -q -- "$2" "$1" || { cat "$1" >&2; fail "no /$2/ in $1"; }
}

# 1. tune writes a file for 2-16 ranks from the report's Xeon Phi. A rule
#    replaces a built-in one only where the models predict it 5% faster:
#    optimal trees from 10 (bcast) and 9 (reduce) ranks, dissemination-m
#    barriers from 7; nothing where the built-in flat fast path is the
#    optimal tree itself (up to 9 ranks) and nothing above a line, where no
#    model covers the built-in algorithms (direct, the fast paths' slots)
"$mc" tune --profile xeonphi60 --ranks 2-16 -o "$d/t.json" || fail "tune"
has "$d/t.json" '"format": "manycoll-tuning/1"'
has "$d/t.json" '"coll": "bcast", "ranks": \[14, 16\], "bytes": \[0, 56\], "algo": "cc-tree:k1=4,k2=3".*built-in flat: [0-9.]+ ns'
has "$d/t.json" '"coll": "reduce", "ranks": \[9, 10\], "bytes": \[0, 56\], "algo": "cc-tree:k1=3,k2=2"'
has "$d/t.json" '"coll": "barrier", "ranks": \[7, 9\], "bytes": \[0, null\], "algo": "dissemination-m:m=2"'
has "$d/t.json" '"notes": ".*candidates .* left a built-in rule no model covers'
if grep -E -q '"coll": "bcast", "ranks": \[[2-9],' "$d/t.json"; then
    fail "a bcast rule where the built-in flat tree is optimal"; fi
if grep -E -q '"bytes": \[57,' "$d/t.json"; then
    fail "a rule above a line, where no model covers the built-in one"; fi

# 2. info --tuning: tuned rows name the file and the rule, with the
#    parameters that run (no 0 for automatic); elsewhere the built-in rules
MC_TUNING="$d/t.json" "$mc" info --tuning -n 16 > "$d/info" || fail "info"
has "$d/info" "^tuning file: $d/t.json \(MC_TUNING"
has "$d/info" "bcast +8  cc-tree:k1=4,k2=3,k3=0,k4=0,inline=1,chunk=[1-9][0-9]* +tuning file $d/t.json: rules\[[0-9]+\] \(ranks 14-16, bytes 0-56"
has "$d/info" "reduce +8  cc-tree:k1=4,k2=3,.* tuning file $d/t.json"
has "$d/info" "bcast +65536  direct +built-in default rule"
has "$d/info" "allreduce +16384  rsag:chunk=[1-9][0-9]* +built-in"
has "$d/info" "allreduce +8  .*built-in default rule"
MC_TUNING="$d/t.json" "$mc" info --tuning -n 8 > "$d/info8" || fail "info 8"
has "$d/info8" "bcast +8  flat +built-in default rule"
MC_TUNING=none "$mc" info --tuning -n 16 > "$d/none" || fail "info none"
has "$d/none" "^tuning file: none \(MC_TUNING=none\): the built-in rules apply"
# no file at the default location: which file would be read, and that
# none applies
(unset MC_TUNING; XDG_CONFIG_HOME="$d/nowhere" "$mc" info --tuning -n 4) \
    > "$d/nodef" || fail "info, no default file"
has "$d/nodef" "^tuning file: none \(MC_TUNING is unset and $d/nowhere/manycoll/tuning.json, the default location, does not exist\): the built-in rules apply"
has "$d/none" "bcast +8  .*built-in default rule"
if grep -q "cc-tree" "$d/none"; then fail "cc-tree without a tuning"; fi

# 3. the library itself: a communicator of 3 ranks selects and runs the
#    rules of a file (written here: tune keeps the built-in rules at 3)
cat > "$d/t3.json" <<EOF
{"format": "manycoll-tuning/1", "transport": "shm", "rules": [
 {"coll": "bcast", "ranks": [3, 3], "bytes": [0, 56], "algo": "cc-tree:k1=2"},
 {"coll": "reduce", "ranks": [3, 3], "bytes": [0, 56], "algo": "cc-tree:k1=2"},
 {"coll": "barrier", "ranks": [3, 3], "bytes": [0, null], "algo": "dissemination-m:m=2"}]}
EOF
MC_TUNING="$d/t3.json" "$mc" run -n 3 "$tt" describe > "$d/lib" ||
    fail "describe"
has "$d/lib" "^bcast 8: cc-tree:k1=2,"
has "$d/lib" "^reduce 8: cc-tree:k1=2,"
has "$d/lib" "^barrier: dissemination-m:m=2"
has "$d/lib" "^bcast 8 after mc_comm_set_algo: binomial"
MC_TUNING=none "$mc" run -n 3 "$tt" describe > "$d/lib0" || fail "describe"
if grep -q "cc-tree" "$d/lib0"; then fail "cc-tree without a tuning"; fi

# 4. precedence: MC_ALGO_<COLL> before the tuning file
MC_TUNING="$d/t.json" MC_ALGO_BCAST=binomial "$mc" info --tuning -n 16 \
    > "$d/env" || fail "info env"
has "$d/env" "bcast +8  binomial +MC_ALGO_BCAST"
has "$d/env" "reduce +8  cc-tree"

# 5. the default location, when MC_TUNING is unset; tune writes it only
#    when asked (--install)
XDG_CONFIG_HOME="$d/xdg" "$mc" tune --profile xeonphi60 --ranks 14-16 \
    2> "$d/noask.err" && fail "tune without -o or --install"
test -e "$d/xdg/manycoll/tuning.json" && fail "tune wrote without --install"
has "$d/noask.err" "say where: -o FILE"
XDG_CONFIG_HOME="$d/xdg" "$mc" tune --profile xeonphi60 --ranks 14-16 \
    --install 2> "$d/tune.err" || fail "tune to the default location"
test -f "$d/xdg/manycoll/tuning.json" || fail "no $d/xdg/manycoll/tuning.json"
has "$d/tune.err" "written to $d/xdg/manycoll/tuning.json"
(unset MC_TUNING; XDG_CONFIG_HOME="$d/xdg" "$mc" info --tuning -n 16) \
    > "$d/xdg.out" || fail "info xdg"
has "$d/xdg.out" "\(default location"
has "$d/xdg.out" "bcast +8  cc-tree:k1=4,"

# 6. a file for another transport does not apply; size ranges in the
#    middle leave the built-in rules on either side
cat > "$d/sim.json" <<EOF
{"format": "manycoll-tuning/1", "transport": "sim", "rules": [
 {"coll": "bcast", "ranks": [1, 64], "bytes": [0, null], "algo": "cc-flat"}]}
EOF
MC_TUNING="$d/sim.json" "$mc" info --tuning -n 4 > "$d/sim.out" || fail "sim"
if grep -q "cc-flat" "$d/sim.out"; then fail "a sim tuning applied to shm"; fi
cat > "$d/mid.json" <<EOF
{"format": "manycoll-tuning/1", "transport": "shm", "rules": [
 {"coll": "bcast", "ranks": [4, 4], "bytes": [60, 2000], "algo": "cc-pipeline:block=1024"}]}
EOF
MC_TUNING="$d/mid.json" "$mc" info --tuning -n 4 > "$d/mid.out" || fail "mid"
has "$d/mid.out" "bcast +56  .*built-in default rule"
has "$d/mid.out" "bcast +64  cc-pipeline:block=1024 +tuning file $d/mid.json: rules\[0\] \(ranks 4-4, bytes 60-2000\)"
has "$d/mid.out" "bcast +1024  cc-pipeline"
has "$d/mid.out" "bcast +16384  .*built-in default rule"
MC_TUNING="$d/mid.json" "$mc" info --tuning -n 5 > "$d/mid5.out" || fail "mid5"
if grep -q "cc-pipeline" "$d/mid5.out"; then fail "rule for 4 ranks at 5"; fi

# 7. malformed files: a clear error naming the file, from info and from
#    mc_init, never a crash
cat > "$d/bad.json" <<EOF
{"format": "manycoll-tuning/1", "transport": "shm", "rules": [
 {"coll": "bcast", "ranks": [2, 8], "bytes": [0, 56], "algo": "cc-tre"}]}
EOF
MC_TUNING="$d/bad.json" "$mc" info --tuning -n 2 2> "$d/bad.err"
test $? -eq 1 || fail "info with a bad file: status"
has "$d/bad.err" "tuning file $d/bad.json: rules\[0\]\.algo: unknown bcast algorithm 'cc-tre'; valid: .*cc-tree"
MC_TUNING="$d/bad.json" "$mc" run -n 2 "$tt" describe 2> "$d/badlib.err"
test $? -eq 3 || { cat "$d/badlib.err" >&2; fail "mc_init with a bad file"; }
has "$d/badlib.err" "mc_init: tuning file $d/bad.json: rules\[0\]\.algo"
printf '{"format": "manycoll-tuning/1",\n "rules": [1,\n' > "$d/trunc.json"
MC_TUNING="$d/trunc.json" "$mc" info --tuning 2> "$d/trunc.err"
test $? -eq 1 || fail "truncated file: status"
has "$d/trunc.err" "tuning file $d/trunc.json: line [0-9]+, column [0-9]+"
MC_TUNING="$d/nonexistent.json" "$mc" info --tuning 2> "$d/none.err"
test $? -eq 1 || fail "missing file: status"
has "$d/none.err" "tuning file $d/nonexistent.json: cannot open it.*\(from MC_TUNING"

# 8. tune's own errors: a profile without a contention fit, beyond 2 ranks
cat > "$d/p.json" <<EOF
{"format": "manycoll-profile/1", "name": "tiny", "line_bytes": 64,
 "cores": 2, "clustered": {"R_L": 1.3, "R_R": 125.5, "R_I": 146.5}}
EOF
"$mc" tune --profile "$d/p.json" --ranks 2-4 -o "$d/x.json" 2> "$d/p.err"
test $? -eq 1 || fail "tune without T_C: status"
has "$d/p.err" "no contention fit"
"$mc" tune --profile "$d/p.json" -o "$d/p2.json" || fail "tune 2 ranks"
# at 2 ranks every optimal tree is the built-in flat one: no rule, and a
# file without rules is read as one
has "$d/p2.json" '"notes": ".*[1-9][0-9]* predicted no gain'
if grep -q '"coll"' "$d/p2.json"; then fail "a rule at 2 ranks"; fi
MC_TUNING="$d/p2.json" "$mc" info --tuning -n 2 > "$d/p2.out" ||
    fail "info with a file without rules"
has "$d/p2.out" "bcast +8  flat +built-in default rule"
echo "cc_tuning: all checks passed"
