"""What the people app plugs into the site, connected in ``PeopleConfig.ready()``: the core's
signals (a rated match starts), the tournaments' entrants, the log-in (the preferred language),
and the core's page slots (``games.core.pages.slots``):

- ``header.mine``: "Friends" and "Notifications" (with the unread count), ``people/_nav.html``;
- ``lobby.side``: the friends online and what each is doing, ``people/_lobby_friends.html``
  (a one-tap challenge each; drawn again every 30 seconds by ``static/people/friends_online.js``);
- ``profile.sections`` (order 5, first): the player's avatar, flag, bio, and to another signed-in
  player follow and block, and why they may not challenge the player when the player's setting
  refuses it (the core then shows no challenge form), ``people/_profile.html``;
- on every page of a signed-in player, ``static/people/notify.js`` (the friends' notices).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.http import HttpRequest
from django.utils import translation

from games.core.for_apps import relations
from games.people import doing, notices, profiles, services


def connect() -> None:
    from games.core.for_apps import add_fragment, add_module, match_started
    from games.tournaments.for_apps import Entrant

    match_started.connect(notices.on_match_started, dispatch_uid="people.match_started")
    post_save.connect(notices.on_entrant_saved, sender=Entrant, dispatch_uid="people.entrant")
    user_logged_in.connect(apply_language, dispatch_uid="people.language")
    add_fragment("header.mine", "people/_nav.html", nav, order=20)
    add_fragment("lobby.side", "people/_lobby_friends.html", lobby_friends, order=-10)
    add_fragment("profile.sections", "people/_profile.html", profile_section, order=5)
    add_module("notices", "people/notify.js")


#: The request attribute ``games.people.middleware.LanguageCookie`` turns into the cookie.
LANGUAGE_ATTR = "people_language"


def apply_language(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: the player's preferred language (``Profile.language``), if they chose
    one, becomes the site's for this browser (its cookie, set on the log-in's response)."""
    language = profiles.profile_of(user.pk).language
    if language and request is not None:
        translation.activate(language)
        setattr(request, LANGUAGE_ATTR, language)


def nav(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    if not request.user.is_authenticated:
        return None
    return {"people_unread": notices.unread_count(request.user.pk)}


def lobby_friends(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    if not request.user.is_authenticated:
        return None
    return {"friends_online": doing.friends_online(request.user.pk)}


def profile_section(request: HttpRequest, page: Mapping[str, Any]) -> dict | None:
    player = page["player"]
    profile = profiles.profile_of(player.pk)
    me = request.user if request.user.is_authenticated else None
    return {
        "people_profile": profile,
        "people_avatar": profiles.avatar_url(profile.avatar),
        "people_avatar_name": profiles.AVATARS.get(profile.avatar or profiles.DEFAULT_AVATAR),
        "people_flag": profiles.flag(profile.country),
        "people_country": profiles.country_name(profile.country),
        "people_tie": services.relation(me, player.pk),
        "people_mine": me is not None and me.pk == player.pk,
        "people_other": me is not None and me.pk != player.pk,
        "people_no_challenge": challenge_note(me, player.pk, profile),
    }


def challenge_note(me: Any, target: int, profile: Any) -> str:
    """Why ``me`` may not challenge ``target``, when the target's setting refuses it openly
    (``relations.REFUSED``): ``"nobody"`` or ``"friends"`` (``Profile.challenges``); ``""``
    otherwise, a block (``SILENT``) included: the page tells nothing of a block."""
    if me is None or me.pk == target:
        return ""
    if relations.barred("challenge", me.pk, (target,)).get(target) != relations.REFUSED:
        return ""
    return str(profile.challenges)
