#!/usr/bin/env bash
# Engine-side commands that must not start Spark:
#  1. `mlv refresh` on the medallion example after apply (nothing changed) vs `mlv refresh --full`
#  2. `mlv plan` against 200 deployed views (target: under 4 s wall with JVM start, no Spark)
# Each timing is the median of REPS runs (wall and user+sys CPU seconds); "SparkContext loaded"
# counts org.apache.spark.SparkContext in -verbose:class output (0 = Spark never started).
#
# Usage: bench/engine.sh            (REPS=3; VIEWS=200)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
mlv="$here/bin/mlv"
work="${TMPDIR:-/tmp}/mlv-bench"
reps="${REPS:-3}"
views="${VIEWS:-200}"
mkdir -p "$work"
"$mlv" --version >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# timed LABEL CMD...: median wall and CPU over $reps runs, plus whether SparkContext loaded.
timed() {
  local label="$1"
  shift
  local walls=() cpus=()
  for _ in $(seq "$reps"); do
    /usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$@" >/dev/null 2>&1 || true
    walls+=("$(awk '{print $1}' "$work/time.txt")")
    cpus+=("$(awk '{printf "%.2f", $2 + $3}' "$work/time.txt")")
  done
  local sc
  sc=$(MLV_JAVA_OPTS="-verbose:class" "$@" 2>&1 | grep -c 'org\.apache\.spark\.SparkContext ' || true)
  printf "%-40s wall %6.2f s   cpu %6.2f s   SparkContext loaded: %s\n" "$label" \
    "$(printf "%s\n" "${walls[@]}" | median)" "$(printf "%s\n" "${cpus[@]}" | median)" "$sc"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. medallion: refresh with nothing changed vs full refresh
med="$work/medallion"
rm -rf "$med"
cp -r "$here/examples/medallion" "$med"
rm -rf "$med/.mlv"
"$mlv" seed -p "$med" >/dev/null 2>&1 || true
"$mlv" apply --auto-approve --quiet -p "$med" >/dev/null
timed "medallion: refresh (nothing changed)" "$mlv" refresh --quiet -p "$med"
timed "medallion: refresh --full" "$mlv" refresh --full --quiet -p "$med"

# 2. plan against $views deployed views
dir="$work/plan$views"
if [ ! -f "$dir/.applied" ]; then
  rm -rf "$dir"
  python3 "$here/bench/gen_project.py" "$views" "$dir" >/dev/null
  printf 'targets:\n  local:\n    type: spark\n    warehouse: .mlv/warehouse\n    master: local[2]\n' >>"$dir/mlv.yml"
  sql="CREATE SCHEMA IF NOT EXISTS bronze;"
  for i in $(seq -f %02g 0 19); do
    sql+="CREATE TABLE bronze.src_$i USING delta AS SELECT id, id % 10 AS customer_id,"
    sql+=" CAST(id AS DOUBLE) AS amount, date_add(DATE'2026-01-01', CAST(id AS INT)) AS event_date"
    sql+=" FROM range(20);"
  done
  "$mlv" sql -p "$dir" "$sql" >/dev/null
  start=$(date +%s)
  "$mlv" apply --auto-approve --quiet -p "$dir" >/dev/null
  echo "apply of $views views (one time set-up): $(($(date +%s) - start)) s"
  touch "$dir/.applied"
fi
timed "plan: $views deployed views" "$mlv" plan -p "$dir"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
