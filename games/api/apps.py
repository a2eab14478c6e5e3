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
        from games.core.for_apps import add_fragment
        from games.ratings.for_apps import register_bots

        events.connect()
        # The ladder's Bots tab: the bot accounts' ratings apart from people's.
        register_bots(lambda: BotAccount.objects.values("user_id"))
        # On the player's own profile: the way to their API tokens.
        add_fragment("profile.sections", "api/_profile.html", _own_profile, order=90)


def _own_profile(request, page) -> dict:
    """``profile.sections``: whether the profile is the reader's own (the tokens' link)."""
    user = getattr(request, "user", None)
    return {"api_own_profile": bool(user and user.is_authenticated and user.pk == page["player"].pk)}
