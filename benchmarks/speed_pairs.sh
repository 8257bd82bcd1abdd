#!/usr/bin/env bash
# Cold and warm runs of two linters side by side, on a machine with many cores: PAIRS runs of
# each at once, each pinned to its own two cores (-j 2, as on the 2-core development machine),
# the two linters on alternating core pairs and swapped in a second round, so both see the
# same load. Prints one line per run; the medians are worked out by the caller.
#   bash benchmarks/speed_pairs.sh OLD_SRC NEW_SRC TARGET [PAIRS]
# Used for RESULTS §72 on the GPU machine (16 cores: PAIRS=4), where the development machine
# is too loaded by other work for a quiet alternating run.
set -uo pipefail
OLD=$(realpath "$1") NEW=$(realpath "$2") PAIRS=${4:-4}
# checked from its parent folder, so that no project configuration above it excludes it
cd "$(dirname "$(realpath "$3")")"
TARGET=$(basename "$3")
WORK=$(mktemp -d)
one() {  # name src cores round
    local name=$1 src=$2 cores=$3 round=$4 cache="$WORK/cache-$1-$3-$4"
    local t0 t1
    t0=$(date +%s%N)
    taskset -c "$cores" env PYTHONPATH="$src${PYTHONPATH:+:$PYTHONPATH}" python3 -m compilelint check "$TARGET" --cache-dir "$cache" \
        --exit-zero -j 2 > "$WORK/out-$name-$cores-$round.txt" 2>&1
    t1=$(date +%s%N)
    local warm=()
    for _ in 1 2 3; do
        local w0 w1
        w0=$(date +%s%N)
        taskset -c "$cores" env PYTHONPATH="$src${PYTHONPATH:+:$PYTHONPATH}" python3 -m compilelint check "$TARGET" --cache-dir "$cache" \
            --exit-zero -j 2 > /dev/null 2>&1
        w1=$(date +%s%N)
        warm+=("$(( (w1 - w0) / 1000000 ))ms")
    done
    echo "$name round=$round cores=$cores cold=$(( (t1 - t0) / 1000000 ))ms warm=${warm[*]} summary=$(tail -1 "$WORK/out-$name-$cores-$round.txt")"
}
for round in 1 2; do
    for ((i = 0; i < 2 * PAIRS; i++)); do
        cores="$((2 * i)),$((2 * i + 1))"
        if (( (i + round) % 2 == 0 )); then one old "$OLD" "$cores" "$round" & else one new "$NEW" "$cores" "$round" & fi
    done
    wait
done
rm -rf "$WORK"
