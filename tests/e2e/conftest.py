"""Browser-test fixtures: live daphne servers, each on a database of its own, and Debian's Chromium.

A server runs as a child process (``daphne basra_site.asgi:application``), like Channels'
``ChannelsLiveServerTestCase`` does, so the websockets, sessions and static files are the real
ones. As under ``make run`` (no ``REDIS_URL``), the table clock, which plays for the computer
seats and for timed-out players, and the tournaments' scheduler run inside daphne
(``BASRA_CLOCK_IN_SERVER``, README "The table clock").

One server serves every browser test of a test process (a pytest-xdist worker has its own): it
is started the first time a test asks for ``site_url`` and stopped at the end of the session.
A module that needs other settings names them in a module fixture ``site_env``
(``{"BASRA_OPEN_TABLE_ABANDON_SECONDS": "4"}``); every module asking for the same settings
shares a second server started with them. The tests therefore share a database: each signs up
users of its own and asserts nothing about what other tests may have left on the site (counts,
whole lists).

Each server's database is a copy of one made when the first server starts (its tables from the
models, as the unit tests' are: ``BASRA_TEST_NO_MIGRATIONS``, tests/settings.py): of a temporary
SQLite file, or, when ``DATABASE_URL`` names a PostgreSQL server, of a database
``<name>_e2e_<pid>`` on it (the copies ``<name>_e2e_<pid>_<n>``, made with ``CREATE DATABASE …
TEMPLATE``), all dropped afterwards. The channel layer is the in-memory one (one server
process), so a server never shares Redis groups with other runs. Everything a test does goes
through the browser, except where a test says why it must reach behind it: ``site_database_url``
and ``seed`` (a position played on through the site's own actions, ``tests/e2e/seed.py``).
"""

import json
import os
import selectors
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import dj_database_url
import pytest
from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from games.core.management.commands.serve import daphne_arguments
from tests.e2e.pages import FIRST_GROUP

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
#: Chromium's features Playwright turns off (playwright-core's ``chromiumSwitches.ts``,
#: ``disabledFeatures``): Chromium reads only the last ``--disable-features``, so
#: :data:`CHROMIUM_ARGS`' repeats them (``tests/e2e/test_chromium.py`` fails when Playwright's
#: list changes).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)
#: Turned off here too: the address bar's pop-ups, which Chromium's headless mode builds as web
#: pages in a renderer process of their own for every new browser context, though no test shows
#: an address bar (about 0.17 s of CPU a context, 40% of a new context's cost; 2026-12-07).
NO_OMNIBOX_POPUPS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + NO_OMNIBOX_POPUPS)]

# What must appear is waited for up to 15 s, as the pages' actions are (``new_page``), not
# Playwright's 5 s: under a loaded machine (two CPU burners beside the suite) a page's answer
# took longer. How long it takes is asserted nowhere.
from playwright.sync_api import expect as _expect  # noqa: E402

_expect.set_options(timeout=15_000)

#: What every server under test runs with, on top of the environment: e-mail confirmation off;
#: sign-ups from 127.0.0.1 not limited to allauth's 20 a minute (one server serves every
#: browser test of the run, and they sign up over a hundred people); and the waits that only
#: make a page look human, shortened where no browser test measures them (the computer's delay
#: before its card, the pause between two rounds).
SITE_ENV = {
    "DEBUG": "1",
    "ACCOUNT_EMAIL_VERIFICATION": "optional",
    "BASRA_SIGNUP_RATE_LIMIT": "10000/m/ip",
    "BASRA_BOT_DELAY_SECONDS": "0.1,0.3",
    "BASRA_ROUND_PAUSE_SECONDS": "1",
    # One thinking process a server, not one a core: the computer seats of a test or two at a
    # time need no more, and each process sets Django up (seconds of CPU beside the suite).
    "BASRA_BOT_WORKERS": "1",
    # Static files found once a server and cached by the browser (tests/settings.py says why).
    "BASRA_TEST_STATIC_CACHED": "1",
}

