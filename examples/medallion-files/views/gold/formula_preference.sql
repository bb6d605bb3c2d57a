-- Gold: preference per formula, refreshed after silver
CREATE OR REPLACE MATERIALIZED LAKE VIEW gold.formula_preference
AS SELECT f.formula_id, f.formula_name, COUNT(*) AS trials, SUM(t.n_testers) AS testers,
          ROUND(AVG(t.first_choice_pct), 1) AS avg_first_choice_pct
FROM silver.trials_clean t JOIN bronze.formulas f ON t.formula_id = f.formula_id
GROUP BY f.formula_id, f.formula_name
