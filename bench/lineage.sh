#!/usr/bin/env bash
# Times `mlv lineage --format json` and `mlv validate` end to end (JVM start included) on
# generated projects of 100, 1,000 and 10,000 views. Figures go to docs/benchmarks.md by hand.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mlv="$here/../bin/mlv"
work="${TMPDIR:-/tmp}/mlv-bench"
mkdir -p "$work"
"$mlv" --version >/dev/null   # build once, outside the timings
for n in ${SIZES:-100 1000 10000}; do
  dir="$work/p$n"
  [ -d "$dir" ] || python3 "$here/gen_project.py" "$n" "$dir" >/dev/null
  for cmd in "lineage --format json" "validate"; do
    best=""
    for rep in 1 2 3; do
      TIMEFORMAT=%R
      t=$( { time "$mlv" $cmd -p "$dir" >/dev/null 2>&1; } 2>&1 ) || true
      best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
    done
    printf "%6d views  %-22s best of 3: %6.2f s\n" "$n" "$cmd" "$best"
  done
done