# Playwright's sync API runs an event loop in this thread; allow Django's sync-only calls anyway.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Postgres:
    """Create, copy and drop scratch databases on the PostgreSQL server of ``DATABASE_URL``."""

    def __init__(self, url: str):
        import psycopg

        self.psycopg = psycopg
        self.config = dj_database_url.parse(url)
        self.base = url.rsplit("/", 1)[0]
        self.name = f"{self.config['NAME']}_e2e_{os.getpid()}"
        self.created: list[str] = []

    def url(self, name: str) -> str:
        return f"{self.base}/{name}"

    def _admin(self):
        return self.psycopg.connect(
            dbname="postgres", user=self.config.get("USER") or None,
            password=self.config.get("PASSWORD") or None, host=self.config.get("HOST") or None,
            port=self.config.get("PORT") or None, autocommit=True,
        )

    def create(self, name: str, template: str | None = None) -> str:
        """Create ``name`` (a copy of ``template``, which nobody may be connected to); its URL."""
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        self.created.append(name)
        return self.url(name)

    def drop_all(self) -> None:
        with self._admin() as conn:
            for name in reversed(self.created):
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Site:
    """One running server under test."""

    url: str
    database_url: str
    env: dict
    workdir: Path
    processes: list = field(default_factory=list)
    log: Path | None = None  # what the server printed
    seeder: "Seeder | None" = None

    def seed(self, command: str, *args) -> str:
        """Run ``tests/e2e/seed.py``'s ``command`` on this site's database; what it printed."""
        if self.seeder is None:
            self.seeder = Seeder(self.env, self.workdir)
            self.processes.append(self.seeder.process)
        return self.seeder.run([command, *map(str, args)])

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class Seeder:
    """``tests/e2e/seed.py serve``: one process, started with a server's environment, that runs
    every seeding command of that server (Django set up once, not once a command)."""

    TIMEOUT = 120  # real seconds: only a bound on a hang

    def __init__(self, env: dict, folder: Path):
        self.log = folder / f"seed-{id(self)}.log"
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(ROOT / "tests" / "e2e" / "seed.py"), "serve"],
                cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                text=True,
            )

    def run(self, argv: list[str]) -> str:
        self.process.stdin.write(json.dumps(argv) + "\n")
        self.process.stdin.flush()
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(self.TIMEOUT):
                raise RuntimeError(f"seed.py {argv[0]} gave no answer in {self.TIMEOUT} s")
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"seed.py ended:\n{self.log.read_text(errors='replace')}")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"seed.py {argv[0]} failed:\n{answer['error']}")
        return answer["out"]


