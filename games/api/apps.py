"""The public HTTP API (``basra-api/1``, ``../shared/API.md``; ``docs/api.md``)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "games.api"
    label = "api"
    verbose_name = _("Public API")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.api import events
        from games.api.models import BotAccount
        from games.ratings.for_apps import register_bots

        events.connect()
        # The ladder's Bots tab: the bot accounts' ratings apart from people's.
        register_bots(lambda: BotAccount.objects.values("user_id"))
