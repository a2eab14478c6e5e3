"""The ratings app, built on the live core: it listens to ``games.core.signals.match_finished``.

The core never imports it (``import-linter``, ``pyproject.toml``); everything it needs from the
core arrives through the signal, the core's models and the template context.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """``games.ratings``, label ``ratings``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.ratings"
    label = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from accounts.profile import profile_context
        from games.core.for_apps import (
            lobby_matches_read, match_finished, record_headers, table_extras,
        )

        from games.ratings import lobby, profile, rating, table
        from games.ratings.record_headers import rating_headers

        match_finished.connect(rating.on_match_finished, dispatch_uid="ratings.on_match_finished")
        profile_context.connect(profile.profile_extra, dispatch_uid="ratings.profile_extra")
        record_headers.connect(rating_headers, dispatch_uid="ratings.record_headers")
        lobby_matches_read.connect(lobby.add_ratings, dispatch_uid="ratings.lobby_ratings")
        table_extras.connect(table.table_ratings, dispatch_uid="ratings.table_ratings")
