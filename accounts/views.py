"""Pages of the accounts app: the public profile, closing one's account, help and contact, the
privacy page (sign-up, log-in and the rest are allauth's, in the site's templates)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from accounts.closing import close_account, closed_by_others
from accounts.forms import CloseAccountForm


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """Show `username`'s public profile; anyone may look, signed in or not. The page shows the
    player's name and join date; what the site knows of them beyond that (their matches,
    ratings, events, the challenge form) the core and its apps add in the page's
    ``profile.sections`` slot (``games.core.pages.slots``): accounts sits below them. A closed
    account (``accounts.closing``) shows "Closed account" and nothing else (HTTP 410 Gone).

    A name typed in another case ("/players/ALI/") redirects to the stored spelling, since
    allauth keeps usernames unique regardless of case.

    :raises Http404: no user has that name.
    """
    users = get_user_model().objects.all()
    player = users.filter(username=username).first()
    if player is None:
        player = users.filter(username__iexact=username).first()
        if player is None:
            raise Http404("No such player")
        return redirect("profile", username=player.username, permanent=True)
    if not player.is_active:
        return render(request, "accounts/closed.html", {"closed_by_moderators": closed_by_others(player)}, status=410)
    return render(request, "accounts/profile.html", {"player": player})


@login_required
@require_http_methods(["GET", "POST"])
def close(request: HttpRequest) -> HttpResponse:
    """Close one's own account (``accounts.closing.close_account``, by the owner, reason
    ``"owner"``) once the form confirms it with the password (or, for an account with none, the
    name typed out); the page says beforehand what happens to matches and tournament entries.
    Then the owner is logged out and sent to the lobby with a message. A wrong password changes
    nothing (the form again, with its error: HTTP 400)."""
    form = CloseAccountForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "accounts/close.html", {"form": form}, status=400)
        user = request.user
        close_account(user, by=user, reason="owner")
        logout(request)
        messages.success(request, gettext("Your account is closed. Thank you for playing."))
        return redirect("lobby")
    return render(request, "accounts/close.html", {"form": form})


def help_page(request: HttpRequest) -> HttpResponse:
    """Help and contact: the address ``BASRA_CONTACT_EMAIL`` (none said when it is unset),
    the rules, how the fair shuffle can be checked, the privacy page, the account's pages."""
    return render(request, "accounts/help.html", {"contact_email": settings.BASRA_CONTACT_EMAIL})


def privacy(request: HttpRequest) -> HttpResponse:
    """What the site keeps about a player, who sees it, and how an account closes."""
    return render(request, "accounts/privacy.html", {"contact_email": settings.BASRA_CONTACT_EMAIL})
