#!/usr/bin/env python3
"""Generates a layered mlv project of N views with realistic SQL (joins, CTEs, aggregates).

Usage: gen_project.py N OUT_DIR [--seed S]

Layer 0 reads 20 bronze sources; each later view reads one to three views of earlier layers,
so the lineage is a wide DAG about sqrt(N) layers deep. Deterministic for a given seed.
"""
import argparse
import math
import os
import random

p = argparse.ArgumentParser()
p.add_argument("n", type=int)
p.add_argument("out")
p.add_argument("--seed", type=int, default=7)
a = p.parse_args()
rnd = random.Random(a.seed)

os.makedirs(os.path.join(a.out, "views"), exist_ok=True)
sources = [f"bronze.src_{i:02d}" for i in range(20)]
with open(os.path.join(a.out, "mlv.yml"), "w") as f:
    f.write("name: bench\nworkspace: bench_ws\nlakehouse: bench_lh\nschema: dbo\nsources:\n")
    for s in sources:
        f.write(f"  - {s}\n")

per_layer = max(1, int(math.sqrt(a.n)) * 2)
views = []
shapes = ["filter", "join", "cte_agg", "union"]
for i in range(a.n):
    layer = i // per_layer
    schema = ["silver", "gold", "platinum"][min(layer, 2)] if layer else "silver"
    name = f"{schema}.v_{i:05d}"
    earlier = [v for v in views if v[1] < layer] or []
    pool = earlier[-per_layer * 2:] if earlier else []
    ups = [rnd.choice(pool)[0] for _ in range(rnd.randint(1, 3))] if pool else [rnd.choice(sources)]
    ups = list(dict.fromkeys(ups))
    shape = rnd.choice(shapes)
    a_ = ups[0]
    b_ = ups[1] if len(ups) > 1 else rnd.choice(sources)
    if shape == "filter":
        body = f"""SELECT id, customer_id, amount, amount * 1.21 AS gross, event_date
FROM {a_}
WHERE amount > {rnd.randint(0, 100)} AND event_date >= DATE'2026-01-01'"""
    elif shape == "join":
        body = f"""SELECT a.id, a.customer_id, a.amount, b.amount AS other_amount, a.event_date
FROM {a_} a
LEFT JOIN {b_} b ON a.customer_id = b.customer_id AND b.event_date = a.event_date
WHERE a.amount IS NOT NULL"""
    elif shape == "cte_agg":
        body = f"""WITH recent AS (
  SELECT customer_id, amount, event_date FROM {a_} WHERE event_date > DATE'2026-06-01'
), totals AS (
  SELECT customer_id, SUM(amount) AS total, COUNT(*) AS n, MAX(event_date) AS last_seen
  FROM recent GROUP BY customer_id
)
SELECT t.customer_id AS id, t.customer_id, t.total AS amount, t.n, t.last_seen AS event_date
FROM totals t JOIN {b_} x ON t.customer_id = x.customer_id"""
    else:
        body = f"""SELECT id, customer_id, amount, event_date FROM {a_}
UNION ALL
SELECT id, customer_id, amount, event_date FROM {b_} WHERE amount BETWEEN 1 AND 1000"""
    cons = ""
    if rnd.random() < 0.3:
        cons = "\n(\n  CONSTRAINT positive CHECK (amount >= 0) ON MISMATCH DROP\n)"
    sql = f"-- generated view {i}\nCREATE OR REPLACE MATERIALIZED LAKE VIEW {name}{cons}\nAS {body}\n"
    d = os.path.join(a.out, "views", schema)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"v_{i:05d}.sql"), "w") as f:
        f.write(sql)
    views.append((name, layer))
print(f"generated {a.n} views in {a.out}")
