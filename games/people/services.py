"""The people app's use cases: follow and unfollow, block and unblock, friends, and who of a
player's friends is online and what they are doing.

Each change locks the acting player's ``Profile`` row (made on first use) so that two requests
at once cannot pass a limit together; a refusal changes nothing. A closed account (``is_active``
false, the row kept) cannot be followed or blocked: ``people_no_such_player``, as for a name
nobody has.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from games.core.for_apps import relations
from games.people.errors import PeopleError
from games.people.models import MAX_BLOCKS, MAX_FOLLOWS, Block, Follow, Profile  # noqa: F401 - limits read by name (_TIES)

#: Each kind of tie: its rows, the acting player's column, the other's, and its limit's name
#: in this module (read when used).
_TIES = {
    "follow": (Follow, "follower_id", "followed_id", "MAX_FOLLOWS"),
    "block": (Block, "blocker_id", "blocked_id", "MAX_BLOCKS"),
}


def _player(username: Any, *, active: bool = True) -> Any:
    """The user named ``username`` (an active one: not a closed account, unless ``active`` is
    false). :raises PeopleError: ``people_no_such_player``."""
    if not isinstance(username, str) or not username or "\x00" in username:
        raise PeopleError("people_no_such_player")
    found = get_user_model().objects.filter(username=username)
    other = (found.filter(is_active=True) if active else found).first()
    if other is None:
        raise PeopleError("people_no_such_player")
    return other


def _require_login(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise PeopleError("login_required")


def _tie(user: Any, username: Any, kind: str) -> Any:
    """The checks a new follow or block of ``username`` by ``user`` passes, inside the
    transaction and under ``user``'s lock; returns the other user.

    :raises PeopleError: ``login_required``; ``people_no_such_player``; ``<kind>_self``;
        ``<kind>_twice``; ``<kind>_limit``.
    """
    model, mine, theirs, limit_name = _TIES[kind]
    limit = globals()[limit_name]
    _require_login(user)
    other = _player(username)
    if other.pk == user.pk:
        raise PeopleError(f"{kind}_self")
    Profile.objects.get_or_create(user_id=user.pk)
    Profile.objects.select_for_update().filter(user_id=user.pk).first()
    ties = model.objects.filter(**{mine: user.pk})
    if ties.filter(**{theirs: other.pk}).exists():
        raise PeopleError(f"{kind}_twice")
    if ties.count() >= limit:
        raise PeopleError(f"{kind}_limit", limit=limit)
    return other


def _untie(user: Any, username: Any, kind: str, missing: str) -> None:
    """Remove ``user``'s follow or block of ``username``. :raises PeopleError:
    ``login_required``; ``people_no_such_player``; ``missing`` (there is none)."""
    model, mine, theirs, _limit = _TIES[kind]
    _require_login(user)
    other = _player(username, active=False)
    if not model.objects.filter(**{mine: user.pk, theirs: other.pk}).delete()[0]:
        raise PeopleError(missing)


def follow(*, user: Any, username: str) -> bool:
    """``user`` follows the player ``username``.

    A follow of a player who blocked ``user`` is kept like any other (``user`` is given no hint)
    but counts for nothing: no friendship, not listed among that player's followers.

    :returns: whether the two are now friends (both follow each other), as ``user`` sees it.
    :raises PeopleError: ``login_required``; ``people_no_such_player`` (also a closed account);
        ``follow_self``; ``follow_twice``; ``follow_blocked`` (``user`` blocked them);
        ``follow_limit`` (:data:`MAX_FOLLOWS`).
    """
    with transaction.atomic():
        other = _tie(user, username, "follow")
        if Block.objects.filter(blocker_id=user.pk, blocked_id=other.pk).exists():
            raise PeopleError("follow_blocked")
        Follow.objects.create(follower_id=user.pk, followed_id=other.pk)
    return bool(friends_of(user.pk, among=(other.pk,)))


def unfollow(*, user: Any, username: str) -> None:
    """``user`` stops following ``username``. :raises PeopleError: ``login_required``;
    ``people_no_such_player``; ``not_following``."""
    _untie(user, username, "follow", "not_following")


def block(*, user: Any, username: str) -> None:
    """``user`` blocks ``username``: the follows between the two go (theirs of ``user``, and
    ``user``'s of them), and from now on the blocked player cannot challenge ``user``, rematch
    them, follow them (a follow is kept unseen), see them online, send them phrases, or be paired
    with them by the queues (``games.people.relations``); the blocked player is not told.

    :raises PeopleError: ``login_required``; ``people_no_such_player`` (also a closed account);
        ``block_self``; ``block_twice``; ``block_limit`` (:data:`MAX_BLOCKS`).
    """
    with transaction.atomic():
        other = _tie(user, username, "block")
        Block.objects.create(blocker_id=user.pk, blocked_id=other.pk)
        Follow.objects.filter(
            Q(follower_id=other.pk, followed_id=user.pk) | Q(follower_id=user.pk, followed_id=other.pk)
        ).delete()


def unblock(*, user: Any, username: str) -> None:
    """``user`` unblocks ``username`` (no follow comes back). :raises PeopleError:
    ``login_required``; ``people_no_such_player``; ``not_blocked``."""
    _untie(user, username, "block", "not_blocked")


def following(user_id: int) -> set[int]:
    """Whom ``user_id`` follows (one query)."""
    return set(Follow.objects.filter(follower_id=user_id).values_list("followed_id", flat=True))


def followers(user_id: int) -> set[int]:
    """Who follows ``user_id``, less those ``user_id`` blocked (two queries)."""
    blocked = Block.objects.filter(blocker_id=user_id).values("blocked_id")
    return set(
        Follow.objects.filter(followed_id=user_id).exclude(follower_id__in=blocked)
        .values_list("follower_id", flat=True)
    )


def friends_of(user_id: int, among: tuple[int, ...] | None = None) -> set[int]:
    """``user_id``'s friends: the players who follow them and whom they follow (one query; a
    block removes both follows, and a blocked player's later follow is not counted)."""
    mine = Follow.objects.filter(follower_id=user_id)
    if among is not None:
        mine = mine.filter(followed_id__in=among)
    back = Follow.objects.filter(followed_id=user_id, follower_id__in=mine.values("followed_id"))
    blocked = Block.objects.filter(blocker_id=user_id).values("blocked_id")
    return set(back.exclude(follower_id__in=blocked).values_list("follower_id", flat=True))


def relation(user: Any, other_id: int) -> dict:
    """What ``user`` sees of their tie to ``other_id`` on the other's profile: ``{"following",
    "follows_me", "friend", "blocked"}`` (``follows_me`` false when ``user`` blocked them)."""
    if user is None or not user.is_authenticated or user.pk == other_id:
        return {"following": False, "follows_me": False, "friend": False, "blocked": False}
    blocked = Block.objects.filter(blocker_id=user.pk, blocked_id=other_id).exists()
    following_ = Follow.objects.filter(follower_id=user.pk, followed_id=other_id).exists()
    follows_me = not blocked and Follow.objects.filter(follower_id=other_id, followed_id=user.pk).exists()
    return {"following": following_, "follows_me": follows_me, "friend": following_ and follows_me,
            "blocked": blocked}


def may_see_online(viewer_id: int | None, user_id: int) -> bool:
    """Whether ``viewer_id`` may be shown ``user_id``'s presence at all (``relations``)."""
    return not relations.barred("see_online", viewer_id or 0, (user_id,))
