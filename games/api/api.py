"""The public HTTP API, ``basra-api/1`` (``../shared/API.md``; ``docs/api.md``), on django-ninja.

Every path of API.md, with its scopes and errors; the OpenAPI 3.1 description is generated
from these functions (``/api/openapi.json``) and rendered at ``/api/docs`` from the site's own
files (django-ninja's Swagger UI, within the Content-Security-Policy).

The writes are the core's own, the table socket's (``games.core.for_apps``: ``play_card``,
``resign``, the challenges, ``create_table``): the same checks, the same codes, one write funnel;
a refused call changes nothing. Reads of a database that cannot answer are ``503 unavailable``
with ``Retry-After``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import translation
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games.api import exports, limits, shapes, streams
from games.api.auth import AsyncTokenAuth, TokenAuth, guard, optional_token
from games.api.errors import ApiError, from_game_error
from games.api.models import BotAccount
from games.chat import for_apps as chat
from games.core.for_apps import (
    DATABASE_UNAVAILABLE,
    in_worker,
    DEFAULT_MOVE_SECONDS,
    MOVE_SECONDS,
    TARGET_MAX,
    TARGET_MIN,
    GameError,
    Match,
    Refusal,
    Seat,
    accept_challenge,
    cancel_challenge,
    create_challenge,
    create_table,
    decline_challenge,
    match_record,
    phrases,
    play_card,
    resign,
    send_phrase,
)
from games.core.for_apps import database_failed as outages_failed
from games.engine.bots import BOTS
from games.people import services as people
from games.queues.for_apps import waiting as queue_waiting
from games.tournaments.for_apps import entered as tournament_entered
from games.tournaments.for_apps import event_json

NDJSON = "application/x-ndjson"
#: Seconds a client waits after a ``503 unavailable`` (the connection pool's wait is 10 s).
RETRY_AFTER_UNAVAILABLE = 5
#: lichess's decline reasons (the ``reason`` form field of a decline).
DECLINE_REASONS = (
    "generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual", "standard",
    "variant", "noBot", "onlyBot",
)
#: Tables a bot account may hold unfinished at once (its own cap: a person's is ``MAX_TABLES``).
BOT_MAX_TABLES = 8

api = NinjaAPI(
    title="Basra API",
    version="basra-api/1",
    description=(
        "The site open to programs: personal tokens with scopes, NDJSON exports and streams, "
        "the Bot and Board APIs. Modelled on lichess's API. Rate limits: see docs/api.md and "
        "the table under 'Rate limits' on this page's description."
    ),
    urls_namespace="api",
    docs_url="/docs",
    openapi_url="/openapi.json",
)
token_auth = TokenAuth()
async_token_auth = AsyncTokenAuth()


def _limits_text() -> str:
    rows = [
        f"- `{kind}`: {limit.per_token} calls per {limit.seconds} s per token "
        f"(without a token: per address), {limit.per_address} per address"
        for kind, limit in limits.limits().items()
    ]
    return "\n".join(["", "", "## Rate limits", "", *rows, "",
                      f"One event stream per token; at most {limits.MAX_GAME_STREAMS} game "
                      "streams per account. Over a limit: 429 `rate_limited` with `Retry-After`."])


api.description += _limits_text()


def error_response(error: ApiError) -> JsonResponse:
    response = JsonResponse(error.body(), status=error.status)
    for name, value in error.headers.items():
        response[name] = value
    return response


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, error: ApiError) -> HttpResponse:
    return error_response(error)


@api.exception_handler(Refusal)
def _refusal(request: HttpRequest, error: Refusal) -> HttpResponse:
    """The core's and the apps' refusals (``GameError``, the people app's), code and message
    kept."""
    return error_response(from_game_error(error))


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, error: Exception) -> HttpResponse:
    return error_response(ApiError("unauthorized"))


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, error: ValidationError) -> HttpResponse:
    return error_response(ApiError("bad_request", message=str(error.errors)[:300]))


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    code = {404: "not_found", 401: "unauthorized", 403: "missing_scope"}.get(error.status_code, "bad_request")
    return error_response(ApiError(code, status=error.status_code))


def _unavailable(request: HttpRequest, error: Exception) -> HttpResponse:
    """A database that cannot answer (README, "When the database is down"): 503, retry."""
    outages_failed(error)
    return error_response(
        ApiError("unavailable", headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)})
    )


for _error in DATABASE_UNAVAILABLE:
    api.add_exception_handler(_error, _unavailable)

OK = {"ok": True}


# --- account ---------------------------------------------------------------------------------


@api.get("/account", auth=token_auth, tags=["account"])
def account(request: HttpRequest) -> dict:
    """The token's account: ``{"username", "title", "language", "ratings"}`` (any live token)."""
    row = guard(request, "read")
    user = row.user
    return {
        "username": user.get_username(),
        "title": shapes.title(user.pk),
        "language": translation.get_language() or settings.LANGUAGE_CODE,
        "ratings": shapes.ratings(user.pk),
    }


@api.post("/bot/account/upgrade", auth=token_auth, tags=["bot"])
def bot_upgrade(request: HttpRequest) -> dict:
    """Make the account a bot, for good (``bot:play``): 400 ``has_played`` for an account that
    ever sat at a table, 400 ``engaged`` for one waiting in a quick-pairing queue or entered in
    a tournament not over (both are for people: docs/api.md "Bot accounts")."""
    row = guard(request, "write", "bot:play")
    with transaction.atomic():
        if Seat.objects.filter(user_id=row.user_id).exists():
            raise ApiError("has_played")
        if queue_waiting([row.user_id]) or tournament_entered(row.user_id):
            raise ApiError("engaged")
        BotAccount.objects.get_or_create(user_id=row.user_id)
    return OK


# --- public reads ------------------------------------------------------------------------------


@api.get("/user/{username}", tags=["users"])
def user_profile(request: HttpRequest, username: str) -> dict:
    """A player's public profile: ``{"username", "title", "ratings", "counts", "created_at"}``."""
    guard(request, "read", token=optional_token(request))
    user = shapes.user_named(username)
    if user is None:
        raise ApiError("not_found")
    standings = [s for s in shapes.pool_standings(user.pk).values() if s]
    return {
        "username": user.get_username(),
        "title": shapes.title(user.pk),
        "ratings": shapes.ratings(user.pk),
        "counts": {
            "matches": Seat.objects.filter(user_id=user.pk, match__status=Match.Status.FINISHED).count(),
            "wins": sum(s["wins"] for s in standings),
            "losses": sum(s["losses"] for s in standings),
        },
        "created_at": user.date_joined.isoformat(),
    }


@api.get("/games/user/{username}", tags=["users"])
async def user_games(
    request: HttpRequest, username: str, max: int | None = None, since: int | None = None,
    until: int | None = None, rated: str | None = None, pool: str | None = None,
    vs: str | None = None,
) -> HttpResponse:
    """NDJSON: one ``basra-record/1`` per finished match of the player, newest first, streamed
    (read in pages of :data:`exports.PAGE`, never whole). Query: ``max``, ``since`` and
    ``until`` (ms since the epoch), ``rated`` (``true``/``false``), ``pool``
    (``1v1``/``partnership``), ``vs`` (a username)."""
    token = await in_worker(optional_token)(request)
    await in_worker(guard)(request, "export", token=token)
    query = await in_worker(exports.Query.parse)(
        username, max=max, since=since, until=until, rated=rated, pool=pool, vs=vs
    )
    base = request.build_absolute_uri("/")[:-1]
    return StreamingHttpResponse(exports.records(query, base), content_type=NDJSON)


@api.get("/match/{match_id}/record", tags=["matches"])
def record(request: HttpRequest, match_id: int) -> dict:
    """One finished match's ``basra-record/1``; 404 while it is played, for everyone."""
    guard(request, "read", token=optional_token(request))
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None:
        raise ApiError("not_found")
    return exports.record_of(match, request.build_absolute_uri("/")[:-1])


@api.get("/tournament/{tournament_id}", tags=["tournaments"])
def tournament(request: HttpRequest, tournament_id: int) -> dict:
    """An event's JSON read (``docs/tournaments.md``, "JSON read")."""
    guard(request, "read", token=optional_token(request))
    found = event_json(tournament_id)
    if found is None:
        raise ApiError("not_found")
    return found


# --- events and challenges -------------------------------------------------------------------


@api.get("/stream/event", auth=async_token_auth, tags=["events"])
async def event_stream(request: HttpRequest) -> HttpResponse:
    """NDJSON of the account's events (``challenge:read``, ``bot:play`` or ``board:play``);
    one per token: opening a second closes the first."""
    row = await in_worker(guard)(request, "stream", "challenge:read", "bot:play", "board:play")
    stream = streams.EventStream(row.user, row.pk)
    first = await stream.open()
    return StreamingHttpResponse(stream.lines(first), content_type=NDJSON)


def _form(request: HttpRequest) -> Any:
    return request.POST


def _int(value: Any, code: str, *, default: int | None = None) -> int | None:
    if value in (None, ""):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ApiError(code) from None


def _bool(value: Any, *, default: bool = False) -> bool:
    if value in (None, ""):
        return default
    if value in ("true", "false"):
        return value == "true"
    raise ApiError("bad_request")


def _check_bot_cap(user: Any) -> None:
    if shapes.is_bot(user.pk) and Seat.objects.filter(user_id=user.pk).exclude(
        match__status=Match.Status.FINISHED
    ).count() >= BOT_MAX_TABLES:
        raise ApiError("too_many_tables")


@api.post("/challenge/ai", auth=token_auth, tags=["challenges"])
def challenge_ai(request: HttpRequest) -> dict:
    """A casual match against the site's computer, started at once (``challenge:write`` or
    ``bot:play``). Form: ``level``, ``players`` (2 or 4), ``target``, ``move_seconds``."""
    row = guard(request, "write", "challenge:write", "bot:play")
    form = _form(request)
    level = form.get("level") or "greedy"
    if level not in BOTS:
        raise ApiError("bad_level")
    players = _int(form.get("players"), "bad_players", default=2)
    if players not in (2, 4):
        raise ApiError("bad_players")
    target = _int(form.get("target"), "bad_target", default=None)
    if target is not None and not TARGET_MIN <= target <= TARGET_MAX:
        raise ApiError("bad_target")
    move_seconds = _int(form.get("move_seconds"), "bad_clock", default=DEFAULT_MOVE_SECONDS)
    if move_seconds not in MOVE_SECONDS:
        raise GameError("bad_clock")
    _check_bot_cap(row.user)
    match = create_table(
        user=row.user, players=players, rules={} if target is None else {"target": target},
        rated=False, move_seconds=move_seconds, bots={seat: level for seat in range(1, players)},
    )
    return {"game": shapes.game(match.pk, row.user)}


@api.post("/challenge/{username}", auth=token_auth, tags=["challenges"])
def challenge_player(request: HttpRequest, username: str) -> dict:
    """Challenge a player (``challenge:write``). Form: ``players`` (2), ``rated``, ``target``,
    ``move_seconds`` (missing or empty: no clock, casual only)."""
    row = guard(request, "write", "challenge:write", "bot:play")
    if username == "ai":
        raise ApiError("reserved_username")
    form = _form(request)
    players = _int(form.get("players"), "bad_players", default=2)
    if players != 2:
        raise GameError("challenge_two_players")
    rules = {}
    target = _int(form.get("target"), "bad_target", default=None)
    if target is not None:
        rules["target"] = target
    challenge = create_challenge(
        user=row.user, username=username, rules=rules, rated=_bool(form.get("rated")),
        move_seconds=_int(form.get("move_seconds"), "bad_clock", default=None),
    )
    return {"challenge": shapes.challenge_by_id(challenge.pk, row.user_id)}


@api.post("/challenge/{challenge_id}/accept", auth=token_auth, tags=["challenges"])
def challenge_accept(request: HttpRequest, challenge_id: int) -> dict:
    """Accept a challenge (``challenge:write`` or ``bot:play``): a ``gameStart`` follows."""
    row = guard(request, "write", "challenge:write", "bot:play")
    _check_bot_cap(row.user)
    accept_challenge(user=row.user, challenge_id=challenge_id)
    return OK


@api.post("/challenge/{challenge_id}/decline", auth=token_auth, tags=["challenges"])
def challenge_decline(request: HttpRequest, challenge_id: int) -> dict:
    """Decline a challenge; form ``reason`` (lichess's: ``generic``, ``later``, …)."""
    row = guard(request, "write", "challenge:write", "bot:play")
    reason = _form(request).get("reason") or "generic"
    if reason not in DECLINE_REASONS:
        raise ApiError("bad_request")
    # Kept before the decline: its events, sent at the commit, read it.
    key = shapes.decline_reason_key(challenge_id)
    previous = cache.get(key)
    cache.set(key, reason, timeout=86400)
    try:
        decline_challenge(user=row.user, challenge_id=challenge_id)
    except BaseException:
        if previous is None:
            cache.delete(key)
        else:
            cache.set(key, previous, timeout=86400)
        raise
    return OK


@api.post("/challenge/{challenge_id}/cancel", auth=token_auth, tags=["challenges"])
def challenge_cancel(request: HttpRequest, challenge_id: int) -> dict:
    """Withdraw one's challenge."""
    row = guard(request, "write", "challenge:write", "bot:play")
    cancel_challenge(user=row.user, challenge_id=challenge_id)
    return OK


# --- playing: the Bot API and the Board API ---------------------------------------------------


def _player(request: HttpRequest, kind: str, family: str) -> Any:
    """The caller for a Bot (``family`` ``bot``) or Board call: scope, then the account's kind.

    :raises ApiError: ``missing_scope``; ``not_bot`` (a person under ``/api/bot/``);
        ``bot_account`` (a bot under ``/api/board/``)."""
    row = guard(request, kind, f"{family}:play")
    bot = shapes.is_bot(row.user_id)
    if family == "bot" and not bot:
        raise ApiError("not_bot")
    if family == "board" and bot:
        raise ApiError("bot_account")
    return row


def _game_stream(family: str):
    async def view(request: HttpRequest, match_id: int) -> HttpResponse:
        row = await in_worker(_player)(request, "stream", family)
        if streams.game_streams.get(row.user_id, 0) >= limits.MAX_GAME_STREAMS:
            raise ApiError("stream_limit")
        stream = streams.GameStream(row.user, match_id)
        first = await stream.open()
        streams.game_streams[row.user_id] = streams.game_streams.get(row.user_id, 0) + 1
        return StreamingHttpResponse(stream.lines(first), content_type=NDJSON)

    view.__doc__ = (
        f"NDJSON of the match for the account's seat ({family}:play): ``gameFull``, then "
        "``gameState`` after every change and ``chatLine``; keep-alive empty lines; 404 for "
        "a match the account does not sit in."
    )
    return view


def _play(family: str):
    def view(request: HttpRequest, match_id: int, card: str, seq: int | None = None) -> dict:
        row = _player(request, "play", family)
        if seq is None:
            current = Match.objects.filter(pk=match_id).values_list("seq", flat=True).first()
            if current is None:
                raise ApiError("not_found")
            seq = current
        play_card(user=row.user, match_id=match_id, card=card, seq=seq)
        return OK

    view.__doc__ = (
        f"Play ``card`` ({family}:play); query ``seq``: refused ``stale`` if the table has "
        "moved on. The table socket's codes: ``not_your_turn``, ``card_not_in_hand``, "
        "``bad_card``, ``match_over``, ``not_seated``, …"
    )
    return view


def _resign(family: str):
    def view(request: HttpRequest, match_id: int) -> dict:
        row = _player(request, "play", family)
        resign(user=row.user, match_id=match_id)
        return OK

    view.__doc__ = f"Resign the match ({family}:play), as the table's resignation rules say."
    return view


def _chat(family: str):
    async def view(request: HttpRequest, match_id: int) -> dict:
        row = await in_worker(_player)(request, "play", family)
        form = request.POST
        text, room = form.get("text", ""), form.get("room", "player")
        seat = await in_worker(
            lambda: Seat.objects.filter(match_id=match_id, user_id=row.user_id)
            .values_list("seat", flat=True).first()
        )()
        if seat is None:
            raise GameError("not_seated")
        if room == "player" and phrases.is_phrase(text):
            # A quick phrase's id goes as a phrase: the only chat at a running table of four.
            if not await phrases.admit(match_id, row.user_id):
                raise GameError("phrase_too_soon")
            hidden = await in_worker(phrases.hidden_from)(match_id, row.user_id)
            await send_phrase(match_id, seat, text, hidden_from=hidden)
            return OK
        await in_worker(chat.post_line)(user=row.user, match_id=match_id, seat=seat, room=room, text=text)
        return OK

    view.__doc__ = (
        f"A chat line at the table ({family}:play), form ``room`` (``player``, or ``spectator`` "
        "once the match is over) and ``text``: free text under the table chat's rules "
        "(``chat_off``, ``chat_not_allowed``, ``chat_too_long``, ``chat_rate_limited``, "
        "``chat_timeout``, ``chat_banned``), or a quick phrase's id (``good_luck``, …), sent as "
        "the phrase."
    )
    return view


for _family in ("bot", "board"):
    api.get(f"/{_family}/game/stream/{{match_id}}", auth=async_token_auth, tags=[_family],
            operation_id=f"{_family}_game_stream")(_game_stream(_family))
    api.post(f"/{_family}/game/{{match_id}}/play/{{card}}", auth=token_auth, tags=[_family],
             operation_id=f"{_family}_play")(_play(_family))
    api.post(f"/{_family}/game/{{match_id}}/resign", auth=token_auth, tags=[_family],
             operation_id=f"{_family}_resign")(_resign(_family))
    api.post(f"/{_family}/game/{{match_id}}/chat", auth=async_token_auth, tags=[_family],
             operation_id=f"{_family}_chat")(_chat(_family))


# --- people ----------------------------------------------------------------------------------


def _relation(name: str):
    def view(request: HttpRequest, username: str) -> dict:
        row = guard(request, "write", "follow:write")
        getattr(people, name)(user=row.user, username=username)
        return OK

    view.__doc__ = f"{name.capitalize()} a player (``follow:write``), through the people app."
    return view


for _name in ("follow", "unfollow", "block", "unblock"):
    api.post(f"/rel/{_name}/{{username}}", auth=token_auth, tags=["people"],
             operation_id=f"rel_{_name}")(_relation(_name))


@api.get("/rel/following", auth=token_auth, tags=["people"])
def following(request: HttpRequest) -> HttpResponse:
    """NDJSON of P for each account followed (``follow:read``)."""
    row = guard(request, "read", "follow:read")
    users = get_user_model().objects.filter(pk__in=people.following(row.user_id)).order_by("username")
    body = b"".join(streams.line(shapes.player(u)) for u in users)
    return HttpResponse(body, content_type=NDJSON)
