"""Sets the language cookie on the response of a log-in whose player chose a language
(``games.people.hooks.apply_language``), so the site speaks it from the next page on."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games.people.hooks import LANGUAGE_ATTR


class LanguageCookie:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        language = getattr(request, LANGUAGE_ATTR, None)
        if language:
            set_language_cookie(response, language)
        return response


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """The cookie Django's ``LocaleMiddleware`` reads (``settings.LANGUAGE_COOKIE_*``)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
