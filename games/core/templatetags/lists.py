"""``{{ names|listing }}`` and ``{% list_separator forloop %}``: lists on the pages as the
reader's language writes them (``games.core.pages.lists``), never joined with a Latin comma."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from games.core.pages import lists

register = template.Library()


@register.filter
def listing(items: Iterable[str]) -> str:
    """``items`` as one list in the active language (escaped as any variable is)."""
    return lists.listing(items)


@register.simple_tag
def list_separator(loop: dict) -> str:
    """What follows the current item of a ``{% for %}`` loop (``forloop``) over a list whose
    items have markup: ``{% for who in players %}<a …>…</a>{% list_separator forloop %}{% endfor %}``."""
    # Django 5.2's forloop has no length: the items before this one and those from it on.
    return lists.separator_after(loop["counter"], loop["counter0"] + loop["revcounter"])
