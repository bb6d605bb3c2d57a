-- Silver: types and quality rules; a file view takes no constraints, so they live here
CREATE OR REPLACE MATERIALIZED LAKE VIEW silver.trials_clean
(
  CONSTRAINT pct_valid   CHECK (first_choice_pct BETWEEN 0 AND 100) ON MISMATCH DROP,
  CONSTRAINT has_formula CHECK (formula_id IS NOT NULL)             ON MISMATCH DROP,
  CONSTRAINT has_testers CHECK (n_testers > 0)                      ON MISMATCH DROP
)
AS SELECT trial_id,
          formula_id,
          panel_segment,
          CAST(n_testers AS INT)               AS n_testers,
          CAST(first_choice_pct AS DOUBLE)     AS first_choice_pct,
          CAST(trial_date AS DATE)             AS trial_date,
          __filepath__                         AS source_file
FROM bronze.preference_trials
