"""Pages of the accounts app (sign-up, log-in and the rest are allauth's)."""

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """Show `username`'s public profile; anyone may look, signed in or not. The page shows the
    player's name and join date; what the site knows of them beyond that (their matches,
    ratings, events, the challenge form) the core and its apps add in the page's
    ``profile.sections`` slot (``games.core.pages.slots``): accounts sits below them.

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
    return render(request, "accounts/profile.html", {"player": player})
