#!/usr/bin/env bash
# Times `mlv lineage --format json` and `mlv validate` end to end (JVM start included) on
# generated projects of 100, 1,000 and 10,000 views, and checks that no Spark class loads.
#
# Usage: bench/lineage.sh            (SIZES="100 1000 10000" REPS=3 by default)
#        SIZES=10000 REPS=5 bench/lineage.sh
#
# Each figure is the median of REPS runs: wall seconds and CPU seconds (user+sys, all threads).
# On a shared machine wall time depends on the other load; CPU seconds and the ratio to
# `mlv --version` measured in the same run (the JVM start + CLI floor) are the stable figures.
# "cold" runs delete the project's parse cache (.mlv/cache) first; "warm" runs keep it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mlv="$here/../bin/mlv"
work="${TMPDIR:-/tmp}/mlv-bench"
reps="${REPS:-3}"
mkdir -p "$work"
"$mlv" --version >/dev/null # build once (and create the class-data archive) outside the timings

# run LABEL CLEAN CMD...: prints "LABEL  wall W s  cpu C s" as the median over $reps runs.
run() {
  local label="$1" clean="$2"
  shift 2
  local walls=() cpus=()
  for _ in $(seq "$reps"); do
    [ -z "$clean" ] || rm -rf "$clean/.mlv/cache"
    local out
    /usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$@" >/dev/null 2>&1 || true
    out=$(tail -1 "$work/time.txt")
    walls+=("$(echo "$out" | awk '{print $1}')")
    cpus+=("$(echo "$out" | awk '{printf "%.2f", $2 + $3}')")
  done
  local w c
  w=$(printf "%s\n" "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  c=$(printf "%s\n" "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  printf "%-44s wall %6.2f s   cpu %6.2f s\n" "$label" "$w" "$c"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
run "baseline: mlv --version" "" "$mlv" --version
for n in ${SIZES:-100 1000 10000}; do
  dir="$work/p$n"
  [ -f "$dir/mlv.yml" ] || python3 "$here/gen_project.py" "$n" "$dir" >/dev/null
  for cmd in "lineage --format json" "validate"; do
    # shellcheck disable=SC2086
    run "$(printf '%6d views  %-21s cold' "$n" "$cmd")" "$dir" "$mlv" $cmd -p "$dir"
    "$mlv" $cmd -p "$dir" >/dev/null 2>&1 || true # fill the cache
    # shellcheck disable=SC2086
    run "$(printf '%6d views  %-21s warm' "$n" "$cmd")" "" "$mlv" $cmd -p "$dir"
  done
  # No Spark class may load for validate and lineage.
  spark=$(MLV_JAVA_OPTS="-verbose:class" "$mlv" validate -p "$dir" 2>&1 | grep -c 'org\.apache\.spark' || true)
  printf "%6d views  org.apache.spark classes loaded by validate: %s\n" "$n" "$spark"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
