# Gold, in PySpark: formulas ranked by first-choice share. The helper sits in a cell above
# the view, as Fabric's notebook rules require.
import fmlv
from pyspark.sql import functions as F
from pyspark.sql.window import Window

# %%
def with_rank(df):
    order = Window.orderBy(F.desc("avg_first_choice_pct"), F.asc("formula_id"))
    return df.withColumn("rank", F.dense_rank().over(order))

# %%
@fmlv.materialized_lake_view(
    name="gold.formula_ranking",
    comment="Formulas ranked by first-choice share",
    table_properties={"delta.enableChangeDataFeed": "true"},
)
@fmlv.check("has_trials", "trials > 0", "drop")
def formula_ranking():
    preference = spark.read.table("gold.formula_preference")
    return with_rank(preference).select("rank", "formula_id", "formula_name", "trials")
