#!/usr/bin/env bash
# Builds mlv (first run only) and runs the file-fed medallion end to end on the embedded
# Spark + Delta lakehouse: CSV drops land in a folder, the bronze file view ingests them,
# silver applies the rules, gold aggregates; a second drop is ingested alone.
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

# Start from an empty lakehouse and an empty landing folder, so the numbers repeat.
rm -rf "$here/.mlv" "$here/landing"
mkdir -p "$here/landing/trials"

echo "== validate"
"$mlv" validate -p "$here"
echo "== lineage (the landing folder is a files node)"
"$mlv" lineage -p "$here" --format text
echo "== seed bronze.formulas"
"$mlv" seed -p "$here"
echo "== first drop: 2 files, 7 trials"
cp -r "$here/drops/2026-09-01" "$here/landing/trials/"
echo "== apply (creates bronze, silver and gold, refreshes them in order)"
"$mlv" apply -p "$here" --auto-approve
echo "== gold.formula_preference"
"$mlv" sql -p "$here" "SELECT formula_id, formula_name, trials, testers, avg_first_choice_pct FROM gold.formula_preference ORDER BY avg_first_choice_pct DESC"
echo "== second drop: 1 file, 4 trials, 3 of them bad"
cp -r "$here/drops/2026-09-08" "$here/landing/trials/"
echo "== refresh: bronze ingests only the new file, silver drops the 3 bad rows"
"$mlv" refresh -p "$here"
echo "== rows per source file in bronze"
"$mlv" sql -p "$here" "SELECT __filepath__, COUNT(*) AS rows FROM bronze.preference_trials GROUP BY __filepath__ ORDER BY __filepath__"
echo "== refresh again: no new file, so every view is skipped"
"$mlv" refresh -p "$here" --quiet