class Sites:
    """The servers of this test process, one per set of settings, started when first asked for."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.base_env = {k: v for k, v in os.environ.items()
                         if k not in {"REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
        self.base_env.update(SITE_ENV)
        database_url = os.environ.get("DATABASE_URL", "")
        self.postgres = (_Postgres(database_url)
                         if database_url.startswith(("postgres://", "postgresql://")) else None)
        self.template: str | None = None  # the migrated database every server's is a copy of
        self.sites: dict[tuple, Site] = {}
        self.started = 0  # servers started by :meth:`get`
        self.owned = 0  # servers started by :meth:`own`

    def get(self, overrides: dict[str, str]) -> Site:
        key = tuple(sorted(overrides.items()))
        if key not in self.sites:
            self.started += 1  # never reused: a stopped server's number names its database
            self.sites[key] = self._start(overrides, self.started)
        return self.sites[key]

    def stop(self, overrides: dict[str, str]) -> None:
        """Stop the server of ``overrides`` (:meth:`get` starts a new one if asked again)."""
        site = self.sites.pop(tuple(sorted(overrides.items())), None)
        if site is not None:
            site.stop()

    def _migrated_template(self) -> None:
        env = dict(self.base_env)
        if self.postgres is not None:
            self.template = self.postgres.name
            env["DATABASE_URL"] = self.postgres.create(self.template)
        else:
            self.template = str(self.workdir / "template.sqlite3")
            env["DATABASE_URL"] = f"sqlite:///{self.template}"
        # Its tables from the models (tests/settings.py, ``BASRA_TEST_NO_MIGRATIONS``).
        env["BASRA_TEST_NO_MIGRATIONS"] = "1"
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--run-syncdb", "--noinput", "--verbosity", "0"],
            cwd=ROOT, env=env, check=True,
        )

    def _database(self, number: int) -> str:
        if self.template is None:
            self._migrated_template()
        if self.postgres is not None:
            return self.postgres.create(f"{self.template}_{number}", template=self.template)
        path = self.workdir / f"site{number}.sqlite3"
        with sqlite3.connect(self.template) as source, sqlite3.connect(path) as copy:
            source.backup(copy)
        return f"sqlite:///{path}"

    def own(self, overrides: dict[str, str], command) -> Site:
        """A server of its own on a database of its own, for a test that stops it: started as
        ``command(port)`` (the arguments after the Python interpreter) with the settings
        ``overrides``; the caller stops it (``Site.stop`` is safe after it ended)."""
        self.owned += 1
        return self._start(overrides, 1000 + self.owned, command)

    def own_environment(self, overrides: dict[str, str]) -> dict[str, str]:
        """The environment of a process of the site (a clock, a scheduler) on a database of
        its own, with the settings ``overrides``."""
        self.owned += 1
        return dict(self.base_env, **overrides, DATABASE_URL=self._database(1000 + self.owned))

    def _start(self, overrides: dict[str, str], number: int, command=None) -> Site:
        env = dict(self.base_env, **overrides)
        env["DATABASE_URL"] = self._database(number)
        port = _free_port()
        site = Site(url=f"http://127.0.0.1:{port}", database_url=env["DATABASE_URL"], env=env,
                    workdir=self.workdir)
        log_path = self.workdir / f"daphne{number}.log"
        if command is None:
            # As ``manage.py serve`` starts it: with ``--proxy-headers`` when the settings
            # trust a proxy (tests/e2e/test_proxy_address.py).
            trusted = int(env.get("BASRA_TRUSTED_PROXY_COUNT", "0"))
            arguments = ["-m", "daphne", *daphne_arguments("127.0.0.1", port, trusted)]
        else:
            arguments = command(port)
        site.log = log_path
        try:
            with open(log_path, "wb") as log:
                site.processes.append(subprocess.Popen(
                    [sys.executable, *arguments],
                    cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                ))
            _wait_until_serving(site.url, site.processes[0], log_path)
        except BaseException:
            site.stop()
            raise
        return site

    def close(self) -> None:
        for site in self.sites.values():
            site.stop()
        if self.postgres is not None:
            self.postgres.drop_all()


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


@pytest.fixture(scope="session")
def _sites(tmp_path_factory):
    sites = Sites(tmp_path_factory.mktemp("e2e"))
    try:
        yield sites
    finally:
        sites.close()


@pytest.fixture(scope="module")
def site_env() -> dict[str, str]:
    """Settings (environment variables) this module's server needs beyond ``SITE_ENV``; a module
    overrides this fixture to get a server of its own kind, shared with every module asking the
    same."""
    return {}


@pytest.fixture
def own_site(_sites):
    """``own_site(overrides, command)``: a server a test may stop (``Sites.own``); stopped,
    if it still runs, after the test. ``own_site.environment(overrides)``: the environment of
    another process of the site, on a database of its own (``Sites.own_environment``)."""
    started = []

    def start(overrides: dict[str, str], command) -> Site:
        started.append(_sites.own(overrides, command))
        return started[-1]

    start.environment = _sites.own_environment
    yield start
    for site in started:
        site.stop()


@pytest.fixture(scope="module")
def site(_sites, site_env) -> Site:
    """The server of this module's settings. One with settings of its own (a ``site_env``) is
    stopped after the module: an idle server still ticks its clock (a few per cent of a core), and
    the modules asking for the same settings run one after another (``--dist loadgroup`` sends
    a group's tests in order), so it would mostly wait for the end of the run."""
    yield _sites.get(site_env)
    if site_env:
        _sites.stop(site_env)


@pytest.fixture(scope="module")
def site_url(site) -> str:
    """Base URL (``http://127.0.0.1:<port>``) of the daphne server this module's tests use."""
    return site.url


@pytest.fixture
def site_database_url(site) -> str:
    """The ``DATABASE_URL`` of the site under test (SQLite file or scratch PostgreSQL)."""
    return site.database_url


@pytest.fixture
def seed(site):
    """``seed(command, *args)``: run ``tests/e2e/seed.py``'s ``command`` on the site's database
    (see there), in the site's one seeding process (:class:`Seeder`); returns what it prints.
    Pages open on the table must be reloaded afterwards: its broadcasts cannot reach the
    server's in-memory channel layer."""
    return site.seed


class _Chromium:
    """Debian's Chromium driven by Playwright (never ``playwright install``), launched when a
    browser test first needs it and kept for the browser tests that follow it.

    While Playwright's sync API runs, its event loop counts as running in this thread, so an
    asyncio test after it would fail: Chromium is stopped whenever the next test of this process
    is not a browser test (``pytest_runtest_teardown``; under pytest-xdist a worker may run
    other tests between two batches of browser tests) and started again for the next one.
    """

    def __init__(self):
        self.playwright = None
        self.browser = None

    def get(self):
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM,
                                                           args=CHROMIUM_ARGS)
        return self.browser

    def stop(self) -> None:
        if self.playwright is not None:
            try:
                self.browser.close()
            finally:
                self.playwright.stop()
                self.playwright = self.browser = None
                _POOL.clear()


