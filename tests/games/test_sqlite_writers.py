"""SQLite (``make run``) with two writing processes: the web server and the clock.

A transaction that reads and then writes must not fail with "database is locked" while the other
process writes: every write transaction begins IMMEDIATE (settings), so it waits for the write
lock instead of having to upgrade a read lock, which SQLite refuses at once. Before, creating
tables while the clock or a heartbeat wrote gave HTTP 500.

The test runs in subprocesses on a database file of its own: pytest's SQLite test database lives
in memory and cannot be shared with another process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The other process: writes in short transactions as fast as it can, like the clock's ticks and
#: the sockets' heartbeats, until the file ``stop`` appears.
WRITER = textwrap.dedent(
    """
    import sqlite3, sys, time, os
    db, stop = sys.argv[1], sys.argv[2]
    conn = sqlite3.connect(db, timeout=20, isolation_level=None)
    writes = 0
    while not os.path.exists(stop):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE games_seat SET last_seen = ?", (time.time(),))
        time.sleep(0.002)
        conn.execute("COMMIT")
        writes += 1
        time.sleep(0.001)
    print(writes)
    """
)

#: The web server's side: 200 tables created (each a count, then inserts) while WRITER runs.
CREATES = textwrap.dedent(
    """
    import os, subprocess, sys
    import django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model
    from games import actions
    users = [get_user_model().objects.create_user(f"p{i}", password=None) for i in range(200)]
    writer = subprocess.Popen([sys.executable, "-c", os.environ["WRITER"], sys.argv[1], sys.argv[2]],
                              stdout=subprocess.PIPE, text=True)
    failures = 0
    for user in users:
        try:
            actions.create_table(user=user, players=2, rules={}, rated=False)
        except Exception as error:  # what became an HTTP 500
            failures += 1
            print("failed:", type(error).__name__, error)
    open(sys.argv[2], "w").close()
    writes = int(writer.communicate(timeout=60)[0])
    from games.models import Match
    print("tables", Match.objects.count(), "failures", failures, "writes", writes)
    """
)


def test_creating_tables_while_another_process_writes_never_fails(tmp_path):
    db = tmp_path / "db.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "DJANGO_SETTINGS_MODULE": "basra_site.settings",
        "WRITER": WRITER,
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", CREATES, str(db), str(tmp_path / "stop")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    last = done.stdout.strip().splitlines()[-1].split()
    assert last[:4] == ["tables", "200", "failures", "0"], done.stdout[-3000:]
    assert int(last[5]) > 50  # the other process really wrote all along
