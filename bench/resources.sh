#!/usr/bin/env bash
# Resource bounds of docs/reliability.md, each in a JVM with a fixed heap:
#  1. validate, lineage and plan of a 10,000-view project (bench/gen_project.py) with -Xmx${HEAP_PARSE:-1g}
#  2. a refresh that drops 1,000,000 rows (ON MISMATCH DROP) with -Xmx${HEAP_REFRESH:-2g}
# Prints wall time, exit code and peak RSS (from /usr/bin/time when present) for each.
#
# Usage: bench/resources.sh [VIEWS=10000] [ROWS=1000000]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
views="${1:-10000}"
rows="${2:-1000000}"
work="${TMPDIR:-/tmp}/mlv-bench/resources"
cd "$here"
mvn -o -q -B compile -Dspotless.check.skip=true
mvn -o -q -B dependency:build-classpath -Dmdep.outputFile=target/runtime-cp.txt -Dmdep.includeScope=runtime >/dev/null
cp="$here/target/classes:$(cat target/runtime-cp.txt)"
mapfile -t opens < <(grep -oE -- '^ +(--add-opens=[^ ]+|-D[^ ]+)' "$here/bin/mlv" | tr -d ' ')
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f "  peak RSS %M KB, %e s wall")

run() { # HEAP ARGS...
  local heap="$1"; shift
  local t0=$(date +%s.%N) rc=0
  "${timer[@]}" java -Xmx"$heap" -XX:+UseParallelGC "${opens[@]}" -cp "$cp" dev.mlv.cli.Main "$@" \
    >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  echo "  exit $rc, $(echo "$(date +%s.%N) - $t0" | bc) s, heap limit $heap; $(tail -1 "$work/out.txt" | cut -c1-120)"
  grep -E "OutOfMemory|peak RSS" "$work/err.txt" || true
}

rm -rf "$work" && mkdir -p "$work"
echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/bench/gen_project.py" "$views" "$work/big"
for cmd in validate lineage plan; do
  echo "== $cmd, $views views"
  args=("$cmd" -p "$work/big")
  [ "$cmd" = lineage ] && args+=(--format json)
  MLV_PARSE_CACHE=off run "${HEAP_PARSE:-1g}" "${args[@]}"
done

p="$work/drops"
mkdir -p "$p/views/silver"
cat >"$p/mlv.yml" <<YML
name: drops
workspace: drops_ws
lakehouse: drops_lh
schema: dbo
views: [views]
sources:
  - name: bronze.readings
targets:
  local:
    type: spark
    warehouse: .mlv/warehouse
    master: local[2]
YML
cat >"$p/views/silver/valid.sql" <<SQL
CREATE MATERIALIZED LAKE VIEW silver.valid
(CONSTRAINT positive CHECK (value > 0) ON MISMATCH DROP)
AS SELECT id, value FROM bronze.readings
SQL
echo "== load $rows bronze rows, all but 1,000 of them breaking the DROP rule"
run 2g sql -p "$p" "CREATE SCHEMA IF NOT EXISTS bronze"
run 2g sql -p "$p" "CREATE TABLE bronze.readings USING delta AS SELECT id, CASE WHEN id < 1000 THEN 1 ELSE -1 END AS value FROM range($(( rows + 1000 )))"
echo "== apply (refreshes silver.valid: $rows rows dropped)"
run "${HEAP_REFRESH:-2g}" apply -p "$p" --auto-approve --format json
grep -E '"rows(Written|Dropped)"' "$work/out.txt" || true
