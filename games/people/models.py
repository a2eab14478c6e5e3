"""The people app's tables: follows, blocks, each player's profile settings, and their notices.

A follow is one way (as lichess's); two players who follow each other are friends. A block
removes the follows between the two and keeps the blocked player away from the blocker
(``games.people.relations``). Rows of a closed account (``is_active`` false: the row is kept)
stay, but nothing new is made with it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: Follows one player may have at once (lichess's limit, ``lila/modules/relation``).
MAX_FOLLOWS = 400
#: Blocks one player may have at once.
MAX_BLOCKS = 500
#: Characters of a bio.
BIO_MAX = 400
#: Days a notice is kept.
NOTICE_DAYS = 30


class Follow(models.Model):
    """``follower`` follows ``followed``."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("follower")
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("followed")
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [models.UniqueConstraint(fields=["follower", "followed"], name="people_follow_once")]
        # "Who follows me": the reverse lookup (the unique index serves "whom I follow").
        indexes = [models.Index(fields=["followed", "follower"], name="people_follow_followed")]


class Block(models.Model):
    """``blocker`` blocked ``blocked``."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("blocker")
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("blocked")
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="people_block_once")]
        indexes = [models.Index(fields=["blocked", "blocker"], name="people_block_blocked")]


class Audience(models.TextChoices):
    """Who may do something to a player (challenge them, see them online)."""

    EVERYONE = "everyone", _("Everyone")
    FRIENDS = "friends", _("Friends only")
    NOBODY = "nobody", _("Nobody")


class Profile(models.Model):
    """A player's own profile and settings; a player without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+",
        verbose_name=_("user"),
    )
    bio = models.CharField(_("about me"), max_length=BIO_MAX, blank=True, default="")
    #: ISO 3166-1 alpha-2, or "" (none shown).
    country = models.CharField(_("country"), max_length=2, blank=True, default="")
    #: One of ``games.people.profiles.AVATARS``, or "" (the default).
    avatar = models.CharField(_("avatar"), max_length=20, blank=True, default="")
    #: One of ``settings.LANGUAGES``, or "" (the browser's): applied at each log-in.
    language = models.CharField(_("language"), max_length=10, blank=True, default="")
    challenges = models.CharField(
        _("who may challenge me"), max_length=10, choices=Audience.choices, default=Audience.EVERYONE
    )
    online = models.CharField(
        _("who may see me online"), max_length=10, choices=Audience.choices, default=Audience.EVERYONE
    )
    notify_rated = models.BooleanField(_("when a friend starts a rated match"), default=True)
    notify_tournament = models.BooleanField(_("when a friend enters a tournament"), default=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")


class Notice(models.Model):
    """A notice kept for a player's notifications page (``NOTICE_DAYS`` days)."""

    class Kind(models.TextChoices):
        RATED = "rated", _("A friend started a rated match")
        TOURNAMENT = "tournament", _("A friend entered a tournament")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    #: ``{"friend": username, "match_id"}`` or ``{"friend", "tournament_id", "tournament"}``.
    data = models.JSONField(_("data"), default=dict)
    created_at = models.DateTimeField(_("created at"), db_index=True)
    read = models.BooleanField(_("read"), default=False)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        indexes = [models.Index(fields=["user", "-created_at"], name="people_notice_user_time")]
