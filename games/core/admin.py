"""Admin of matches and their logs: read-only, since the event log is append-only.

The deck order of a ``deal`` event is hidden while its match is running, so a staff member who
also plays cannot read the stock (STYLE.md, "In this project" 6).
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.core.models import Event, Match, Seat


class ReadOnlyMixin:
    """No adding, changing or deleting through the admin: the live core's actions own every write."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ["seat", "user", "bot", "absent", "timeouts", "resign_offered", "last_seen"]
    extra = 0


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = [
        "id", "players", "status", "rated", "move_seconds", "seq", "created_by", "created_at",
        "scores", "result",
    ]
    list_filter = ["status", "players", "rated", "result"]
    search_fields = ["id", "created_by__username", "seats__user__username"]
    date_hierarchy = "created_at"
    inlines = [SeatInline]


@admin.register(Event)
class EventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["match", "seq", "kind", "seat", "created_at"]
    list_filter = ["kind"]
    search_fields = ["match__id"]
    list_select_related = ["match"]
    fields = ["match", "seq", "kind", "seat", "shown_payload", "created_at"]
    readonly_fields = fields

    @admin.display(description=_("payload"))
    def shown_payload(self, event: Event):
        """The payload, with the deck order withheld while the match runs."""
        if event.kind == Event.Kind.DEAL and event.match.status != Match.Status.FINISHED:
            return {key: value for key, value in event.payload.items() if key != "deck"}
        return event.payload
