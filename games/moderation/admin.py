"""The moderation app's tables in Django's admin (read mostly: the staff's pages act)."""

from django.contrib import admin

from games.moderation.models import Message, ModLog, Report, ReportEntry, Sanction


class EntryInline(admin.TabularInline):
    model = ReportEntry
    extra = 0
    raw_id_fields = ("reporter", "match")


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("reported", "status", "created_at", "updated_at", "outcome")
    list_filter = ("status",)
    raw_id_fields = ("reported", "closed_by")
    inlines = [EntryInline]


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "created_at", "until", "lifted_at", "by")
    list_filter = ("kind",)
    raw_id_fields = ("user", "by")


@admin.register(ModLog)
class ModLogAdmin(admin.ModelAdmin):
    list_display = ("created_at", "moderator", "action", "target", "reason")
    list_filter = ("action",)
    raw_id_fields = ("moderator", "target")

    def has_change_permission(self, request, obj=None):
        return False  # the log is kept as written


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "created_at", "read")
    raw_id_fields = ("user",)
