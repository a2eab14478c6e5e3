"""Pages of the accounts app (sign-up, log-in and the rest are allauth's)."""

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts.profile import build_profile_context


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """Show `username`'s public profile; anyone may look, signed in or not.

    A name typed in another case ("/players/ALI/") redirects to the stored spelling, since
    allauth keeps usernames unique regardless of case.

    :raises Http404: no active user has that name.
    """
    users = get_user_model().objects.filter(is_active=True)
    player = users.filter(username=username).first()
    if player is None:
        player = users.filter(username__iexact=username).first()
        if player is None:
            raise Http404("No such player")
        return redirect("profile", username=player.username, permanent=True)
    return render(request, "accounts/profile.html", build_profile_context(player))
