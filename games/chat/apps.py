from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """Chat at the tables (``games/chat/``): the players' room and the spectators' room."""

    name = "games.chat"
    label = "chat"
    verbose_name = _("Chat")
    default_auto_field = "django.db.models.BigAutoField"
