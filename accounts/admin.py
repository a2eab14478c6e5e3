"""Django admin for staff: users listed with the dates that matter when moderating a game site,
and the action that closes accounts (``accounts.closing``)."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.closing import AlreadyClosed, close_account

admin.site.site_header = _("Basra administration")
admin.site.site_title = _("Basra administration")
admin.site.index_title = _("Site administration")

User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    """Django's user admin, plus join and last-login dates and a link to the public profile."""

    list_display = ("username", "email", "is_staff", "is_active", "date_joined", "last_login")
    list_filter = ("is_staff", "is_superuser", "is_active", "date_joined")
    date_hierarchy = "date_joined"
    ordering = ("-date_joined",)

    actions = ["close_accounts"]

    @admin.action(description=_("Close the selected accounts"))
    def close_accounts(self, request, queryset) -> None:
        """Close each selected open account as its owner would (``accounts.closing``), by the
        staff member, the reason "closed in the admin"; closed ones are passed over."""
        closed = 0
        for user in queryset.filter(is_active=True):
            try:
                close_account(user, by=request.user, reason="closed in the admin")
            except AlreadyClosed:
                continue
            closed += 1
        self.message_user(request, ngettext("%(count)d account closed.", "%(count)d accounts closed.",
                                            closed) % {"count": closed}, messages.SUCCESS)

    def view_on_site(self, obj) -> str:
        """The "View on site" button opens the player's public profile."""
        return reverse("profile", kwargs={"username": obj.username})
