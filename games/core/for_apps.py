"""What the live core publishes for the apps built on it, and nothing else.

The apps under ``games/`` (``games.ratings``, ``games.replays``, ``games.tournaments``, and those
still to come: quick pairing queues, social features, the public API) import the core only from
here (and the engine, ``games.engine``); the core never imports them. ``lint-imports`` checks
both (``pyproject.toml``, the layers and the "only ``for_apps``" contracts). An app that needs
more of the core gets it added here, where the core's authors see what others rely on, rather
than reaching into a room of the core.

Not the public HTTP API (``games.api``, an app of its own built on this): this is Python for
the site's own apps.

- The rows: ``Match``, ``Seat``, ``Event`` and the choices they use (``MOVE_SECONDS``);
  ``OWN_PLAY``, the ``Event`` rows that are a card a seat's person played themselves;
  ``nothing_to_replay()``, the filter of the ``Match`` rows of a no-show's table;
  ``record_seat_names``, a game record's seats named as the table names them ("Greedy 2").
- Cards' spoken names in the reader's language (``card_labels``, ``card_name``: "seven of
  diamonds"), so that every page names a card alike.
- The signals to listen to, each connected in the app's ``AppConfig.ready()``:
  ``match_finished`` (inside the ending's transaction; besides ``match``, ``winner`` and
  ``result`` it carries ``early``, a rated match aborted because a person did not play a card
  of the first deal (at once when the clock ran out on them or the computer took their seat
  over, else when it ended before they did), and ``unplayed``, the seats of the persons who
  had not, ``None`` when not counted; ``first_deal_unplayed`` is the count), ``record_headers``
  (headers of a match's record), ``match_started`` (its first deal, inside its transaction:
  ``match``, ``people``), ``lobby_matches_read`` (the lobby's lists), ``table_extras``
  (what an app adds to a table's ``state`` message, read once per seating), ``server_started``.
- The actions an app may take, each the core's own write (row lock, events, broadcast on
  commit): ``create_table``, ``join_table`` (the tables an app opens for its players are not
  counted against a person's ``MAX_TABLES``: the app decided they are played; an app whose
  tables follow abort rules of their own passes ``early_abort=False``, so that the core does not
  abort a rated match ending before everyone played a card of the first deal, and one whose
  targets are its organisers' passes ``rated_target_min=None``, so that a rated table may play
  to fewer than the 61 points a rated table needs elsewhere), ``abort_match``,
  ``end_by_decision``; with
  ``DEFAULT_MOVE_SECONDS``, and ``write_transaction`` for an app's own writes beside them.
- The errors: ``ErrorCode``, ``GameError`` (the one table of error codes and messages), and
  ``Refusal``, their base, which an app's own refusals extend (code, parameters, a message
  formatted when read, ``as_json`` and ``flash``).
- A match's record: ``match_record`` (``basra-record/1``).
- The table a person sits at that is not over, if any: ``current_table`` (its id and page).
- Notices to a player's open pages: ``send_notice``, ``register_pending``.
- Tables an app seats itself (a tournament's), which have no rematch and whose clock waits for
  their people to come: ``claim_tables_with``.
- Running on the sockets' database threads from async code: ``in_worker``; an app's own thread
  whose broadcasts go to the server's event loop sets ``BROADCAST_LOOP`` (a context variable:
  the loop) in the context it runs in, as ``in_worker`` does for its calls, and runs each call
  through ``keeping_connection`` when it keeps its database connection between calls (a
  connection the database dropped is replaced first; the database's outages are logged once
  each); a process pool's workers that end with the process that started them:
  ``end_with_parent`` (its initializer).
- The errors of a database that cannot answer now (down, restarting: retry later):
  ``DATABASE_UNAVAILABLE``, a tuple to catch; ``in_worker`` and ``keeping_connection`` have
  logged them, once per outage, so a scheduler skips the run quietly and tries again; an app
  that meets one itself tells the log with ``database_failed``.
- A job an app repeats on the server's event loop (its scheduler's tick, started from
  ``server_started``): ``run_every`` (the interval and the sleep injected; a failed run logged,
  the next one as planned; returns the coroutine function that stops it).
- What an app adds to the core's pages (the table, the lobby, the header, the profile), each
  registered in its ``AppConfig.ready()``: ``add_fragment`` (a template of the app in a named
  slot, with a context function of the request and the page's objects), ``add_config`` (the
  JSON its scripts read) and ``add_module`` (a script of the app, loaded as a module);
  ``games.core.pages.slots`` lists the slots and pages and what each offers.
- How a match ended, worded alike on every page that lists matches: ``match_ending`` (for one
  side: ``(outcome, text)``), ``match_score`` ("126–87", or "" when there is no score worth
  showing); ``Opponent`` (a name and its profile's address, none for a computer seat) and
  ``seat_person`` (a seat's).
- The one question the core asks about two people, which an app answers: ``relations``
  (``relations.answer_with`` in its ``AppConfig.ready()``; ``relations.barriers(kind, actors,
  targets)``, kinds ``challenge``, ``rematch``, ``phrase``, ``chat``, ``see_online``, ``pair``; verdicts
  ``relations.SILENT``, ``relations.REFUSED``), who is online: ``online_among``
  (``games.core.state.online``), and which table each of some players watches: ``watched_by``; who may watch a table:
  ``check_may_watch(*, watchers, status, seated, user)`` (raises ``GameError``).
- The one question the core asks about a name it shows, which an app answers: ``titles``
  (``titles.answer_with`` in its ``AppConfig.ready()``; ``titles.titles(user_ids)``: ``{user
  id: "BOT"}``, one query for a page; ``titles.is_bot(user_id)``, which quick pairing and
  tournaments ask before seating a player; ``titles.BOT``).
- The one question the core asks about a player's standing, which an app answers:
  ``standing`` (``standing.answer_with`` in its ``AppConfig.ready()``, ``games.moderation``;
  ``standing.banned_from_rated(user_ids)``, ``standing.may_play_rated(user_ids)``: the core
  refuses rated play with ``ranked_banned``, the queues and the tournaments ask it before a
  player joins).
- What the public API (``games.api``) plays and reads through, the table socket's own: the
  seat's ``state`` message (``table_state``, the one per-seat view builder), the table's group
  (``table_group``) and a player's notice group (``notice_group``) whose messages a stream
  follows, ``send_to_group`` (a message to a group of the app's own, after the commit as the
  core's broadcasts), the writes ``play_card``, ``resign``, ``create_challenge``,
  ``accept_challenge``, ``decline_challenge``, ``cancel_challenge`` (with ``Challenge``), and
  the table's quick phrases (``phrases``: ``is_phrase``, ``admit``, ``hidden_from``;
  ``send_phrase``), and a seat's presence as a table socket keeps it (``player_connected`` on
  opening, ``player_seen`` while open and on closing: the clock marks a silent seat absent).
- The one hook through which an app takes part in the table socket: ``table_frames``
  (``table_frames.handle(kind, handler)`` in its ``AppConfig.ready()`` for the clients' frames
  of type ``kind``; ``table_frames.send(match_id, frame, *, to, sender, kind)`` to the table's
  ``"seats"``, ``"spectators"`` or ``"everyone"``, on commit, not to those who bar ``sender``
  by the relations ``kind``; ``games.core.sockets.table_frames``, ``docs/protocol.md`` "Apps'
  frames").
- Names in a list sorted as a reader expects (accents with their letter): ``collation_key``
  (the Unicode Collation Algorithm, ``pyuca``); joined as the reader's language joins a list
  (``listing``: "A, B, and C", "A وB وC"; in templates ``{% load lists %}``). A label and the
  colon before its value as the reader's language writes it (``labelled``: "Pool:", French
  "Pool :"; in templates ``{% load typography %}{% colon %}``).
- How long a seated person may be away before the clock marks them absent (a table's first
  minute included: counted from its start for a person who never came): ``absent_grace``
  (``BASRA_ABSENT_GRACE_SECONDS``), and whether a seated person has been away longer than that
  (``silent_too_long``, the clock's own rule); a duration in words, as the rules page tells it:
  ``duration_text`` ("1 minute", "90 seconds").
- The table form an organiser fills in: ``CreateTableForm`` (``NO_CLOCK``: its value for no clock); the targets a table may play to,
  ``TARGET_MIN`` and ``TARGET_MAX``.
"""

