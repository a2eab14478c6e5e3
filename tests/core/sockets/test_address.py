"""The sockets' cap per owner counts an anonymous visitor by their real address (issue 36):
behind the README's proxy, the X-Forwarded-For entry the trusted proxies wrote
(``BASRA_TRUSTED_PROXY_COUNT``, allauth's rule), not the proxy's own address; with no proxy
trusted, the peer, whatever header a client sends; and on a developer's machine (``DEBUG``, no
proxy) the loopback address is not capped at all, so a crowded table can be tried locally."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.conftest import communicator

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

#: The proxy's address: every socket reaches the server from it.
PROXY = "127.0.0.1"


@pytest_asyncio.fixture
async def anonymous():
    """``await anonymous(peer, forwarded_for=None, cookie=None)``: an anonymous lobby socket
    from ``peer`` (with that session cookie), connected; its first frame's type (``"tables"``, or ``"error"`` with the code checked to
    be ``too_many_sockets``)."""
    opened = []

    async def open_(peer: str, forwarded_for: str | None = None, cookie: str | None = None) -> str:
        comm = communicator("/ws/lobby/", cookie)
        comm.scope["client"] = (peer, 50000 + len(opened))
        if forwarded_for is not None:
            comm.scope["headers"].append((b"x-forwarded-for", forwarded_for.encode()))
        connected, _code = await comm.connect()
        assert connected
        opened.append(comm)
        first = await comm.receive_json_from()
        if first["type"] == "error":
            assert first["code"] == "too_many_sockets"
        return first["type"]

    yield open_
    for comm in opened:
        try:
            await comm.disconnect()
        except Exception:  # noqa: BLE001 - a refused socket is already closed
            pass


async def test_behind_the_trusted_proxy_each_visitor_has_their_own_cap(anonymous, settings):
    settings.BASRA_TRUSTED_PROXY_COUNT = 1
    settings.BASRA_SOCKETS_PER_OWNER = 2
    assert [await anonymous(PROXY, "203.0.113.5") for _ in range(3)] == [
        "tables", "tables", "error"]
    assert await anonymous(PROXY, "198.51.100.7") == "tables"


async def test_behind_the_trusted_proxy_a_forged_first_entry_is_not_the_address(
    anonymous, settings
):
    # A proxy that appends (rather than overwrites) keeps what the client sent on the left; the
    # count takes the entry the proxy wrote, as allauth does.
    settings.BASRA_TRUSTED_PROXY_COUNT = 1
    settings.BASRA_SOCKETS_PER_OWNER = 2
    forged = [f"10.0.0.{n}, 203.0.113.5" for n in range(3)]
    assert [await anonymous(PROXY, header) for header in forged] == ["tables", "tables", "error"]


async def test_with_no_proxy_trusted_a_forwarded_for_header_changes_nothing(anonymous, settings):
    settings.BASRA_TRUSTED_PROXY_COUNT = 0
    settings.BASRA_SOCKETS_PER_OWNER = 2
    forged = ["10.0.0.1", "10.0.0.2", "10.0.0.3"]
    assert [await anonymous("203.0.113.9", header) for header in forged] == [
        "tables", "tables", "error"]


async def test_a_developers_own_browsers_are_not_capped(anonymous, settings):
    """``make run`` (``DEBUG``, no proxy): more spectators from 127.0.0.1 than the cap all get
    in; off ``DEBUG`` (a site behind a proxy it was not told of) the loopback address is capped."""
    settings.BASRA_TRUSTED_PROXY_COUNT = 0
    settings.BASRA_SOCKETS_PER_OWNER = 2
    settings.DEBUG = True
    assert [await anonymous("127.0.0.1") for _ in range(3)] == ["tables"] * 3
    settings.DEBUG = False
    assert await anonymous("127.0.0.1") == "error"


async def test_a_made_up_session_cookie_does_not_make_a_new_owner(anonymous, settings):
    """A session the store does not hold is no session (Django drops its key on loading), so
    made-up cookies leave a visitor counted by their address."""
    settings.BASRA_SOCKETS_PER_OWNER = 2
    cookies = [f"{n:032d}made-up" for n in range(3)]
    assert [await anonymous("203.0.113.9", cookie=c) for c in cookies] == [
        "tables", "tables", "error"]
