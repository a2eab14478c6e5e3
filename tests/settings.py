"""The test suite's settings: the site's own (``basra_site.settings``, read from the environment
as ever), with ``DEBUG`` on unless the environment says otherwise, as ``make run`` has it: static
files from the source folders, a development ``SECRET_KEY``. The site itself defaults to
``DEBUG`` off. Set here, in the environment, so the servers the tests start (``manage.py
serve``, the browser tests' daphne) inherit it too. (pytest-django forces ``settings.DEBUG``
off while a test runs, as Django's test runner does.)

A fast password hasher, for the tests and for the servers they start, which read these
settings too (``DJANGO_SETTINGS_MODULE`` is inherited): Django's PBKDF2 costs about 0.4 s of CPU
a hash here, paid by every user created with a password and every log-in (the browser tests
sign up over a hundred people); no test is about the hasher's strength (Django's testing docs,
"Speeding up the tests"). The site keeps Django's default hashers.
"""

import os

os.environ.setdefault("DEBUG", "1")

# Every social provider on (basra_site/settings.py, ``social_providers``), with keys that reach
# no provider: the tests answer the providers' endpoints themselves (tests/accounts/social.py).
# Apple's client secret is a JWT signed with the key: a P-256 key made for this process.
os.environ.setdefault("BASRA_GOOGLE_CLIENT_ID", "google-test-client")
os.environ.setdefault("BASRA_GOOGLE_SECRET", "google-test-secret")
os.environ.setdefault("BASRA_FACEBOOK_APP_ID", "facebook-test-app")
os.environ.setdefault("BASRA_FACEBOOK_SECRET", "facebook-test-secret")
os.environ.setdefault("BASRA_APPLE_CLIENT_ID", "org.example.basra")
os.environ.setdefault("BASRA_APPLE_KEY_ID", "APPLEKEY01")
os.environ.setdefault("BASRA_APPLE_TEAM_ID", "APPLETEAM1")
if "BASRA_APPLE_PRIVATE_KEY" not in os.environ:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    os.environ["BASRA_APPLE_PRIVATE_KEY"] = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()

from basra_site.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # On PostgreSQL (CI's DATABASE_URL), Django's backend with a cheaper test flush
    # (tests/postgresql/base.py), and commits that do not wait for the write-ahead log to reach
    # the disk (``synchronous_commit=off``): what a commit makes visible, and when, is the same;
    # only a crash of the server could lose the last commits, of test data. A commit took
    # 17 ms here under load, 4 ms without the wait, and the browser tests' servers (which read
    # these settings) and the transactional tests commit thousands of times.
    DATABASES["default"]["ENGINE"] = "tests.postgresql"  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405

if os.environ.get("BASRA_TEST_STATIC_CACHED") == "1":
    # The browser tests' servers (tests/e2e/conftest.py, ``SITE_ENV``): the static files are
    # found once when the server starts and kept by the browser for an hour, where ``make run``
    # looks for them again on every request and has the browser ask again on every page
    # (``max-age=0``) so that an edited file shows at once. No file changes while the tests run,
    # and a table page's 35 files asked again cost about 0.3 s of CPU a load (daphne and
    # Chromium, measured 2026-12-07: 0.72 against 0.40 CPU-s). WhiteNoise's settings, read when
    # its middleware is built: once a server, not once a test client, which is why the unit
    # tests keep the scan-free default.
    WHITENOISE_AUTOREFRESH = False
    WHITENOISE_MAX_AGE = 3600


class _NoMigrations:
    """``MIGRATION_MODULES`` naming no migrations for any app (pytest-django's
    ``--no-migrations`` does the same): ``migrate --run-syncdb`` then makes every table from the
    models at once."""

    def __contains__(self, app_label: str) -> bool:
        return True

    def __getitem__(self, app_label: str) -> None:
        return None


if os.environ.get("BASRA_TEST_NO_MIGRATIONS") == "1":
    # The empty databases the tests' processes make for themselves (the browser tests' servers'
    # template, tests/e2e/conftest.py): their tables come from the models, as the unit tests'
    # do (pyproject.toml's ``--no-migrations``), in about 2.5 CPU-s where running the
    # migrations costs 7.5. The migrations themselves run in tests/site/test_serve.py, on
    # ``make run``'s path, and are checked against the models in tests/site/test_migrations.py.
    MIGRATION_MODULES = _NoMigrations()
