#!/usr/bin/env bash
# Incremental vs full refresh in one JVM (bench/IncrementalRefresh.java): a ROWS-row source with
# change data feed on, 1% appended per refresh, a filter/projection view and a SUM/COUNT
# group-by view. Target: incremental <= 0.15 x full for each view. One untimed repetition runs
# first so that both strategies are compared warm.
#
# Usage: bench/incremental.sh [ROWS=10000000] [REPS=3]
# MLV_BENCH_CONF='key=value;key=value' adds Spark settings to the target, for trials.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rows="${1:-10000000}"
reps="${2:-3}"
work="${TMPDIR:-/tmp}/mlv-bench/incremental-$rows"
"$here/bin/mlv" --version >/dev/null # builds target/classes and target/lib when needed
rm -rf "$work"
mapfile -t opens < <(grep -oE -- '^ +(--add-opens=[^ ]+|-D[^ ]+)' "$here/bin/mlv" | tr -d ' ')
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
java -XX:+UseParallelGC ${MLV_JAVA_OPTS:-} "${opens[@]}" \
  -cp "$here/target/classes:$here/target/lib/*" "$here/bench/IncrementalRefresh.java" \
  "$rows" "$reps" "$work" 2>/dev/null
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
