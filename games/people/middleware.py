"""The preferred language kept with the account: the language cookie set on the response of a
log-in whose player chose a language (``games.people.hooks.apply_language``), so the site speaks
it from the next page on; and a signed-in player's choice in the header's language form
(Django's ``set_language``) kept on their profile (``Profile.language``)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from django.urls import reverse

from games.people.hooks import LANGUAGE_ATTR
from games.people.models import Profile


class LanguageCookie:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        language = getattr(request, LANGUAGE_ATTR, None)
        if language:
            set_language_cookie(response, language)
        elif (
            request.method == "POST"
            and request.path == reverse("set_language")
            and request.user.is_authenticated
            and response.status_code in (200, 204, 302)
            and request.POST.get("language") in dict(settings.LANGUAGES)
        ):
            Profile.objects.update_or_create(
                user_id=request.user.pk, defaults={"language": request.POST["language"]}
            )
        return response


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """The cookie Django's ``LocaleMiddleware`` reads (``settings.LANGUAGE_COOKIE_*``)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
