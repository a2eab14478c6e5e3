from django.contrib import admin

from games.chat.models import ChatLine, ChatSetting


@admin.register(ChatLine)
class ChatLineAdmin(admin.ModelAdmin):
    """The lines as said, for staff to look up (the moderators' own page is the moderation app's)."""

    list_display = ("created", "match", "user", "room", "text")
    list_filter = ("room",)
    search_fields = ("user__username", "text")
    raw_id_fields = ("match", "user")
    readonly_fields = ("match", "user", "room", "text", "created")


@admin.register(ChatSetting)
class ChatSettingAdmin(admin.ModelAdmin):
    list_display = ("user", "enabled")
    raw_id_fields = ("user",)
