"""Django settings for Basra, read from the environment.

Environment variables:
    SECRET_KEY      required when DEBUG is off.
    DEBUG           "1"/"true" to turn on debug mode (default off: a server started any
                    other way than `make run`, the tests or the benches, which set it, runs
                    as production does).
    ALLOWED_HOSTS   comma-separated host names (default "127.0.0.1,localhost").
    CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. "https://basra.example".
    DATABASE_URL    e.g. postgres://postgres@127.0.0.1:5432/basra (PostgreSQL via psycopg 3);
                    SQLite in db.sqlite3 when unset.
    CONN_MAX_AGE    seconds a database connection is kept between uses (default 0: closed, or
                    back to the pool on PostgreSQL; above 0 turns the pool off).
    DB_POOL_SIZE    PostgreSQL connections per process at most (default 12; 0: no pool).
    REDIS_URL       e.g. redis://127.0.0.1:6379/0 selects the channels-redis pub/sub layer and
                    Redis as the cache, which keeps the sessions (cached_db); when unset, the
                    in-memory layer (one process only) and sessions in the database alone.
    REDIS_LAYER_URLS  comma-separated redis:// URLs: the channel layer on these servers instead of
                    REDIS_URL's, its channels and groups spread over them by channels-redis's
                    consistent hash (the cache and sessions stay on REDIS_URL, which is needed).
    REDIS_SENTINELS, REDIS_SENTINEL_MASTER  "host:port,..." of Redis Sentinels and the name of the
                    master they watch: the channel layer on that master, found through them
                    (instead of REDIS_URL's server or REDIS_LAYER_URLS; REDIS_URL is needed).
    BASRA_CHANNEL_PREFIX  the prefix of this site's channels, groups and cache keys in Redis
                    (default "basra<N>" for REDIS_URL's database N): sites sharing one Redis
                    server need different ones, since pub/sub ignores the database number.
    BASRA_ABSENT_GRACE_SECONDS  how long a seated player may be disconnected before the seat is
                    marked absent (default 60).
    BASRA_COMPUTER_TABLE_WAIT_SECONDS  how long a table against the computer waits, paused, for
                    its person after they left before it is abandoned (default 21600: 6 hours).
    BASRA_CLOCK_OUTAGE_SECONDS  a gap between clock ticks longer than this is an outage whose
                    time is given back to every table (default 5).
    BASRA_RECONNECT_SECONDS     after an outage, extra seconds for a person to move, while their
                    page reconnects (default 5).
    BASRA_BOT_DELAY_SECONDS     "low,high": a computer seat waits a uniform time in this range
                    before it plays (default "0.6,1.5").
    BASRA_ROUND_PAUSE_SECONDS   seconds after a round ends before the next round's first play
                    has its clock start, to read the score (default 5).
    BASRA_PHRASE_SECONDS        seconds between two quick phrases of one player at a table
                    (default 3).
    BASRA_SESSION_RECHECK_SECONDS  seconds a table socket trusts its session check (default 10).
    BASRA_SOCKET_BURST, BASRA_SOCKET_RATE  per-socket rate limit: a burst of frames (default 8),
                    then frames a second (default 4); frames over it get ``rate_limited``.
    BASRA_OPEN_TABLE_ABANDON_SECONDS  an open table whose seated people have had no socket for
                    this long is closed by the clock (default 180).
    BASRA_DB_THREADS            threads per server process for the live tables' database work
                    (default 1; games/core/sockets/workers.py).
    BASRA_FAST_PATH             "1" (default): the live core's fast path on, "0": public library
                    APIs only, or a comma-separated list of its pieces (games/core/fastpath.py).
    BASRA_CLOCK_IN_SERVER       "1": a web server process runs the table clock itself (default
                    when REDIS_URL is unset, "0" when set: `manage.py run_clock` runs it).
    BASRA_BOT_WORKERS           processes the computer seats think in, owned by the clock
                    (default: one per core; 0: within the clock's tick; games/core/clock/thinking.py).
    BASRA_ANALYSIS_IN_SERVER    "1" (default): a web process runs the analyses it is asked for in a
                    thread and process pool of its own; "0": `manage.py run_analyses` runs them
                    (games/replays/jobs.py).
    BASRA_ANALYSIS_WORKERS      processes of that pool (default: one per core).
    BASRA_SSL_REDIRECT, BASRA_HSTS_SECONDS, BASRA_HSTS_INCLUDE_SUBDOMAINS  with DEBUG off: plain
                    http redirected to https (default on), the HSTS max-age (default a year)
                    and its includeSubDomains (default off).
    BASRA_SITE_NAME, BASRA_SITE_DOMAIN  the site's name and host[:port] in e-mails and the
                    sites framework's row (default "Basra", "127.0.0.1:8000").
    ACCOUNT_EMAIL_VERIFICATION  allauth's "mandatory" (default), "optional" or "none".
    BASRA_CONTACT_EMAIL         the address the help page (/help/) gives (default: none).
    BASRA_GOOGLE_CLIENT_ID, BASRA_GOOGLE_SECRET; BASRA_FACEBOOK_APP_ID, BASRA_FACEBOOK_SECRET;
    BASRA_APPLE_CLIENT_ID, BASRA_APPLE_KEY_ID, BASRA_APPLE_TEAM_ID, BASRA_APPLE_PRIVATE_KEY
                    each social log-in's keys: a provider is on when all of its are set.
    BASRA_ANALYSIS_PER_USER     analyses one player may have waiting or running at once (default 2).
    BASRA_ANALYSIS_STALE_SECONDS  a running analysis whose worker gave no sign of life for this long
                    is marked failed, to be asked for again (default 120).
    BASRA_DRAIN_SECONDS         at SIGTERM or SIGINT, how long a server process waits at most for
                    the plays and requests in hand before it stops, its sockets closed with 1001
                    (default 5; games/core/sockets/drain.py).
    BASRA_SERVE_COMMANDS        comma-separated management commands `manage.py serve` runs next to
                    daphne (default with Redis "run_tournaments", the tournaments' scheduler;
                    without, "": the scheduler then ticks inside daphne).
    BASRA_CHALLENGE_SECONDS     how long a challenge waits for its answer before it expires
                    (default 180; games/core/actions/challenges.py).
    BASRA_QUEUE_NO_SHOW_SECONDS  seconds a player paired by a queue has to open the table
                    (default 20; games/queues/services.py).
    EMAIL_URL-like settings: EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
                    EMAIL_USE_TLS, DEFAULT_FROM_EMAIL; console e-mail when EMAIL_HOST is unset.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean from the environment: "1", "true", "yes", "on" are true (any case)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    """Read a comma-separated list from the environment, dropping empty items."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    "insecure-dev-key-only-for-local-debug" if DEBUG else None
)
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG is off")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

