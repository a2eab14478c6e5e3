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
        from games.core.for_apps import add_fragment, titles
        from games.ratings.for_apps import register_bots

        events.connect()
        # A bot account's title, wherever the core shows its name (games.core.titles).
        titles.answer_with(_titles)
        add_fragment("profile.name", "games/_title.html", _profile_title)
        # The ladder's Bots tab: the bot accounts' ratings apart from people's.
        register_bots(lambda: BotAccount.objects.values("user_id"))
        # On the player's own profile: the way to their API tokens.
        add_fragment("profile.sections", "api/_profile.html", _own_profile, order=90)
        # On the settings page, where a player looks for it: the same way, among "More settings".
        add_fragment("settings.links", "api/_settings_link.html", _signed_in, order=50)


def _own_profile(request, page) -> dict:
    """``profile.sections``: whether the profile is the reader's own (the tokens' link)."""
    user = getattr(request, "user", None)
    return {"api_own_profile": bool(user and user.is_authenticated and user.pk == page["player"].pk)}


def _signed_in(request, page) -> dict | None:
    """``settings.links``: the tokens' link, for a signed-in reader (the page's only reader)."""
    user = getattr(request, "user", None)
    return {} if user is not None and user.is_authenticated else None


def _titles(user_ids: frozenset[int]) -> dict[int, str]:
    """``games.core.titles``' answerer: ``{user id: "BOT"}`` of the bot accounts among
    ``user_ids`` (one query)."""
    from games.api.models import BotAccount
    from games.core.for_apps import titles

    found = BotAccount.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True)
    return {user_id: titles.BOT for user_id in found}


def _profile_title(request, page) -> dict:
    """``profile.name``: the player's title beside their name (``games/_title.html``)."""
    from games.core.for_apps import titles

    return {"title": titles.title(page["player"].pk)}
