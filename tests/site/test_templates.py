"""The templates' own mistakes that a page would show: Django's ``{# … #}`` comment is one line
only, and one that runs onto the next line is printed on the page as text (a table page showed
its layout notes under the hand)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_one_line_comment_runs_onto_another_line():
    broken = []
    for path in [*ROOT.glob("templates/**/*.html"), *ROOT.glob("*/templates/**/*.html"),
                 *ROOT.glob("games/*/templates/**/*.html")]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            rest = line
            while "{#" in rest:
                rest = rest[rest.index("{#") + 2:]
                if "#}" not in rest:
                    broken.append(f"{path.relative_to(ROOT)}:{number}")
                    break
                rest = rest[rest.index("#}") + 2:]
    assert broken == []
