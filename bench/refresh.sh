#!/usr/bin/env bash
# Refresh overhead in one JVM: mlv's view refresh (constraints counted, one Delta commit) vs a
# plain Spark CTAS of the same SELECT on the same SparkRuntime. Target ratio <= 1.15.
#
# Usage: bench/refresh.sh [ROWS=10000000] [REPS=3]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rows="${1:-10000000}"
reps="${2:-3}"
wh="${TMPDIR:-/tmp}/mlv-bench/refresh-wh"
"$here/bin/mlv" --version >/dev/null # builds target/classes and target/lib when needed
rm -rf "$wh"
# The launcher's JVM flags (Spark's --add-opens list), taken from bin/mlv itself.
mapfile -t opens < <(grep -oE -- '^ +(--add-opens=[^ ]+|-D[^ ]+)' "$here/bin/mlv" | tr -d ' ')
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
java -XX:+UseParallelGC ${MLV_JAVA_OPTS:-} "${opens[@]}" \
  -cp "$here/target/classes:$here/target/lib/*" "$here/bench/RefreshOverhead.java" \
  "$rows" "$reps" "$wh"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