_CHROMIUM = _Chromium()
E2E_DIR = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """The browser tests in two pytest-xdist groups (``make test``: ``--dist loadgroup``): each
    runs on one worker, one test after another, so the run starts two servers (more, with a
    ``site_env``'s) and two Chromiums, not one per worker, and the browser tests, which mostly
    wait on the server and the browser, take half as long beside each other. A module joins the
    second group with ``pytest.mark.xdist_group(SECOND_GROUP)`` (``tests/e2e/pages.py``) in its
    ``pytestmark``; every other browser test is put in the first here, before xdist's own hook,
    which reads the marks."""
    for item in items:
        path = Path(item.path).resolve()
        if E2E_DIR in path.parents and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(FIRST_GROUP))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a browser test's own teardown (its contexts closed): stop Chromium unless the next
    test is a browser test too."""
    yield
    if nextitem is None or E2E_DIR not in Path(nextitem.path).resolve().parents:
        _CHROMIUM.stop()


class _Browser:
    """The test process's Chromium, whose new contexts come from :data:`_POOL` and block the
    site's service worker unless asked otherwise (``service_workers="allow"``,
    ``tests/e2e/test_install.py``, the worker's own test). Installed, the worker fetches the
    offline page in each language and the files it uses in every new context, and it is started
    for every navigation after: work no other test looks at (about 4% of the browser tests' CPU
    on pages that navigate). Everything else is the Playwright ``Browser``'s."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("service_workers", "block")
        return _POOL.take(self._browser, options)

    def __getattr__(self, name):
        return getattr(self._browser, name)


# The pool of browser contexts

#: What a test may do to a page or a context that the pool cannot undo: a context on which one of
#: these was used is closed, not kept (:class:`_ContextPool`). Event handlers stay on the page
#: object; scripts added before every page, bindings and a fake clock stay in the context.
_PAGE_TAINTS = ("add_init_script", "add_locator_handler", "clock", "emulate_media",
                "expose_binding", "expose_function", "on", "once", "route", "route_from_har",
                "route_web_socket", "set_default_navigation_timeout", "set_default_timeout",
                "set_extra_http_headers")
_CONTEXT_TAINTS = ("add_init_script", "clock", "expose_binding", "expose_function",
                   "grant_permissions", "new_cdp_session", "on", "once", "route",
                   "route_from_har", "route_web_socket", "set_extra_http_headers",
                   "set_geolocation", "set_offline", "tracing")


def _tainting(base: type, names: tuple[str, ...]) -> dict:
    """Overrides of ``base``'s methods and properties ``names`` that mark the object's context
    as not to be kept, then do what ``base`` does."""

    def override(name):
        member = getattr(base, name)
        if isinstance(member, property):
            return property(lambda self: (_taint(self), member.fget(self))[1])

        def method(self, *args, **kwargs):
            _taint(self)
            return member(self, *args, **kwargs)
        return method

    return {name: override(name) for name in names}


def _origin(url: str) -> str | None:
    """``http://127.0.0.1:8000`` of ``http://127.0.0.1:8000/table/3/``; None for ``about:blank``."""
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else None


def _taint(obj) -> None:
    context = obj if isinstance(obj, BrowserContext) else obj.context
    context.basra_kept = False


class _PooledPage(Page):
    """A page of a pooled context; what it may not keep marks the context (:func:`_taint`)."""


class _PooledContext(BrowserContext):
    """A context of the pool: ``close()`` gives it back (:meth:`_ContextPool.give_back`);
    ``new_page()`` hands out the page it kept, if any."""

    def new_page(self):
        if self.basra_idle:
            return self.basra_idle.pop()
        page = BrowserContext.new_page(self)
        page.__class__ = _PooledPage
        # Where the page went, for the clean-up (``Page.on``: the pool's own listener).
        Page.on(page, "framenavigated", lambda frame: self.basra_origins.add(_origin(frame.url)))
        if page.viewport_size != self.basra_viewport:  # the context was made for another
            page.set_viewport_size(self.basra_viewport)
        return page

    def close(self, reason=None):
        if self.basra_out:  # a second close (the test's, then the fixture's) does nothing
            self.basra_out = False
            _POOL.give_back(self)


for _name, _member in _tainting(Page, _PAGE_TAINTS).items():
    setattr(_PooledPage, _name, _member)
for _name, _member in _tainting(BrowserContext, _CONTEXT_TAINTS).items():
    setattr(_PooledContext, _name, _member)


