from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    """Reports, sanctions and the moderation log (``games/moderation/``): players report
    players, staff act on the reports, and every action is logged with its reason and its
    moderator. Apps above it (the chat) ask it what a player may do (``for_apps``)."""

    name = "games.moderation"
    label = "moderation"
    verbose_name = _("Moderation")
    default_auto_field = "django.db.models.BigAutoField"
