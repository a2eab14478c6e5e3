"""Site-wide request handling of our own."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.defaults import bad_request


class ActionLinkMiddleware:
    """An action's address opened as a page (``GET`` of a form's ``POST`` target: a challenge's
    "accept", a table's "leave", pasted or opened from the history) goes back to the page it was
    reached from, or the lobby, with a message, instead of a browser's bare "HTTP ERROR 405".
    Nothing is done: the action still needs its form and CSRF token.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or request.method != "GET":
            return response
        messages.info(request, gettext("That address is an action: use its button on the page."))
        back = request.META.get("HTTP_REFERER", "")
        if back and back != request.build_absolute_uri() and url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return redirect(back)
        return redirect("lobby")


class NulRefusedMiddleware:
    """A NUL character in a request's path or query string is a 400 (the site's own page),
    before any view reads it.

    PostgreSQL refuses NUL in text, so such a value reaching a query (a ladder search
    ``?q=%00``, a player's name in ``/players/a%00b/``) raised a database error: a 500. No name,
    search or address of the site has a use for it. (Form fields refuse it on their own: Django's
    ``CharField`` carries ``ProhibitNullCharactersValidator``.)
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in request.GET.lists()
        ):
            # Answered here, not raised: a raised BadRequest is logged with its traceback, and
            # anyone could fill the log with them.
            return bad_request(request, BadRequest("NUL in the path or query string"))
        return self.get_response(request)
