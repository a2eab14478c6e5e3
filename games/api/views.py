"""The settings page of a player's API tokens: create one (with its scopes), see each one's
scopes and last use, revoke it. The new token is shown once, on the page that made it, and
never again (only its SHA-256 is kept, ``games.api.tokens``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.api import tokens
from games.api.models import SCOPE_LABELS, SCOPES, AccessToken
from games.core.for_apps import labelled

#: Live tokens one player may hold.
MAX_TOKENS = 20


def scope_choices() -> list[tuple[str, str]]:
    """``[(scope, label)]`` for the form, in the active language: "bot:play: Play as a bot
    account (Bot API)", French "bot:play : Jouer comme compte bot (API Bot)". A callable, so
    the words are those of each request, not of the process's start."""
    return [(scope, f"{labelled(scope)} {SCOPE_LABELS[scope]}") for scope in SCOPES]


class TokenForm(forms.Form):
    description = forms.CharField(
        label=gettext_lazy("What it is for"), max_length=100, required=False,
    )
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("Scopes"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=scope_choices,
    )


@never_cache
@login_required
def tokens_page(request: HttpRequest) -> HttpResponse:
    """GET: the list and the form; POST: a new token, shown once on the page answered."""
    live = AccessToken.objects.filter(user=request.user, revoked_at__isnull=True)
    new_token = None
    if request.method == "POST":
        form = TokenForm(request.POST)
        if form.is_valid():
            if live.count() >= MAX_TOKENS:
                form.add_error(None, _("You have as many tokens as you may: revoke one first."))
            else:
                new_token, _row = tokens.create_token(
                    request.user, form.cleaned_data["scopes"],
                    description=form.cleaned_data["description"],
                )
                form = TokenForm()
    else:
        form = TokenForm()
    response = render(request, "api/tokens.html", {
        "form": form, "tokens": list(live), "new_token": new_token, "scope_labels": SCOPE_LABELS,
    })
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@login_required
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the player's tokens (a form with CSRF)."""
    if tokens.revoke(request.user, token_id):
        messages.info(request, _("The token is revoked."))
    else:
        messages.error(request, _("No such token."))
    return redirect("api_tokens")
