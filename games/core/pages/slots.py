"""Where the apps add to the core's pages: named slots filled from each app's ``AppConfig.ready()``.

The core's templates name no app (``tests/site/test_page_slots.py`` fails when one names an
app's URL or template). Instead each leaves a named place, a **slot**, that the apps fill; the
core renders whatever was registered there, in ``order`` (then in the order of registration,
that is of ``INSTALLED_APPS``). Three kinds of entry, each registered through
``games.core.for_apps``:

- ``add_fragment(slot, template, context=None, order=0)``: a template of the app rendered in
  ``{% page_slot "<slot>" %}``, with the page's own context plus what
  ``context(request, page)`` returns (a dict, or ``None``: nothing is shown). ``page`` is the
  page's template context (``page.get("match")``), so a fragment reads the objects the page has.
- ``add_config(page, element_id, value)``: the JSON an app's scripts read, written by
  ``{% page_modules "<page>" %}`` as ``json_script`` with that element id; ``value(request,
  page)`` returns it, or ``None`` for none (e.g. not signed in, a casual table).
- ``add_module(page, path, order=0)``: a script of the app (a path under the static files),
  loaded by ``{% page_modules "<page>" %}`` as ``<script type="module">`` after its configs.
  Module scripts run deferred, in document order with the page's ``defer`` scripts.

The slots, each with the objects its page offers (``SLOTS``; a name not in it is refused when
registered, so a misspelt slot fails at start-up rather than showing nothing):

- ``header.links`` (``templates/base.html``, the site's navigation after "How to play": a link
  for everyone), ``header.mine`` (after "Profile", for a signed-in user), ``header.actions``
  (after the page's own navigation block: "Play now", "Tournaments"). Every page: ``user``,
  ``request``.
- ``table.head`` (``templates/games/table.html``, under the table's title bar): ``match``.
- ``lobby.head`` (beside the lobby's heading), ``lobby.side`` (the lobby's side column, under
  the forms).
- ``profile.name`` (``templates/accounts/profile.html``, beside the player's name in its
  heading: a title such as a bot account's ``BOT``): ``player``.
- ``profile.sections`` (``templates/accounts/profile.html``, the profile's sections in
  ``order``: the challenge form 10, the ratings 20, the recent matches 30, the events 40):
  ``player``; ``profile.match`` (in each of the recent matches' rows, after its result):
  ``player`` and ``row``, a ``games.core.pages.profile.RecentMatch``.
- ``rules.sections`` (``templates/games/rules.html``, "How to play", after "Leaving a table"):
  a section of the rules an app brings (who may talk at which table).
- ``replay.match`` (the replay page of a match played here, under the replay): ``match``, the
  finished ``Match`` (an imported record has none: nothing is shown).
- ``account.close`` (``templates/accounts/close.html``, before the confirmation): what closing
  the signed-in player's account ends for them now (their table, their events): ``user``.
- ``settings.links`` (the profile-and-settings page, ``/settings/profile/``, under its form):
  one ``<li>`` each, a link to an app's own settings page (the chat's, the API tokens'): ``user``.
- ``notifications.head`` (the people app's notifications page, ``/notifications/``, above its
  notices: the moderators' messages pointed to): ``user``. The page says "No notices" only
  when nothing shows here either.

The pages scripts are loaded for (``PAGES``): ``table``, and ``notices`` (every page of a
signed-in player, before the site's notice socket, ``static/games/notices.js``, opens).

The template tags are in ``games/core/templatetags/page_slots.py``. Registering is for
``ready()`` only: the registry is read by every request and never changes afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

#: Each slot's name and where it is (see the module docstring for the objects it offers).
SLOTS = {
    "header.links": "templates/base.html: navigation, after 'How to play'",
    "header.mine": "templates/base.html: navigation of a signed-in user, after 'Profile'",
    "header.actions": "templates/base.html: after the page's navigation block",
    "table.head": "templates/games/table.html: under the title bar",
    "lobby.head": "templates/games/lobby.html: beside the heading",
    "lobby.side": "templates/games/lobby.html: the side column, under the forms",
    "profile.name": "templates/accounts/profile.html: beside the player's name (a title)",
    "profile.sections": "templates/accounts/profile.html: the profile's sections",
    "profile.match": "templates/games/_recent_matches.html: a recent match's row, after its result",
    "rules.sections": "templates/games/rules.html: after 'Leaving a table'",
    "replay.match": "the replay page of a match played here: under the replay",
    "account.close": "templates/accounts/close.html: what closing the account ends, for this player",
    "settings.links": "the profile-and-settings page: links to the apps' own settings pages",
    "notifications.head": "the notifications page (/notifications/): above the notices",
}

#: The pages an app's scripts and their configs are loaded on.
PAGES = {
    "table": "templates/games/table.html",
    "notices": "templates/base.html: every page of a signed-in player, before static/games/notices.js",
}

#: ``context(request, page)``: the extra context of a fragment, ``None`` to show nothing.
Context = Callable[[HttpRequest, Mapping[str, Any]], "dict[str, Any] | None"]


@dataclass(frozen=True)
class Fragment:
    template: str
    context: Context | None
    order: int


@dataclass(frozen=True)
class Config:
    element_id: str
    value: Callable[[HttpRequest, Mapping[str, Any]], Any]


@dataclass(frozen=True)
class Module:
    path: str
    order: int


_fragments: dict[str, list[Fragment]] = {}
_configs: dict[str, list[Config]] = {}
_modules: dict[str, list[Module]] = {}


def _known(name: str, names: dict[str, str]) -> None:
    if name not in names:
        raise ValueError(f"{name!r} is none of {sorted(names)}")


def add_fragment(slot: str, template: str, context: Context | None = None, order: int = 0) -> None:
    """Render ``template`` in ``slot``, after the fragments of a lower ``order``.

    :raises ValueError: ``slot`` is not in ``SLOTS``.
    """
    _known(slot, SLOTS)
    entries = _fragments.setdefault(slot, [])
    if not any(entry.template == template for entry in entries):  # ready() may run twice in tests
        entries.append(Fragment(template, context, order))
        entries.sort(key=lambda entry: entry.order)


def add_config(page: str, element_id: str, value: Callable[[HttpRequest, Mapping[str, Any]], Any]) -> None:
    """Write ``value(request, page)`` on ``page`` as the JSON of ``<script id="element_id">``.

    :raises ValueError: ``page`` is not in ``PAGES``.
    """
    _known(page, PAGES)
    entries = _configs.setdefault(page, [])
    if not any(entry.element_id == element_id for entry in entries):
        entries.append(Config(element_id, value))


def add_module(page: str, path: str, order: int = 0) -> None:
    """Load the static file ``path`` on ``page`` as a module script.

    :raises ValueError: ``page`` is not in ``PAGES``.
    """
    _known(page, PAGES)
    entries = _modules.setdefault(page, [])
    if not any(entry.path == path for entry in entries):
        entries.append(Module(path, order))
        entries.sort(key=lambda entry: entry.order)


def fragments(slot: str) -> list[Fragment]:
    """The fragments of ``slot``, in order."""
    return list(_fragments.get(slot, ()))


def configs(page: str) -> list[Config]:
    """The configs of ``page``, in the order they were registered."""
    return list(_configs.get(page, ()))


def modules(page: str) -> list[Module]:
    """The module scripts of ``page``, in order."""
    return list(_modules.get(page, ()))
