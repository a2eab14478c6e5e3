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
        from allauth.account.signals import password_changed, password_reset, password_set
        from django.contrib.auth.signals import user_logged_out

        from accounts.closing import account_closed, account_closing

        from games.core.actions import challenges, closing
        from games.core.pages import friend_views, profile, slots
        from games.core.sockets.auth import end_live_sockets, recheck_live_sockets
        from games.core.state import notices

        # A logout ends the seat views of the sockets opened with that session; a password
        # change makes every socket of the user check its session again (sockets/auth.py).
        # Connected here, not in accounts: accounts sits below the core and imports none of it.
        user_logged_out.connect(end_live_sockets, dispatch_uid="games.end_live_sockets")
        for signal in (password_changed, password_set, password_reset):
            signal.connect(recheck_live_sockets, dispatch_uid=f"games.recheck.{id(signal)}")
        # A closing account's matches, tables and challenges end (games/core/actions/closing.py);
        # once closed, its sockets check their session again (its password hash changed).
        account_closing.connect(closing.end_play_of, dispatch_uid="games.end_play_of")
        account_closed.connect(recheck_live_sockets, dispatch_uid="games.recheck.closed")
        account_closed.connect(closing.rename_seats_of, dispatch_uid="games.rename_seats_of")
        # The challenges still waiting are shown again on every page (games/core/state/notices.py).
        notices.register_pending(challenges.pending_notices)
        # The profile is accounts' page (below the core): the core adds its sections as the apps
        # add theirs, through the page's slot (games/core/pages/slots.py).
        slots.add_fragment("profile.sections", "games/_challenge_form.html",
                           friend_views.challenge_section, order=10)
        slots.add_fragment("profile.sections", "games/_recent_matches.html",
                           profile.recent_matches_section, order=30)
        # The closing page says which table of the player closing resigns or leaves.
        slots.add_fragment("account.close", "games/_closing_table.html",
                           profile.closing_table_section, order=10)
        # For the benches: with BASRA_STATS_FILE set, a process writes how its plays were
        # written (``games.core.actions.funnel.paths``: compare-and-set or locked) there when it exits.
        path = os.environ.get("BASRA_STATS_FILE")
        if path:
            from games.core.actions import funnel

            def write() -> None:
                with open(path, "w") as out:
                    json.dump({"pid": os.getpid(), "paths": dict(funnel.paths)}, out)

            atexit.register(write)
