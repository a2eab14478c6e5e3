"""How a match ended, in words, for one side: the one wording every page lists matches with
(the profile's recent matches, the ratings' match history and head-to-head).

Sides are ``seat % 2`` (RULES.md "Four players"); ``Match.winner_side`` is the winning side
(``None``: nobody won) and ``Match.result`` how it ended (``Match.Result``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.core.models import Match

#: ``outcome`` values of :func:`match_ending`.
PLAYING, WON, LOST, ABORTED = "playing", "won", "lost", "aborted"


def match_ending(match: Any, side: int) -> tuple[str, str]:
    """``(outcome, text)`` of ``match`` (a ``Match``) for ``side`` (0 or 1).

    ``outcome`` is ``"playing"`` (not finished), ``"won"``, ``"lost"`` or ``"aborted"``
    (finished with no winner); ``text`` is translated and says how, not only who won: a claim
    or a resignation is not a plain "Lost", an abandoned table not an abort.
    """
    result = match.result
    if match.status != Match.Status.FINISHED:
        return PLAYING, _("Playing")
    if match.winner_side is None:
        if result == Match.Result.ABANDONED:
            return ABORTED, _("Abandoned: no person was left to play it")
        if result == Match.Result.DECIDED:
            return ABORTED, _("Decided away from the table (a forfeit or a withdrawal)")
        return ABORTED, _("Aborted")
    if match.winner_side == side:
        if result == Match.Result.CLAIM:
            return WON, _("Won on a claim (the opponent left)")
        if result == Match.Result.DECIDED:
            return WON, _("Won: decided away from the table (a forfeit or a withdrawal)")
        if result == Match.Result.RESIGN:
            return WON, (_("Won: the opponent resigned") if match.players == 2
                         else _("Won: the opponents resigned"))
        return WON, _("Won")
    if result == Match.Result.CLAIM:
        return LOST, _("Lost on a claim (away from the table)")
    if result == Match.Result.DECIDED:
        return LOST, _("Lost: decided away from the table (a forfeit or a withdrawal)")
    if result == Match.Result.RESIGN:
        return LOST, _("Lost: resigned")
    return LOST, _("Lost")


def match_score(match: Any, side: int) -> str:
    """``"<side's points>–<other side's>"``, or ``""`` before any round is scored and for a
    match that ended (a claim, a resignation, an abort) before any round was: "Lost: resigned"
    says it, "0–0" would only mislead."""
    scores = match.scores or []
    if len(scores) != 2:
        return ""
    if match.result not in ("", Match.Result.TARGET) and not any(scores):
        return ""
    return f"{scores[side]}–{scores[1 - side]}"