def social_providers(env: "os._Environ[str] | dict[str, str]") -> dict[str, dict]:
    """allauth's ``SOCIALACCOUNT_PROVIDERS`` for the providers whose keys ``env`` sets, each
    with its one ``APP`` given here (no ``SocialApp`` row): Google (``BASRA_GOOGLE_CLIENT_ID``,
    ``BASRA_GOOGLE_SECRET``), Facebook (``BASRA_FACEBOOK_APP_ID``, ``BASRA_FACEBOOK_SECRET``),
    Apple (``BASRA_APPLE_CLIENT_ID``: the Services ID, ``BASRA_APPLE_KEY_ID``,
    ``BASRA_APPLE_TEAM_ID``, ``BASRA_APPLE_PRIVATE_KEY``: the .p8 key's text), as allauth's
    provider documentation names the fields. A provider missing any of its keys is left out."""
    def keys(*names: str) -> list[str] | None:
        values = [env.get(name, "").strip() for name in names]
        return values if all(values) else None

    providers: dict[str, dict] = {}
    if google := keys("BASRA_GOOGLE_CLIENT_ID", "BASRA_GOOGLE_SECRET"):
        providers["google"] = {
            "APPS": [{"client_id": google[0], "secret": google[1], "key": ""}],
            "SCOPE": ["profile", "email"],
        }
    if facebook := keys("BASRA_FACEBOOK_APP_ID", "BASRA_FACEBOOK_SECRET"):
        providers["facebook"] = {
            "APPS": [{"client_id": facebook[0], "secret": facebook[1], "key": ""}],
            "METHOD": "oauth2",
            "SCOPE": ["email", "public_profile"],
        }
    if apple := keys("BASRA_APPLE_CLIENT_ID", "BASRA_APPLE_KEY_ID", "BASRA_APPLE_TEAM_ID",
                     "BASRA_APPLE_PRIVATE_KEY"):
        providers["apple"] = {
            "APPS": [{"client_id": apple[0], "secret": apple[1], "key": apple[2],
                      "settings": {"certificate_key": apple[3].replace("\\n", "\n")}}],
        }
    return providers


