from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReplaysConfig(AppConfig):
    """Replays, game records and analysis, built on the live core (README, "Layout").

    The core never imports this app. It reads finished matches (their event log, through
    ``games.core.state.records``) and needs no receiver of ``games.core.signals.match_finished``: a replay is
    computed from the log when it is asked for, and an analysis only on request. It adds to the
    core's pages (``games.core.pages.slots``) the lobby's way to the replays and each recent
    match's replay link on the profile.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.replays"
    label = "replays"
    verbose_name = _("Replays")

    def ready(self) -> None:
        from games.core.for_apps import add_fragment

        add_fragment("lobby.side", "replays/_lobby.html")
        add_fragment("profile.match", "replays/_match_link.html")
