"""Behind a proxy, each visitor is counted by their own address (issue 36): a small proxy that
does what the README's nginx block does (``proxy_set_header X-Forwarded-For $remote_addr``) in
front of a daphne started as ``manage.py serve`` starts it with ``BASRA_TRUSTED_PROXY_COUNT=1``
(``--proxy-headers``). Two visitors come from two loopback addresses (127.0.0.2, 127.0.0.3:
Linux answers all of 127/8); the site sees each one's, not the proxy's 127.0.0.1, whatever
X-Forwarded-For a visitor forges. No browser: a page cannot choose its source address."""

from __future__ import annotations

import asyncio
import contextlib
import json
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
import websockets

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def site_env():
    """A trusted proxy in front; two anonymous sockets per visitor (``BASRA_SOCKETS_PER_OWNER``)."""
    return {"BASRA_TRUSTED_PROXY_COUNT": "1", "BASRA_SOCKETS_PER_OWNER": "2"}


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


def overwriting_proxy(upstream: tuple[str, int]):
    """A connection handler for ``asyncio.start_server``: the request head goes on to
    ``upstream`` with every X-Forwarded-For the client sent dropped and the client's own address
    written in its place, then bytes both ways. Only a connection's first request is rewritten:
    each socket here is one connection, one request."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        request, *fields = head[:-4].split(b"\r\n")
        kept = [f for f in fields if not f.lower().startswith(b"x-forwarded-for:")]
        peer = writer.get_extra_info("peername")[0].encode()
        up_reader, up_writer = await asyncio.open_connection(*upstream)
        up_writer.write(b"\r\n".join([request, *kept, b"X-Forwarded-For: " + peer]) + b"\r\n\r\n")
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    return handle


async def first_frames(site_url: str, visits: list[tuple[str, str | None]]) -> list[str]:
    """Open an anonymous lobby socket through the proxy for each ``(address, forged header)``,
    keeping them all open; the type of each one's first frame (``tables``, or ``error``, whose
    code is checked)."""
    upstream = urlsplit(site_url)
    proxy = await asyncio.start_server(
        overwriting_proxy((upstream.hostname, upstream.port)), "127.0.0.1", 0)
    port = proxy.sockets[0].getsockname()[1]
    types = []
    async with proxy, contextlib.AsyncExitStack() as sockets:
        for address, forged in visits:
            socket = await sockets.enter_async_context(websockets.connect(
                f"ws://127.0.0.1:{port}/ws/lobby/", origin=f"http://127.0.0.1:{port}",
                additional_headers={"X-Forwarded-For": forged} if forged else None,
                local_addr=(address, 0),
            ))
            first = json.loads(await socket.recv())
            if first["type"] == "error":
                assert first["code"] == "too_many_sockets"
            types.append(first["type"])
    return types


def test_two_visitors_behind_the_proxy_each_have_their_own_cap(site_url):
    visits = [("127.0.0.2", None), ("127.0.0.2", "10.9.8.7"), ("127.0.0.2", "10.9.8.6"),
              ("127.0.0.3", None), ("127.0.0.3", "127.0.0.2")]
    # A thread of its own: Playwright's sync API may hold this thread's event loop.
    with ThreadPoolExecutor(1) as thread:
        types = thread.submit(asyncio.run, first_frames(site_url, visits)).result()
    # The first visitor's third socket is over their cap whatever they forged; the second
    # visitor still has their own two.
    assert types == ["tables", "tables", "error", "tables", "tables"]