SOCIALACCOUNT_PROVIDERS = social_providers(os.environ)
#: Where each provider's log-in page is (allauth's default ``AUTHORIZE_URL`` of each), for the
#: Content-Security-Policy's ``form-action``.
PROVIDER_PAGES = {"google": "https://accounts.google.com", "facebook": "https://www.facebook.com",
                  "apple": "https://appleid.apple.com"}
SOCIAL_PROVIDER_APPS = [f"allauth.socialaccount.providers.{name}" for name in SOCIALACCOUNT_PROVIDERS]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "channels",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    *SOCIAL_PROVIDER_APPS,
    "accounts",
    "games.core",
    "games.ratings.apps.RatingsConfig",
    "games.replays",
    "games.tournaments",
    "games.queues",
    "games.people",
    "games.moderation",
    "games.chat",
    "games.api",
    # django-ninja: the API's documentation page and its assets, served by the site itself.
    "ninja",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A token in an /api/ address is refused before anything reads or logs it (games/api/middleware.py).
    "games.api.middleware.token_in_query",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A log-in sets the player's preferred language (games/people/middleware.py).
    "games.people.middleware.LanguageCookie",
    # A NUL in a path or query is a 400 before any view reads it (basra_site/middleware.py),
    # the page in the visitor's language with their header (so after those middlewares).
    "basra_site.middleware.NulRefusedMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "basra_site.middleware.ActionLinkMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # The Content-Security-Policy below (django-csp).
    "csp.middleware.CSPMiddleware",
]

# Content-Security-Policy (django-csp 4): scripts only from the site's own files, no inline
# script or handler (an injected one would not run); sockets and fetches to the site itself.
# Styles may be inline (the pages' scripts place cards and animations by style).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        # A social log-in's form posts here and is redirected to its provider's page, which
        # form-action governs too: the providers that are on are allowed.
        "form-action": ["'self'", *(PROVIDER_PAGES[name] for name in SOCIALACCOUNT_PROVIDERS)],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "basra_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                # The notice socket's settings on every page (games/core/state/notices.py).
                "games.core.pages.context_processors.notices",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "basra_site.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Default 0, Django's advice under ASGI (each HTTP request runs on a thread of its own,
        # which would leave a kept connection behind); the live tables' socket work keeps its
        # own connections either way (games/core/sockets/workers.py).
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several live tables write at once (the web server and the clock are two processes): wait
    # for the lock instead of failing at once, and take it when a transaction begins (BEGIN
    # IMMEDIATE). A transaction that read first and wrote second would otherwise have to upgrade
    # its read lock while the other process writes, and SQLite answers that with "database is
    # locked" at once, without waiting (under load, a create would fail with HTTP 500).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
