import atexit
import json
import os

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The live core (``games/core/``). Its label stays ``games``, the label it had when its
    modules sat in ``games/`` itself: the tables (``games_match``, ...), the migrations' names and
    the permissions are the same."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.core"
    label = "games"

    def ready(self) -> None:
        from accounts.profile import profile_context
        from games.core.pages import friend_views
        from games.core.state import notices
        from games.core.actions import challenges

        # The challenges still waiting are shown again on every page (games/core/state/notices.py).
        notices.register_pending(challenges.pending_notices)
        # The challenge form on other players' profiles.
        profile_context.connect(friend_views.profile_extra, dispatch_uid="games.challenge_form")
        # For the benches: with BASRA_STATS_FILE set, a process writes how its plays were
        # written (``games.core.actions.funnel.paths``: compare-and-set or locked) there when it exits.
        path = os.environ.get("BASRA_STATS_FILE")
        if path:
            from games.core.actions import funnel

            def write() -> None:
                with open(path, "w") as out:
                    json.dump({"pid": os.getpid(), "paths": dict(funnel.paths)}, out)

            atexit.register(write)
