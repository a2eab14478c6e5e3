"""Refusals (``games.core.errors.Refusal``): a message formatted when read, in the reader's
language, and one way to answer with it for the core's refusals and the apps' alike."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import RequestFactory
from django.utils import translation

from games.core.errors import MAX_OPEN_TABLES, ErrorCode, GameError, Refusal
from games.core.sockets.base import JsonSocket
from games.ratings.rating import VoidCode, VoidRefused
from games.tournaments.errors import Code, TournamentError

FULL_AR = "هذه الطاولة ممتلئة."
REGISTERED_AR = "أنت مسجَّل في هذه البطولة بالفعل."


def raised_in(language: str, make):
    with translation.override(language):
        try:
            raise make()
        except Refusal as error:
            return error


def test_a_refusal_raised_in_one_language_reads_in_the_readers():
    error = raised_in("ar", lambda: GameError(ErrorCode.TABLE_FULL))
    with translation.override("en"):
        assert error.message == str(error) == "This table is full."
        assert error.as_json() == {"code": "table_full", "message": "This table is full."}
    with translation.override("ar"):
        assert error.message == FULL_AR
    assert error.args == ("table_full",)  # what a log line shows, in no language


def test_the_values_a_message_names_are_filled_in_when_read():
    error = raised_in("ar", lambda: GameError(ErrorCode.TOO_MANY_OPEN_TABLES))
    with translation.override("en"):
        assert error.message.startswith(f"You already sit at {MAX_OPEN_TABLES} tables")
    void = raised_in("en", lambda: VoidRefused(
        VoidCode.VOID_ALREADY, id=7, when=datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)))
    with translation.override("ar"):
        assert void.message.startswith("المباراة 7 ملغاة بالفعل")
    with translation.override("en"):
        assert void.message.startswith("Match 7 is void already (since ")


def test_an_apps_refusal_is_a_refusal_and_answers_by_the_same_path(rf: RequestFactory):
    tournament = raised_in("en", lambda: TournamentError(Code.ALREADY_REGISTERED))
    core = raised_in("en", lambda: GameError(ErrorCode.TABLE_FULL))
    assert isinstance(tournament, Refusal) and isinstance(VoidRefused(VoidCode.NOT_RATED, id=1), Refusal)
    with translation.override("ar"):
        assert tournament.as_json() == {"code": "already_registered", "message": REGISTERED_AR}
    # A page: the message added for the page the request leads to, in the request's language.
    request = rf.post("/")
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    with translation.override("ar"):
        tournament.flash(request)
        core.flash(request)
    assert [m.message for m in get_messages(request)] == [REGISTERED_AR, FULL_AR]
    # A socket: the error frame in the socket's language, whatever is active where it is sent.
    sent = []
    socket = JsonSocket.__new__(JsonSocket)
    socket.language = "ar"

    async def send_json(content):
        sent.append(content)

    socket.send_json = send_json
    asyncio.run(socket.send_error(tournament))
    asyncio.run(socket.send_error(core))
    asyncio.run(socket.send_error("table_full"))
    assert sent == [
        {"type": "error", "code": "already_registered", "message": REGISTERED_AR},
        {"type": "error", "code": "table_full", "message": FULL_AR},
        {"type": "error", "code": "table_full", "message": FULL_AR},
    ]


def test_an_unknown_code_is_refused():
    with pytest.raises(ValueError):
        GameError("no_such_code")
    with pytest.raises(ValueError):
        TournamentError("table_full")


def test_a_refusal_crosses_processes_with_its_parameters():
    import pickle

    void = pickle.loads(pickle.dumps(VoidRefused(VoidCode.LATER_MATCHES, id=3, later=[5, 9])))
    assert isinstance(void, VoidRefused) and void.params == {"id": 3, "later": [5, 9]}
    assert "(5 and 9)" in void.message  # joined as the language joins a list
