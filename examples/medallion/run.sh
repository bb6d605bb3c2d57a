#!/usr/bin/env bash
# Builds mlv (first run only) and runs the FabCon demo 16 medallion end to end on the
# embedded Spark + Delta lakehouse: validate, seed bronze, apply, refresh, query gold.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The repository's launcher (builds mlv on first use); from a copy or a release, the mlv on PATH.
mlv="$here/../../bin/mlv"
if [ ! -x "$mlv" ]; then
  mlv="$(command -v mlv || true)"
  if [ -z "$mlv" ]; then
    echo "run.sh: no mlv found: run it from the repository, or put mlv's bin/ on PATH" >&2
    exit 1
  fi
fi

# Start from an empty local lakehouse, so the demo gives the same numbers every time.
rm -rf "$here/.mlv"

echo "== validate"
"$mlv" validate -p "$here"
echo "== lineage"
"$mlv" lineage -p "$here" --format text
echo "== seed bronze (10 trials, 3 of them bad; 6 formulas)"
"$mlv" seed -p "$here"
echo "== apply (creates silver and gold, refreshes them in order)"
"$mlv" apply -p "$here" --auto-approve --quiet
echo "== gold.formula_preference"
"$mlv" sql -p "$here" "SELECT formula_id, formula_name, trials, testers, avg_first_choice_pct FROM gold.formula_preference ORDER BY avg_first_choice_pct DESC"
echo "== refresh again: nothing changed, so every view is skipped"
"$mlv" refresh -p "$here" --quiet
