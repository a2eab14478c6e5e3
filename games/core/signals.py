"""The live core's signals: what the apps built on it (ratings, history, replays, tournaments)
listen to. The core sends them and never imports a listener (``import-linter`` contracts in
``pyproject.toml``); listeners connect in their ``AppConfig.ready()``.

After lila's ``round/Finisher.scala``, which publishes ``FinishGame`` from the one place every game
ends (STYLE.md, "Write it like this").
"""

from django.dispatch import Signal

#: Sent by ``games.core.actions.endings.finish``, the one function every ending of a match goes
#: through (target reached, claim, resignation, abort before the first play, a decision away
#: from the table: ``endings.end_by_decision``), inside the
#: transaction that ends it, after the match row and its ``match_end`` event are written.
#: A receiver that raises rolls the whole ending back: the match stays as it was, playable.
#:
#: Arguments: ``sender`` the ``Match`` class; ``match`` the ``Match`` row as written (status
#: ``finished``, ``scores``, ``finished_at``); ``winner`` the winning side, 0 or 1, or ``None``
#: (an abort, or a decision that nobody won); ``result`` how it ended, a ``Match.Result`` value
#: ("target", "claim", "resign", "abort", "decided": the caller of ``end_by_decision``, an app,
#: has recorded the outcome already, and a rating app does not rate it).
match_finished = Signal()

#: Sent by ``games.core.state.records.match_record``, the one writer of a match's ``basra-record/1``
#: record, for the headers the apps built on the core know and the core does not (RULES.md,
#: "Game record": ``ratings_before`` and ``ratings_after`` from the ratings app, ``event`` from
#: the tournaments app). Arguments: ``sender`` the ``Match`` class; ``match`` the ``Match`` row.
#: A receiver returns a dict of header names and JSON values to set (or ``None``: nothing); the
#: core's own headers cannot be overwritten except ``event`` (the core writes ``""``). A receiver
#: that raises makes the record fail: it must not raise for a match it knows nothing about.
record_headers = Signal()
#: Sent with the rows of each of the lobby's lists (``games.core.state.lobby.live_matches`` and
#: ``your_matches``, ``games.core.state.reads.open_tables``), so
#: that an app built on the core can add what it knows to them (the ratings app adds each
#: player's rating, ``games.ratings.lobby``). Receivers change the rows in place and return
#: nothing; they must not write.
#:
#: Arguments: ``sender`` the ``Match`` class; ``rows`` the list of rows, each with ``players``
#: (2 or 4), ``rated`` and ``seats`` (``[{"seat", "username", "bot", ...}]``, ``username``
#: ``None`` for a computer seat; the open tables list only the taken seats); ``waiting``
#: ``True`` for the open tables' rows, ``False`` for the matches being played.
lobby_matches_read = Signal()

#: Sent by ``games.core.state.cache.table_extras`` when the core reads a table's seats for its
#: ``state`` message, so that an app built on the core can add what it knows about the table to
#: the message's ``extras`` (``docs/protocol.md`` "state"): the ratings app adds each person's
#: rating, the change at the end and the win chances (``games.ratings.table``). Read once per
#: seating and status of a started table (cached with its seats, ``Match.seating_token``), so
#: never once per play; at every change of an open table.
#:
#: Arguments: ``sender`` the ``Match`` class; ``match`` the ``Match`` row; ``seats`` the taken
#: seats (``games.core.state.cache.SeatRow``, by seat number). A receiver returns ``(name,
#: value)``, ``value`` JSON that is the same for every reader (no seat's secrets: spectators get it
#: too), or ``None``: nothing. It must not write, and must not raise for a table it knows nothing
#: about (a receiver that raises makes the table's state fail).
table_extras = Signal()

#: Sent by ``games.core.actions.seating.start``, the one place a match starts (its first deal),
#: inside the transaction that starts it, so that an app built on the core can tell others (the
#: people app tells each player's friends of a rated match, ``games.people.notices``).
#: Arguments: ``sender`` the ``Match`` class; ``match`` the ``Match`` row (status ``playing``,
#: ``rated``); ``people`` the user ids seated, in seat order. A receiver that raises rolls the
#: start back: it must not raise; it may write (in the same transaction).
match_started = Signal()

#: Sent by a web server process when it starts (``basra_site.asgi.Serving``), on its event loop,
#: so that an app built on the core can run work of its own there: with the in-memory channel
#: layer (``make run``: no ``REDIS_URL``) only work done in the server process reaches its
#: sockets (the tournaments' scheduler then ticks here, ``games.tournaments.scheduler``).
#: Arguments: ``sender`` the ``Serving`` class; ``in_process`` whether the server's broadcasts
#: reach only its own process (``BASRA_CLOCK_IN_SERVER``). A receiver returns ``None`` or a
#: coroutine function the server awaits when it stops.
server_started = Signal()
