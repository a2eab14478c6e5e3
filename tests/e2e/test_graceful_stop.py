"""A graceful stop (issue 36): SIGTERM to a server process (daphne run directly here; ``manage.py
serve`` in ``tests/site/test_serve.py``) finishes the play in hand, answers it, and closes every
socket (table, lobby, notices) with 1001 "going away"; the pages reconnect at once on 1001;
``run_clock`` and ``run_tournaments`` stop after the tick in hand.

The work in hand is held by the test (``tests/e2e/held.py``) until the signal has been sent and
the drain has begun, so that "in hand" is an event, not a guess at a duration. The servers here
are the test's own (``own_site``): each is stopped by its test. No browser but the last test's.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

import pytest
import websockets
from playwright.sync_api import expect

from tests.e2e.conftest import ROOT
from tests.e2e.pages import open_table, root, sign_up

pytestmark = pytest.mark.e2e

#: Seconds a test waits for what must come: only a bound on a hang.
HANG = 60.0
GOING_AWAY = 1001
#: The drain's bound, out of the way: these tests are about what it waits for, not for how long.
PATIENT = {"BASRA_DRAIN_SECONDS": "60"}


class Held:
    """One piece of work held by ``tests/e2e/held.py``: its name, then ``go`` and its end."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def name(self) -> str:
        return (await asyncio.wait_for(self.reader.readline(), HANG)).decode().strip()

    async def go(self) -> str:
        """Let it go; how it ended (``done running``, ``done stopped``, or ``""``: its process
        died holding it)."""
        self.writer.write(b"go\n")
        await self.writer.drain()
        end = (await asyncio.wait_for(self.reader.readline(), HANG)).decode().strip()
        self.writer.close()
        return end


