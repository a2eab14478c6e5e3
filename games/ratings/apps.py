"""The ratings app, built on the live core: it listens to ``games.core.signals.match_finished``.

The core never imports it (``import-linter``, ``pyproject.toml``); everything it needs from the
core arrives through the signals and ``games.core.for_apps``, and what it shows on the core's
pages it registers in their slots (``games/ratings/slots.py``).
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
        from games.core.for_apps import (
            add_config, add_fragment, add_module, lobby_matches_read, match_finished,
            record_headers, table_extras,
        )

        from games.ratings import lobby, profile, rating, slots, table
        from games.ratings.record_headers import rating_headers

        match_finished.connect(rating.on_match_finished, dispatch_uid="ratings.on_match_finished")
        record_headers.connect(rating_headers, dispatch_uid="ratings.record_headers")
        lobby_matches_read.connect(lobby.add_ratings, dispatch_uid="ratings.lobby_ratings")
        table_extras.connect(table.table_ratings, dispatch_uid="ratings.table_ratings")
        # What the ratings add to the core's pages (games/ratings/slots.py).
        add_fragment("header.links", "ratings/_nav_ladder.html")
        add_fragment("header.mine", "ratings/_nav_history.html")
        add_fragment("table.head", "ratings/_table_head.html", slots.table_head, order=20)
        add_config("table", "rating-config", slots.rating_config)
        add_module("table", "ratings/table_ratings.js")
        add_fragment("profile.sections", "ratings/_profile.html", profile.profile_section, order=20)
