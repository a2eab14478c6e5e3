"""Pages and form posts for playing with friends: a private table's invite link, and the
challenges sent from a player's profile (``games.core.actions.challenges``).

Thin like ``games.core.pages.views``: check the form, call the action, turn a ``GameError`` into a message
(or, for a script's ``fetch``, into ``{"error": code, "message"}`` with status 400). A script
asks for JSON with the ``Accept: application/json`` header; a plain form post is redirected.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.forms import BooleanField
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.core import actions, relations
from games.core.errors import ErrorCode, GameError
from games.core.models import Match
from games.core.pages.forms import ChallengeForm
from games.core.state import watching

#: The prefix of the challenge form's fields on the profile page.
CHALLENGE_PREFIX = "challenge"


def invite_url(match: Match) -> str | None:
    """The path of a private table's invite link (``None`` for a public table)."""
    if not match.private:
        return None
    return reverse("table_invite", kwargs={"match_id": match.pk, "token": match.invite_token})


@require_GET
def table_invite(request: HttpRequest, match_id: int, token: str) -> HttpResponse:
    """A private table's invite link: the table page, whose join button carries the invite.

    A wrong token (or a public table) is a 404, as for a table that does not exist: the link
    tells nothing about the tables it does not open. A right one gives this browser session the
    right to see the table from now on, at its plain address too
    (``games.core.state.watching.remember_invite``).
    """
    from games.core.pages.views import table  # the page itself; games.core.pages.views does not import this module

    match = get_object_or_404(Match, pk=match_id)
    if not (
        match.private and token.isascii() and secrets.compare_digest(token, match.invite_token)
    ):
        raise Http404(_("This invite link does not open any table."))
    watching.remember_invite(request.session, match.pk)
    return table(request, match_id, invite=token)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _answer(request: HttpRequest, back: str, ok: dict | None, error: GameError | None):
    if _wants_json(request):
        if error is not None:
            return JsonResponse({"error": error.code, "message": error.message}, status=400)
        return JsonResponse(ok or {})
    if error is not None:
        error.flash(request)
    return redirect(ok.get("url") if ok and ok.get("url") else back)


def _safe_next(request: HttpRequest, default: str) -> str:
    """The post's ``next`` when it is a path of this site, else ``default``."""
    back = request.POST.get("next") or default
    return back if back.startswith("/") and not back.startswith("//") else default


def _default_challenge(request: HttpRequest) -> dict:
    """A one-tap challenge's form data: every :class:`ChallengeForm` field at its initial value
    (the lobby's defaults: a casual match to 101 points, 30 seconds a play, the usual points),
    and the post's ``client_seed`` (the seed the browser drew; none: the server draws one)."""
    form = ChallengeForm(prefix=CHALLENGE_PREFIX)
    data = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if isinstance(field, BooleanField):
            if value:
                data[form.add_prefix(name)] = "on"
        elif value is not None:
            data[form.add_prefix(name)] = str(value)
    if request.POST.get("client_seed"):
        data[form.add_prefix("client_seed")] = request.POST["client_seed"]
    return data


@require_POST
def challenge_create(request: HttpRequest, username: str) -> HttpResponse:
    """Challenge ``username`` with the profile's :class:`ChallengeForm`; back to the profile
    (the answer arrives over the notice socket).

    A refusal, the form's or the action's, keeps what the player chose: the profile comes back
    (status 400) with the form open, filled in, each error beside its field as the lobby's form
    shows them (:func:`_challenge_refused`); a script asking for JSON gets ``{"error",
    "message"}`` for the action's refusal.

    A post with ``quick`` (a friend's "Challenge" button in the lobby) is a one-tap challenge
    with the lobby's defaults (:func:`_default_challenge`), its other fields ignored; it goes
    back to ``next`` (a path of the site; the lobby without one), a refusal as a message there.
    """
    quick = "quick" in request.POST
    back = reverse("profile", kwargs={"username": username})
    if quick:
        back = _safe_next(request, reverse("lobby"))
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={back}")
    form = ChallengeForm(
        _default_challenge(request) if quick else request.POST, prefix=CHALLENGE_PREFIX
    )
    if not form.is_valid():
        return _challenge_refused(request, username, form)
    try:
        actions.create_challenge(
            user=request.user, username=username, rules=form.rules(), rated=form.rated,
            move_seconds=form.clock(), client_seed=form.cleaned_data["client_seed"],
        )
    except GameError as error:
        if _wants_json(request) or quick:
            return _answer(request, back, None, error)
        # The action's own refusal of a field goes beside that field, the rest over the form.
        field = "target" if error.code == ErrorCode.RATED_TARGET_TOO_LOW else None
        form.add_error(field, error.message)
        return _challenge_refused(request, username, form)
    if not _wants_json(request):
        messages.info(
            request, _("Challenge sent to %(name)s: waiting for the answer.") % {"name": username}
        )
    return _answer(request, back, {}, None)


def _challenge_refused(request: HttpRequest, username: str, form: ChallengeForm) -> HttpResponse:
    """``username``'s profile again with the refused ``form`` open and bound (status 400): a
    redirect lost the player's choices and put the error in a banner far from its field. An
    unknown player is a 404."""
    player = get_object_or_404(get_user_model().objects.filter(is_active=True), username=username)
    return render(
        request, "accounts/profile.html", {"player": player, "challenge_form": form}, status=400
    )


def _challenge_post(request: HttpRequest, challenge_id: int, action, **kwargs) -> HttpResponse:
    back = _safe_next(request, reverse("lobby"))
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={back}")
    try:
        challenge = action(user=request.user, challenge_id=challenge_id, **kwargs)
    except GameError as error:
        return _answer(request, back, None, error)
    url = reverse("table", kwargs={"match_id": challenge.match_id}) if challenge.match_id else None
    return _answer(request, back, {"status": str(challenge.status), "url": url}, None)


@require_POST
def challenge_accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Accept a challenge (field ``client_seed``: the accepter's seed); to the new table."""
    return _challenge_post(
        request, challenge_id, actions.accept_challenge,
        client_seed=request.POST.get("client_seed") or None,
    )


@require_POST
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Decline a challenge sent to you."""
    return _challenge_post(request, challenge_id, actions.decline_challenge)


@require_POST
def challenge_cancel(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Take back a challenge you sent."""
    return _challenge_post(request, challenge_id, actions.cancel_challenge)


def challenge_section(request: HttpRequest, page) -> dict | None:
    """The ``profile.sections`` context of the challenge form on ``page["player"]``'s profile
    (``templates/games/_challenge_form.html``), shown to other signed-in players only (else
    ``None``); the refused form of :func:`_challenge_refused` when the page has it.

    ``None`` too when the player's settings refuse the viewer's challenges openly
    (``relations.REFUSED``: the app that answers says why in its own section); a ``SILENT``
    barrier (a block) shows the form as to anyone, so the page tells nothing of it."""
    player = page["player"]
    user = request.user
    if not user.is_authenticated or user.pk == player.pk:
        return None
    if relations.barred("challenge", user.pk, (player.pk,)).get(player.pk) == relations.REFUSED:
        return None
    return {
        "challenge_form": page.get("challenge_form") or ChallengeForm(prefix=CHALLENGE_PREFIX),
        "challenge_url": reverse("challenge_create", kwargs={"username": player.username}),
    }
