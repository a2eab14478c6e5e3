"""The people app's refusals: codes and their translated messages (``games.core.for_apps.Refusal``)."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from games.core.for_apps import Refusal


class Code(StrEnum):
    """Every reason a people service refuses a request; nothing is changed when it does."""

    LOGIN_REQUIRED = "login_required"
    NO_SUCH_PLAYER = "people_no_such_player"
    FOLLOW_SELF = "follow_self"
    FOLLOW_TWICE = "follow_twice"
    FOLLOW_LIMIT = "follow_limit"
    FOLLOW_BLOCKED = "follow_blocked"
    NOT_FOLLOWING = "not_following"
    BLOCK_SELF = "block_self"
    BLOCK_TWICE = "block_twice"
    BLOCK_LIMIT = "block_limit"
    NOT_BLOCKED = "not_blocked"
    BAD_PROFILE = "bad_profile"


class PeopleError(Refusal):
    """A refused request of the people app."""

    codes = Code
    messages = {
        Code.LOGIN_REQUIRED: _("Log in first."),
        Code.NO_SUCH_PLAYER: _("There is no player of that name."),
        Code.FOLLOW_SELF: _("You cannot follow yourself."),
        Code.FOLLOW_TWICE: _("You already follow this player."),
        Code.FOLLOW_LIMIT: _("You follow %(limit)s players, the most one may: unfollow one first."),
        Code.FOLLOW_BLOCKED: _("You blocked this player: unblock them before you follow them."),
        Code.NOT_FOLLOWING: _("You do not follow this player."),
        Code.BLOCK_SELF: _("You cannot block yourself."),
        Code.BLOCK_TWICE: _("You already blocked this player."),
        Code.BLOCK_LIMIT: _("You blocked %(limit)s players, the most one may: unblock one first."),
        Code.NOT_BLOCKED: _("You have not blocked this player."),
        Code.BAD_PROFILE: _("Your profile was not saved: %(reason)s"),
    }
