"""Run history: every run stored (SQLite beside the suite, or a shared PostgreSQL), and what it tells over time:
timelines, pass rates with their intervals, flip rates, flaky tests, baselines for `report --compare`.

May import: core, records. SQLAlchemy (and psycopg for PostgreSQL) are imported only by `store` and `tables`, which
only a run that records or a `history` command loads.
"""
