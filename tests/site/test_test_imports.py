"""The tests' own layout: a helper shared by test modules lives in a helper module
(``tests/e2e/pages.py``, ``tests/core/helpers.py``, …), never in another ``test_*.py``, so that
moving or deleting one test module breaks no other."""

import ast
import warnings
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent


def test_no_test_module_imports_from_another():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        with warnings.catch_warnings():  # a docstring's "\ " escape is the module's own concern
            warnings.simplefilter("ignore")
            tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name.startswith("tests.") and name.split(".")[-1].startswith("test_"):
                    found.append(f"{path.relative_to(TESTS)}: {name}")
    assert found == []
