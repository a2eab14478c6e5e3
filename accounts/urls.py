"""HTTP routes of the accounts app; allauth's own pages live under /accounts/ (its URLs are
included first: "accounts/close/" is not one of them)."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
    path("accounts/close/", views.close, name="account_close"),
    path("help/", views.help_page, name="help"),
    path("privacy/", views.privacy, name="privacy"),
]
