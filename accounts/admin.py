"""Django admin for staff: users listed with the dates that matter when moderating a game site."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

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

    def view_on_site(self, obj) -> str:
        """The "View on site" button opens the player's public profile."""
        return reverse("profile", kwargs={"username": obj.username})
