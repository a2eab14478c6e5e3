"""The site's name and domain, from settings (``BASRA_SITE_NAME``, ``BASRA_SITE_DOMAIN``).

E-mails name the site and link to it (allauth's templates read ``current_site.name`` and
``current_site.domain``; a link built without a request uses the ``Site`` row's domain). Django's
sites framework creates that row as "example.com"; here the settings are the one source: the
adapter hands the e-mails :func:`configured_site`, and :func:`sync_site` (``post_migrate``, so
every ``migrate`` and ``make run``) writes the same values into the row.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.sites.models import Site


def configured_site() -> Site:
    """An unsaved ``Site`` (id ``SITE_ID``) named ``BASRA_SITE_NAME`` at ``BASRA_SITE_DOMAIN``."""
    return Site(id=settings.SITE_ID, name=settings.BASRA_SITE_NAME, domain=settings.BASRA_SITE_DOMAIN)


def sync_site(sender: Any = None, using: str = "default", **kwargs: Any) -> None:
    """``post_migrate`` receiver: make the ``SITE_ID`` row say what the settings say.

    Runs after ``django.contrib.sites`` created its "example.com" row (the sites app's receiver
    is connected first). Clears the sites framework's cache so the new values are read at once.
    """
    site = configured_site()
    Site.objects.using(using).update_or_create(
        id=site.id, defaults={"name": site.name, "domain": site.domain}
    )
    Site.objects.clear_cache()
