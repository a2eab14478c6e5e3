"""SQLite with two writing processes at load: tables created while another process writes as
fast as it can (``tests/core/actions/sqlite_writers.py``); prints the figures, not a timed test.

Run ``.venv/bin/python bench/sqlite_writers.py [--tables 200] [--repeat 1]``. Every create must
succeed ("failures 0"): the write transactions begin IMMEDIATE (basra_site/settings.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.core.actions.sqlite_writers import run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as folder:
            figures = run(Path(folder), args.tables)
        per = figures["seconds"] / max(1, figures["tables"]) * 1000
        print(f"tables {figures['tables']}, failures {figures['failures']}, "
              f"writer's commits meanwhile {figures['writes']}, "
              f"{figures['seconds']:.2f} s ({per:.1f} ms a create)")


if __name__ == "__main__":
    main()
