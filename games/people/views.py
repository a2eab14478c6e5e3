"""The people app's pages and form posts: follow, unfollow, block, unblock (from a profile),
the friends page (friends, following, followers, blocked), the notifications page and the
settings page (``games.people.profiles.ProfileForm``), and the lobby's friends-online block
alone (drawn again by its script).

Thin: check the request, call the service, turn a ``PeopleError`` into a message (or, for a
script asking with ``Accept: application/json``, ``{"error", "message"}`` with status 400).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.core.for_apps import titles
from games.people import doing, notices, profiles, services
from games.people.errors import PeopleError
from games.people.middleware import set_language_cookie
from games.people.models import Block, Profile

def friends_online(request: HttpRequest) -> HttpResponse:
    """The lobby's friends-online block alone (``people/_friends_online.html``, as the lobby
    draws it), for ``static/people/friends_online.js`` to draw again every 30 seconds: a few
    queries (``games.people.doing``). 403 for a visitor not logged in (no friends)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    return render(
        request, "people/_friends_online.html",
        {"friends_online": doing.friends_online(request.user.pk)},
    )


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _act(request: HttpRequest, username: str, service, done: str) -> HttpResponse:
    back = reverse("profile", kwargs={"username": username})
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={back}")
    try:
        service(user=request.user, username=username)
    except PeopleError as error:
        if _wants_json(request):
            return JsonResponse(error.as_json(), status=400)
        messages.error(request, error.message)
    else:
        if _wants_json(request):
            return JsonResponse({"ok": True})
        messages.success(request, done % {"name": username})
    nxt = request.POST.get("next", "")
    return redirect(nxt if nxt.startswith("/") and not nxt.startswith("//") else back)


def _action(service, done):
    """A form post of the profile that calls ``service`` on the player in its address."""

    @require_POST
    def view(request: HttpRequest, username: str) -> HttpResponse:
        return _act(request, username, service, str(done))

    view.__doc__ = service.__doc__
    return view


follow = _action(services.follow, gettext_lazy("You follow %(name)s."))
unfollow = _action(services.unfollow, gettext_lazy("You no longer follow %(name)s."))
block = _action(services.block, gettext_lazy("You blocked %(name)s: they are not told."))
unblock = _action(services.unblock, gettext_lazy("You unblocked %(name)s."))


def _names(ids: set[int], marks: dict[int, str]) -> list[dict]:
    """``[{"name", "title"}]`` of the active accounts among ``ids``, by name; ``title`` from
    ``marks`` (``games.core.titles``: ``"BOT"``), else ``None``."""
    found = get_user_model().objects.filter(pk__in=ids, is_active=True).values_list("pk", "username")
    return sorted(({"name": name, "title": marks.get(pk)} for pk, name in found),
                  key=lambda person: person["name"].casefold())


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    """The player's friends, whom they follow, who follows them, and whom they blocked."""
    me = request.user.pk
    lists = {
        "friends": services.friends_of(me),
        "following": services.following(me),
        "followers": services.followers(me),
        "blocked": set(Block.objects.filter(blocker_id=me).values_list("blocked_id", flat=True)),
    }
    # The accounts' titles ("BOT"), asked once for every list of the page.
    marks = titles.titles(set().union(*lists.values()))
    return render(request, "people/friends.html", {
        key: _names(ids, marks) for key, ids in lists.items()
    })


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """The player's notices of the last 30 days; a post marks them all read."""
    if request.method == "POST":
        notices.mark_read(request.user.pk)
        return redirect("people_notifications")
    return render(request, "people/notifications.html", {
        "notices": notices.recent(request.user.pk),
    })


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    """The player's profile and settings (``ProfileForm``); a refused form is shown again, each
    error beside its field, status 400, nothing saved."""
    profile = Profile.objects.filter(user_id=request.user.pk).first() or Profile(user_id=request.user.pk)
    if request.method == "POST":
        form = profiles.ProfileForm(request.POST, instance=profile)
        if form.is_valid():
            form.save()
            messages.success(request, _("Your profile was saved."))
            response = redirect("people_settings")
            if form.cleaned_data["language"]:
                set_language_cookie(response, form.cleaned_data["language"])
            return response
        return render(request, "people/settings.html", {"form": form, "avatars": _avatars()}, status=400)
    form = profiles.ProfileForm(instance=profile)
    return render(request, "people/settings.html", {"form": form, "avatars": _avatars()})


def _avatars() -> list[tuple[str, str, str]]:
    return [(name, str(label), profiles.avatar_url(name)) for name, label in profiles.AVATARS.items()]
