"""The people app's rows in the admin, for moderators: profiles (a bio to clear), follows,
blocks and notices, each user by id (100,000 players do not fit a select)."""

from django.contrib import admin

from games.people.models import Block, Follow, Notice, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "country", "avatar", "language", "challenges", "online"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ["follower", "followed", "created_at"]
    search_fields = ["follower__username", "followed__username"]
    raw_id_fields = ["follower", "followed"]


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ["blocker", "blocked", "created_at"]
    search_fields = ["blocker__username", "blocked__username"]
    raw_id_fields = ["blocker", "blocked"]


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "created_at", "read"]
    list_filter = ["kind", "read"]
    raw_id_fields = ["user"]
