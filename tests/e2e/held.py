"""The site's processes with one piece of work held until the test lets it go, for the tests of
a graceful stop (``tests/e2e/test_graceful_stop.py``): the test knows the work is in hand when
the stop signal is sent, by an event, not by a guess at how long it takes.

``BASRA_TEST_HOLD=host:port`` names the test's listener. The first call of the held function
connects there and says ``held <name>``, waits for a line (``go``), runs the real function,
then says ``done running`` (``done stopped`` if its event loop, where its answer goes, no longer
runs) and closes; later calls run as usual.

- As an ASGI application, ``daphne tests.e2e.held:application``: the site's own
  (``basra_site.asgi``, its stop hooked to daphne as always), the first ``play_card`` held on
  the sockets' database thread.
- As a script, ``python tests/e2e/held.py run_clock [options]`` (the first clock tick held) or
  ``python tests/e2e/held.py run_tournaments [options]`` (the first scheduler tick held).
"""

from __future__ import annotations

import functools
import os
import socket
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")


def held(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, its first call held (see the module)."""
    host, port = os.environ["BASRA_TEST_HOLD"].rsplit(":", 1)
    first = [True]

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        if not first:
            return function(*args, **kwargs)
        first.clear()
        with socket.create_connection((host, int(port))) as test:
            test.sendall(f"held {name}\n".encode())
            test.makefile("rb").readline()
            result = function(*args, **kwargs)
            test.sendall(b"done running\n" if _loop_runs() else b"done stopped\n")
        return result

    return call


def _loop_runs() -> bool:
    """Whether the event loop that called into this thread (the sockets' or the clock's, which
    takes the answer and the broadcasts) still runs; a thread of its own has none: ``True``."""
    from games.core.state import broadcast

    loop = broadcast.CALLER_LOOP.get()
    return loop is None or loop.is_running()


if __name__ == "__main__":
    import django

    django.setup()
    from django.core.management import call_command

    command, options = sys.argv[1], sys.argv[2:]
    if command == "run_clock":
        from games.core.clock import clock

        clock._tick_and_wait = held("tick", clock._tick_and_wait)
    elif command == "run_tournaments":
        from games.tournaments import services

        services.tick = held("tick", services.tick)
    else:
        raise SystemExit(f"held.py: no held work for {command}")
    call_command(command, *options)
else:
    from basra_site.asgi import application  # noqa: F401 - what daphne serves
    from games.core import actions

    actions.play_card = held("play", actions.play_card)
