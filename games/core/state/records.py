"""A match's game record (``basra-record/1``, RULES.md "Game record"), built from its event log.

The site's way to a match's record: the record download (``games.core.pages.views``) goes
through :func:`match_record`, which gives the engine's one writer (``games.engine.write_record``,
through ``games.core.state.log.record_from_events``) what the log and the row hold. The record carries the whole deck of every round (the ``deal``
events), so a replay never shuffles, and, for a match dealt by the provably fair shuffle, its
``"shuffle"`` (algorithm, commitment, client seeds, and the server seed once the match is over),
which ``python -m games.engine.shuffle verify RECORD.json`` checks without the site.
"""

from __future__ import annotations

from typing import Any

from games.core.models import Event, Match
from games.core.signals import record_headers
from games.core.state import log, reads

#: The ``pool`` header of a table of 2 and of 4 (RULES.md, "Game record").
POOLS = {2: "1v1", 4: "partnership"}
#: The core's headers an app's ``record_headers`` receiver may set (the core leaves it empty).
APP_MAY_SET = frozenset({"event"})


def termination(match: Match) -> str:
    """The ``termination`` header of a finished ``match``: one of RULES.md's values
    (``"target"``, ``"claim"``, ``"resign"``, ``"abort"``, ``"decided"``: a tournament's
    forfeit or withdrawal, decided away from the table, ``Match.Result.DECIDED``;
    ``"abandoned"``), the match's ``result`` as it is stored."""
    return str(match.result or "")


def match_record(match: Match, *, url: str = "") -> dict[str, Any]:
    """``match``'s ``basra-record/1`` record, JSON-ready (RULES.md, "Game record").

    Shape: ``{"format", "rules", "seats", "rounds": [{"dealer", "deck", "plays", "timeouts"?}],
    "headers": {"site", "match", "date", "finished", "rated", "pool", "event", "result",
    "winner", "termination", "ratings_before"?, "ratings_after"?, "not_rated"?}, "shuffle"?}``. A round's ``timeouts`` lists the indices of its plays
    the clock made (only when there are some). ``"shuffle"`` is ``games.core.state.reads.shuffle_info``
    without its ``null`` server seed: ``server_seed`` appears only once the match is over; a match
    dealt before the fair shuffle has no ``"shuffle"``. The apps add what they know through
    ``games.core.signals.record_headers`` (the ratings app ``ratings_before`` and ``ratings_after`` of
    a rated match, or ``not_rated`` when it was not rated; the tournaments app its ``event``); the core never imports them. Two queries
    (the events; the row is the caller's), and whatever the receivers ask.

    :param url: the match's address, for the ``match`` header.
    """
    events = list(
        Event.objects.filter(
            match_id=match.pk, kind__in=log.ENGINE_KINDS
        ).order_by("seq").values_list("kind", "payload")
    )
    finished = match.status == Match.Status.FINISHED
    scores = match.scores if len(match.scores or ()) == 2 else [0, 0]
    headers = {
        "site": "Basra",
        "match": url,
        "date": match.started_at.isoformat() if match.started_at else None,
        "finished": match.finished_at.isoformat() if finished and match.finished_at else None,
        "rated": match.rated,
        "pool": POOLS.get(match.players, ""),
        "event": "",
        "result": f"{scores[0]}-{scores[1]}",
        "winner": match.winner_side if finished else None,
        "termination": termination(match) if finished else "",
    }
    core = set(headers) - APP_MAY_SET
    for _receiver, extra in record_headers.send(sender=Match, match=match):
        for name, value in (extra or {}).items():
            if name not in core:
                headers[name] = value
    shuffle = reads.shuffle_info(match)
    if shuffle is not None:
        if shuffle["server_seed"] is None:
            del shuffle["server_seed"]
        if shuffle["client_seeds"] is None:
            shuffle["client_seeds"] = []
    record = log.record_from_events(
        match.rules, events, timeouts=True, headers=headers, shuffle=shuffle
    )
    return record
