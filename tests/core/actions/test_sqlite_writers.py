"""SQLite (``make run``) with two writing processes: the web server and the clock.

A transaction that reads and then writes must not fail with "database is locked" while the other
process writes: every write transaction begins IMMEDIATE (settings), so it waits for the write
lock instead of having to upgrade a read lock, which SQLite refuses at once (a create would
answer HTTP 500 while the clock or a heartbeat writes).

The test runs in subprocesses on a database file of its own (pytest's SQLite test database lives
in memory and cannot be shared with another process): 30 tables, enough to meet the writer many
times; ``bench/sqlite_writers.py`` runs the same at load.
"""

from __future__ import annotations

from tests.core.actions.sqlite_writers import run


def test_creating_tables_while_another_process_writes_never_fails(tmp_path):
    # The tables from the models: the locks are the subject, not the migrations.
    figures = run(tmp_path, tables=30, from_models=True)
    assert (figures["tables"], figures["failures"]) == (30, 0)
    assert figures["writes"] > 0  # the other process really wrote while the tables were made
