"""HTTP routes of the ratings app: the ladder, match histories, head-to-head."""

from django.urls import path

from games.ratings import views

urlpatterns = [
    path("ladder/", views.ladder_index, name="ladder_index"),
    path("ladder/<str:pool>/", views.ladder_page, name="ladder"),
    path("players/<str:username>/matches/", views.match_history, name="match_history"),
    path("players/<str:username>/vs/<str:other>/", views.head_to_head, name="head_to_head"),
]
