"""Browser-test fixtures: a live daphne server on a database of its own, and Debian's Chromium.

The server runs as a child process (``daphne basra_site.asgi:application``), like Channels'
``ChannelsLiveServerTestCase`` does, so the websockets, sessions and static files are the real
ones; next to it runs the table clock (``manage.py run_clock``), as ``make run`` starts it, which
plays for the computer seats and for timed-out players. The clock's broadcasts cannot cross the
in-memory channel layer into daphne's process: the table sockets pick its changes up themselves
when a deadline passes (``games.core.sockets.table.TableConsumer``), as they do under ``make run``. It gets a fresh database: a temporary SQLite file, or, when ``DATABASE_URL`` names a
PostgreSQL server, a new database ``<name>_e2e_<pid>`` on it that is dropped afterwards. Its channel
layer is the in-memory one (one server process), so it never shares Redis groups with other runs.
The test process never touches that database: everything goes through the browser.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import dj_database_url
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# Playwright's sync API runs an event loop in this thread; allow Django's sync-only calls anyway.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


#: The database each running site serves, by its base URL (for the tests that must reach behind
#: the browser, e.g. to tamper with a match's log and see the page notice).
DATABASE_URLS: dict[str, str] = {}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Postgres:
    """Create and drop a scratch database on the PostgreSQL server of ``DATABASE_URL``."""

    def __init__(self, url: str):
        import psycopg

        self.psycopg = psycopg
        self.config = dj_database_url.parse(url)
        self.name = f"{self.config['NAME']}_e2e_{os.getpid()}"
        self.url = url.rsplit("/", 1)[0] + "/" + self.name

    def _admin(self):
        return self.psycopg.connect(
            dbname="postgres", user=self.config.get("USER") or None,
            password=self.config.get("PASSWORD") or None, host=self.config.get("HOST") or None,
            port=self.config.get("PORT") or None, autocommit=True,
        )

    def create(self) -> None:
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}"')
            conn.execute(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    """Base URL (``http://127.0.0.1:<port>``) of a daphne server with a fresh, migrated database."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env["DEBUG"] = "1"
    env["ACCOUNT_EMAIL_VERIFICATION"] = "optional"
    workdir = tmp_path_factory.mktemp("e2e")
    postgres = None
    database_url = os.environ.get("DATABASE_URL", "")
    if database_url.startswith(("postgres://", "postgresql://")):
        postgres = _Postgres(database_url)
        postgres.create()
        env["DATABASE_URL"] = postgres.url
    else:
        env["DATABASE_URL"] = f"sqlite:///{workdir / 'e2e.sqlite3'}"
    log_path = workdir / "daphne.log"
    server = clock = None
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
            cwd=ROOT, env=env, check=True,
        )
        port = _free_port()
        with open(log_path, "wb") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                 "basra_site.asgi:application"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
        with open(workdir / "clock.log", "wb") as log:
            clock = subprocess.Popen(
                [sys.executable, "manage.py", "run_clock"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}"
        _wait_until_serving(url, server, log_path)
        DATABASE_URLS[url] = env["DATABASE_URL"]
        yield url
    finally:
        for process in (server, clock):
            if process is None:
                continue
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if postgres is not None:
            postgres.drop()


def _wait_until_serving(url: str, server: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"daphne exited:\n{log_path.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "/", timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise RuntimeError(f"daphne did not start:\n{log_path.read_text(errors='replace')}")


@pytest.fixture
def site_database_url(site_url) -> str:
    """The ``DATABASE_URL`` of the site under test (SQLite file or scratch PostgreSQL)."""
    return DATABASE_URLS[site_url]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (never ``playwright install``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, site_url):
    """Open pages in separate browser contexts (separate cookies: separate users)."""
    contexts = []

    def open_page(**context_options):
        context = browser.new_context(base_url=site_url, **context_options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