class Holds:
    """The test's listener for ``held.py`` (``BASRA_TEST_HOLD``)."""

    async def __aenter__(self) -> Holds:
        self.waiting: asyncio.Queue[Held] = asyncio.Queue()
        self.server = await asyncio.start_server(
            lambda r, w: self.waiting.put_nowait(Held(r, w)), "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc) -> None:
        self.server.close()

    @property
    def env(self) -> dict[str, str]:
        host, port = self.server.sockets[0].getsockname()[:2]
        return {"BASRA_TEST_HOLD": f"{host}:{port}", "PYTHONUNBUFFERED": "1"}

    async def next(self, name: str) -> Held:
        held = await asyncio.wait_for(self.waiting.get(), HANG)
        assert await held.name() == f"held {name}"
        return held


def in_a_thread(coroutine) -> object:
    """Run ``coroutine`` on an event loop of its own thread (Playwright's sync API may hold
    this thread's)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def seed(env: dict, *args) -> dict:
    """``tests/e2e/seed.py`` on the database of ``env``; what it prints, as JSON."""
    script = str(ROOT / "tests" / "e2e" / "seed.py")
    done = subprocess.run([sys.executable, script, *map(str, args)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


async def connect(url: str, path: str, session: str | None = None):
    address = urlsplit(url)
    headers = {"Cookie": f"sessionid={session}"} if session else None
    return await websockets.connect(f"ws://{address.netloc}{path}", origin=url,
                                    additional_headers=headers, open_timeout=HANG)


async def first(socket, kind: str) -> dict:
    """The first frame of type ``kind`` (frames of other types before it are passed over)."""
    while True:
        frame = json.loads(await asyncio.wait_for(socket.recv(), HANG))
        if frame["type"] == kind:
            return frame


async def until_closed(socket) -> tuple[list[dict], int | None]:
    """Every frame up to the close, and the close code the server sent (``None``: the
    connection ended without a close frame)."""
    frames = []
    try:
        while True:
            frames.append(json.loads(await asyncio.wait_for(socket.recv(), HANG)))
    except websockets.ConnectionClosed as closed:
        return frames, closed.rcvd.code if closed.rcvd else None


def daphne(port: int) -> list[str]:
    """daphne run directly, serving the site with its first play held (``held.py``)."""
    return ["-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "tests.e2e.held:application"]


async def stop_with_a_play_in_hand(own_site) -> None:
    async with Holds() as holds:
        site = own_site(holds.env | PATIENT, daphne)
        tag = uuid.uuid4().hex[:6]
        table = seed(site.env, "table", 2, 0, f"gs_a_{tag}", f"gs_b_{tag}")
        match, turn, sessions = table["match"], table["turn"], table["sessions"]
        path = f"/ws/table/{match}/"
        mover = await connect(site.url, path, sessions[turn])
        other = await connect(site.url, path, sessions[1 - turn])
        watcher = await connect(site.url, path)
        lobby = await connect(site.url, "/ws/lobby/", sessions[turn])
        notices = await connect(site.url, "/ws/me/", sessions[turn])
        state = await first(mover, "state")
        for socket, kind in ((other, "state"), (watcher, "state"), (lobby, "tables"),
                             (notices, "pending")):
            await first(socket, kind)
        card, second = state["round"]["hand"][:2]
        await mover.send(json.dumps({"type": "play", "card": card, "seq": state["seq"]}))
        held = await holds.next("play")  # on the sockets' database thread, not yet played
        site.processes[0].send_signal(signal.SIGTERM)
        # Every socket with nothing in hand closes at once, with 1001.
        for socket in (lobby, notices, other, watcher):
            _frames, code = await until_closed(socket)
            assert code == GOING_AWAY
        # The drain has begun: the server takes no new connection, and a play sent now is
        # not taken.
        with pytest.raises(OSError):
            await connect(site.url, "/ws/lobby/")
        await mover.send(json.dumps({"type": "play", "card": second, "seq": state["seq"]}))
        assert await held.go() == "done running"
        frames, code = await until_closed(mover)
        assert code == GOING_AWAY
        # The play in hand is answered before the close, and nothing else is.
        assert [f["type"] for f in frames] == ["state"]
        answer = frames[0]
        assert answer["seq"] > state["seq"] and answer["round"]["last_play"]["card"] == card
        assert site.processes[0].wait(timeout=HANG) == 0
    log = seed(site.env, "log", match)
    assert log["seq"] == answer["seq"]
    assert [(seat, played) for _seq, seat, played in log["plays"]] == [(turn, card)]


def test_sigterm_to_daphne_answers_the_play_in_hand_then_closes_every_socket_with_1001(own_site):
    in_a_thread(stop_with_a_play_in_hand(own_site))


async def stop_a_command_in_its_tick(own_site, command: str, *options: str) -> None:
    """SIGTERM to ``command`` while its first tick is held: it finishes the tick (its loop
    still running, for the tick's broadcasts) and exits 0."""
    async with Holds() as holds:
        env = own_site.environment(holds.env | PATIENT)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "tests/e2e/held.py", command, *options, cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        try:
            held = await holds.next("tick")
            process.send_signal(signal.SIGTERM)
            if command == "run_clock":
                # Its loop took the signal (the scheduler's loop is the main thread's, which
                # takes it whenever it comes).
                while b"after the tick in hand" not in await asyncio.wait_for(
                        process.stdout.readline(), HANG):
                    pass
            assert await held.go() == "done running"
            output = (await asyncio.wait_for(process.stdout.read(), HANG)).decode()
            assert await asyncio.wait_for(process.wait(), HANG) == 0, output
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()


def test_sigterm_to_run_clock_lets_the_tick_in_hand_end(own_site):
    in_a_thread(stop_a_command_in_its_tick(own_site, "run_clock", "--workers", "0"))


def test_sigterm_to_run_tournaments_lets_the_tick_in_hand_end(own_site):
    in_a_thread(stop_a_command_in_its_tick(own_site, "run_tournaments", "--interval", "3600"))


def test_the_table_page_reconnects_at_once_when_its_socket_goes_away(new_page, request):
    """Closed with 1001, the page opens its socket again with no wait: the page's clock stands
    still (Playwright's), so a wait would never end."""
    fake = open_table(new_page, request, fake_clock=True)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    # What the new socket will be answered with: the table moved on meanwhile.
    fake.state = dict(fake.state, seq=fake.state["seq"] + 1, prev_seq=fake.state["seq"])
    fake.sockets[-1].close(code=GOING_AWAY, reason="going away")
    expect(root(page)).to_have_attribute("data-seq", str(fake.state["seq"]))
    assert len(fake.sockets) == 2


def test_the_notice_socket_reconnects_at_once_when_it_goes_away(new_page, request):
    """The site-wide notice socket (``notices.js``, its own reconnect) does the same: closed
    with 1001 while the page's clock stands still, it is open again and hears a notice."""
    page = new_page()
    page.clock.install()
    sockets = []

    def answer(ws) -> None:
        sockets.append(ws)
        ws.send(json.dumps({"type": "pending", "notices": []}))
        if len(sockets) == 2:
            ws.send(json.dumps({"type": "notice", "kind": "challenge", "payload": {
                "id": 7, "from": "zed", "to": "me", "rated": False, "target": 101,
                "move_seconds": None, "expires_at": "2100-01-01T00:00:00+00:00"}}))

    page.route_web_socket(re.compile(r"/ws/me/$"), answer)
    sign_up(page, "gs" + uuid.uuid4().hex[:8])
    expect(page.locator("#site-notices")).to_have_attribute("data-live", "true")
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    sockets[-1].close(code=GOING_AWAY, reason="going away")
    expect(page.locator("[data-challenge='7']")).to_be_visible()
