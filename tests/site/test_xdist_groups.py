"""``make test`` runs ``--dist loadgroup``: the tests of one ``xdist_group`` (the browser tests,
the ``manage.py serve`` tests) must run on one worker, which starts their server once.

pytest 9.2 silently broke that (the group's nodeid suffix no longer took effect: pytest-xdist
issue 1386), so pyproject.toml keeps pytest below 9.2; this test fails loudly if an upgrade
breaks it again, instead of the suite quietly starting a server per worker.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

GROUPED = textwrap.dedent(
    """
    import os
    import pytest

    pytestmark = pytest.mark.xdist_group("one")

    @pytest.mark.parametrize("n", range(8))
    def test_where(n, tmp_path_factory):
        folder = os.environ["OUT"]
        with open(os.path.join(folder, f"{n}.txt"), "w") as out:
            out.write(os.environ["PYTEST_XDIST_WORKER"])
    """
)


def test_a_group_runs_on_one_worker(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_grouped.py").write_text(GROUPED)
    out = tmp_path / "out"
    out.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "DJANGO_"))} | {"OUT": str(out)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:django", "-p", "no:cacheprovider",
         "-n", "3", "--dist", "loadgroup", "-q", "tests"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    workers = {path.read_text() for path in out.iterdir()}
    assert len(list(out.iterdir())) == 8
    assert len(workers) == 1, f"one group ran on {sorted(workers)}"
