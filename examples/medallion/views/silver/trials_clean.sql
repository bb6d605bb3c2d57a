-- Silver: quality rules live in the view definition, bad rows are dropped
CREATE OR REPLACE MATERIALIZED LAKE VIEW silver.trials_clean
(
  CONSTRAINT pct_valid   CHECK (first_choice_pct BETWEEN 0 AND 100) ON MISMATCH DROP,
  CONSTRAINT has_formula CHECK (formula_id IS NOT NULL)             ON MISMATCH DROP,
  CONSTRAINT has_testers CHECK (n_testers > 0)                      ON MISMATCH DROP
)
AS SELECT trial_id, formula_id, panel_segment, n_testers, first_choice_pct, trial_date
FROM bronze.preference_trials
