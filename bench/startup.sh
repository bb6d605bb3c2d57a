#!/usr/bin/env bash
# Start-up of the commands that need no Spark, on the example project: `mlv --version`,
# `mlv validate`, `mlv lineage`, each through bin/mlv (JVM start included), timed with
# `date +%s%N` (wall) and /usr/bin/time (CPU: user+sys of all threads). Then counts the Spark
# classes each command loads (`-verbose:class`), which must be 0.
#
# Usage: bench/startup.sh             (REPS=10 by default)
#        MLV=/path/to/unpacked/bin/mlv bench/startup.sh   # time a release instead
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mlv="${MLV:-$here/../bin/mlv}"
example="$here/../examples/medallion"
reps="${REPS:-10}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$mlv" --version >/dev/null           # build if needed, outside the timings
"$mlv" validate -p "$example" >/dev/null # the first parsing command writes the class-data archive

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

run() {
  local label="$1"
  shift
  local walls=() cpus=()
  for _ in $(seq "$reps"); do
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -o "$work/time.txt" -f "%U %S" "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    walls+=("$(( (t1 - t0) / 1000000 ))")
    cpus+=("$(awk '{printf "%d", ($1 + $2) * 1000}' "$work/time.txt")")
  done
  printf "%-28s wall median %5d ms (min %5d)   cpu median %5d ms\n" "$label" \
    "$(printf "%s\n" "${walls[@]}" | median)" "$(printf "%s\n" "${walls[@]}" | sort -n | head -1)" \
    "$(printf "%s\n" "${cpus[@]}" | median)"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)  reps $reps"
run "mlv --version" "$mlv" --version
run "mlv validate" "$mlv" validate -p "$example"
run "mlv lineage" "$mlv" lineage -p "$example"
for cmd in "--version" "validate -p $example" "lineage -p $example"; do
  # shellcheck disable=SC2086
  n=$(MLV_JAVA_OPTS=-verbose:class "$mlv" $cmd 2>/dev/null | grep -c 'org\.apache\.spark' || true)
  echo "spark classes loaded by 'mlv ${cmd%% *}': $n"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