from __future__ import annotations

import functools


from games.core import actions, relations, standing, titles
from games.core.actions import DEFAULT_MOVE_SECONDS, abort_match, end_by_decision
from games.core.actions.endings import first_deal_unplayed, resign
from games.core.actions.challenges import (
    accept_challenge, cancel_challenge, create_challenge, decline_challenge,
)
from games.core.actions.play import play_card
from games.core.actions.presence import player_connected, player_seen
from games.core.actions.seating import claim_tables_with
from games.core.actions.store import write_transaction
from games.core.errors import ErrorCode, GameError, Refusal
from games.core.models import (
    MOVE_SECONDS, OWN_PLAY, Challenge, Event, Match, Seat, nothing_to_replay, record_seat_names,
)
from games.core.pages.cards import card_labels, card_name
from games.core.pages.collation import collation_key
from games.core.pages.lists import listing
from games.core.pages.labels import labelled
from games.core.pages.endings import match_ending, match_score
from games.core.pages.profile import Opponent, current_table
from games.core.pages.profile import person as seat_person
from games.core.pages.rules_page import duration_text
from games.core.pages.slots import add_config, add_fragment, add_module
from games.core.pages.forms import NO_CLOCK, TARGET_MAX, TARGET_MIN, CreateTableForm
from games.core.clock.every import run_every
from games.core.clock.thinking import end_with_parent
from games.core.signals import (
    lobby_matches_read, match_finished, match_started, record_headers, server_started, table_extras,
)
from games.core.sockets import table_frames
from games.core.sockets.workers import in_worker, keeping_connection
from games.core.state import phrases
from games.core.state.broadcast import CALLER_LOOP as BROADCAST_LOOP
from games.core.state.broadcast import notice_group, send_phrase, table_group
from games.core.state.broadcast import send_group as send_to_group
from games.core.state.reads import table_state
from games.core.state.outages import UNAVAILABLE as DATABASE_UNAVAILABLE
from games.core.state.outages import database as _database
from games.core.state.notices import register_pending, send_notice
from games.core.state.records import match_record
from games.core.state.online import online_among
from games.core.state.liveness import absent_grace, silent_too_long
from games.core.state.watching import check_may_watch, watched_by

