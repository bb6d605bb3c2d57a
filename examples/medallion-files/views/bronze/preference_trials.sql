-- Bronze: every CSV drop under Files/trials (nested folders too), one row per line, with the
-- file it came from in __filepath__. New drops are appended; rows already ingested stay.
CREATE OR REPLACE MATERIALIZED LAKE VIEW bronze.preference_trials
USING OneLake_Files
OPTIONS (
  'format' = 'csv',
  'path'   = 'abfss://fabcon_demo@onelake.dfs.fabric.microsoft.com/lh_oud_mlv.Lakehouse/Files/trials/',
  'header' = 'true'
)
TBLPROPERTIES (
  'schema_mode'  = 'DYNAMIC',
  'refresh_mode' = 'APPEND_ONLY'
)