elif DATABASES["default"]["CONN_MAX_AGE"] == 0 and int(os.environ.get("DB_POOL_SIZE", "12")) > 0:
    # PostgreSQL: a connection pool (psycopg_pool, Django's "pool" option), so that a burst of
    # sockets authenticating at once (800 within a second, shared/bench/BENCH.md) borrows open
    # connections instead of opening one per socket. Per process: the sockets' worker threads
    # keep theirs (games/core/sockets/workers.py), the rest is for the handshakes' session lookups and the
    # HTTP requests. Django refuses a pool with CONN_MAX_AGE > 0: that setting turns it off.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DB_POOL_SIZE", "12")),
        "timeout": 10,
    }

from basra_site.redis_config import (  # noqa: E402  (the functions, apart: README "Redis")
    REDIS_CONNECT_SECONDS, redis_layer_hosts, redis_settings, redis_site_prefix,
)


REDIS_URL = os.environ.get("REDIS_URL", "")
# The prefix of every channel, group and cache key of this site in Redis (redis_settings):
# sites sharing one Redis server must have different ones; by default each database number
# gives its own.
BASRA_CHANNEL_PREFIX = os.environ.get("BASRA_CHANNEL_PREFIX") or redis_site_prefix(REDIS_URL)
# The channel layer on other Redis servers than the cache's (redis_layer_hosts): several, that
# it shards over, or one found through Sentinels.
REDIS_LAYER_URLS = os.environ.get("REDIS_LAYER_URLS", "")
REDIS_SENTINELS = os.environ.get("REDIS_SENTINELS", "")
REDIS_SENTINEL_MASTER = os.environ.get("REDIS_SENTINEL_MASTER", "")
# Read with or without REDIS_URL: a layer configured without it is refused, not ignored.
_layer_hosts = redis_layer_hosts(
    REDIS_URL, REDIS_LAYER_URLS, REDIS_SENTINELS, REDIS_SENTINEL_MASTER
)
if REDIS_URL:
    CHANNEL_LAYERS, CACHES = redis_settings(REDIS_URL, BASRA_CHANNEL_PREFIX, _layer_hosts)
    # Sessions are read again while sockets are open (games.core.sockets.beats, in batches, and
    # games.core.sockets.auth.session_user_is: a session that ended must stop an open socket): Django's
    # "cached_db" engine keeps them in Redis too, written through to the database, so those
    # reads are Redis GETs instead of SQL queries. Without
    # Redis the cache would be per process, which a logout in another process would not reach.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

SITE_ID = 1
# The site's name and domain in e-mails (and the sites framework's row, accounts/site.py).
BASRA_SITE_NAME = os.environ.get("BASRA_SITE_NAME", "Basra")
BASRA_SITE_DOMAIN = os.environ.get("BASRA_SITE_DOMAIN", "127.0.0.1:8000")
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
# Sign-up must not tell who is registered (allauth's enumeration prevention): a sign-up with an
# address already registered looks like any other and its owner gets an e-mail instead. allauth
# can only do that when verification is mandatory (with "optional" the address being taken is a
# form error); without EMAIL_HOST the verification e-mail is printed on the server's console.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
# allauth's limit on sign-ups from one address (its default, 20 a minute), from the environment:
# the browser tests' server (tests/e2e/conftest.py) signs up far more people from 127.0.0.1.
ACCOUNT_RATE_LIMITS = {"signup": os.environ.get("BASRA_SIGNUP_RATE_LIMIT", "20/m/ip")}
# Reserved usernames and the translated e-mail subject prefix (accounts/adapter.py).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm", "login": "accounts.forms.LoginForm",
                 "change_password": "accounts.forms.ChangePasswordForm"}
# The confirmation link logs the player in when opened in the browser that signed up (allauth
# does it only while the sign-up's log-in stage is in that session); elsewhere it confirms and
# the log-in page says so (accounts/adapter.py).
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# Social log-in: the player always chooses a name at the first log-in (allauth's sign-up form,
# the adapter's rules for names), never one made from the provider's profile.
SOCIALACCOUNT_AUTO_SIGNUP = False
SOCIALACCOUNT_FORMS = {"signup": "accounts.forms.SocialSignupForm"}
SOCIALACCOUNT_LOGIN_ON_GET = False
# The contact and help page's address (accounts/views.py, /help/).
BASRA_CONTACT_EMAIL = os.environ.get("BASRA_CONTACT_EMAIL", "")

EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Basra <noreply@basra.invalid>")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ar", _("Arabic")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# One date format per language, used by every page (basra_site/formats/).
FORMAT_MODULE_PATH = ["basra_site.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "basra_site.storage.ModuleManifestStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Live tables (games/core/clock/clock.py, games/core/actions/).
BASRA_ABSENT_GRACE_SECONDS = float(os.environ.get("BASRA_ABSENT_GRACE_SECONDS", "60"))
# A table of one person against the computer whose person is absent waits for them, paused, this
# long after they left; then the clock ends it abandoned (games/core/actions/presence.py).
BASRA_COMPUTER_TABLE_WAIT_SECONDS = float(
    os.environ.get("BASRA_COMPUTER_TABLE_WAIT_SECONDS", "21600")
)
# A clock tick that finds its previous one longer ago than this treats the gap as an outage: the
# time is given back to every table (games/core/clock/clock.py), so a restart makes nobody absent.
BASRA_CLOCK_OUTAGE_SECONDS = float(os.environ.get("BASRA_CLOCK_OUTAGE_SECONDS", "5"))
# After such an outage, a person to move also gets this long for their page to reconnect
# (games/core/actions/presence.py, _resume_deadline; the page retries every 2-4 s at most).
BASRA_RECONNECT_SECONDS = max(0.0, float(os.environ.get("BASRA_RECONNECT_SECONDS", "5")))
# Seconds after a round's last play before the next round's first play has its clock start
# (games/core/actions/play.py, apply_play): time to read the round's score.
BASRA_ROUND_PAUSE_SECONDS = max(0.0, float(os.environ.get("BASRA_ROUND_PAUSE_SECONDS", "5")))
# Seconds a seated player waits between two quick phrases at a table (games/core/state/phrases.py).
BASRA_PHRASE_SECONDS = max(0.0, float(os.environ.get("BASRA_PHRASE_SECONDS", "3")))
BASRA_BOT_DELAY_SECONDS = tuple(
    float(part) for part in os.environ.get("BASRA_BOT_DELAY_SECONDS", "0.6,1.5").split(",")
)
# Threads per server process for the sockets' database work, each with its own connection
# (games/core/sockets/workers.py says why one).
BASRA_DB_THREADS = max(1, int(os.environ.get("BASRA_DB_THREADS", "1")))

# The live core's fast path (games/core/fastpath.py, which gives its measured gain): "1" (the
# default) every piece of it, "0" none (the libraries' public APIs only), or a comma-separated
# list of its pieces (games.core.fastpath.PIECES), to measure one piece alone.
_fast_path = os.environ.get("BASRA_FAST_PATH", "1").strip().lower()
BASRA_FAST_PATH: bool | frozenset[str] = (
    True if _fast_path in {"1", "true", "yes", "on"}
    else False if _fast_path in {"0", "false", "no", "off", ""}
    else frozenset(env_list("BASRA_FAST_PATH", ""))
)
# Frames one socket may send: a burst of this many, then this many a second (games/core/sockets/base.py).
# Seconds a table socket trusts its session check before checking again (games/core/sockets/table.py,
# TableConsumer._as_user): logouts and password changes through the site reach the sockets at once.
BASRA_SESSION_RECHECK_SECONDS = float(os.environ.get("BASRA_SESSION_RECHECK_SECONDS", "10"))
BASRA_SOCKET_BURST = max(1, int(os.environ.get("BASRA_SOCKET_BURST", "8")))
BASRA_SOCKET_RATE = float(os.environ.get("BASRA_SOCKET_RATE", "4"))
# An open table none of whose seated people has had a socket for this long is closed by the clock
# (games/core/actions/seating.py close_abandoned), so nobody joins a table to find nobody there.
BASRA_OPEN_TABLE_ABANDON_SECONDS = float(
    os.environ.get("BASRA_OPEN_TABLE_ABANDON_SECONDS", "180")
)
# Whether the channel layer reaches every process (Redis), so that the clock's broadcasts reach
# the web servers' sockets from a process of its own.
BASRA_SHARED_LAYER = bool(REDIS_URL)
# Whether a web server process runs the table clock on its own event loop (games/core/clock/clock.py
# Runner, started by basra_site/asgi.py): the default without a shared layer, where a clock in
# another process could not reach the sockets; with Redis, `manage.py run_clock` runs it.
BASRA_CLOCK_IN_SERVER = env_bool("BASRA_CLOCK_IN_SERVER", not BASRA_SHARED_LAYER)
# Processes the clock's computer seats think in (games/core/clock/thinking.py), default one per core; 0:
# the bots think within the clock's tick.
BASRA_BOT_WORKERS = max(0, int(os.environ.get("BASRA_BOT_WORKERS", str(os.cpu_count() or 1))))
# The replays app's analyses (games/replays/jobs.py): in the web process that took the request,
# or in `manage.py run_analyses`; and the processes they run in.
BASRA_ANALYSIS_IN_SERVER = env_bool("BASRA_ANALYSIS_IN_SERVER", True)
BASRA_ANALYSIS_WORKERS = max(1, int(os.environ.get("BASRA_ANALYSIS_WORKERS", str(os.cpu_count() or 1))))
# Analyses one player may have waiting or running at once (asking needs a login), and how long a
# running analysis's worker may stay silent before the analysis counts as failed.
BASRA_ANALYSIS_PER_USER = max(1, int(os.environ.get("BASRA_ANALYSIS_PER_USER", "2")))
# The longest record analysed, in plays (about 40 rounds of two players; the strong bot takes
# a fraction of a second a play, so an analysis is bounded in minutes).
BASRA_ANALYSIS_MAX_PLAYS = int(os.environ.get("BASRA_ANALYSIS_MAX_PLAYS", "2000"))
# Imported records (games/replays/): a login is needed; one player may import this many an
# hour and keep this many at once; an import its owner does not keep goes after this many days.
BASRA_IMPORTS_PER_HOUR = int(os.environ.get("BASRA_IMPORTS_PER_HOUR", "10"))
BASRA_IMPORTS_MAX = int(os.environ.get("BASRA_IMPORTS_MAX", "100"))
BASRA_IMPORT_DAYS = float(os.environ.get("BASRA_IMPORT_DAYS", "30"))
BASRA_ANALYSIS_STALE_SECONDS = float(os.environ.get("BASRA_ANALYSIS_STALE_SECONDS", "120"))

# Management commands `manage.py serve` starts next to daphne and stops with it, by name (the
# core never imports the apps): with Redis the tournaments' scheduler, which starts events on
# time. Without Redis (`make run`) it ticks inside daphne instead (games/tournaments/scheduler.py):
# only there do its notices reach the sockets.
BASRA_SERVE_COMMANDS = tuple(
    name.strip()
    for name in os.environ.get(
        "BASRA_SERVE_COMMANDS", "" if BASRA_CLOCK_IN_SERVER else "run_tournaments"
    ).split(",")
    if name.strip()
)

# A graceful stop (SIGTERM or SIGINT to a server process, games/core/sockets/drain.py) waits this
# long at most for the plays and requests in hand before the server stops; every socket is then
# closed with 1001 and the pages reconnect at once. `manage.py serve` gives its children this
# plus 10 s; run_clock and run_tournaments wait as long for the tick in hand.
BASRA_DRAIN_SECONDS = max(0.0, float(os.environ.get("BASRA_DRAIN_SECONDS", "5")))

# Websockets one user (or one anonymous session, or address: the real client's, below) may have
# open in one server process; beyond it a socket is closed with 4429 (games/core/sockets/base.py,
# which leaves the loopback address uncapped with DEBUG on and no proxy: make run).
BASRA_SOCKETS_PER_OWNER = int(os.environ.get("BASRA_SOCKETS_PER_OWNER", "20"))

# Proxies in front of the servers that overwrite (or append to) X-Forwarded-For; 0: none, the
# peer is the client. Above 0 `manage.py serve` starts daphne with --proxy-headers, and every
# per-address limit counts the address this many entries from the right of X-Forwarded-For:
# allauth's (sign-ups, failed log-ins), from the same count, and the sockets' cap
# (games/core/sockets/base.py, `client_address`, allauth's rule). Behind the README's proxy,
# which overwrites the header with the peer it saw: 1.
BASRA_TRUSTED_PROXY_COUNT = max(0, int(os.environ.get("BASRA_TRUSTED_PROXY_COUNT", "0")))
ALLAUTH_TRUSTED_PROXY_COUNT = BASRA_TRUSTED_PROXY_COUNT

# A challenge from a player's profile waits this many seconds for its answer
# (games/core/actions/challenges.py).
BASRA_CHALLENGE_SECONDS = float(os.environ.get("BASRA_CHALLENGE_SECONDS", "180"))

# The public API (games/api/, docs/api.md): seconds of silence before a stream's keep-alive
# line (API.md asks for one at least every 7 s), and rate limits over games/api/limits.py's:
# "kind=seconds:per_token:per_address,…" (a bench on one address raises them).
BASRA_API_KEEPALIVE_SECONDS = float(os.environ.get("BASRA_API_KEEPALIVE_SECONDS", "6"))
BASRA_API_LIMITS = {
    kind.strip(): tuple(int(n) for n in numbers.split(":"))
    for kind, _, numbers in (
        item.partition("=") for item in env_list("BASRA_API_LIMITS", "")
    )
}
# Seconds a player paired by a quick-pairing queue has to open the table (games/queues/services.py).
BASRA_QUEUE_NO_SHOW_SECONDS = float(os.environ.get("BASRA_QUEUE_NO_SHOW_SECONDS", "20"))

# Ratings (games/ratings/): players with no rated match in this many days leave the ladder.
BASRA_LADDER_INACTIVE_DAYS = int(os.environ.get("BASRA_LADDER_INACTIVE_DAYS", "30"))

# Request bodies: the largest form is the record import (games/replays/forms.py,
# MAX_RECORD_BYTES = 1 MB, pasted or uploaded, multipart): a body's fields past 1.1 MB are
# refused with a 400 before any form reads them, uploads past it are spooled to disk rather than
# held in memory, and a form posts at most 5 files. The proxy caps whole bodies first (README:
# daphne reads a body before Django sees it).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1_100_000
FILE_UPLOAD_MAX_MEMORY_SIZE = 1_100_000
DATA_UPLOAD_MAX_NUMBER_FILES = 5

SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
if not DEBUG:
    # Behind the README's proxy, which terminates HTTPS and says so in X-Forwarded-Proto (and
    # overwrites whatever a client sent in it): the requests are secure, so invite links and
    # the confirmation and password-reset e-mails are built as https:// (as http:// they would
    # carry the reset token in plain text), and HSTS is sent.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Seconds browsers keep to HTTPS for this host (Django's "HTTP Strict Transport Security";
    # 0 turns it off). Subdomains and the preload list are the operator's choice (README).
    SECURE_HSTS_SECONDS = int(os.environ.get("BASRA_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("BASRA_HSTS_INCLUDE_SUBDOMAINS", False)
    # A plain-http request is redirected to https; BASRA_SSL_REDIRECT=0 for a DEBUG-off site
    # spoken to over plain http (the benches, a local run of the production set-up).
    SECURE_SSL_REDIRECT = env_bool("BASRA_SSL_REDIRECT", True)
    # The proxy's and monitoring's checks (games/core/pages/health.py) may come over plain http.
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"without_traceback": {"()": "basra_site.logs.WithoutTraceback"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        # The requests Django refuses as suspicious, answered 400: one line each, no traceback.
        "refusals": {"class": "logging.StreamHandler", "filters": ["without_traceback"]},
    },
    "loggers": {"django.security": {"handlers": ["refusals"], "propagate": False}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
