"""The chat's own page: a player's chat setting (``/settings/chat/``), on or off."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from games.chat import services


@login_required
def chat_settings(request: HttpRequest) -> HttpResponse:
    """GET: the setting; POST ``chat`` (``on`` or anything else: off), then back to ``next``
    (a page of this site) or here."""
    if request.method == "POST":
        enabled = request.POST.get("chat") == "on"
        services.set_enabled(request.user, enabled)
        messages.success(request, _("Your chat is on.") if enabled else _("Your chat is off."))
        back = request.POST.get("next", "")
        if back and url_has_allowed_host_and_scheme(back, {request.get_host()}, require_https=request.is_secure()):
            return redirect(back)
        return redirect("chat:settings")
    return render(request, "chat/settings.html", {
        "enabled": services.chat_enabled(request.user.pk), "next": request.GET.get("next", ""),
    })
