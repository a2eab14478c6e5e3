"""The apps plug into the core's pages, and the core's pages name no app (README, "Layout";
``games.core.pages.slots``): no core template names an app's URL, template or static file, no
code outside the core reads the core's models through ``apps.get_model``, and what the apps
register in the slots exists."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.staticfiles import finders
from django.template import engines
from django.template.base import Node
from django.template.defaulttags import URLNode
from django.template.loader import get_template
from django.template.loader_tags import ExtendsNode, IncludeNode
from django.templatetags.static import StaticNode
from django.urls import URLPattern, URLResolver, get_resolver

from games.core.pages import slots

ROOT = Path(__file__).resolve().parents[2]
CORE = "games.core"


def app_configs():
    """The apps built on the core: every installed app under ``games`` but the core."""
    return [config for config in apps.get_app_configs()
            if config.name.startswith("games.") and config.name != CORE]


def owner(module: str) -> str | None:
    """The installed app a module belongs to (``games.ratings.views`` → ``games.ratings``)."""
    config = apps.get_containing_app_config(module)
    return config.name if config is not None else None


def url_names(resolver: URLResolver | None = None, namespace: str = "") -> dict[str, str]:
    """Every URL name of the site's URLconf (``namespace:name`` inside a namespace) and the app
    its view belongs to, read from the URLconf itself."""
    resolver = resolver or get_resolver()
    names: dict[str, str] = {}
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            names.update(url_names(entry, inner))
        elif isinstance(entry, URLPattern) and entry.name:
            view = getattr(entry.callback, "view_class", entry.callback)
            names[f"{namespace}{entry.name}"] = owner(view.__module__)
    return names


def app_url_names() -> set[str]:
    mine = {config.name for config in app_configs()}
    return {name for name, app in url_names().items() if app in mine}


def app_prefixes() -> tuple[str, ...]:
    """Template and static paths of the apps start with their label: ``ratings/…``."""
    return tuple(f"{config.label}/" for config in app_configs())


def core_templates() -> list[str]:
    """The site's own templates (``templates/``) but the apps' folders in it, and the core's."""
    prefixes = app_prefixes()
    names = [str(path.relative_to(ROOT / "templates"))
             for path in (ROOT / "templates").rglob("*.html")]
    core = Path(apps.get_app_config("games").path) / "templates"
    names += [str(path.relative_to(core)) for path in core.rglob("*.html")]
    return sorted(name for name in names if not name.startswith(prefixes))


def literal(expression) -> str | None:
    """A template tag's argument when it is a quoted string, else ``None``."""
    var = getattr(expression, "var", expression)
    return var if isinstance(var, str) and not hasattr(var, "resolve") else None


def named(template_name: str) -> list[tuple[str, str]]:
    """``(kind, name)`` of each URL name, included or extended template and static file
    ``template_name`` names literally."""
    nodelist = get_template(template_name).template.nodelist
    found = []
    for node in nodelist.get_nodes_by_type(Node):
        if isinstance(node, URLNode):
            found.append(("url", literal(node.view_name.var)))
        elif isinstance(node, IncludeNode):
            found.append(("template", literal(node.template.var)))
        elif isinstance(node, ExtendsNode):
            found.append(("template", literal(node.parent_name.var)))
        elif isinstance(node, StaticNode):
            found.append(("static", literal(node.path.var)))
    return [(kind, name) for kind, name in found if name]


def test_the_url_names_of_the_apps_come_from_the_urlconf():
    names = app_url_names()
    # One of each app, so a URLconf read wrong (every name the core's, or none) fails here.
    assert {"queues", "tournaments", "ladder_index", "replays:recent"} <= names
    assert not names & {"lobby", "table", "rules", "profile", "account_login"}


@pytest.mark.parametrize("template_name", core_templates())
def test_a_core_template_names_no_app(template_name):
    app_urls, prefixes = app_url_names(), app_prefixes()
    offending = [
        (kind, name) for kind, name in named(template_name)
        if (kind == "url" and name in app_urls)
        or (kind in ("template", "static") and name.startswith(prefixes))
    ]
    assert offending == [], f"{template_name} names an app: use a slot (games.core.pages.slots)"


def test_the_core_templates_are_found():
    names = core_templates()
    assert {"base.html", "games/table.html", "games/lobby.html", "accounts/profile.html"} <= set(names)
    assert not any(name.startswith(("ratings/", "replays/")) for name in names)


def python_files():
    for folder in ("accounts", "basra_site", "games", "tools", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative.parts[:2] == ("games", "core") or "migrations" in relative.parts:
                continue
            yield relative


def reads_core_models(tree: ast.AST) -> list[int]:
    """Lines of ``….get_model("games", …)`` and ``….get_model("games.Match")`` calls."""
    lines = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get_model" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and (node.args[0].value == "games" or node.args[0].value.startswith("games."))):
            lines.append(node.lineno)
    return lines


def test_no_code_outside_the_core_reads_its_models_through_the_app_registry():
    """``apps.get_model("games", …)`` hides an import from ``lint-imports``: outside the core
    (and the migrations, which must use the historical models) the models come from
    ``games.core.for_apps``."""
    files = list(python_files())
    assert ROOT / "games" / "ratings" / "history.py" in [ROOT / f for f in files]
    offending = [f"{path}:{line}" for path in files
                 for line in reads_core_models(ast.parse((ROOT / path).read_text()))]
    assert offending == []


def test_the_scan_sees_both_spellings():
    tree = ast.parse('apps.get_model("games", "Seat")\nregistry.get_model("games.Match")\n'
                     'apps.get_model("ratings", "PlayerRating")\n')
    assert reads_core_models(tree) == [1, 2]


def test_what_the_apps_registered_exists():
    """Every registered fragment's template loads and every module is a static file."""
    engine = engines["django"]
    for slot in slots.SLOTS:
        for fragment in slots.fragments(slot):
            engine.get_template(fragment.template)
    for page in slots.PAGES:
        for module in slots.modules(page):
            assert finders.find(module.path), module.path


def test_a_slot_or_page_not_known_is_refused():
    with pytest.raises(ValueError):
        slots.add_fragment("table.sidebar", "x.html")
    with pytest.raises(ValueError):
        slots.add_module("replay", "x.js")
    with pytest.raises(ValueError):
        slots.add_config("tables", "x", lambda request, page: None)
