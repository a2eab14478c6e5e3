"""HTTP routes of the accounts app; allauth's own pages live under /accounts/."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
]