create_table = functools.partial(actions.create_table, capped=False)
join_table = functools.partial(actions.join_table, capped=False)


def database_failed(error: BaseException) -> None:
    """Tell the core's outage log that a call met the database down (``DATABASE_UNAVAILABLE``):
    one WARNING per outage (``games.core.state.outages``), never a traceback per call."""
    _database.failed(error)


__all__ = [
    "Challenge",
    "database_failed",
    "accept_challenge",
    "cancel_challenge",
    "create_challenge",
    "decline_challenge",
    "notice_group",
    "phrases",
    "play_card",
    "player_connected",
    "player_seen",
    "resign",
    "send_phrase",
    "send_to_group",
    "table_frames",
    "table_group",
    "table_state",
    "BROADCAST_LOOP",
    "DATABASE_UNAVAILABLE",
    "DEFAULT_MOVE_SECONDS",
    "MOVE_SECONDS",
    "OWN_PLAY",
    "TARGET_MAX",
    "TARGET_MIN",
    "CreateTableForm",
    "NO_CLOCK",
    "ErrorCode",
    "Event",
    "GameError",
    "Match",
    "Refusal",
    "Seat",
    "Opponent",
    "abort_match",
    "absent_grace",
    "silent_too_long",
    "labelled",
    "add_config",
    "add_fragment",
    "add_module",
    "card_labels",
    "card_name",
    "claim_tables_with",
    "nothing_to_replay",
    "collation_key",
    "listing",
    "create_table",
    "match_started",
    "online_among",
    "watched_by",
    "check_may_watch",
    "relations",
    "standing",
    "titles",
    "current_table",
    "duration_text",
    "end_by_decision",
    "end_with_parent",
    "first_deal_unplayed",
    "in_worker",
    "join_table",
    "keeping_connection",
    "lobby_matches_read",
    "table_extras",
    "match_finished",
    "match_ending",
    "match_record",
    "match_score",
    "record_headers",
    "record_seat_names",
    "register_pending",
    "run_every",
    "seat_person",
    "send_notice",
    "server_started",
    "write_transaction",
]