class _ContextPool:
    """Browser contexts (each with one page) kept between the browser tests of this process.

    A new context's first page starts a renderer process, and its first load of a page costs
    about 0.7 s of CPU more than the same load in a page that showed the site before (the lobby:
    about 1.0 against 0.35 CPU-s, 2026-12-07). So a test's ``context.close()`` (the ``new_page``
    fixture's too) gives the context back here: its page is sent to ``about:blank`` (the site's
    sockets close, its timers stop), then the context's cookies, permissions and the storage of
    every origin its pages went to (local and session storage, IndexedDB, caches: CDP's
    ``Storage.clearDataForOrigin``) are cleared. A later ``browser.new_context`` with the same options
    (``base_url`` included; the viewport aside, which is set on the kept page) gets it back
    instead of a new one. What stays is the HTTP cache of the static files, which do not change
    during a run.

    A context is closed for good instead when the test did something the pool cannot undo
    (:data:`_CONTEXT_TAINTS`, :data:`_PAGE_TAINTS`), when it lets the service worker in, or
    when its clean-up fails; a test that needs a browser as new (a first visit's requests)
    opens it with ``fresh=True``, which :meth:`take` passes over. ``tests/e2e/test_chromium.py``
    shows what a kept context comes back as.
    """

    #: Contexts kept at most (each holds an idle renderer process).
    SIZE = 8

    def __init__(self):
        self.kept: list[tuple[str, _PooledContext]] = []  # (options' key, context), oldest first

    def take(self, browser, options: dict):
        fresh = options.pop("fresh", False)
        if fresh or options.get("service_workers") != "block" or "no_viewport" in options:
            return browser.new_context(**options)
        # A page's viewport can be set at any time; the other options only with the context.
        viewport = options.get("viewport", DEFAULT_VIEWPORT)
        key = repr(sorted((k, v) for k, v in options.items() if k != "viewport"))
        for i, (kept_key, context) in enumerate(self.kept):
            if kept_key == key:
                del self.kept[i]
                context.basra_kept = context.basra_out = True
                context.basra_viewport = viewport
                for page in context.basra_idle:
                    page.set_viewport_size(viewport)
                return context
        context = browser.new_context(**options)
        context.__class__ = _PooledContext
        context.basra_key, context.basra_idle, context.basra_viewport = key, [], viewport
        context.basra_origins = set()
        context.basra_kept = context.basra_out = True
        return context

    def give_back(self, context: _PooledContext) -> None:
        if context.basra_kept and self._cleared(context):
            self.kept.append((context.basra_key, context))
            while len(self.kept) > self.SIZE:
                BrowserContext.close(self.kept.pop(0)[1])
        else:
            BrowserContext.close(context)

    @staticmethod
    def _cleared(context: _PooledContext) -> bool:
        """Reset ``context`` for another test; False if it cannot be (closed instead)."""
        pages = context.pages
        if not pages or not isinstance(pages[0], _PooledPage):
            return False
        page = pages[0]
        try:
            for extra in pages[1:]:
                extra.close()
            page.goto("about:blank", timeout=5_000)
            context.clear_cookies()
            context.clear_permissions()
            session = BrowserContext.new_cdp_session(context, page)
            for origin in context.basra_origins - {None}:
                session.send("Storage.clearDataForOrigin", {
                    "origin": origin, "storageTypes": "local_storage,indexeddb,cache_storage"})
            session.detach()
            context.basra_origins.clear()
            context.set_default_timeout(30_000)  # Playwright's own
            context.set_default_navigation_timeout(30_000)
        except PlaywrightError:
            return False
        context.basra_idle = [page]
        return True

    def clear(self) -> None:
        """Forget every kept context (the browser is stopping)."""
        self.kept.clear()


#: Playwright's viewport for a context made without one.
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}
_POOL = _ContextPool()


@pytest.fixture
def browser():
    """The test process's Chromium (``_Chromium``), as a :class:`_Browser`."""
    return _Browser(_CHROMIUM.get())


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


@pytest.fixture
def seeded(seed):
    """``seeded(players, command="table")``: a table seeded by ``seed.py`` (``table``: its first plays
    made; ``floor``: a floor grown to fourteen cards) for players with long, Arabic and short
    names; what
    ``seed.py`` prints (the match, its seats' sessions, whose turn), as a dict."""

    def make(players: int, command: str = "table"):
        tag = uuid.uuid4().hex[:5]
        names = [f"abdelrahman_{tag}", f"سارة_{tag}", f"m_{tag}", f"Zeinab_ElShenawy_{tag}"][:players]
        if command == "floor":
            return json.loads(seed("floor", players, *names))
        return json.loads(seed("table", players, 3 if players == 2 else 5, *names))
    return make
