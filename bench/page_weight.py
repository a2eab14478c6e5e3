"""The table page's weight and first render on a phone (issue 22, "what you measured"): the
bytes transferred and the first contentful paint and DOMContentLoaded of a live table page in
Chromium at 360×640, cold (a new browser profile: no HTTP cache, no service worker) and warm
(the same profile opening the page again, its service worker in control).

The site: started here (daphne on a free port, a temporary SQLite database, migrated), as
production serves it (``DEBUG`` off: the static files collected by WhiteNoise's
``CompressedManifestStaticFilesStorage``, hashed names, served compressed when the browser asks
for it) or, with ``--debug``, as ``make run`` serves it (``DEBUG`` on: the source files, no
compressed copies: WhiteNoise compresses nothing on the fly); or the site at ``--url``
(with ``--database-url``, its database, to seed the table). The table is seeded by
``tests/e2e/seed.py table`` (two persons, three plays made); the browser carries seat 0's
session.

Figures, each the median of ``--runs`` runs, from the page's Performance API (W3C Navigation
Timing 2 and Resource Timing: ``transferSize`` is the bytes fetched over the network, headers
and the body as encoded, 0 for a file answered from a cache; ``encodedBodySize`` and
``decodedBodySize`` the body as sent and unpacked; Paint Timing's ``first-contentful-paint``),
read once the table is live (its socket open, the hand drawn). The socket's frames are not
counted. Every response's ``Content-Encoding`` is printed too.

Usage::

    .venv/bin/python bench/page_weight.py            # as production serves it
    .venv/bin/python bench/page_weight.py --debug    # as make run serves it

Results (this machine, 2 cores shared with other work, headless Debian Chromium 156, a
two-person table, 2026-12-03; the times move with the machine's load, by ±50 % between runs,
the byte counts do not):

- DEBUG off: cold 77 KiB transferred in 23 files (the static files gzip-compressed, 70 KiB of
  bodies for 168 KiB unpacked; the page's HTML, 20 KiB, is not compressed: the site has no
  ``GZipMiddleware``, which Django's docs warn exposes pages holding a CSRF token to BREACH);
  first contentful paint 330-810 ms, DOMContentLoaded 510-1000 ms (medians of three runs of 5-7
  loads). Warm: 20 KiB (the HTML alone; the static files from the worker's cache), first
  contentful paint 120-470 ms, DOMContentLoaded 200-600 ms.
- DEBUG on (``make run``): cold 174 KiB, nothing compressed; first contentful paint 400 ms,
  DOMContentLoaded 720 ms; warm 26 KiB (the HTML and 22 revalidations), 390 ms and 540 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"

MEASURE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const sum = (key) => resources.reduce((n, r) => n + (r[key] || 0), nav[key] || 0);
  return {
    transfer: sum('transferSize'), encoded: sum('encodedBodySize'), decoded: sum('decodedBodySize'),
    html_transfer: nav.transferSize, files: resources.length + 1,
    fcp: paint ? paint.startTime : null, dcl: nav.domContentLoadedEventEnd,
    controlled: navigator.serviceWorker && navigator.serviceWorker.controller !== null,
  };
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_site(debug: bool, workdir: Path) -> tuple[str, str, subprocess.Popen, dict]:
    """Migrate a fresh SQLite database and start daphne on it; ``(url, database_url, process,
    env)``.

    :raises RuntimeError: daphne exited or did not answer within 60 s.
    """
    database_url = f"sqlite:///{workdir / 'bench.sqlite3'}"
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(DATABASE_URL=database_url, DEBUG="1" if debug else "0",
               SECRET_KEY="page-weight-bench-" + "x" * 40, BASRA_SSL_REDIRECT="0",
               BASRA_HSTS_SECONDS="0", ACCOUNT_EMAIL_VERIFICATION="optional")
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    if not debug:
        subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                       cwd=ROOT, env=env, check=True)
    port = free_port()
    log = open(workdir / "daphne.log", "wb")
    process = subprocess.Popen(
        [python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "basra_site.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError((workdir / "daphne.log").read_text(errors="replace"))
        try:
            with urllib.request.urlopen(url + "/rules/", timeout=2):
                return url, database_url, process, env
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    process.terminate()
    raise RuntimeError("daphne did not start")


def seed_table(env: dict) -> dict:
    """A live two-person table (``tests/e2e/seed.py table 2 3``): ``{"match", "sessions"}``."""
    tag = uuid.uuid4().hex[:6]
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "e2e" / "seed.py"), "table", "2", "3",
         f"bench_a_{tag}", f"bench_b_{tag}"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout)


def open_live(page, address: str) -> dict:
    """Open ``address`` and wait for the live table; its figures (``MEASURE``)."""
    page.goto(address)
    page.wait_for_selector('#live-status[data-state="live"]')
    page.wait_for_selector("#hand .card")
    # The paint entry is queued after the frame that painted: wait for it to be recorded.
    page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
    return page.evaluate(MEASURE)


def measure(url: str, table: dict, runs: int) -> dict[str, list[dict]]:
    """``runs`` cold and warm loads of the table page at 360×640; their figures, and the
    ``Content-Encoding`` seen per path on the first cold load."""
    from playwright.sync_api import sync_playwright

    host = url.split("//")[1].split(":")[0]
    address = f"{url}/table/{table['match']}/"
    out: dict[str, list] = {"cold": [], "warm": [], "encodings": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--no-sandbox", "--disable-gpu"])
        for run in range(runs):
            context = browser.new_context(viewport={"width": 360, "height": 640},
                                          device_scale_factor=2, is_mobile=True, has_touch=True)
            context.add_cookies([{"name": "sessionid", "value": table["sessions"][0],
                                  "domain": host, "path": "/"}])
            page = context.new_page()

            def seen(response, first=run == 0):
                if first and not out["cold"]:
                    out["encodings"].append((response.url.replace(url, ""),
                                             response.headers.get("content-encoding", "-")))

            page.on("response", seen)
            out["cold"].append(open_live(page, address))
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            out["warm"].append(open_live(page, address))
            context.close()
        browser.close()
    return out


def report(label: str, figures: list[dict]) -> None:
    def median(key):
        values = [f[key] for f in figures if f[key] is not None]
        return statistics.median(values) if values else float("nan")

    print(f"{label}: {median('transfer') / 1024:.1f} KiB transferred "
          f"({median('encoded') / 1024:.1f} KiB of bodies as sent, {median('decoded') / 1024:.1f} KiB "
          f"unpacked, {int(median('files'))} files; the page itself {median('html_transfer') / 1024:.1f} KiB); "
          f"first contentful paint {median('fcp'):.0f} ms, DOMContentLoaded {median('dcl'):.0f} ms; "
          f"worker in control when read: {all(f['controlled'] for f in figures)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--debug", action="store_true", help="serve as make run does (DEBUG on)")
    parser.add_argument("--url", help="measure this running site instead of starting one")
    parser.add_argument("--database-url", help="with --url: its DATABASE_URL, to seed the table")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        process = None
        if args.url:
            if not args.database_url:
                parser.error("--url needs --database-url (the table is seeded in its database)")
            env = dict(os.environ, DATABASE_URL=args.database_url)
            url = args.url.rstrip("/")
        else:
            url, _database, process, env = start_site(args.debug, Path(tmp))
        try:
            table = seed_table(env)
            out = measure(url, table, args.runs)
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
    mode = "given site" if args.url else ("DEBUG on (make run)" if args.debug else "DEBUG off (production)")
    print(f"Table page at 360x640, {args.runs} runs, medians, {mode}:")
    report("cold", out["cold"])
    report("warm", out["warm"])
    print("Content-Encoding of each response (first cold load):")
    for path, encoding in out["encodings"]:
        print(f"  {encoding:6} {path}")


if __name__ == "__main__":
    main()
