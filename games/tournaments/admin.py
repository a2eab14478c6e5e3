from django.contrib import admin

from games.tournaments.models import AuditEntry, Entrant, Game, Pairing, Round, Tournament


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    raw_id_fields = ["user", "partner"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "format", "players", "status", "starts_at", "organiser"]
    list_filter = ["format", "status", "players"]
    search_fields = ["name", "organiser__username"]
    inlines = [EntrantInline]
    raw_id_fields = ["organiser", "arbiters"]


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ["tournament", "round", "board", "a", "b", "winner", "forfeit", "finished_at"]
    raw_id_fields = ["tournament", "round", "a", "b", "winner"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["tournament", "actor", "action", "created_at"]
    raw_id_fields = ["tournament", "actor", "pairing"]


admin.site.register(Round)
admin.site.register(Game, list_display=["pairing", "number", "match", "winner", "aborted"], raw_id_fields=["pairing", "match", "winner"])
