from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """Chat at the tables (``games/chat/``): the players' room and the spectators' room, through
    the core's table socket (``games.core.for_apps.table_frames``), kept with the match and shown
    in its replay to its players."""

    name = "games.chat"
    label = "chat"
    verbose_name = _("Chat")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.chat import frames, services, slots
        from games.core.for_apps import add_config, add_fragment, add_module, table_frames
        from games.moderation.for_apps import provide_chat

        table_frames.handle(services.LINE_FRAME, frames.on_line)
        table_frames.handle("chat_history", frames.on_history)
        provide_chat(services.lines_by, services.line)
        add_fragment("table.head", "chat/_table_chat.html", slots.table_panel, order=50)
        add_config("table", "chat-config", slots.table_config)
        add_module("table", "chat/table_chat.js")
        add_fragment("rules.sections", "chat/_rules.html")
        add_fragment("replay.match", "chat/_replay_chat.html", slots.replay_panel)
        add_fragment("settings.links", "chat/_settings_link.html", slots.settings_link)
