from django.urls import path
from django.views.generic import RedirectView

from games.people import views

urlpatterns = [
    path("players/<str:username>/follow/", views.follow, name="people_follow"),
    path("players/<str:username>/unfollow/", views.unfollow, name="people_unfollow"),
    path("players/<str:username>/block/", views.block, name="people_block"),
    path("players/<str:username>/unblock/", views.unblock, name="people_unblock"),
    path("friends/", views.friends, name="people_friends"),
    path("friends/online/", views.friends_online, name="people_friends_online"),
    path("notifications/", views.notifications, name="people_notifications"),
    path("settings/profile/", views.settings_page, name="people_settings"),
    # Where a player types the settings' address: the page that holds them and links the rest.
    path("settings/", RedirectView.as_view(pattern_name="people_settings"), name="people_settings_root"),
]
