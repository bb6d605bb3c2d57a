#!/usr/bin/env bash
# Incremental file ingestion vs FULL refresh of a file-ingesting view, same JVM: a folder of
# FILES CSV files, ADD new files per round, REPS rounds.
#
# Usage: bench/files.sh [FILES=1000] [ROWS_PER_FILE=200] [ADD=10] [REPS=3]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
project="${TMPDIR:-/tmp}/mlv-bench/files-project"
"$here/bin/mlv" --version >/dev/null # builds target/classes and target/lib when needed
rm -rf "$project"
mapfile -t opens < <(grep -oE -- '^ +(--add-opens=[^ ]+|-D[^ ]+)' "$here/bin/mlv" | tr -d ' ')
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
java -XX:+UseParallelGC ${MLV_JAVA_OPTS:-} "${opens[@]}" \
  -cp "$here/target/classes:$here/target/lib/*" "$here/bench/FileIngest.java" \
  "${1:-1000}" "${2:-200}" "${3:-10}" "${4:-3}" "$project"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
