"""The import-linter contracts (pyproject.toml) name every module of the live core."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The apps built on the core, and the engine: not part of the core's own list.
NOT_CORE = {"games.ratings", "games.tournaments", "games.replays", "games.engine"}


def core_modules() -> set[str]:
    """``games``'s own modules and packages, but the apps and the engine."""
    names = set()
    for path in (ROOT / "games").iterdir():
        if path.name.startswith(("_", ".")):
            continue
        if path.suffix == ".py":
            names.add(f"games.{path.stem}")
        elif path.is_dir() and (path / "__init__.py").exists():
            names.add(f"games.{path.name}")
    return names - NOT_CORE


def test_every_core_module_is_in_the_contracts():
    """A module added to ``games`` and left out of the lists would escape the rules "the engine
    imports nothing of the site" and "the core never imports the apps"."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    engine, core = contracts[0], contracts[1]
    modules = core_modules()
    assert modules - set(engine["forbidden_modules"]) == set()
    assert modules - set(core["source_modules"]) == set()
