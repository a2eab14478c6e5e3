"""A token in an ``/api/`` address is refused before anything reads it (``docs/api.md``).

An address is written to access logs, browser histories and ``Referer`` headers; a token there
is a token given away. ``400 token_in_query``, whatever the call; the view never runs.
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.decorators import sync_and_async_middleware

from games.api.errors import ApiError

#: The query parameters a client might put a token in (OAuth 2's ``access_token``, RFC 6750 2.3).
TOKEN_PARAMETERS = ("token", "access_token")


def _refused(request: HttpRequest) -> HttpResponse | None:
    if request.path.startswith("/api/") and any(p in request.GET for p in TOKEN_PARAMETERS):
        error = ApiError("token_in_query")
        return JsonResponse(error.body(), status=error.status)
    return None


@sync_and_async_middleware
def token_in_query(get_response: Callable) -> Callable:
    """Refuse ``/api/…?token=…`` and ``?access_token=…`` with ``400 token_in_query``."""
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponse:
            return _refused(request) or await get_response(request)

    else:

        def middleware(request: HttpRequest) -> HttpResponse:
            return _refused(request) or get_response(request)

    return middleware
