from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReplaysConfig(AppConfig):
    """Replays, game records and analysis, built on the live core (README, "Layout").

    The core never imports this app. It reads finished matches (their event log, through
    ``games.core.state.records``) and needs no receiver of ``games.core.signals.match_finished``: a replay is
    computed from the log when it is asked for, and an analysis only on request.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.replays"
    label = "replays"
    verbose_name = _("Replays")
