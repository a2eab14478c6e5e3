"""Two processes writing one SQLite file (``make run``'s web server and clock): the scripts
that ``test_sqlite_writers.py`` runs small and ``bench/sqlite_writers.py`` runs at load.

:func:`run` creates ``tables`` tables through ``games.core.actions`` in a fresh process on a file of
its own, while another process writes in short transactions as fast as it can (the clock's ticks,
the sockets' heartbeats).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The other process: a write transaction after another, each holding the write lock 2 ms, a
#: row in ``ticks`` each, until the file ``stop`` appears.
WRITER = textwrap.dedent(
    """
    import sqlite3, sys, time, os
    db, stop = sys.argv[1], sys.argv[2]
    conn = sqlite3.connect(db, timeout=20, isolation_level=None)
    conn.execute("CREATE TABLE IF NOT EXISTS ticks (n INTEGER)")
    writes = 0
    while not os.path.exists(stop):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE games_seat SET last_seen = ?", (time.time(),))
        conn.execute("INSERT INTO ticks VALUES (?)", (writes,))
        time.sleep(0.002)
        conn.execute("COMMIT")
        writes += 1
        time.sleep(0.001)
    print(writes)
    """
)

#: The web server's side: ``tables`` tables created (each a count, then inserts) once WRITER has
#: written, counting the writer's commits made meanwhile.
CREATES = textwrap.dedent(
    """
    import os, sqlite3, subprocess, sys, time
    import django
    django.setup()
    from django.apps import apps
    from django.conf import settings
    from django.core.management import call_command
    if os.environ.get("FROM_MODELS") == "1":  # every table from the models, no migration run
        settings.MIGRATION_MODULES = {app.label: None for app in apps.get_app_configs()}
    call_command("migrate", run_syncdb=True, verbosity=0)
    from django.contrib.auth import get_user_model
    from games.core import actions
    db, stop, tables = sys.argv[1], sys.argv[2], int(sys.argv[3])
    users = [get_user_model().objects.create_user(f"p{i}", password=None) for i in range(tables)]
    writer = subprocess.Popen([sys.executable, "-c", os.environ["WRITER"], db, stop],
                              stdout=subprocess.PIPE, text=True)
    ticks = sqlite3.connect(db, timeout=20)

    def written():
        try:
            return ticks.execute("SELECT count(*) FROM ticks").fetchone()[0]
        except sqlite3.OperationalError:  # the writer has not made its table yet
            return 0

    while written() == 0:  # the writer is under way before the first create
        time.sleep(0.01)
    before, started = written(), time.perf_counter()
    failures = 0
    for user in users:
        try:
            actions.create_table(user=user, players=2, rules={}, rated=False)
        except Exception as error:  # what became an HTTP 500
            failures += 1
            print("failed:", type(error).__name__, error)
    seconds = time.perf_counter() - started
    during = written() - before
    open(stop, "w").close()
    writer.communicate(timeout=60)
    from games.core.models import Match
    print("tables", Match.objects.count(), "failures", failures, "writes", during,
          "seconds", round(seconds, 3))
    """
)


def run(folder: Path, tables: int, *, from_models: bool = False) -> dict[str, float]:
    """Create ``tables`` tables against the writer on ``folder/db.sqlite3``, made by the
    migrations, or with ``from_models`` from the models (``migrate --run-syncdb`` with no
    migrations: 2.5 CPU-s where the migrations cost 7.5).

    :returns: ``{"tables": int, "failures": int, "writes": int, "seconds": float}``: the
        tables in the database, the creates that raised, the writer's commits made while the
        creates ran, and their wall-clock time.
    :raises AssertionError: the creating process failed (its stderr's end in the message).
    """
    db = folder / "db.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "DJANGO_SETTINGS_MODULE": "basra_site.settings",
        "WRITER": WRITER,
        "FROM_MODELS": "1" if from_models else "0",
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", CREATES, str(db), str(folder / "stop"), str(tables)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    words = done.stdout.strip().splitlines()[-1].split()
    figures = dict(zip(words[::2], words[1::2]))
    return {key: (float(value) if key == "seconds" else int(value))
            for key, value in figures.items()}
