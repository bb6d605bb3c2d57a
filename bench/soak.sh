#!/usr/bin/env bash
# The long crash soak of docs/reliability.md: 50 SIGKILLs (by default) of `mlv refresh` and
# `mlv apply` in a child JVM at seeded random moments, each followed by the data, history and
# lock checks of CrashSafetyTest. Also runs the hostile-input mutants with more variants.
#
# Usage: bench/soak.sh [KILLS=50] [SEED=20261129] [MUTANTS=3000]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
kills="${1:-50}"
seed="${2:-20261129}"
mutants="${3:-3000}"
cd "$here"
echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
mvn -o -q -B test -Dspotless.check.skip=true -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtest='CrashSafetyTest,HostileInputTest' \
  -Dmlv.kills="$kills" -Dmlv.seed="$seed" -Dmlv.mutants="$mutants" \
  | grep --line-buffered -E '^(kill |RESULT|FAILURE|seed=|outcomes|  [a-z-]+ \{|  unpositioned)' || true
echo "# took $(( $(date +%s) - start )) s; reports in target/reliability/"
cat target/reliability/crash.txt target/reliability/hostile.txt 2>/dev/null | head -60
