"""Admin of the ratings: read-only rows, and the one change staff may make, voiding a rated match.

A void goes through :func:`games.ratings.rating.void_match` (refused, with the reason, when later
rated matches of the players exist or the match is void already; nothing changed then).
"""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.ratings.models import PlayerRating, RatedMatch, RatingChange
from games.ratings.rating import VoidRefused, void_match


class ReadOnly:
    """Rows written only by the rating code."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RatedMatch)
class RatedMatchAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["match", "pool", "rated_at", "voided_at", "voided_by"]
    list_filter = ["pool", ("voided_at", admin.EmptyFieldListFilter)]
    search_fields = ["match__id"]
    list_select_related = ["match", "voided_by"]
    readonly_fields = ["match", "pool", "rated_at", "seats", "voided_at", "voided_by"]
    actions = ["void"]

    def has_void_permission(self, request) -> bool:
        """Staff allowed to change rated matches (superusers) may void them."""
        return request.user.has_perm("ratings.change_ratedmatch")

    @admin.action(permissions=["void"], description=_("Void the selected rated matches (undo their rating changes)"))
    def void(self, request, queryset):
        """Void each selected match, newest first; report each refusal with its reason."""
        done = 0
        for match_id in queryset.order_by("-rated_at", "-pk").values_list("match_id", flat=True):
            try:
                void_match(match_id, by=request.user)
            except VoidRefused as refused:
                self.message_user(request, refused.message, messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(
                request,
                ngettext("%(count)d rated match voided.", "%(count)d rated matches voided.", done)
                % {"count": done},
                messages.SUCCESS,
            )


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["user", "pool", "rating", "deviation", "volatility", "matches", "last_rated_at"]
    list_filter = ["pool"]
    search_fields = ["user__username"]
    list_select_related = ["user"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = [
        "match", "user", "pool", "rated_at", "rating_before", "rating_after", "deviation_after",
        "voided",
    ]
    list_filter = ["pool", "voided"]
    search_fields = ["user__username", "match__id"]
    list_select_related = ["user", "match"]
