"""The start every PostgreSQL-loading bench shares (``bench/ladder.py``, ``bench/social.py``):
refuse another database, then set Django up as production runs it, without Redis."""

from __future__ import annotations

import os
import sys


def setup_django(name: str) -> None:
    """Set Django up for a bench on the PostgreSQL database of ``DATABASE_URL``.

    :param name: the bench's name, its development ``SECRET_KEY`` unless one is set.
    :raises SystemExit: ``DATABASE_URL`` is not PostgreSQL (the benches load it with COPY).
    """
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit("Set DATABASE_URL to a PostgreSQL database: the bench loads it with COPY.")
    os.environ.pop("REDIS_URL", None)
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", f"{name}-bench")
    os.environ.setdefault("BASRA_SSL_REDIRECT", "0")  # the test client speaks plain http
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
    import django

    django.setup()
