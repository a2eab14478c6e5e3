"""The one question the core asks about two people: may this one reach that one?

The core holds the places where one person reaches another (a challenge, a rematch, a quick
phrase, seeing someone online) and the queues pair strangers; whether one person blocked
another, or keeps their challenges to their friends, is an app's knowledge (``games.people``),
and the core never imports an app (``import-linter``, ``pyproject.toml``). So the core asks
:func:`barriers`, and the app that knows answers it: it registers its answerer with
:func:`answer_with` in its ``AppConfig.ready()``, as ``table_extras`` receivers and the page
slots are registered. Without an answerer everyone may reach everyone.

The kinds asked (:data:`KINDS`), each from one place:

- ``challenge``: ``games.core.actions.challenges`` (an actor challenges a target; and which of
  the challenges sent to a target it is offered, ``pending_notices``);
- ``rematch``: ``games.core.actions.rematch.ask_rematch`` (an actor asks the other seated
  people);
- ``phrase``: ``games.core.sockets.table`` (a seated actor's quick phrase to the other seats);
- ``chat``: ``games.core.sockets.table_frames.send`` (an app's frame from an actor to the people
  at a table, a chat line: not sent to those who bar the actor) and the apps' own reads of
  what an actor wrote (a table's chat history, a replay's lines);
- ``see_online``: ``games.core.state.online.online_among`` (an actor, the viewer, may see the
  target online);
- ``pair``: ``games.queues.services.blocked_for`` (two waiting players may be paired; asked
  for a whole wave at once).

The verdicts: :data:`SILENT` (the target does not want the actor: the action is taken as a
player who does not answer would take it, and nothing reaches the target; the actor is given
no hint) and :data:`REFUSED` (the target's settings refuse it openly: a challenge is refused
with ``challenge_not_accepted``). A pair missing from the answer is open.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

#: The kinds of reach the core asks about (see the module's docstring).
KINDS = frozenset({"challenge", "rematch", "phrase", "chat", "see_online", "pair"})
#: Nothing of the action reaches the target, and the actor is not told.
SILENT = "silent"
#: The target's settings refuse it, and the actor is told so.
REFUSED = "refused"

#: ``answerer(kind, actors, targets)``: ``{(actor id, target id): SILENT or REFUSED}`` for the
#: pairs that may not reach each other (an actor never meets itself in it).
Answerer = Callable[[str, frozenset[int], frozenset[int]], Mapping[tuple[int, int], str]]

_answerer: Answerer | None = None


def answer_with(answerer: Answerer | None) -> None:
    """Register the app's answerer (its ``AppConfig.ready()``; ``None``: none, as in a test)."""
    global _answerer
    _answerer = answerer


def answering() -> bool:
    """Whether an app answers (else every :func:`barriers` is ``{}``: a caller may skip its
    own reads)."""
    return _answerer is not None


def barriers(kind: str, actors: Collection[int], targets: Collection[int]) -> dict[tuple[int, int], str]:
    """Which ``actors`` may not reach which ``targets`` by ``kind``: ``{(actor, target):
    verdict}``, only the barred pairs (``{}`` without an answerer, or when nothing is barred).
    One call for any number of actors and targets (the app answers with one query or two).

    :raises ValueError: ``kind`` is not in :data:`KINDS`.
    """
    if kind not in KINDS:
        raise ValueError(f"{kind!r} is none of {sorted(KINDS)}")
    actors, targets = frozenset(actors), frozenset(targets)
    if _answerer is None or not actors or not targets:
        return {}
    return {
        pair: verdict
        for pair, verdict in _answerer(kind, actors, targets).items()
        if verdict in (SILENT, REFUSED) and pair[0] != pair[1]
    }


def barred(kind: str, actor: int, targets: Collection[int]) -> dict[int, str]:
    """:func:`barriers` for one actor: ``{target: verdict}`` of the barred targets."""
    return {target: verdict for (_a, target), verdict in barriers(kind, (actor,), targets).items()}
