"""The people app's answer to the core's one question about two people
(``games.core.relations``, registered in ``PeopleConfig.ready``).

- A player who blocked the actor (``Block``) is out of the actor's reach for every kind:
  ``SILENT`` (the actor is not told; nothing reaches the blocker). For ``pair`` (the queues) a
  block either way keeps the two apart.
- ``challenge``: a target whose ``Profile.challenges`` is ``nobody``, or ``friends`` and the actor
  is not a friend (both follow each other), refuses it openly: ``REFUSED``
  (``challenge_not_accepted``).
- ``see_online``: a target whose ``Profile.online`` is ``nobody``, or ``friends`` and the viewer is
  not a friend, is not seen online: ``SILENT``.

Two queries at most for ``rematch``, ``phrase`` and ``pair`` (one when the actors are the
targets, as in a queue's wave), four for the others.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import connection

from games.core.for_apps import relations
from games.people.models import Audience, Block, Follow, Profile

#: The profile setting each kind reads, and the verdict it gives.
_SETTING = {"challenge": ("challenges", relations.REFUSED), "see_online": ("online", relations.SILENT)}


def answer(kind: str, actors: frozenset[int], targets: frozenset[int]) -> Mapping[tuple[int, int], str]:
    """``{(actor, target): verdict}`` of the barred pairs (see the module's docstring)."""
    out: dict[tuple[int, int], str] = {}
    for blocker, blocked in blocks(targets, actors):
        out[(blocked, blocker)] = relations.SILENT
    if kind == "pair" and actors != targets:
        for blocker, blocked in blocks(actors, targets):
            out[(blocker, blocked)] = relations.SILENT
    if kind in _SETTING:
        field, verdict = _SETTING[kind]
        strict = dict(
            Profile.objects.filter(user_id__in=targets)
            .exclude(**{field: Audience.EVERYONE})
            .values_list("user_id", field)
        )
        if strict:
            friends = mutual(actors, frozenset(strict))
            for actor in actors:
                for target, audience in strict.items():
                    if actor == target or (actor, target) in out:
                        continue
                    if audience == Audience.NOBODY or (actor, target) not in friends:
                        out[(actor, target)] = verdict
    return out


#: Above this many ids on a side, PostgreSQL is asked with one array per side
#: (``= ANY(%s)``) rather than one parameter per id: a queue's wave of 10,000 players costs
#: tenths of a second less (``bench/social.py``).
MANY = 500


def blocks(blockers: frozenset[int], blocked: frozenset[int]) -> list[tuple[int, int]]:
    """The ``(blocker, blocked)`` rows with the blocker in ``blockers`` and the blocked in
    ``blocked`` (one query)."""
    if connection.vendor == "postgresql" and max(len(blockers), len(blocked)) > MANY:
        table = Block._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT blocker_id, blocked_id FROM {table} WHERE blocker_id = ANY(%s) AND blocked_id = ANY(%s)",
                [list(blockers), list(blocked)],
            )
            return cursor.fetchall()
    return list(
        Block.objects.filter(blocker_id__in=blockers, blocked_id__in=blocked).values_list("blocker_id", "blocked_id")
    )


def mutual(actors: frozenset[int], targets: frozenset[int]) -> set[tuple[int, int]]:
    """The ``(actor, target)`` pairs that follow each other (two queries)."""
    one = set(
        Follow.objects.filter(follower_id__in=actors, followed_id__in=targets).values_list(
            "follower_id", "followed_id"
        )
    )
    if not one:
        return set()
    other = set(
        Follow.objects.filter(follower_id__in=targets, followed_id__in=actors).values_list(
            "followed_id", "follower_id"
        )
    )
    return one & other
