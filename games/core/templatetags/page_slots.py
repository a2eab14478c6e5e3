"""``{% page_slot %}`` and ``{% page_modules %}``: the core's pages render what the apps put in
their slots (``games.core.pages.slots``, which says what each slot offers)."""

from __future__ import annotations

from django import template
from django.template import Context, Engine
from django.templatetags.static import static
from django.utils.html import format_html, json_script
from django.utils.safestring import SafeString, mark_safe

from games.core.pages import slots

register = template.Library()


@register.simple_tag(takes_context=True)
def page_slot(context: Context, slot: str) -> SafeString:
    """Every fragment registered in ``slot``, in order, each rendered with the page's context
    plus its context function's dict (a fragment whose function returns ``None`` is left out).

    :raises ValueError: ``slot`` is not a slot (``slots.SLOTS``).
    """
    if slot not in slots.SLOTS:
        raise ValueError(f"no slot {slot!r}")
    engine = context.template.engine if context.template is not None else Engine.get_default()
    request = context.get("request")
    parts = []
    for fragment in slots.fragments(slot):
        extra = fragment.context(request, context) if fragment.context is not None else {}
        if extra is None:
            continue
        with context.push(extra):
            parts.append(engine.get_template(fragment.template).render(context))
    return mark_safe("".join(parts))


@register.simple_tag(takes_context=True)
def page_modules(context: Context, page: str) -> SafeString:
    """The configs registered for ``page`` (``json_script``, those whose value is not ``None``),
    then its module scripts (``<script type="module" src="…">``, through the static files'
    storage, so hashed names with ``DEBUG`` off).

    :raises ValueError: ``page`` is not a page (``slots.PAGES``).
    """
    if page not in slots.PAGES:
        raise ValueError(f"no page {page!r}")
    request = context.get("request")
    parts = []
    for config in slots.configs(page):
        value = config.value(request, context)
        if value is not None:
            parts.append(json_script(value, config.element_id))
    for module in slots.modules(page):
        parts.append(format_html('<script type="module" src="{}"></script>', static(module.path)))
    return mark_safe("\n".join(parts))
