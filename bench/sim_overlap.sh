#!/bin/sh
# bench/sim_overlap.sh [BUILD] [PLATFORM] [RANKS]: the overlap of the
# non-blocking collectives on a simulated chip, OSU's metric in virtual
# time: pure = mc_i<coll> + mc_wait alone (manycoll sim --compute 0),
# total = the same with `pure` microseconds of computation between them
# (--compute pure), overlap% = 100 (1 - (total - pure) / pure).
# Deterministic: no jitter, virtual time. Prints a markdown table.
build=${1:-build}; plat=${2:-scc48}; ranks=${3:-}
mc="$build/manycoll"
[ -n "$ranks" ] && ranks="--ranks $ranks"
echo "| collective | bytes | algorithm | pure (us) | total (us) | overlap |"
echo "|---|---:|---|---:|---:|---:|"
for case in barrier:0 bcast:8 bcast:4K bcast:64K allreduce:8 allreduce:4K \
            allreduce:64K; do
    coll=${case%%:*}; size=${case#*:}
    row=$("$mc" sim --platform "$plat" $ranks --coll "$coll" --sizes "$size" \
          --compute 0 2>/dev/null | tail -1) || exit 1
    pure=$(echo "$row" | awk '{print $2}')
    algo=$(echo "$row" | awk '{print $7}')
    total=$("$mc" sim --platform "$plat" $ranks --coll "$coll" \
            --sizes "$size" --compute "$pure" 2>/dev/null | tail -1 |
            awk '{print $2}') || exit 1
    awk -v c="$coll" -v s="$size" -v a="$algo" -v p="$pure" -v t="$total" \
        'BEGIN { o = 100 * (1 - (t - p) / p); if (o < 0) o = 0;
                 printf "| %s | %s | %s | %.2f | %.2f | %.1f%% |\n",
                        c, s, a, p, t, o }'
done
