from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    """Reports, sanctions and the moderation log (``games/moderation/``): players report
    players, staff act on the reports, and every action is logged with its reason and its
    moderator. Apps above it (the chat) ask it what a player may do (``for_apps``); the core
    asks it who may play rated (``games.core.standing``), the ratings who is off the ladders
    and who was closed for cheating."""

    name = "games.moderation"
    label = "moderation"
    verbose_name = _("Moderation")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.core.for_apps import add_fragment, add_module, register_pending, standing
        from games.moderation import sanctions, slots, told
        from games.ratings import for_apps as ratings

        standing.answer_with(sanctions.banned_from_rated)
        ratings.register_off_ladder(sanctions.off_rated_ids)
        ratings.register_cheat_marks(sanctions.cheaters)
        register_pending(told.pending)
        add_fragment("profile.sections", "moderation/_profile.html", slots.profile_section, order=90)
        add_fragment("header.mine", "moderation/_nav.html", slots.nav, order=90)
        add_module("notices", "moderation/notify.js")
        add_fragment("notifications.head", "moderation/_notifications.html", slots.notifications_part)
